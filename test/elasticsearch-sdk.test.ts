import test from 'ava';
import { Client, HttpConnection, errors } from '@elastic/elasticsearch';
import { readFileSync } from 'node:fs';
import { startStack, type Stack } from '../catalog/stack.js';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { serveWorld } from '../proxy/serve.js';
import { prepareWorld } from './helpers/prepare-world.js';
import { testCaDir } from './helpers/proxy.js';

// The official @elastic/elasticsearch 9 client, unmodified, against the Elasticsearch mock: over
// the real TLS path (its HttpConnection's own `proxy` option: CONNECT to the deployment's host,
// TLS with toolbench's CA) and through the base-URL stand-in the MCP server uses (its default
// undici connection, which takes no proxy); and the mock's 429 under an injected fault.

const HOST = 'acme-logs.es.us-east-1.aws.elastic.cloud';
const WRITER = 'Y29uZi13cml0ZXI6Y29uZm9ybWFuY2Utd3JpdGUtc2VjcmV0';
const READER = 'Y29uZi1yZWFkZXI6Y29uZm9ybWFuY2UtcmVhZC1zZWNyZXQ=';
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/elasticsearch/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['es-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

function tlsClient(apiKey = WRITER): Client {
  return new Client({
    node: `https://${HOST}`, auth: { apiKey }, Connection: HttpConnection,
    proxy: stack.proxy!.proxy.urlFor('es-sdk'), tls: { ca: readFileSync(stack.caPath!) }, maxRetries: 0,
  });
}

test('the client over TLS through the proxy: info, create an index, bulk, search with query, sort, highlight and aggregations, count, get, update, delete', async (t) => {
  const es = tlsClient();
  const info = await es.info();
  t.is(info.version.number, '9.1.4');
  t.is(info.tagline, 'You Know, for Search');

  t.like(await es.indices.create({ index: 'tickets', mappings: { properties: { subject: { type: 'text' }, priority: { type: 'keyword' }, opened: { type: 'date' }, minutes: { type: 'long' } } } }), { acknowledged: true, index: 'tickets' });
  const bulk = await es.bulk({ operations: [
    { index: { _index: 'tickets', _id: 't1' } }, { subject: 'Checkout fails with card declined', priority: 'high', opened: '2025-11-17T08:00:00Z', minutes: 40 },
    { index: { _index: 'tickets', _id: 't2' } }, { subject: 'Cannot reset password', priority: 'low', opened: '2025-11-17T09:30:00Z', minutes: 5 },
    { index: { _index: 'tickets', _id: 't3' } }, { subject: 'Checkout page slow', priority: 'high', opened: '2025-11-18T07:15:00Z', minutes: 25 },
    { create: { _index: 'tickets', _id: 't1' } }, { subject: 'duplicate' },
  ] });
  t.true(bulk.errors);
  t.deepEqual(bulk.items.map((item) => Object.values(item)[0]!.status), [201, 201, 201, 409]);

  const found = await es.search<{ subject: string }>({
    index: 'tickets', query: { match: { subject: 'checkout' } }, sort: [{ opened: 'desc' }],
    highlight: { fields: { subject: {} } }, aggs: { by_priority: { terms: { field: 'priority' } }, total_minutes: { sum: { field: 'minutes' } } },
  });
  t.deepEqual(found.hits.hits.map((hit) => hit._id), ['t3', 't1']);
  t.deepEqual(found.hits.total, { value: 2, relation: 'eq' });
  t.deepEqual(found.hits.hits[0]!.highlight, { subject: ['<em>Checkout</em> page slow'] });
  t.deepEqual(found.hits.hits[0]!.sort, [Date.parse('2025-11-18T07:15:00Z')]);
  const aggs = found.aggregations as { by_priority: { buckets: { key: string; doc_count: number }[] }; total_minutes: { value: number } };
  t.deepEqual(aggs.by_priority.buckets, [{ key: 'high', doc_count: 2 }]);
  t.is(aggs.total_minutes.value, 65);

  const scored = await es.search({ index: 'tickets', query: { match: { subject: 'checkout slow' } } });
  t.deepEqual(scored.hits.hits.map((hit) => hit._id), ['t3', 't1']);
  t.true((scored.hits.hits[0]!._score ?? 0) > (scored.hits.hits[1]!._score ?? 0), 'two matching terms outscore one');

  t.is((await es.count({ index: 'tickets', query: { term: { priority: 'high' } } })).count, 2);
  t.like(await es.get({ index: 'tickets', id: 't2' }), { found: true, _version: 1, _source: { priority: 'low' } });
  t.like(await es.update({ index: 'tickets', id: 't2', doc: { priority: 'high' } }), { result: 'updated', _version: 2 });
  t.like(await es.update({ index: 'tickets', id: 't2', doc: { priority: 'high' } }), { result: 'noop' });
  t.like(await es.delete({ index: 'tickets', id: 't3' }), { result: 'deleted' });
  const rows = await es.cat.indices({ index: 'tickets', format: 'json' });
  t.like(rows[0], { index: 'tickets', health: 'green', 'docs.count': '2' });

  await stack.world.journal.flush();
  const seen: string[] = [];
  for await (const entry of stack.world.journal.entries()) seen.push(`${entry.host} ${entry.operation?.name ?? 'null'} ${entry.attribution?.client}`);
  t.true(seen.length >= 12 && seen.every((s) => s.startsWith(`${HOST} `) && !s.includes(' null ') && s.endsWith(' es-sdk')), seen.join('\n'));
});

test('errors are Elasticsearch\'s: a missing index, a query the DSL does not have, sorting on a text field, a read-only key writing, no key', async (t) => {
  const es = tlsClient();
  const missing = await t.throwsAsync(es.search({ index: 'no-such-index' }), { instanceOf: errors.ResponseError });
  t.is(missing!.meta.statusCode, 404);
  t.like(missing!.meta.body, { error: { type: 'index_not_found_exception', reason: 'no such index [no-such-index]' }, status: 404 });

  const unknown = await t.throwsAsync(es.search({ index: 'kb-articles', query: { fuzzy_thing: {} } as never }), { instanceOf: errors.ResponseError });
  t.like(unknown!.meta.body, { error: { type: 'parsing_exception', reason: 'unknown query [fuzzy_thing]' }, status: 400 });

  const textSort = await t.throwsAsync(es.search({ index: 'kb-articles', sort: [{ title: 'asc' }] }), { instanceOf: errors.ResponseError });
  t.like(textSort!.meta.body, { error: { type: 'search_phase_execution_exception', reason: 'all shards failed', root_cause: [{ type: 'illegal_argument_exception' }] }, status: 400 });
  t.regex((textSort!.meta.body as { error: { root_cause: { reason: string }[] } }).error.root_cause[0]!.reason, /^Fielddata is disabled on \[title\] in \[kb-articles\]/);

  const reader = tlsClient(READER);
  t.is((await reader.search({ index: 'kb-articles', q: 'password' })).hits.hits[0]?._id, 'KB-1001');
  const denied = await t.throwsAsync(reader.index({ index: 'kb-articles', id: 'x', document: { title: 'x' } }), { instanceOf: errors.ResponseError });
  t.is(denied!.meta.statusCode, 403);
  t.like(denied!.meta.body, { error: { type: 'security_exception' } });

  const anonymous = new Client({ node: `https://${HOST}`, Connection: HttpConnection, proxy: stack.proxy!.proxy.urlFor('es-sdk'), tls: { ca: readFileSync(stack.caPath!) }, maxRetries: 0 });
  const refused = await t.throwsAsync(anonymous.info(), { instanceOf: errors.ResponseError });
  t.is(refused!.meta.statusCode, 401);
  t.regex(String(refused!.meta.headers?.['www-authenticate'] ?? ''), /ApiKey/);
});

test('through the base-URL stand-in with the client\'s default undici connection (as the MCP server runs it), journaled under the deployment\'s host', async (t) => {
  const url = await stack.proxy!.proxy.baseUrlFor('es-sdk', HOST);
  const es = new Client({ node: url, auth: { apiKey: WRITER }, maxRetries: 0 });
  const mappings = await es.indices.getMapping({ index: 'kb-articles' });
  t.is((mappings['kb-articles']!.mappings.properties!.title as { type: string }).type, 'text');
  const shards = await es.cat.shards({ index: 'logs-app', format: 'json' });
  t.is(shards.length, 4);
  t.true(shards.every((s) => s.state === 'STARTED'));
});

test('an injected 429 is the search pool\'s es_rejected_execution_exception, which the client surfaces as a 429 ResponseError', async (t) => {
  const { header, services, catalog } = prepareWorld({ scenarioDir: 'mocks/elasticsearch/conformance' });
  const faults = { chaos: 'none' as const, rules: [{ operation: 'search', kind: '429', nth: [1] }].map((rule) => FaultRuleSchema.parse(rule)) };
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
  const listening = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0 });
  try {
    const es = new Client({ node: listening.services.elasticsearch!.url, auth: { apiKey: WRITER }, maxRetries: 0 });
    const limited = await t.throwsAsync(es.search({ index: 'kb-articles' }), { instanceOf: errors.ResponseError });
    t.is(limited!.meta.statusCode, 429);
    t.like(limited!.meta.body, { error: { type: 'es_rejected_execution_exception' }, status: 429 });
    t.is((await es.search({ index: 'kb-articles' })).hits.hits.length, 10, 'only the first search is rejected');
  } finally {
    await listening.close();
    await world.journal.close();
  }
});
