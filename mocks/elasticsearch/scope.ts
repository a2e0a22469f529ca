import type { FieldMapping } from './dataset.js';
import { parseDate } from './dates.js';
import { analyze, isNumeric, isText, keywordValue, leafFields, matchFields, resolveField, tokensWithOffsets, valuesAt, type ResolvedField } from './fields.js';
import type { DocDoc, IndexDoc } from './model.js';

/** Lucene's BM25 defaults, as Elasticsearch's `similarity` uses them. */
export const K1 = 1.2;
export const B = 0.75;

/** Positions between the values of an array field (`position_increment_gap`): phrases never span two values. */
const POSITION_GAP = 100;

export interface FieldStats {
  /** Documents with at least one token in the field (Lucene's docCount). */
  docCount: number;
  /** Average field length in tokens. */
  avgLength: number;
  /** Documents containing each term. */
  df: Map<string, number>;
}

export interface Tokens {
  /** Each term's positions in the field. */
  positions: Map<string, number[]>;
  length: number;
}

/**
 * One index as a search sees it: its mappings, its documents in Lucene order, and (computed on
 * first use, for this search only) each field's tokens and term statistics. Statistics are the
 * whole index's, as with `dfs_query_then_fetch`: scores do not depend on how documents fall on
 * shards (docs/elasticsearch-mock.md).
 */
export class IndexScope {
  private readonly tokenCache = new Map<string, Tokens>();
  private readonly statsCache = new Map<string, FieldStats>();
  readonly properties: Record<string, FieldMapping>;

  constructor(readonly index: IndexDoc, readonly docs: readonly DocDoc[], readonly nowMs: number) {
    this.properties = index.properties;
  }

  field(path: string): ResolvedField | null {
    return resolveField(this.properties, path);
  }

  fields(pattern: string): ResolvedField[] {
    return matchFields(this.properties, pattern);
  }

  /** The fields a query without a field searches (`index.query.default_field: *`): every text and keyword field. */
  defaultFields(): ResolvedField[] {
    return leafFields(this.properties).filter((field) => isText(field.type) || field.type === 'keyword' || field.type === 'wildcard' || field.type === 'constant_keyword');
  }

  /** The analyzed tokens of a text field in one document. */
  tokens(doc: DocDoc, field: ResolvedField): Tokens {
    const key = `${doc.order}\u0000${field.path}`;
    let found = this.tokenCache.get(key);
    if (!found) {
      const positions = new Map<string, number[]>();
      let position = 0;
      for (const value of valuesAt(doc.source, field.sourcePath)) {
        for (const token of analyze(String(value))) {
          const list = positions.get(token) ?? [];
          list.push(position++);
          positions.set(token, list);
        }
        position += POSITION_GAP;
      }
      let length = 0;
      for (const list of positions.values()) length += list.length;
      found = { positions, length };
      this.tokenCache.set(key, found);
    }
    return found;
  }

  /** The values of a non-text field in one document, as indexed (keywords as strings, numbers and dates as numbers). */
  values(doc: DocDoc, field: ResolvedField): (string | number | boolean)[] {
    const out: (string | number | boolean)[] = [];
    for (const value of valuesAt(doc.source, field.sourcePath)) {
      const indexed = indexedValue(value, field);
      if (indexed !== null) out.push(indexed);
    }
    return out;
  }

  stats(field: ResolvedField): FieldStats {
    let found = this.statsCache.get(field.path);
    if (!found) {
      let docCount = 0;
      let total = 0;
      const df = new Map<string, number>();
      for (const doc of this.docs) {
        if (isText(field.type)) {
          const tokens = this.tokens(doc, field);
          if (tokens.length === 0) continue;
          docCount++;
          total += tokens.length;
          for (const term of tokens.positions.keys()) df.set(term, (df.get(term) ?? 0) + 1);
        } else {
          const values = this.values(doc, field);
          if (values.length === 0) continue;
          docCount++;
          total += values.length;
          for (const term of new Set(values.map(String))) df.set(term, (df.get(term) ?? 0) + 1);
        }
      }
      found = { docCount, avgLength: docCount === 0 ? 1 : total / docCount, df };
      this.statsCache.set(field.path, found);
    }
    return found;
  }

  /** Character offsets of each token of a text value (highlighting). */
  offsets(text: string): { token: string; start: number; end: number }[] {
    return tokensWithOffsets(text);
  }
}

/** A source value as a non-text field indexes it; null when it would not be indexed (malformed, or above `ignore_above`). */
export function indexedValue(value: unknown, field: ResolvedField): string | number | boolean | null {
  if (isNumeric(field.type)) {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    if (!Number.isFinite(n)) return null;
    return ['long', 'integer', 'short', 'byte'].includes(field.type) ? Math.trunc(n) : n;
  }
  if (field.type === 'date') return parseDate(value);
  if (field.type === 'boolean') return value === true || value === 'true' ? true : value === false || value === 'false' ? false : null;
  if (field.type === 'constant_keyword') return field.mapping.value ?? null;
  return keywordValue(value, field.mapping);
}

/** BM25's idf: ln(1 + (N − n + 0.5) / (n + 0.5)). */
export function idf(docCount: number, df: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/** BM25's term-frequency part with length normalisation (Lucene 8+: no (k1 + 1) factor). */
export function tfNorm(tf: number, length: number, avgLength: number, norms = true): number {
  const norm = norms ? 1 - B + B * (length / avgLength) : 1;
  return tf / (tf + K1 * norm);
}

export { analyze };
