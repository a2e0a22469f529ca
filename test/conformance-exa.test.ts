import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/exa/conformance.js';
import { conformance } from './helpers/conformance.js';

// Exa through the conformance suite (test/helpers/conformance.ts): determinism, seeds, error and
// fault shapes, volatile fields, and all 12 tools of exa-mcp-server over MCP.

const QUERIES = ['quillstack pool', 'Meridian Rail strike', 'Glass Harbor ranked', 'Quillstack Labs company', 'zzz no match'];
const URLS = ['https://quillstack.dev/docs', 'https://quillstack.dev/docs/storage', 'https://www.coastpost.example/news/meridian-rail-strike-postponed', 'https://nowhere.example/'];

conformance(test, {
  service: 'exa',
  sweep,
  count: 150,
  headers: [['x-api-key', 'exa-conformance-0000-0000-0000-000000000000']],
  requests: [
    (r) => ({ method: 'POST', target: '/search', body: { query: r.pick(QUERIES), numResults: r.int(1, 12), type: r.pick(['auto', 'neural', 'keyword', 'fast', 'deep']), contents: r.pick([undefined, { text: true }, { highlights: true, summary: true }, { text: { maxCharacters: 200 }, subpages: 2 }]) } }),
    (r) => ({ method: 'POST', target: '/search', body: { query: r.pick(QUERIES), startPublishedDate: '2025-01-01', includeDomains: r.pick([['quillstack.dev'], ['coastpost.example'], []]), category: r.pick([undefined, 'news', 'company', 'people']) } }),
    (r) => ({ method: 'POST', target: '/contents', body: { urls: [r.pick(URLS), r.pick(URLS)], text: r.pick([true, { maxCharacters: 100 }]), highlights: r.pick([undefined, { query: 'default' }]) } }),
    (r) => ({ method: 'POST', target: '/findSimilar', body: { url: r.pick(URLS), numResults: r.int(1, 5), excludeSourceDomain: r.pick([true, false]) } }),
    (r) => ({ method: 'POST', target: '/answer', body: { query: r.pick(QUERIES), text: r.pick([true, false]) } }),
    (r) => ({ method: 'POST', target: '/research/v1', body: { instructions: r.pick(QUERIES), model: r.pick(['exa-research-fast', 'exa-research']) } }),
    (r) => ({ method: 'GET', target: `/research/v1/${r.pick(['r_missing', 'r_0000'])}` }),
    (r) => ({ method: 'POST', target: '/agent/runs', body: { query: r.pick(QUERIES), effort: r.pick(['minimal', 'low']), stream: r.pick([true, false]) } }),
    () => ({ method: 'GET', target: '/agent/runs?limit=2' }),
    (r) => ({ method: 'POST', target: '/search', body: r.pick([{}, { query: '' }, { query: 'x', numResults: 500 }, { query: 'x', category: 'company', startPublishedDate: '2025-01-01' }]) }),
  ],
  seeded: { patterns: [/[0-9a-f]{32}/g, /agent_run_[0-9A-Za-z]{24}/g, /\b[0-9a-z]{26}\b/g] },
  errorShape: z.object({ requestId: z.string(), error: z.string(), tag: z.string() }).strict(),
});
