import test from 'ava';
import { dateMath, parseDate } from '../mocks/elasticsearch/dates.js';
import { analyze, mapDynamically, valuesAt } from '../mocks/elasticsearch/fields.js';
import type { DocDoc, IndexDoc } from '../mocks/elasticsearch/model.js';
import { compileQuery } from '../mocks/elasticsearch/query.js';
import { IndexScope } from '../mocks/elasticsearch/scope.js';
import { float32 } from '../mocks/elasticsearch/search.js';

// The Elasticsearch mock's query engine in isolation: BM25 against the formula worked by hand,
// query-string precedence, date math rounding, dynamic mapping, the standard analyzer.

const sources = [
  { title: 'checkout fails', level: 'ERROR', n: 3 },
  { title: 'checkout checkout slow page', level: 'WARN', n: 10 },
  { title: 'password reset', level: 'INFO', n: 7 },
];

function scope(): IndexScope {
  const properties = sources.reduce((p, s) => mapDynamically(p, s), {} as IndexDoc['properties']);
  const index: IndexDoc = { name: 't', uuid: 'u', created: 0, aliases: [], shards: 1, replicas: 0, dynamic: true, properties, nextSeq: 3 };
  const docs: DocDoc[] = sources.map((source, order) => ({ index: 't', id: String(order), source, version: 1, seqNo: order, order }));
  return new IndexScope(index, docs, Date.parse('2025-11-19T12:00:00Z'));
}

const scores = (query: unknown) => {
  const s = scope();
  const compiled = compileQuery(query, s);
  return s.docs.map((doc) => compiled.score(doc));
};

test('match scores BM25 as Lucene does: idf ln(1 + (N - n + 0.5)/(n + 0.5)), tf/(tf + k1(1 - b + b·dl/avgdl))', (t) => {
  const [a, b, c] = scores({ match: { title: 'checkout' } });
  const idf = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5));
  const avgdl = (2 + 4 + 2) / 3;
  t.is(float32(a!), float32(idf * (1 / (1 + 1.2 * (1 - 0.75 + 0.75 * (2 / avgdl))))));
  t.is(float32(b!), float32(idf * (2 / (2 + 1.2 * (1 - 0.75 + 0.75 * (4 / avgdl))))));
  t.is(c, null);
});

test('term on a keyword is exact; range and terms are constant-score filters; bool sums its scoring clauses', (t) => {
  t.deepEqual(scores({ term: { 'level.keyword': 'error' } }), [null, null, null]);
  t.not(scores({ term: { 'level.keyword': 'ERROR' } })[0], null);
  t.deepEqual(scores({ range: { n: { gte: 5 } } }), [null, 1, 1]);
  t.deepEqual(scores({ terms: { 'level.keyword': ['INFO', 'WARN'] } }), [null, 1, 1]);
  const [only] = scores({ bool: { must: [{ match: { title: 'checkout' } }], filter: [{ range: { n: { lt: 5 } } }] } });
  t.is(only, scores({ match: { title: 'checkout' } })[0]);
  t.deepEqual(scores({ bool: { filter: [{ match_all: {} }], must_not: [{ match: { title: 'password' } }] } }), [0, 0, null]);
});

test('query_string: field:value, AND binds before OR, NOT, phrases, wildcards, ranges', (t) => {
  const matched = (q: string) => scores({ query_string: { query: q } }).map((s) => s !== null);
  t.deepEqual(matched('level:ERROR'), [true, false, false]);
  t.deepEqual(matched('title:checkout AND n:>5'), [false, true, false]);
  t.deepEqual(matched('title:password OR title:fails AND level:WARN'), [false, false, true]);
  t.deepEqual(matched('checkout NOT slow'), [true, false, false]);
  t.deepEqual(matched('"slow page"'), [false, true, false]);
  t.deepEqual(matched('pass*'), [false, false, true]);
  t.deepEqual(matched('n:[3 TO 7}'), [true, false, false]);
});

test('date math: now-1d/d rounds down for gte and up for lte; absolute anchors with ||', (t) => {
  const now = Date.parse('2025-11-19T12:34:56Z');
  t.is(dateMath('now-1d/d', now), Date.parse('2025-11-18T00:00:00Z'));
  t.is(dateMath('now-1d/d', now, true), Date.parse('2025-11-18T23:59:59.999Z'));
  t.is(dateMath('2025-01-31||+1M', now), Date.parse('2025-03-03T00:00:00Z'));
  t.is(dateMath('now-24h', now), now - 86_400_000);
  t.is(parseDate('2025-11-18T10:00:00+02:00'), Date.parse('2025-11-18T08:00:00Z'));
  t.is(dateMath('yesterday', now), null);
});

test('dynamic mapping, dotted source keys, the standard analyzer and float printing', (t) => {
  t.deepEqual(mapDynamically({}, { a: 'x', b: 2, c: 2.5, d: true, e: '2025-11-18', f: { g: 'y' } }), {
    a: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } }, b: { type: 'long' }, c: { type: 'float' },
    d: { type: 'boolean' }, e: { type: 'date' }, f: { properties: { g: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } } } },
  });
  t.deepEqual(valuesAt({ 'service.name': 'a', service: { name: 'b' }, tags: ['x', ['y']] }, 'service.name').sort(), ['a', 'b']);
  t.deepEqual(analyze("Don't upgrade to v1.2 — see 10.0.0.1, user_id!"), ["don't", 'upgrade', 'to', 'v1.2', 'see', '10.0.0.1', 'user_id']);
  t.is(float32(0.1), 0.1);
  t.is(float32(1 / 3), 0.33333334);
});
