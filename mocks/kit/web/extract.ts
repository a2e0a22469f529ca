import { plainText, type PageDoc } from './corpus.js';
import { tokenize } from './search.js';

/**
 * Structured extraction without a language model: the values a JSON schema asks for, read from
 * what a page states (`Label: value` lines, two-column tables, the rows of wider tables). A field
 * whose label the page never gives is null, so an extraction never states a fact the page lacks
 * (Firecrawl's JSON format, extract and agent; docs/web-mock.md). Pure and deterministic.
 */

export type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema; description?: string; required?: string[]; enum?: unknown[] };

/** A statement of the page: a label and its value, in page order. */
interface Fact { label: string; value: string }
/** A table with its header and rows (cells as plain text). */
interface Table { header: string[]; rows: string[][] }

const FACTS = new WeakMap<PageDoc, { facts: Fact[]; tables: Table[] }>();

/** `**Released:** 14 March 2025`, `- Default pool: 25`, and table rows, computed once per stored page. */
function statements(page: PageDoc): { facts: Fact[]; tables: Table[] } {
  let found = FACTS.get(page);
  if (found) return found;
  const facts: Fact[] = [{ label: 'title', value: page.title }];
  const tables: Table[] = [];
  let table: string[][] = [];
  const flush = () => {
    if (table.length >= 2) {
      const [header, ...rows] = table;
      tables.push({ header: header!, rows });
      if (header!.length === 2) for (const [label, value] of [header!, ...rows]) facts.push({ label: label!, value: value! });
      else for (const row of rows) for (let i = 1; i < row.length; i++) facts.push({ label: `${row[0]} ${header![i] ?? ''}`, value: row[i]! });
    }
    table = [];
  };
  for (const raw of page.markdown.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('|')) {
      if (!/^\|?\s*:?-{3,}/.test(line)) table.push(line.replace(/^\||\|$/g, '').split('|').map((cell) => plainText(cell.trim())));
      continue;
    }
    flush();
    const m = /^(?:[-*+]\s+)?(?:\*\*|__)?([^:*_|#\n]{1,60}?)(?::(?:\*\*|__)|(?:\*\*|__)?:)\s*(.+)$/.exec(line);
    if (m && !/https?$/i.test(m[1]!)) facts.push({ label: plainText(m[1]!), value: plainText(m[2]!).replace(/\*\*/g, '').trim().replace(/[.;,]$/, '') });
  }
  flush();
  if (page.published) facts.push({ label: 'published date', value: page.published });
  if (page.author) facts.push({ label: 'author', value: page.author });
  found = { facts, tables };
  FACTS.set(page, found);
  return found;
}

/** The words of a property name: `maxConnections`, `max_connections`, `Max connections` alike. */
function nameWords(name: string): string[] {
  return tokenize(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' '));
}

/** How well a label names a property (0..1): shared words over all words, the name's or its description's. */
function labelScore(label: string, key: string, schema: JsonSchema): number {
  const l = new Set(tokenize(label));
  if (l.size === 0) return 0;
  let best = 0;
  for (const words of [nameWords(key), schema.description ? tokenize(schema.description) : []]) {
    const w = new Set(words);
    if (w.size === 0) continue;
    const shared = [...w].filter((x) => l.has(x)).length;
    best = Math.max(best, shared / new Set([...w, ...l]).size);
  }
  return best;
}

const typeOf = (schema: JsonSchema): string => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') ?? 'string' : schema.type ?? (schema.properties ? 'object' : 'string'));

/** A value as the schema's type, or null when it does not read as one. */
function coerce(value: string, schema: JsonSchema): unknown {
  const type = typeOf(schema);
  if (type === 'number' || type === 'integer') {
    const m = /-?\d[\d,]*(\.\d+)?/.exec(value);
    if (!m) return null;
    const n = Number(m[0].replace(/,/g, ''));
    return type === 'integer' ? Math.trunc(n) : n;
  }
  if (type === 'boolean') {
    if (/^(yes|true|enabled|on|supported|available)\b/i.test(value)) return true;
    if (/^(no|false|disabled|off|unsupported|not\b|none)\b/i.test(value)) return false;
    return null;
  }
  if (type === 'array') return value.split(/\s*[,;]\s*/).filter((v) => v !== '').map((v) => coerce(v, schema.items ?? { type: 'string' }));
  if (schema.enum) return schema.enum.find((e) => String(e).toLowerCase() === value.toLowerCase()) ?? null;
  return value;
}

const MATCH = 0.5;

function bestFact(facts: readonly Fact[], key: string, schema: JsonSchema): Fact | undefined {
  let best: Fact | undefined;
  let score = MATCH - 1e-9;
  for (const fact of facts) {
    const s = labelScore(fact.label, key, schema);
    if (s > score) { best = fact; score = s; }
  }
  return best;
}

/** An array of objects from the first table whose columns name the item's properties. */
function tableRecords(tables: readonly Table[], items: JsonSchema): unknown[] | null {
  const props = Object.entries(items.properties ?? {});
  for (const t of tables) {
    const columns = props.map(([key, schema]) => {
      let best = -1;
      let score = MATCH - 1e-9;
      t.header.forEach((h, i) => { const s = labelScore(h, key, schema); if (s > score) { best = i; score = s; } });
      return best;
    });
    if (columns.every((c) => c < 0)) continue;
    return t.rows.map((row) => Object.fromEntries(props.map(([key, schema], i) => [key, columns[i]! < 0 ? null : coerce(row[columns[i]!] ?? '', schema)])));
  }
  return null;
}

function extractValue(page: PageDoc, key: string, schema: JsonSchema): unknown {
  const { facts, tables } = statements(page);
  const type = typeOf(schema);
  if (type === 'object') return extractObject(page, schema);
  if (type === 'array' && typeOf(schema.items ?? {}) === 'object') return tableRecords(tables, schema.items!) ?? null;
  const fact = bestFact(facts, key, schema);
  return fact ? coerce(fact.value, schema) : null;
}

function extractObject(page: PageDoc, schema: JsonSchema): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, sub]) => [key, extractValue(page, key, sub)]));
}

/**
 * The schema's fields from one page; without a schema, every statement whose label shares a word
 * with the prompt (all of them without one), keyed in camelCase.
 */
export function extractStructured(page: PageDoc, schema: JsonSchema | undefined, prompt?: string): Record<string, unknown> {
  if (schema && (schema.properties || typeOf(schema) === 'object')) return extractObject(page, schema);
  const terms = new Set(tokenize(prompt ?? ''));
  const { facts } = statements(page);
  const chosen = facts.filter((f) => f.label !== 'title' && (terms.size === 0 || tokenize(`${f.label} ${f.value}`).some((t) => terms.has(t))));
  return Object.fromEntries((chosen.length > 0 ? chosen : facts).map((f) => [camel(f.label), f.value]));
}

/** The fields across several pages: each field from the first page that states it; arrays joined. */
export function extractAcross(pages: readonly PageDoc[], schema: JsonSchema | undefined, prompt?: string): { data: Record<string, unknown>; sources: Record<string, string[]> } {
  const data: Record<string, unknown> = {};
  const sources: Record<string, string[]> = {};
  for (const page of pages) {
    for (const [key, value] of Object.entries(extractStructured(page, schema, prompt))) {
      if (value === null || value === undefined) { if (!(key in data)) data[key] = null; continue; }
      if (Array.isArray(value) && Array.isArray(data[key])) {
        data[key] = [...(data[key] as unknown[]), ...value];
        sources[key] = [...(sources[key] ?? []), page.url];
      } else if (data[key] === null || data[key] === undefined) {
        data[key] = value;
        sources[key] = [page.url];
      }
    }
  }
  return { data, sources };
}

function camel(label: string): string {
  const words = label.replace(/[^\p{L}\p{N}]+/gu, ' ').trim().toLowerCase().split(' ').filter(Boolean);
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('') || 'value';
}
