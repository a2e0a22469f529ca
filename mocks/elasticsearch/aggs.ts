import { formatDate, nextCalendar, startOf } from './dates.js';
import { isNumeric, isText } from './fields.js';
import { badRequest, fielddataDisabled, parsingError, type DocDoc } from './model.js';
import { compileQuery } from './query.js';
import type { IndexScope } from './scope.js';

/**
 * Aggregations the search tools use: bucket aggregations (`terms`, `date_histogram`,
 * `histogram`, `range`, `filter`, `filters`, `missing`) with sub-aggregations, and metrics
 * (`avg`, `sum`, `min`, `max`, `value_count`, `cardinality`, `stats`, `top_hits`), answered in
 * Elasticsearch's shape. Each runs over the documents the query matched, across every index the
 * search named.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface Hit {
  scope: IndexScope;
  doc: DocDoc;
  score: number;
}

export function runAggregations(spec: unknown, hits: readonly Hit[], renderHit: (hit: Hit, options: Json) => Json): Json {
  if (!isObject(spec)) throw parsingError('Expected [START_OBJECT] under [aggregations], but got a different token');
  const out: Json = {};
  for (const [name, body] of Object.entries(spec)) out[name] = runOne(name, body, hits, renderHit);
  return out;
}

function runOne(name: string, body: unknown, hits: readonly Hit[], renderHit: (hit: Hit, options: Json) => Json): Json {
  if (!isObject(body)) throw parsingError(`Expected [START_OBJECT] under [${name}], but got a different token`);
  const sub = body.aggs ?? body.aggregations;
  const types = Object.keys(body).filter((key) => key !== 'aggs' && key !== 'aggregations' && key !== 'meta');
  if (types.length !== 1) throw parsingError(`Expected [START_OBJECT] under [${types[1] ?? name}], but got a different token`);
  const type = types[0]!;
  const spec = body[type];
  if (!isObject(spec)) throw parsingError(`[${type}] aggregation [${name}] malformed`);
  const bucket = (docs: readonly Hit[], extra: Json): Json => ({ ...extra, doc_count: docs.length, ...(sub === undefined ? {} : runAggregations(sub, docs, renderHit)) });
  switch (type) {
    case 'terms': return termsAgg(spec, hits, bucket);
    case 'date_histogram': return dateHistogram(spec, hits, bucket);
    case 'histogram': return histogram(spec, hits, bucket);
    case 'range': return rangeAgg(spec, hits, bucket);
    case 'filter': return bucket(filterHits(spec, hits), {});
    case 'filters': {
      const filters = spec.filters;
      if (Array.isArray(filters)) return { buckets: filters.map((f) => bucket(filterHits(f, hits), {})) };
      if (!isObject(filters)) throw parsingError('[filters] cannot be empty');
      const buckets: Json = {};
      for (const [key, f] of Object.entries(filters)) buckets[key] = bucket(filterHits(f, hits), {});
      return { buckets };
    }
    case 'missing': return bucket(hits.filter((hit) => numbersOrStrings(hit, String(spec.field), 'missing').length === 0), {});
    case 'avg': case 'sum': case 'min': case 'max': case 'value_count': case 'stats': return metric(type, spec, hits);
    case 'cardinality': return { value: new Set(hits.flatMap((hit) => numbersOrStrings(hit, String(spec.field), type).map(String))).size };
    case 'top_hits': {
      const size = typeof spec.size === 'number' ? spec.size : 3;
      const from = typeof spec.from === 'number' ? spec.from : 0;
      const picked = hits.slice(from, from + size);
      return { hits: { total: { value: hits.length, relation: 'eq' }, max_score: picked.length === 0 ? null : Math.max(...picked.map((h) => h.score)), hits: picked.map((hit) => renderHit(hit, spec)) } };
    }
    default: throw new EsUnknownAgg(type, name);
  }
}

class EsUnknownAgg extends Error {
  constructor(type: string, name: string) {
    super(`Unknown aggregation type [${type}] did you mean [terms]? (aggregation [${name}])`);
  }
}
export { EsUnknownAgg };

function filterHits(query: unknown, hits: readonly Hit[]): Hit[] {
  const compiled = new Map<IndexScope, ReturnType<typeof compileQuery>>();
  return hits.filter((hit) => {
    let c = compiled.get(hit.scope);
    if (!c) {
      c = compileQuery(query, hit.scope);
      compiled.set(hit.scope, c);
    }
    return c.score(hit.doc) !== null;
  });
}

/** The values of `field` in a hit, as aggregations read doc values; text fields have none (an error). */
function numbersOrStrings(hit: Hit, path: string, agg: string): (string | number | boolean)[] {
  const field = hit.scope.field(path);
  if (!field) return [];
  if (isText(field.type)) throw new FielddataError(path, hit.scope.index.name, agg);
  return hit.scope.values(hit.doc, field);
}

export class FielddataError extends Error {
  constructor(readonly field: string, readonly index: string, readonly agg: string) {
    super(fielddataDisabled(field, index).reason);
  }
}

function termsAgg(spec: Json, hits: readonly Hit[], bucket: (docs: readonly Hit[], extra: Json) => Json): Json {
  if (typeof spec.field !== 'string') throw badRequest('illegal_argument_exception', 'Required one of fields [field, script], but none were specified.');
  const size = typeof spec.size === 'number' ? spec.size : 10;
  const minDocs = typeof spec.min_doc_count === 'number' ? spec.min_doc_count : 1;
  const groups = new Map<string, { key: string | number | boolean; hits: Hit[] }>();
  let type: string | null = null;
  for (const hit of hits) {
    const field = hit.scope.field(spec.field);
    if (field) type = field.type;
    for (const value of new Set(numbersOrStrings(hit, spec.field, 'terms'))) {
      const id = String(value);
      const group = groups.get(id) ?? { key: value, hits: [] };
      group.hits.push(hit);
      groups.set(id, group);
    }
  }
  const order = isObject(spec.order) ? spec.order : { _count: 'desc' };
  const [orderKey, orderDir] = Object.entries(order)[0] ?? ['_count', 'desc'];
  const sign = String(orderDir) === 'asc' ? 1 : -1;
  const compareKeys = (a: string | number | boolean, b: string | number | boolean): number => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
  const sorted = [...groups.values()].filter((g) => g.hits.length >= minDocs).sort((a, b) => {
    if (orderKey === '_key') return sign * compareKeys(a.key, b.key);
    return sign * (a.hits.length - b.hits.length) || compareKeys(a.key, b.key);
  });
  const shown = sorted.slice(0, size);
  const other = sorted.slice(size).reduce((sum, g) => sum + g.hits.length, 0);
  return {
    doc_count_error_upper_bound: 0,
    sum_other_doc_count: other,
    buckets: shown.map((g) => {
      if (type === 'date' && typeof g.key === 'number') return bucket(g.hits, { key: g.key, key_as_string: formatDate(g.key) });
      if (type === 'boolean') return bucket(g.hits, { key: g.key === true ? 1 : 0, key_as_string: String(g.key) });
      return bucket(g.hits, { key: g.key });
    }),
  };
}

const FIXED: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const CALENDAR: Record<string, string> = { minute: 'm', '1m': 'm', hour: 'h', '1h': 'h', day: 'd', '1d': 'd', week: 'w', '1w': 'w', month: 'M', '1M': 'M', quarter: 'q', '1q': 'q', year: 'y', '1y': 'y' };

function dateHistogram(spec: Json, hits: readonly Hit[], bucket: (docs: readonly Hit[], extra: Json) => Json): Json {
  if (typeof spec.field !== 'string') throw badRequest('illegal_argument_exception', 'Required one of fields [field, script], but none were specified.');
  const calendar = typeof spec.calendar_interval === 'string' ? CALENDAR[spec.calendar_interval] : undefined;
  const fixed = typeof spec.fixed_interval === 'string' ? /^(\d+)(ms|s|m|h|d)$/.exec(spec.fixed_interval) : null;
  if (spec.calendar_interval !== undefined && calendar === undefined) throw illegalInterval(String(spec.calendar_interval), 'calendar_interval');
  if (spec.fixed_interval !== undefined && fixed === null) throw illegalInterval(String(spec.fixed_interval), 'fixed_interval');
  if (calendar === undefined && fixed === null) throw badRequest('illegal_argument_exception', 'Invalid interval specified, must be non-null and non-empty');
  const width = fixed ? Number(fixed[1]) * FIXED[fixed[2]!]! : 0;
  const keyOf = (t: number): number => (calendar ? startOf(t, calendar) : Math.floor(t / width) * width);
  const next = (k: number): number => (calendar ? nextCalendar(k, calendar) : k + width);
  const groups = new Map<number, Hit[]>();
  for (const hit of hits) {
    for (const t of new Set(numbersOrStrings(hit, spec.field, 'date_histogram').filter((v): v is number => typeof v === 'number'))) {
      const key = keyOf(t);
      groups.set(key, [...(groups.get(key) ?? []), hit]);
    }
  }
  const minDocs = typeof spec.min_doc_count === 'number' ? spec.min_doc_count : 0;
  const keys = [...groups.keys()].sort((a, b) => a - b);
  const buckets: Json[] = [];
  if (keys.length > 0) {
    for (let k = keys[0]!; k <= keys[keys.length - 1]!; k = next(k)) {
      const docs = groups.get(k) ?? [];
      if (docs.length >= minDocs) buckets.push(bucket(docs, { key_as_string: formatDate(k), key: k }));
    }
  }
  if (String((isObject(spec.order) ? Object.values(spec.order)[0] : 'asc') ?? 'asc') === 'desc') buckets.reverse();
  return { buckets };
}

function illegalInterval(value: string, kind: string) {
  return badRequest('illegal_argument_exception', kind === 'calendar_interval'
    ? `The supplied interval [${value}] could not be parsed as a calendar interval.`
    : `failed to parse setting [date_histogram.fixedInterval] with value [${value}] as a time value: unit is missing or unrecognized`);
}

function histogram(spec: Json, hits: readonly Hit[], bucket: (docs: readonly Hit[], extra: Json) => Json): Json {
  const interval = Number(spec.interval);
  if (typeof spec.field !== 'string' || !(interval > 0)) throw badRequest('illegal_argument_exception', '[interval] must be >0 for histogram aggregation [histogram]');
  const groups = new Map<number, Hit[]>();
  for (const hit of hits) {
    for (const v of new Set(numbersOrStrings(hit, spec.field, 'histogram').filter((x): x is number => typeof x === 'number'))) {
      const key = Math.floor(v / interval) * interval;
      groups.set(key, [...(groups.get(key) ?? []), hit]);
    }
  }
  const minDocs = typeof spec.min_doc_count === 'number' ? spec.min_doc_count : 0;
  const keys = [...groups.keys()].sort((a, b) => a - b);
  const buckets: Json[] = [];
  if (keys.length > 0) {
    for (let k = keys[0]!; k <= keys[keys.length - 1]!; k += interval) {
      const docs = groups.get(k) ?? [];
      if (docs.length >= minDocs) buckets.push(bucket(docs, { key: k }));
    }
  }
  return { buckets };
}

function rangeAgg(spec: Json, hits: readonly Hit[], bucket: (docs: readonly Hit[], extra: Json) => Json): Json {
  if (typeof spec.field !== 'string' || !Array.isArray(spec.ranges)) throw badRequest('illegal_argument_exception', 'No [ranges] specified for the [range] aggregation');
  const field = spec.field;
  return {
    buckets: spec.ranges.map((r: unknown) => {
      const range = isObject(r) ? r : {};
      const from = typeof range.from === 'number' ? range.from : null;
      const to = typeof range.to === 'number' ? range.to : null;
      const docs = hits.filter((hit) => numbersOrStrings(hit, field, 'range').some((v) => typeof v === 'number' && (from === null || v >= from) && (to === null || v < to)));
      const key = typeof range.key === 'string' ? range.key : `${from === null ? '*' : numberKey(from)}-${to === null ? '*' : numberKey(to)}`;
      return bucket(docs, { key, ...(from === null ? {} : { from }), ...(to === null ? {} : { to }) });
    }),
  };
}

const numberKey = (n: number): string => (Number.isInteger(n) ? n.toFixed(1) : String(n));

function metric(type: string, spec: Json, hits: readonly Hit[]): Json {
  if (typeof spec.field !== 'string') throw badRequest('illegal_argument_exception', 'Required one of fields [field, script], but none were specified.');
  let isDate = false;
  const values: number[] = [];
  for (const hit of hits) {
    const field = hit.scope.field(spec.field);
    if (field?.type === 'date') isDate = true;
    if (field && !isNumeric(field.type) && field.type !== 'date' && field.type !== 'boolean' && type !== 'value_count') {
      throw badRequest('illegal_argument_exception', `Field [${spec.field}] of type [${field.type}] is not supported for aggregation [${type}]`);
    }
    for (const v of numbersOrStrings(hit, spec.field, type)) values.push(typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : NaN);
  }
  const count = values.length;
  const sum = values.reduce((a, b) => a + b, 0);
  const min = count === 0 ? null : Math.min(...values);
  const max = count === 0 ? null : Math.max(...values);
  const asString = (v: number | null): Json => (isDate && v !== null ? { value_as_string: formatDate(v) } : {});
  switch (type) {
    case 'avg': return { value: count === 0 ? null : sum / count, ...asString(count === 0 ? null : sum / count) };
    case 'sum': return { value: sum };
    case 'min': return { value: min, ...asString(min) };
    case 'max': return { value: max, ...asString(max) };
    case 'value_count': return { value: count };
    default: return {
      count, min, max, avg: count === 0 ? null : sum / count, sum,
      ...(isDate && count > 0 ? { min_as_string: formatDate(min!), max_as_string: formatDate(max!), avg_as_string: formatDate(sum / count), sum_as_string: formatDate(sum) } : {}),
    };
  }
}
