import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/elasticsearch/conformance.js';
import { conformance } from './helpers/conformance.js';

// Elasticsearch through the conformance suite (test/helpers/conformance.ts): determinism, seeds,
// error and fault shapes, volatile fields, and the four tools of @elastic/mcp-server-elasticsearch
// through MCP, reaching the world through a base-URL stand-in (its client ignores proxies).

const WRITER = 'ApiKey Y29uZi13cml0ZXI6Y29uZm9ybWFuY2Utd3JpdGUtc2VjcmV0';
const INDICES = ['logs-app', 'logs-app-2025.11.17', 'kb-articles', 'products', 'logs-*', 'no-such-index'];
const QUERIES = [
  { match: { message: 'order timeout' } },
  { bool: { filter: [{ term: { 'log.level': 'ERROR' } }, { range: { '@timestamp': { gte: '2025-11-17T06:00:00Z' } } }] } },
  { query_string: { query: 'service.name:checkout AND NOT log.level:INFO' } },
  { multi_match: { query: 'shipping address', fields: ['title^2', 'body'] } },
  { match_all: {} },
  { no_such_query: {} },
];

const suite = conformance(test, {
  fullSweep: true, // a test below reads every tool's outcome
  service: 'elasticsearch',
  sweep,
  headers: [['Authorization', WRITER], ['Accept', 'application/vnd.elasticsearch+json; compatible-with=9']],
  values: { index: INDICES, id: ['KB-1001', 'KB-1004', 'SKU-1003', 'missing-doc'] },
  bodies: {
    'PUT /:index': (_random, i) => ({ settings: { number_of_shards: 1 }, mappings: { properties: { name: { type: 'keyword' }, n: { type: 'long' } } }, i }),
    'PUT /:index/_doc/:id': (random, i) => ({ title: `Generated ${i}`, n: random.int(0, 100) }),
    'POST /:index/_doc/:id': (random, i) => ({ title: `Generated ${i}`, n: random.int(0, 100) }),
    'POST /:index/_doc': (random, i) => ({ title: `Generated ${i}`, n: random.int(0, 100) }),
    'PUT /:index/_create/:id': (_random, i) => ({ title: `Created ${i}` }),
    'POST /:index/_create/:id': (_random, i) => ({ title: `Created ${i}` }),
    'POST /:index/_update/:id': (random) => ({ doc: { status: random.pick(['published', 'draft']) } }),
    'POST /:index/_search': (random) => ({ query: random.pick(QUERIES), size: random.int(0, 12), from: random.int(0, 5) }),
    'GET /:index/_search': (random) => ({ query: random.pick(QUERIES) }),
    'POST /_search': (random) => ({ query: random.pick(QUERIES), size: 3 }),
    'POST /:index/_count': (random) => ({ query: random.pick(QUERIES) }),
  },
  requests: [
    (random) => ({ method: 'POST', target: `/${random.pick(['logs-app', 'logs-*'])}/_search`, body: { size: 0, aggs: { s: { terms: { field: random.pick(['service.name', 'log.level', 'message']) } }, d: { date_histogram: { field: '@timestamp', fixed_interval: random.pick(['1h', '6h', '1x']) } } } } }),
    (random) => ({ method: 'POST', target: '/logs-app/_search', body: { sort: [{ [random.pick(['@timestamp', 'message', 'nope'])]: random.pick(['asc', 'desc']) }], size: random.int(1, 5) } }),
    (random) => ({ method: 'GET', target: `/_cat/indices/${random.pick(INDICES)}?format=json&s=${random.pick(['index', 'docs.count:desc'])}` }),
    (random, i) => ({ method: 'POST', target: '/_bulk', headers: [['Content-Type', 'application/x-ndjson']], body: `{"index":{"_index":"bulk-${random.int(1, 3)}","_id":"b${i}"}}\n{"v":${i}}\n{"delete":{"_index":"kb-articles","_id":"KB-100${random.int(1, 9)}"}}\n` }),
  ],
  seeded: { fields: ["uuid", "cluster_uuid", "_id"], patterns: [/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{20,22}(?![A-Za-z0-9_-])/g] },
  errorShape: z.union([
    z.object({ error: z.object({ root_cause: z.array(z.object({ type: z.string(), reason: z.string() }).passthrough()), type: z.string(), reason: z.string() }).passthrough(), status: z.number().int() }).strict(),
    z.object({ error: z.string(), status: z.number().int() }).strict(),
    z.object({ ok: z.literal(false), message: z.string() }).strict(),
    z.object({ _index: z.string(), _id: z.string(), found: z.literal(false) }).strict(),
    z.object({ _index: z.string(), _id: z.string(), result: z.literal('not_found') }).passthrough(),
  ]),
});

test('elasticsearch: all 4 tools succeed against the mock through the base-URL stand-in, attributed to their tool calls', async (t) => {
  const result = await suite.sweep();
  t.is(result.outcomes.length, 4);
  const failed = result.outcomes.filter((o) => o.isError || o.transportError !== null || /^Error:/m.test(o.text)).map((o) => `${o.tool}: ${o.text.slice(0, 300)}`);
  t.deepEqual(failed, []);
  t.true(result.outcomes.every((o) => o.entries.length > 0 && o.entries.every((e) => e.response.status < 300 && e.attribution?.kind === 'mcp' && e.attribution?.tool === o.tool)));
  const search = result.outcomes.find((o) => o.tool === 'search')!;
  t.regex(search.text, /Total results: \d+, showing 3 from position 0/);
  t.regex(search.text, /Aggregations: \{/);
  // The server asks for highlights on every text field of the index; the answer marks the query's terms.
  const answer = search.entries.map((e) => JSON.parse(new TextDecoder().decode(e.response.body)) as { hits?: { hits: { highlight?: Record<string, string[]> }[] } }).find((b) => b.hits !== undefined)!;
  t.true(answer.hits!.hits.length > 0 && answer.hits!.hits.every((hit) => hit.highlight?.message?.some((f) => /<em>order<\/em>/i.test(f))));
});
