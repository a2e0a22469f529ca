import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/tavily/conformance.js';
import { conformance } from './helpers/conformance.js';

// Tavily through the conformance suite (test/helpers/conformance.ts): determinism, seeds, error
// and fault shapes, volatile fields, and all 5 tools of tavily-mcp over MCP.

const QUERIES = ['quillstack pool', 'Meridian Rail strike', 'Glass Harbor ranked', 'bakery Bellmont', 'zzz no match'];
const URLS = ['https://quillstack.dev/docs', 'https://quillstack.dev/docs/storage', 'https://www.coastpost.example/news/meridian-rail-strike-postponed', 'https://nowhere.example/'];

conformance(test, {
  service: 'tavily',
  sweep,
  count: 150,
  headers: [['Authorization', 'Bearer tvly-conformance-0000000000000000000']],
  requests: [
    (r) => ({ method: 'POST', target: '/search', body: { query: r.pick(QUERIES), max_results: r.int(1, 10), search_depth: r.pick(['basic', 'advanced']), topic: r.pick(['general', 'news']), include_answer: r.pick([true, false, 'advanced']), include_raw_content: r.pick([false, 'text']), include_images: r.pick([true, false]) } }),
    (r) => ({ method: 'POST', target: '/search', body: { query: r.pick(QUERIES), start_date: '2025-01-01', include_domains: r.pick([['quillstack.dev'], ['coastpost.example'], []]) } }),
    (r) => ({ method: 'POST', target: '/extract', body: { urls: [r.pick(URLS), r.pick(URLS)], format: r.pick(['markdown', 'text']), query: r.pick([undefined, 'default']) } }),
    (r) => ({ method: 'POST', target: '/crawl', body: { url: r.pick(URLS), max_depth: r.int(1, 3), limit: r.int(1, 20), instructions: r.pick([undefined, 'WAL sync']) } }),
    (r) => ({ method: 'POST', target: '/map', body: { url: r.pick(URLS), max_depth: r.int(1, 3), select_paths: r.pick([[], ['/docs/.*']]) } }),
    (r) => ({ method: 'POST', target: '/research', body: { input: r.pick(QUERIES), model: r.pick(['mini', 'pro']) } }),
    (r) => ({ method: 'GET', target: `/research/${r.pick(['missing', '00000000-0000-4000-8000-000000000000'])}` }),
    (r) => ({ method: 'POST', target: '/search', body: r.pick([{}, { query: '' }, { query: 'x', max_results: 50 }]) }),
  ],
  seeded: { patterns: [/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g] },
  errorShape: z.union([
    z.object({ detail: z.object({ error: z.string() }).strict() }).strict(),
    z.object({ detail: z.array(z.object({ type: z.string(), loc: z.array(z.union([z.string(), z.number()])), msg: z.string() }).strict()) }).strict(),
  ]),
});
