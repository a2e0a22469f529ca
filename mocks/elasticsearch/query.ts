import { dateMath } from './dates.js';
import { isNumeric, isText, wildcardRegex, type ResolvedField } from './fields.js';
import { badRequest, parsingError, type DocDoc } from './model.js';
import { parseQueryString } from './query-string.js';
import { analyze, idf, indexedValue, tfNorm, type IndexScope } from './scope.js';

/**
 * The query DSL: each clause compiles, against one index, to a function from a document to its
 * score (null: no match). Scores are Lucene's BM25 over whole-index statistics; filters and
 * term-level queries on non-text fields score a constant, as Lucene's do.
 */
export type Scorer = (doc: DocDoc) => number | null;

/** What a query looked for in each field: the highlighter marks these terms. */
export type HighlightTerms = Map<string, Set<string>>;

export interface Compiled {
  score: Scorer;
  terms: HighlightTerms;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export function compileQuery(query: unknown, scope: IndexScope): Compiled {
  const terms: HighlightTerms = new Map();
  const score = compile(query ?? { match_all: {} }, scope, terms);
  return { score, terms };
}

function compile(query: unknown, scope: IndexScope, terms: HighlightTerms): Scorer {
  if (!isObject(query)) throw parsingError('[_na] query malformed, must start with start_object');
  const keys = Object.keys(query);
  if (keys.length !== 1) throw parsingError(keys.length === 0 ? 'query malformed, empty clause found' : `[${keys[0]}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]`);
  const type = keys[0]!;
  const body = query[type];
  switch (type) {
    case 'match_all': return constant(boostOf(body));
    case 'match_none': return () => null;
    case 'bool': return compileBool(body, scope, terms);
    case 'match': return fieldQuery(type, body, 'query', (field, spec) => matchScorer(scope, field, spec, terms));
    case 'match_phrase': return fieldQuery(type, body, 'query', (field, spec) => phraseScorer(scope, field, String(spec.query ?? ''), boostOf(spec), terms));
    case 'match_phrase_prefix': return fieldQuery(type, body, 'query', (field, spec) => phraseScorer(scope, field, String(spec.query ?? ''), boostOf(spec), terms, true));
    case 'multi_match': return compileMultiMatch(body, scope, terms);
    case 'term': return fieldQuery(type, body, 'value', (field, spec) => termScorer(scope, field, spec.value, boostOf(spec), terms));
    case 'terms': return compileTerms(body, scope, terms);
    case 'range': return fieldQuery(type, body, null, (field, spec) => rangeScorer(scope, field, spec));
    case 'exists': return compileExists(body, scope);
    case 'prefix': return fieldQuery(type, body, 'value', (field, spec) => patternScorer(scope, field, (s) => s.startsWith(norm(spec, String(spec.value))), boostOf(spec), spec));
    case 'wildcard': return fieldQuery(type, body, 'value', (field, spec) => {
      const regex = wildcardRegex(String(spec.value ?? spec.wildcard ?? '').replace(/\?/g, '\u0000'), spec.case_insensitive === true ? 'i' : '');
      const fixed = new RegExp(regex.source.replace(/\u0000/g, '.'), regex.flags);
      return patternScorer(scope, field, (s) => fixed.test(s), boostOf(spec), spec);
    });
    case 'ids': return compileIds(body);
    case 'constant_score': {
      if (!isObject(body) || body.filter === undefined) throw parsingError('[constant_score] requires a \'filter\' element');
      const inner = compile(body.filter, scope, terms);
      const boost = boostOf(body);
      return (doc) => (inner(doc) === null ? null : boost);
    }
    case 'dis_max': {
      if (!isObject(body) || !Array.isArray(body.queries)) throw parsingError('[dis_max] requires \'queries\' field with at least one clause');
      const inner = body.queries.map((q) => compile(q, scope, terms));
      const tie = typeof body.tie_breaker === 'number' ? body.tie_breaker : 0;
      return (doc) => combineMax(inner.map((s) => s(doc)), tie, boostOf(body));
    }
    case 'query_string':
    case 'simple_query_string': return compileQueryString(type, body, scope, terms);
    default: throw parsingError(`unknown query [${type}]`);
  }
}

function constant(value: number): Scorer {
  return () => value;
}

function boostOf(body: unknown): number {
  return isObject(body) && typeof body.boost === 'number' ? body.boost : 1;
}

/** `{field: value}` or `{field: {query|value: …, …}}`: the one field a leaf query names. */
function fieldQuery(type: string, body: unknown, short: string | null, make: (field: string, spec: Json) => Scorer): Scorer {
  if (!isObject(body)) throw parsingError(`[${type}] query malformed, no start_object after query name`);
  const fields = Object.keys(body).filter((key) => key !== 'boost' && key !== '_name');
  if (fields.length !== 1) throw parsingError(`[${type}] query doesn't support multiple fields, found [${fields[0]}] and [${fields[1]}]`);
  const field = fields[0]!;
  const raw = body[field];
  const spec: Json = isObject(raw) ? raw : short === null ? {} : { [short]: raw };
  if (isObject(raw) && typeof body.boost === 'number' && spec.boost === undefined) spec.boost = body.boost;
  return make(field, spec);
}

function note(terms: HighlightTerms, field: string, tokens: Iterable<string>): void {
  const set = terms.get(field) ?? new Set<string>();
  for (const token of tokens) set.add(token);
  terms.set(field, set);
}

/** `minimum_should_match`: `2`, `-1`, `75%`, `-25%` of `optional` clauses. */
export function minimumShouldMatch(spec: unknown, optional: number): number {
  if (spec === undefined || spec === null) return 1;
  const text = String(spec).trim();
  let n: number;
  if (text.endsWith('%')) {
    const pct = Number(text.slice(0, -1));
    n = pct < 0 ? optional - Math.floor((optional * -pct) / 100) : Math.floor((optional * pct) / 100);
  } else {
    const v = Number(text);
    if (!Number.isInteger(v)) throw badRequest('illegal_argument_exception', `failed to parse minimum_should_match [${text}]`);
    n = v < 0 ? optional + v : v;
  }
  return Math.max(0, Math.min(optional, n));
}

function matchScorer(scope: IndexScope, path: string, spec: Json, terms: HighlightTerms): Scorer {
  const field = scope.field(path);
  if (!field) return () => null;
  const boost = boostOf(spec);
  const query = spec.query;
  if (!isText(field.type)) return termScorer(scope, path, query, boost, terms, true);
  const tokens = analyze(String(query ?? ''));
  if (tokens.length === 0) return () => null;
  note(terms, field.path, tokens);
  const and = String(spec.operator ?? 'or').toLowerCase() === 'and';
  const unique = [...new Set(tokens)];
  const min = and ? unique.length : minimumShouldMatch(spec.minimum_should_match, unique.length) || 1;
  const perTerm = unique.map((token) => textTermScorer(scope, field, token, 1));
  return (doc) => {
    let sum = 0;
    let matched = 0;
    for (const scorer of perTerm) {
      const s = scorer(doc);
      if (s !== null) {
        matched++;
        sum += s;
      }
    }
    return matched >= min ? sum * boost : null;
  };
}

function textTermScorer(scope: IndexScope, field: ResolvedField, token: string, boost: number): Scorer {
  const stats = scope.stats(field);
  const weight = idf(stats.docCount, stats.df.get(token) ?? 0) * boost;
  return (doc) => {
    const tokens = scope.tokens(doc, field);
    const tf = tokens.positions.get(token)?.length ?? 0;
    return tf === 0 ? null : weight * tfNorm(tf, tokens.length, stats.avgLength);
  };
}

function phraseScorer(scope: IndexScope, path: string, text: string, boost: number, terms: HighlightTerms, prefix = false): Scorer {
  const field = scope.field(path);
  if (!field) return () => null;
  if (!isText(field.type)) return termScorer(scope, path, text, boost, terms, true);
  const tokens = analyze(text);
  if (tokens.length === 0) return () => null;
  note(terms, field.path, tokens);
  const stats = scope.stats(field);
  const weight = tokens.reduce((sum, token) => sum + idf(stats.docCount, stats.df.get(token) ?? 0), 0) * boost;
  return (doc) => {
    const own = scope.tokens(doc, field);
    const last = tokens.length - 1;
    const starts = own.positions.get(tokens[0]!) ?? [];
    let freq = 0;
    for (const start of starts) {
      let ok = true;
      for (let i = 1; i <= last && ok; i++) {
        const want = tokens[i]!;
        if (prefix && i === last) {
          ok = [...own.positions].some(([term, list]) => term.startsWith(want) && list.includes(start + i));
        } else {
          ok = own.positions.get(want)?.includes(start + i) ?? false;
        }
      }
      if (ok) freq++;
    }
    return freq === 0 ? null : weight * tfNorm(freq, own.length, stats.avgLength);
  };
}

/** A term on any field: tokens of text fields, the indexed value of others. `lenient` ignores values the field cannot hold. */
function termScorer(scope: IndexScope, path: string, value: unknown, boost: number, terms: HighlightTerms, lenient = false): Scorer {
  const field = scope.field(path);
  if (!field) return () => null;
  if (isText(field.type)) {
    const token = String(value);
    note(terms, field.path, [token.toLowerCase()]);
    return textTermScorer(scope, field, token, boost);
  }
  const wanted = indexedValue(value, field);
  if (wanted === null) {
    if (lenient || field.type === 'keyword') return () => null;
    throw new QueryShardError(`failed to create query: For input string: "${String(value)}"`);
  }
  note(terms, field.path, [String(wanted)]);
  if (field.type === 'keyword' || field.type === 'wildcard') {
    const stats = scope.stats(field);
    const weight = idf(stats.docCount, stats.df.get(String(wanted)) ?? 0) * boost;
    return (doc) => {
      const tf = scope.values(doc, field).filter((v) => v === wanted).length;
      return tf === 0 ? null : weight * tfNorm(tf, 1, 1, false);
    };
  }
  return (doc) => (scope.values(doc, field).some((v) => v === wanted) ? boost : null);
}

/** Elasticsearch's `query_shard_exception` (a value the field cannot hold), raised per shard. */
export class QueryShardError extends Error {}

function compileTerms(body: unknown, scope: IndexScope, terms: HighlightTerms): Scorer {
  if (!isObject(body)) throw parsingError('[terms] query malformed, no start_object after query name');
  const fields = Object.keys(body).filter((key) => key !== 'boost' && key !== '_name');
  if (fields.length !== 1) throw parsingError(`[terms] query does not support multiple fields`);
  const path = fields[0]!;
  const values = body[path];
  if (!Array.isArray(values)) throw parsingError(`[terms] query does not support [${path}]`);
  const scorers = values.map((value) => termScorer(scope, path, value, 1, terms, true));
  const boost = boostOf(body);
  return (doc) => (scorers.some((s) => s(doc) !== null) ? boost : null);
}

function rangeScorer(scope: IndexScope, path: string, spec: Json): Scorer {
  const field = scope.field(path);
  if (!field) return () => null;
  const boost = boostOf(spec);
  const bound = (key: 'gt' | 'gte' | 'lt' | 'lte' | 'from' | 'to'): number | string | null => {
    const raw = spec[key];
    if (raw === undefined || raw === null) return null;
    if (field.type === 'date') {
      const t = dateMath(raw, scope.nowMs, key === 'lte' || key === 'gt' || key === 'to');
      if (t === null) throw new QueryShardError(`failed to parse date field [${String(raw)}] with format [strict_date_optional_time||epoch_millis]`);
      return t;
    }
    if (isNumeric(field.type)) {
      const n = Number(raw);
      if (!Number.isFinite(n)) throw new QueryShardError(`failed to create query: For input string: "${String(raw)}"`);
      return n;
    }
    return String(raw);
  };
  const gt = bound('gt');
  const gte = bound('gte') ?? bound('from');
  const lt = bound('lt');
  const lte = bound('lte') ?? bound('to');
  const inRange = (v: string | number | boolean): boolean => {
    if (typeof v === 'boolean') return false;
    if (gt !== null && !(v > gt)) return false;
    if (gte !== null && !(v >= gte)) return false;
    if (lt !== null && !(v < lt)) return false;
    if (lte !== null && !(v <= lte)) return false;
    return true;
  };
  return (doc) => {
    const values = isText(field.type) ? [...scope.tokens(doc, field).positions.keys()] : scope.values(doc, field);
    return values.some(inRange) ? boost : null;
  };
}

function compileExists(body: unknown, scope: IndexScope): Scorer {
  if (!isObject(body) || typeof body.field !== 'string') throw parsingError('[exists] must be provided with a [field]');
  const fields = scope.fields(body.field);
  const boost = boostOf(body);
  return (doc) => (fields.some((field) => (isText(field.type) ? scope.tokens(doc, field).length > 0 : scope.values(doc, field).length > 0)) ? boost : null);
}

function norm(spec: Json, value: string): string {
  return spec.case_insensitive === true ? value.toLowerCase() : value;
}

function patternScorer(scope: IndexScope, path: string, test: (s: string) => boolean, boost: number, spec: Json): Scorer {
  const field = scope.field(path);
  if (!field) return () => null;
  const insensitive = spec.case_insensitive === true;
  return (doc) => {
    const values = isText(field.type) ? [...scope.tokens(doc, field).positions.keys()] : scope.values(doc, field).map(String);
    return values.some((v) => test(insensitive ? v.toLowerCase() : v)) ? boost : null;
  };
}

function compileIds(body: unknown): Scorer {
  if (!isObject(body) || !Array.isArray(body.values)) throw parsingError('[ids] query malformed, no [values] field');
  const wanted = new Set(body.values.map(String));
  const boost = boostOf(body);
  return (doc) => (wanted.has(doc.id) ? boost : null);
}

const clauses = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function compileBool(body: unknown, scope: IndexScope, terms: HighlightTerms): Scorer {
  if (!isObject(body)) throw parsingError('[bool] query malformed, no start_object after query name');
  for (const key of Object.keys(body)) {
    if (!['must', 'filter', 'should', 'must_not', 'minimum_should_match', 'boost', '_name', 'adjust_pure_negative'].includes(key)) throw parsingError(`[bool] query does not support [${key}]`);
  }
  const must = clauses(body.must).map((q) => compile(q, scope, terms));
  const filter = clauses(body.filter).map((q) => compile(q, scope, new Map()));
  const should = clauses(body.should).map((q) => compile(q, scope, terms));
  const mustNot = clauses(body.must_not).map((q) => compile(q, scope, new Map()));
  const required = must.length + filter.length > 0;
  const min = body.minimum_should_match === undefined ? (required ? 0 : should.length > 0 ? 1 : 0) : minimumShouldMatch(body.minimum_should_match, should.length);
  const boost = boostOf(body);
  return (doc) => {
    let sum = 0;
    for (const scorer of must) {
      const s = scorer(doc);
      if (s === null) return null;
      sum += s;
    }
    for (const scorer of filter) if (scorer(doc) === null) return null;
    for (const scorer of mustNot) if (scorer(doc) !== null) return null;
    let matched = 0;
    for (const scorer of should) {
      const s = scorer(doc);
      if (s !== null) {
        matched++;
        sum += s;
      }
    }
    if (matched < min) return null;
    return sum * boost;
  };
}

function combineMax(scores: (number | null)[], tie: number, boost: number): number | null {
  const hits = scores.filter((s): s is number => s !== null);
  if (hits.length === 0) return null;
  const max = Math.max(...hits);
  return (max + tie * (hits.reduce((a, b) => a + b, 0) - max)) * boost;
}

/** `title^2` → the fields it names and their boost. */
function weightedFields(scope: IndexScope, specs: readonly string[]): { field: ResolvedField; boost: number }[] {
  const out: { field: ResolvedField; boost: number }[] = [];
  for (const spec of specs) {
    const [pattern, boost] = spec.split('^');
    const fields = pattern === '*' ? scope.defaultFields() : scope.fields(pattern!);
    for (const field of fields) out.push({ field, boost: boost === undefined ? 1 : Number(boost) });
  }
  return out;
}

function compileMultiMatch(body: unknown, scope: IndexScope, terms: HighlightTerms): Scorer {
  if (!isObject(body) || body.query === undefined) throw parsingError('[multi_match] requires query value');
  const specs = Array.isArray(body.fields) ? body.fields.map(String) : ['*'];
  const type = String(body.type ?? 'best_fields');
  const fields = weightedFields(scope, specs);
  const perField = fields.map(({ field, boost }) => {
    const spec: Json = { query: body.query, operator: body.operator, minimum_should_match: body.minimum_should_match, boost };
    if (type === 'phrase' || type === 'phrase_prefix') return phraseScorer(scope, field.path, String(body.query), boost, terms, type === 'phrase_prefix');
    return isText(field.type) ? matchScorer(scope, field.path, spec, terms) : termScorer(scope, field.path, body.query, boost, terms, true);
  });
  const boost = boostOf(body);
  if (type === 'most_fields') {
    return (doc) => {
      const hits = perField.map((s) => s(doc)).filter((s): s is number => s !== null);
      return hits.length === 0 ? null : hits.reduce((a, b) => a + b, 0) * boost;
    };
  }
  const tie = typeof body.tie_breaker === 'number' ? body.tie_breaker : 0;
  return (doc) => combineMax(perField.map((s) => s(doc)), tie, boost);
}

/** `query_string` and `simple_query_string`: Lucene's syntax (query-string.ts) over `fields`/`default_field`. */
function compileQueryString(type: string, body: unknown, scope: IndexScope, terms: HighlightTerms): Scorer {
  if (!isObject(body) || typeof body.query !== 'string') throw parsingError(`[${type}] must be provided with a [query]`);
  const specs = Array.isArray(body.fields) ? body.fields.map(String) : [typeof body.default_field === 'string' ? body.default_field : '*'];
  const defaults = weightedFields(scope, specs);
  const and = String(body.default_operator ?? 'or').toLowerCase() === 'and';
  const node = parseQueryString(body.query, type === 'simple_query_string');
  const leaf = (field: string | null, text: string, kind: 'term' | 'phrase' | 'pattern'): Scorer => {
    const targets = field === null ? defaults : weightedFields(scope, [field]);
    const per = targets.map(({ field: f, boost }) => {
      if (kind === 'phrase') return phraseScorer(scope, f.path, text, boost, terms);
      if (kind === 'pattern') {
        const regex = wildcardRegex(text.toLowerCase().replace(/\?/g, '\u0000'));
        const fixed = new RegExp(regex.source.replace(/\u0000/g, '.'));
        if (isText(f.type)) note(terms, f.path, []);
        return patternScorer(scope, f.path, (s) => fixed.test(isText(f.type) ? s : s.toLowerCase()), boost, {});
      }
      if (isText(f.type)) return matchScorer(scope, f.path, { query: text, operator: 'and', boost }, terms);
      return termScorer(scope, f.path, text, boost, terms, true);
    });
    return (doc) => combineMax(per.map((s) => s(doc)), 0, 1);
  };
  const range = (field: string, spec: Json): Scorer => {
    const per = weightedFields(scope, [field]).map(({ field: f }) => rangeScorer(scope, f.path, spec));
    return (doc) => combineMax(per.map((s) => s(doc)), 0, 1);
  };
  const score = node.compile({ leaf, range, and });
  const boost = boostOf(body);
  return (doc) => {
    const s = score(doc);
    return s === null ? null : s * boost;
  };
}
