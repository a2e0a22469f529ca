import type { FieldMapping } from './dataset.js';

/**
 * Field mappings and values: what a field path (`service.name`, `message.keyword`) means in an
 * index, dynamic mapping of new fields as Elasticsearch does it, the standard analyzer, and the
 * values a document holds for a field.
 */

export type LeafType = Exclude<FieldMapping['type'], 'object' | undefined>;

export interface ResolvedField {
  /** The full path as asked (`message.keyword`). */
  path: string;
  /** Where the value lives in `_source` (`message` for a multi-field). */
  sourcePath: string;
  type: LeafType;
  mapping: FieldMapping;
}

const TEXT_TYPES = new Set<LeafType>(['text', 'match_only_text']);
export const isText = (type: LeafType): boolean => TEXT_TYPES.has(type);
const NUMERIC_TYPES = new Set<LeafType>(['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float']);
export const isNumeric = (type: LeafType): boolean => NUMERIC_TYPES.has(type);

/** Every leaf field of a mapping, multi-fields included, in mapping order. */
export function leafFields(properties: Record<string, FieldMapping>, prefix = ''): ResolvedField[] {
  const out: ResolvedField[] = [];
  for (const [name, mapping] of Object.entries(properties)) {
    const path = prefix + name;
    if (mapping.properties || mapping.type === 'object') {
      out.push(...leafFields(mapping.properties ?? {}, `${path}.`));
      continue;
    }
    const type = (mapping.type ?? 'object') as LeafType;
    out.push({ path, sourcePath: path, type, mapping });
    for (const [sub, subMapping] of Object.entries(mapping.fields ?? {})) {
      out.push({ path: `${path}.${sub}`, sourcePath: path, type: (subMapping.type ?? 'keyword') as LeafType, mapping: subMapping });
    }
  }
  return out;
}

/** The field a path names in these mappings, or null when unmapped. */
export function resolveField(properties: Record<string, FieldMapping>, path: string): ResolvedField | null {
  return leafFields(properties).find((field) => field.path === path) ?? null;
}

/** Field paths matching a pattern with `*` (`service.*`, `*`). */
export function matchFields(properties: Record<string, FieldMapping>, pattern: string): ResolvedField[] {
  if (!pattern.includes('*')) {
    const field = resolveField(properties, pattern);
    return field ? [field] : [];
  }
  const regex = wildcardRegex(pattern);
  return leafFields(properties).filter((field) => regex.test(field.path));
}

export function wildcardRegex(pattern: string, flags = ''): RegExp {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, flags);
}

/** `strict_date_optional_time`: what dynamic mapping detects as a date in a string. */
const DATE_DETECTION = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Adds mappings for the fields of `source` that `properties` lacks, as dynamic mapping does:
 * strings become `text` with a `keyword` sub-field (`ignore_above: 256`) unless they look like a
 * date, whole numbers `long`, other numbers `float`, booleans `boolean`, objects `object`.
 * Returns the new properties (the old ones when nothing was added).
 */
export function mapDynamically(properties: Record<string, FieldMapping>, source: Record<string, unknown>): Record<string, FieldMapping> {
  let out = properties;
  for (const [name, raw] of Object.entries(source)) {
    const value = Array.isArray(raw) ? raw.find((v) => v !== null) : raw;
    if (value === null || value === undefined) continue;
    const existing = out[name];
    if (typeof value === 'object') {
      const inner = mapDynamically(existing?.properties ?? {}, value as Record<string, unknown>);
      if (!existing || inner !== existing.properties) out = { ...out, [name]: { ...(existing ?? {}), properties: inner } };
      continue;
    }
    if (existing) continue;
    out = { ...out, [name]: dynamicLeaf(value) };
  }
  return out;
}

function dynamicLeaf(value: unknown): FieldMapping {
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'long' : 'float' };
  if (typeof value === 'string' && DATE_DETECTION.test(value)) return { type: 'date' };
  return { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
}

/**
 * The values a document holds at a source path, arrays flattened. A dotted key in the source
 * (`"service.name": "x"`) is the same field as nested objects (`{"service": {"name": "x"}}`).
 */
export function valuesAt(source: Record<string, unknown>, path: string): unknown[] {
  return walk(source, path.split('.')).filter((v) => v !== null && v !== undefined && typeof v !== 'object');
}

function walk(node: unknown, parts: string[]): unknown[] {
  if (Array.isArray(node)) return node.flatMap((item) => walk(item, parts));
  if (parts.length === 0) return [node];
  if (node === null || typeof node !== 'object') return [];
  const record = node as Record<string, unknown>;
  const out: unknown[] = [];
  for (let k = parts.length; k >= 1; k--) {
    const key = parts.slice(0, k).join('.');
    if (key in record) out.push(...walk(record[key], parts.slice(k)));
  }
  return out;
}

/**
 * The standard analyzer: Unicode word segmentation (letters, digits and underscores, joined
 * across `.` and `'` inside a word, as UAX #29 keeps `v1.2`, `10.0.0.1` and `don't` whole), lower
 * cased. No stop words (the standard analyzer's default).
 */
export function analyze(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+(?:['.][\p{L}\p{N}_]+)*/gu)?.map((token) => token.toLowerCase()) ?? [];
}

/** Token positions of a text with their character offsets, for phrases and highlighting. */
export function tokensWithOffsets(text: string): { token: string; start: number; end: number }[] {
  const out: { token: string; start: number; end: number }[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}_]+(?:['.][\p{L}\p{N}_]+)*/gu)) {
    out.push({ token: match[0].toLowerCase(), start: match.index!, end: match.index! + match[0].length });
  }
  return out;
}

/** A keyword value: the string as indexed (null above `ignore_above`, as it is not indexed). */
export function keywordValue(value: unknown, mapping: FieldMapping): string | null {
  const text = typeof value === 'string' ? value : String(value);
  if (mapping.ignore_above !== undefined && text.length > mapping.ignore_above) return null;
  return text;
}
