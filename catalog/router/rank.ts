import { qualifiedName } from './names.js';

/** A tool as a snapshot (or a server's tools/list) gives it; the index reads these fields. */
export interface IndexedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  [field: string]: unknown;
}

export interface ToolEntry {
  endpoint: string;
  tool: IndexedTool;
}

export interface RankedTool extends ToolEntry {
  /** `endpoint__tool`. */
  name: string;
  score: number;
}

/**
 * How much a word counts by where it stands (BM25F: each field's term frequency is normalised by
 * that field's own length, weighted, and only then saturated, so a long description does not
 * drown a match in the name). A word of the tool's name says most about what it does; one of its
 * owning endpoint's id or its parameters' names less; the description, long and chatty, least.
 */
export const FIELD_WEIGHTS = { name: 3, endpoint: 2, parameters: 1.5, description: 1 } as const;
type Field = keyof typeof FIELD_WEIGHTS;
const FIELDS = Object.keys(FIELD_WEIGHTS) as Field[];

/**
 * Length normalisation per field (BM25's b): full for the free-text fields; half for names (a
 * long name is a more specific tool, not a diluted one); none for the endpoint id.
 */
const FIELD_B: Record<Field, number> = { name: 0.5, endpoint: 0, parameters: 0.75, description: 0.75 };

/** BM25's term saturation (Robertson and Zaragoza's usual value). */
const K1 = 1.2;

const STOPWORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'is', 'it', 'of', 'on', 'or', 'that', 'the', 'this', 'to', 'with']);

/**
 * Words of a name, description or query: camelCase and snake_case split, lower case, stopwords
 * dropped, plurals folded (`listPullRequests` → list, pull, request).
 */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0 && !STOPWORDS.has(word))
    .map(stem);
}

/** A light plural folding (issues → issue, policies → policy), so a query need not guess the number. */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Every property name in an input schema, nested objects, array items and alternatives included. */
export function parameterNames(schema: unknown, depth = 0): string[] {
  if (!schema || typeof schema !== 'object' || depth > 5) return [];
  const node = schema as Record<string, unknown>;
  const names: string[] = [];
  const properties = node.properties;
  if (properties && typeof properties === 'object') {
    for (const [name, inner] of Object.entries(properties as Record<string, unknown>)) names.push(name, ...parameterNames(inner, depth + 1));
  }
  const items = node.items;
  if (items) names.push(...(Array.isArray(items) ? items : [items]).flatMap((inner) => parameterNames(inner, depth + 1)));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const alternatives = node[key];
    if (Array.isArray(alternatives)) names.push(...alternatives.flatMap((inner) => parameterNames(inner, depth + 1)));
  }
  return names;
}

interface Document extends ToolEntry {
  name: string;
  /** Each term's pseudo frequency: field frequencies, length-normalised and weighted, summed. */
  terms: Map<string, number>;
}

/**
 * BM25F over every tool of every endpoint: names, descriptions and parameter names. Pure and
 * deterministic: equal scores (the same words in the same fields) are ordered by qualified name.
 */
export class ToolIndex {
  private readonly documents: Document[];
  /** In how many documents each term occurs. */
  private readonly frequency = new Map<string, number>();
  private readonly byName = new Map<string, Document>();

  constructor(entries: readonly ToolEntry[]) {
    const fielded = entries.map((entry) => ({
      entry,
      words: {
        name: tokenize(entry.tool.name),
        endpoint: tokenize(entry.endpoint),
        parameters: parameterNames(entry.tool.inputSchema).flatMap(tokenize),
        description: tokenize(typeof entry.tool.description === 'string' ? entry.tool.description : ''),
      } satisfies Record<Field, string[]>,
    }));
    // Sums of whole numbers, so the same in any order of entries.
    const average = Object.fromEntries(FIELDS.map((field) =>
      [field, fielded.reduce((sum, d) => sum + d.words[field].length, 0) / Math.max(1, fielded.length)])) as Record<Field, number>;
    this.documents = fielded.map(({ entry, words }) => {
      const terms = new Map<string, number>();
      for (const field of FIELDS) {
        const norm = average[field] > 0 ? 1 - FIELD_B[field] + (FIELD_B[field] * words[field].length) / average[field] : 1;
        const counts = new Map<string, number>();
        for (const word of words[field]) counts.set(word, (counts.get(word) ?? 0) + 1);
        for (const [word, count] of counts) terms.set(word, (terms.get(word) ?? 0) + (FIELD_WEIGHTS[field] * count) / norm);
      }
      return { ...entry, name: qualifiedName(entry.endpoint, entry.tool.name), terms };
    });
    for (const document of this.documents) {
      this.byName.set(document.name, document);
      for (const term of document.terms.keys()) this.frequency.set(term, (this.frequency.get(term) ?? 0) + 1);
    }
  }

  get size(): number {
    return this.documents.length;
  }

  /**
   * The `limit` best tools for `query`, and how many matched at all (none when no word of it
   * occurs anywhere).
   */
  search(query: string, limit: number): { matched: number; tools: RankedTool[] } {
    const terms = [...new Set(tokenize(query))];
    const n = this.documents.length;
    const idf = terms.map((term) => {
      const df = this.frequency.get(term) ?? 0;
      return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    });
    const scored: RankedTool[] = [];
    for (const document of this.documents) {
      let score = 0;
      terms.forEach((term, i) => {
        const tf = document.terms.get(term);
        if (tf !== undefined) score += (idf[i]! * tf * (K1 + 1)) / (K1 + tf);
      });
      if (score > 0) scored.push({ endpoint: document.endpoint, tool: document.tool, name: document.name, score });
    }
    scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { matched: scored.length, tools: scored.slice(0, limit) };
  }

  /** The tool a qualified name stands for, if indexed. */
  find(name: string): ToolEntry | undefined {
    const document = this.byName.get(name);
    return document && { endpoint: document.endpoint, tool: document.tool };
  }
}
