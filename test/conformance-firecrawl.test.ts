import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/firecrawl/conformance.js';
import { conformance } from './helpers/conformance.js';

// Firecrawl through the conformance suite (test/helpers/conformance.ts): determinism, seeds,
// error and fault shapes, volatile fields, and all 29 tools of firecrawl-mcp over MCP.

const POST = 'https://quillstack.dev/blog/quillstack-4-0-released';

conformance(test, {
  service: 'firecrawl',
  sweep,
  headers: [['Authorization', 'Bearer fc-conformance0000000000000000000']],
  values: { id: ['6f0c3a52-9d1e-4b7a-8c21-3e5f7a9b0c11', '00000000-0000-4000-8000-000000000000'], checkId: ['00000000-0000-4000-8000-000000000001'] },
  bodies: {
    'POST /v2/scrape': (random) => ({ url: random.pick([POST, 'https://quillstack.dev/docs/configuration', 'https://nowhere.example/x', 'https://quillstack.dev/missing']), formats: random.pick([['markdown'], ['html', 'links'], ['summary', { type: 'json', schema: { type: 'object', properties: { title: { type: 'string' } } } }]]) }),
    'POST /v2/batch/scrape': (random) => ({ urls: [POST, random.pick(['https://quillstack.dev/docs', 'https://nowhere.example/'])] }),
    'POST /v2/crawl': (random) => ({ url: 'https://quillstack.dev/docs', limit: random.int(1, 12) }),
    'POST /v2/map': (random) => ({ url: 'https://quillstack.dev', search: random.pick(['release', 'docs']) }),
    'POST /v2/search': (random) => ({ query: random.pick(['quillstack pool', 'meridian rail strike', 'site:quillstack.dev release']), limit: random.int(1, 8), sources: random.pick([['web'], ['web', 'news'], ['images']]) }),
    'POST /v2/extract': () => ({ urls: [POST], schema: { type: 'object', properties: { title: { type: 'string' } } } }),
    'POST /v2/agent': (random) => ({ prompt: random.pick(['quillstack default pool size', 'rail strike date']) }),
    'POST /v2/monitor': (random, i) => ({ name: `Monitor ${i}`, schedule: { text: random.pick(['hourly', 'every 30 minutes']) }, targets: [{ type: 'scrape', urls: [POST] }] }),
    'PATCH /v2/monitor/{id}': (random) => ({ status: random.pick(['active', 'paused']) }),
    'POST /v2/feedback': () => ({ endpoint: 'scrape', jobId: '00000000-0000-4000-8000-000000000002', rating: 'good' }),
    'POST /v2/search/{id}/feedback': () => ({ rating: 'bad' }),
    'POST /v2/scrape/{id}/interact': () => ({ prompt: 'What is on the page?' }),
  },
  requests: [
    (random) => ({ method: 'GET', target: `/v2/search/developer?query=${random.pick(['pool', 'upgrade'])}` }),
    () => ({ method: 'GET', target: '/v2/team/credit-usage' }),
    () => ({ method: 'POST', target: '/v2/search', body: { query: 'quillstack', sources: ['web', 'alexandria'] } }),
  ],
  seeded: { patterns: [/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/] },
  errorShape: z.object({ success: z.literal(false), error: z.string(), code: z.string().optional(), details: z.unknown().optional(), feedbackErrorCode: z.string().optional() }).strict(),
});
