import { EsUnknownAgg, FielddataError, runAggregations, type Hit } from './aggs.js';
import { isText } from './fields.js';
import { highlightDoc } from './highlight.js';
import { EsError, fielddataDisabled, illegalArgument, parsingError, shardFailure, type DocDoc, type IndexDoc } from './model.js';
import { compileQuery, QueryShardError, type Compiled } from './query.js';
import { IndexScope } from './scope.js';
import { filterSource, sourceFilterOf, type SourceFilter } from './source.js';
import { nodeOfShard } from './cluster.js';

/**
 * `_search` and `_count`: the query compiled per index (each index's own mappings), hits merged
 * by score (ties in index, then insertion order), sorted, paged, `_source`-filtered,
 * highlighted and aggregated in Elasticsearch's shape.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const BODY_KEYS = new Set([
  'query', 'size', 'from', 'sort', '_source', 'track_total_hits', 'aggs', 'aggregations', 'highlight', 'explain', 'profile',
  'version', 'seq_no_primary_term', 'search_after', 'min_score', 'post_filter', 'timeout', 'track_scores', 'terminate_after',
  'stored_fields', 'docvalue_fields', 'fields', 'indices_boost', 'runtime_mappings', 'stats', 'pit', 'rescore', 'collapse', 'suggest', 'knn', 'rank', 'retriever', 'ext', 'script_fields',
]);
/** Keys Elasticsearch knows that the mock does not model: refused by name, never silently ignored. */
const UNMODELLED = new Set(['pit', 'rescore', 'collapse', 'suggest', 'knn', 'rank', 'retriever', 'runtime_mappings', 'script_fields', 'indices_boost']);

/** Sorting on a field nothing maps (`query_shard_exception`), or what sort a search asked for. */
interface SortKey { field: string; order: 'asc' | 'desc'; missing: '_last' | '_first'; unmappedType: string | null }

export interface SearchInput {
  indices: IndexDoc[];
  docsOf: (index: IndexDoc) => DocDoc[];
  body: Json;
  params: Record<string, string>;
  nowMs: number;
  /** Omit hits (the `_count` API). */
  countOnly?: boolean;
}

export function runSearch(input: SearchInput): Json {
  const { body, params } = input;
  for (const key of Object.keys(body)) {
    if (!BODY_KEYS.has(key)) throw parsingError(`Unknown key for a ${typeof body[key] === 'object' && body[key] !== null ? (Array.isArray(body[key]) ? 'START_ARRAY' : 'START_OBJECT') : 'VALUE_STRING'} in [${key}].`);
    if (UNMODELLED.has(key)) throw illegalArgument(`[${key}] is not supported by this Elasticsearch mock (toolbench models query, sort, paging, _source, highlight and aggregations)`);
  }
  let query: unknown = body.query;
  if (params.q !== undefined) {
    query = { query_string: { query: params.q, ...(params.df ? { default_field: params.df } : {}), ...(params.default_operator ? { default_operator: params.default_operator } : {}) } };
  }
  const size = intParam(params.size ?? body.size, 10, 'size');
  const from = intParam(params.from ?? body.from, 0, 'from');
  if (from < 0) throw illegalArgument(`[from] parameter cannot be negative, found [${from}]`);
  if (size < 0) throw illegalArgument(`[size] parameter cannot be negative, found [${size}]`);
  const sortKeys = sortOf(params.sort ?? body.sort);
  const trackScores = body.track_scores === true;
  const scores = sortKeys.length === 0 || sortKeys.some((k) => k.field === '_score') || trackScores;

  const scopes = input.indices.map((index) => new IndexScope(index, input.docsOf(index), input.nowMs));
  if (!input.countOnly && from + size > 10_000 && scopes.length > 0) {
    throw shardFailure(scopes[0]!.index, { type: 'illegal_argument_exception', reason: `Result window is too large, from + size must be less than or equal to: [10000] but was [${from + size}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.` }, nodeOfShard(scopes[0]!.index, 0));
  }

  const hits: (Hit & { compiled: Compiled })[] = [];
  const minScore = typeof body.min_score === 'number' ? body.min_score : null;
  for (const scope of scopes) {
    const compiled = shardGuard(scope, () => compileQuery(query, scope));
    const post = body.post_filter === undefined ? null : shardGuard(scope, () => compileQuery(body.post_filter, scope));
    for (const doc of scope.docs) {
      const score = shardGuard(scope, () => compiled.score(doc));
      if (score === null) continue;
      const rounded = float32(score);
      if (minScore !== null && rounded < minScore) continue;
      if (post && post.score(doc) === null) continue;
      hits.push({ scope, doc, score: rounded, compiled });
    }
  }
  const counted = hits.length;
  const shards = { total: scopes.reduce((n, s) => n + s.index.shards, 0), successful: scopes.reduce((n, s) => n + s.index.shards, 0), skipped: 0, failed: 0 };
  if (input.countOnly) return { count: counted, _shards: shards };

  for (const key of sortKeys) checkSortable(key, scopes);
  const order = new Map(scopes.map((s, i) => [s, i]));
  const sortValues = (hit: Hit): (string | number | null)[] => sortKeys.map((key) => sortValue(hit, key));
  const compare = (a: Hit, b: Hit): number => {
    if (sortKeys.length === 0) return b.score - a.score || order.get(a.scope)! - order.get(b.scope)! || a.doc.order - b.doc.order;
    const va = sortValues(a);
    const vb = sortValues(b);
    for (let i = 0; i < sortKeys.length; i++) {
      const c = compareValues(va[i]!, vb[i]!, sortKeys[i]!);
      if (c !== 0) return c;
    }
    return order.get(a.scope)! - order.get(b.scope)! || a.doc.order - b.doc.order;
  };
  hits.sort(compare);

  let window = hits;
  if (Array.isArray(body.search_after)) {
    if (sortKeys.length === 0) throw illegalArgument('Cannot use [search_after] without [sort]');
    const after = body.search_after as (string | number | null)[];
    window = hits.filter((hit) => {
      const values = sortValues(hit);
      for (let i = 0; i < sortKeys.length; i++) {
        const c = compareValues(values[i]!, normaliseAfter(after[i], sortKeys[i]!, scopes), sortKeys[i]!);
        if (c !== 0) return c > 0;
      }
      return false;
    });
  }
  const page = window.slice(from, from + size);
  const sourceFilter = sourceFilterOf(body._source, { source: params._source, includes: params._source_includes, excludes: params._source_excludes });
  const renderOptions = { sourceFilter, body, scores, sortKeys: sortKeys.length > 0 ? sortValues : null };

  const out: Json = { took: 1 + Math.floor(counted / 500), timed_out: false, _shards: shards };
  const track = params.track_total_hits ?? body.track_total_hits;
  const totalValue = track === false || track === 'false' ? null : typeof track === 'number' || /^\d+$/.test(String(track ?? '')) ? Number(track) : track === true || track === 'true' ? Infinity : 10_000;
  const total = totalValue === null ? undefined : counted > totalValue ? { value: totalValue, relation: 'gte' } : { value: counted, relation: 'eq' };
  const hitsOut: Json = {};
  if (total !== undefined) hitsOut.total = params.rest_total_hits_as_int === 'true' ? total.value : total;
  hitsOut.max_score = scores && page.length > 0 ? Math.max(...window.map((h) => h.score)) : null;
  hitsOut.hits = page.map((hit) => renderHit(hit, renderOptions, hit.compiled));
  out.hits = hitsOut;
  const aggs = body.aggs ?? body.aggregations;
  if (aggs !== undefined) {
    try {
      out.aggregations = runAggregations(aggs, hits, (hit, spec) => renderHit(hit, { ...renderOptions, sourceFilter: sourceFilterOf(spec._source, {}), scores: true, sortKeys: null }, (hit as Hit & { compiled: Compiled }).compiled));
    } catch (error) {
      if (error instanceof FielddataError) throw shardFailure(scopes.find((s) => s.index.name === error.index)!.index, fielddataDisabled(error.field, error.index), nodeOfShard(scopes[0]!.index, 0));
      if (error instanceof EsUnknownAgg) throw new EsError(400, { type: 'x_content_parse_exception', reason: error.message }, { caused_by: { type: 'named_object_not_found_exception', reason: error.message } });
      throw error;
    }
  }
  if (body.profile === true) out.profile = { shards: scopes.flatMap((scope) => Array.from({ length: scope.index.shards }, (_, shard) => profileShard(scope, shard))) };
  return out;
}

function shardGuard<T>(scope: IndexScope, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof QueryShardError) throw shardFailure(scope.index, { type: 'query_shard_exception', reason: error.message, index_uuid: scope.index.uuid, index: scope.index.name }, nodeOfShard(scope.index, 0));
    throw error;
  }
}

function intParam(value: unknown, fallback: number, name: string): number {
  if (value === undefined || value === null) return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n)) throw illegalArgument(`Failed to parse int parameter [${name}] with value [${String(value)}]`);
  return n;
}

/** Elasticsearch prints scores as Java floats: the shortest decimal that reads back as the same float32. */
export function float32(score: number): number {
  const f = Math.fround(score);
  for (let p = 1; p <= 9; p++) {
    const candidate = Number(f.toPrecision(p));
    if (Math.fround(candidate) === f) return candidate;
  }
  return f;
}

function sortOf(raw: unknown): SortKey[] {
  if (raw === undefined || raw === null) return [];
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [raw];
  return items.map((item): SortKey => {
    if (typeof item === 'string') {
      const [field, order] = item.split(':');
      return { field: field!, order: (order ?? (field === '_score' ? 'desc' : 'asc')) === 'desc' ? 'desc' : 'asc', missing: '_last', unmappedType: null };
    }
    if (!isObject(item)) throw parsingError('[sort] malformed');
    const [field, spec] = Object.entries(item)[0] ?? [];
    if (field === undefined) throw parsingError('[sort] malformed');
    const options = isObject(spec) ? spec : { order: spec };
    const order = String(options.order ?? (field === '_score' ? 'desc' : 'asc'));
    if (order !== 'asc' && order !== 'desc') throw illegalArgument(`Unknown SortOrder [${order}]`);
    return { field, order, missing: options.missing === '_first' ? '_first' : '_last', unmappedType: typeof options.unmapped_type === 'string' ? options.unmapped_type : null };
  });
}

function checkSortable(key: SortKey, scopes: IndexScope[]): void {
  if (key.field === '_score' || key.field === '_doc') return;
  for (const scope of scopes) {
    const field = scope.field(key.field);
    if (!field) {
      if (key.unmappedType === null) throw shardFailure(scope.index, { type: 'query_shard_exception', reason: `No mapping found for [${key.field}] in order to sort on`, index_uuid: scope.index.uuid, index: scope.index.name }, nodeOfShard(scope.index, 0));
      continue;
    }
    if (isText(field.type)) throw shardFailure(scope.index, fielddataDisabled(key.field, scope.index.name), nodeOfShard(scope.index, 0));
  }
}

function sortValue(hit: Hit, key: SortKey): string | number | null {
  if (key.field === '_score') return hit.score;
  if (key.field === '_doc') return hit.doc.order;
  const field = hit.scope.field(key.field);
  if (!field) return null;
  const values = hit.scope.values(hit.doc, field).map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
  if (values.length === 0) return null;
  // Multi-valued fields sort by their smallest value ascending, their largest descending.
  return values.reduce((a, b) => ((key.order === 'asc' ? b < a : b > a) ? b : a));
}

function normaliseAfter(value: unknown, key: SortKey, scopes: IndexScope[]): string | number | null {
  if (value === null || value === undefined) return null;
  const field = scopes.map((s) => s.field(key.field)).find((f) => f !== null);
  if (typeof value === 'string' && field && (field.type === 'date' || field.type === 'long' || field.type === 'double' || field.type === 'float' || field.type === 'integer')) return Number(value);
  return value as string | number;
}

function compareValues(a: string | number | null, b: string | number | null, key: SortKey): number {
  if (a === null || b === null) {
    if (a === b) return 0;
    const missingFirst = key.missing === '_first';
    return (a === null) === missingFirst ? -1 : 1;
  }
  const sign = key.order === 'asc' ? 1 : -1;
  return a < b ? -sign : a > b ? sign : 0;
}

interface RenderOptions {
  sourceFilter: SourceFilter;
  body: Json;
  scores: boolean;
  sortKeys: ((hit: Hit) => (string | number | null)[]) | null;
}

function renderHit(hit: Hit, options: RenderOptions, compiled: Compiled): Json {
  const { doc, scope } = hit;
  const out: Json = {};
  if (options.body.explain === true) {
    out._shard = `[${scope.index.name}][0]`;
    out._node = nodeOfShard(scope.index, 0);
  }
  out._index = scope.index.name;
  out._id = doc.id;
  if (options.body.version === true) out._version = doc.version;
  if (options.body.seq_no_primary_term === true) {
    out._seq_no = doc.seqNo;
    out._primary_term = 1;
  }
  out._score = options.scores ? hit.score : null;
  if (options.sourceFilter !== false) out._source = filterSource(doc.source, options.sourceFilter);
  const highlight = options.body.highlight === undefined ? null : highlightDoc(options.body.highlight, scope, doc, compiled.terms);
  if (highlight) out.highlight = highlight;
  if (options.sortKeys) out.sort = options.sortKeys(hit);
  if (options.body.explain === true) {
    out._explanation = { value: hit.score, description: 'sum of BM25 term scores (k1=1.2, b=0.75) over whole-index statistics; constant scores for filters and term-level queries', details: [] };
  }
  return out;
}

function profileShard(scope: IndexScope, shard: number): Json {
  return {
    id: `[${nodeOfShard(scope.index, shard)}][${scope.index.name}][${shard}]`,
    node_id: nodeOfShard(scope.index, shard), shard_id: shard, index: scope.index.name, cluster: '(local)',
    searches: [{ query: [], rewrite_time: 0, collector: [] }],
    aggregations: [],
  };
}
