import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/brave/conformance.js';
import { conformance } from './helpers/conformance.js';

// Brave Search through the conformance suite (test/helpers/conformance.ts): determinism, seeds,
// error and fault shapes, volatile fields, and all 8 tools of @brave/brave-search-mcp-server.

const QUERIES = ['quillstack pool', 'Meridian Rail strike', 'Glass Harbor ranked', 'bakery Bellmont', 'sourdough', 'zzz no match'];
const enc = encodeURIComponent;

conformance(test, {
  service: 'brave',
  sweep,
  count: 150,
  headers: [['X-Subscription-Token', 'BSA-conformance-pro-ai-000000000']],
  requests: [
    (r) => ({ method: 'GET', target: `/res/v1/web/search?q=${enc(r.pick(QUERIES))}&count=${r.int(1, 20)}&offset=${r.int(0, 2)}&extra_snippets=${r.pick(['true', 'false'])}` }),
    (r) => ({ method: 'GET', target: `/res/v1/web/search?q=${enc(r.pick(QUERIES))}&result_filter=${r.pick(['web', 'news,videos', 'locations,web'])}&summary=${r.pick(['1', '0'])}&freshness=${r.pick(['pw', 'py', '2024-01-01to2024-12-31'])}` }),
    (r) => ({ method: 'GET', target: `/res/v1/news/search?q=${enc(r.pick(QUERIES))}&count=${r.int(1, 50)}` }),
    (r) => ({ method: 'GET', target: `/res/v1/videos/search?q=${enc(r.pick(QUERIES))}` }),
    (r) => ({ method: 'GET', target: `/res/v1/images/search?q=${enc(r.pick(QUERIES))}&count=${r.int(1, 100)}` }),
    (r) => ({ method: 'GET', target: `/res/v1/local/pois?ids=${r.pick(['loc-larkspur', 'loc-crumb-co', 'nope'])}&ids=loc-pan-dulce` }),
    (r) => ({ method: 'GET', target: `/res/v1/local/descriptions?ids=${r.pick(['loc-larkspur', 'loc-hearth-street'])}` }),
    (r) => ({ method: 'GET', target: `/res/v1/llm/context?q=${enc(r.pick(QUERIES))}&maximum_number_of_urls=${r.int(1, 5)}` }),
    (r) => ({ method: 'GET', target: `/res/v1/summarizer/search?key=${enc(JSON.stringify({ query: r.pick(QUERIES) }))}&inline_references=true` }),
    (r) => ({ method: 'GET', target: `/res/v1/web/search?q=${enc('x')}&count=${r.pick(['0', '21', 'ten'])}` }),
    () => ({ method: 'GET', target: '/res/v1/web/search' }),
    (r) => ({ method: 'POST', target: '/res/v1/llm/context', body: { q: r.pick(QUERIES), count: r.int(1, 10), enable_local: r.pick([true, false]) } }),
  ],
  seeded: { patterns: [/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g] },
  errorShape: z.object({
    type: z.literal('ErrorResponse'),
    error: z.object({ id: z.string().uuid(), status: z.number().int(), code: z.string(), detail: z.string(), meta: z.record(z.unknown()) }).strict(),
    time: z.number().int(),
  }).strict(),
});
