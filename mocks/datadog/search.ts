import { ServiceError } from '../kit/index.js';

/**
 * Datadog's search syntax, the part its tools use: whitespace-separated terms, all of which must
 * hold; `key:value` (a reserved facet such as `service`, `status`, `host`, `env`, or `@attribute.path`),
 * a trailing `*` wildcard, `-` to negate, `key:(a OR b)`, and free text matched in the message.
 * Values compare case-insensitively, as Datadog's facets do.
 */

/** What a search term is tested against: facets by name (`service`, `@view.url`) and the free text. */
export interface Searchable {
  facet(name: string): readonly string[];
  text: string;
}

interface Term { negate: boolean; key: string | null; values: string[] }

export function parseSearch(query: string): Term[] {
  const terms: Term[] = [];
  // A term is `-?key:(a OR b)`, `-?key:"quoted value"`, `-?key:value` or a word/quoted phrase.
  const pattern = /(-?)(?:([@\w.\-]+):(?:\(([^)]*)\)|"([^"]*)"|(\S+))|"([^"]*)"|(\S+))/g;
  for (const m of query.matchAll(pattern)) {
    const [, neg, key, group, quoted, plain, phrase, word] = m;
    if (key !== undefined) {
      const values = group !== undefined ? group.split(/\s+OR\s+/i).map((v) => v.trim()).filter(Boolean) : [quoted ?? plain ?? ''];
      terms.push({ negate: neg === '-', key, values });
    } else {
      const text = phrase ?? word ?? '';
      if (text === '*' || /^(AND)$/i.test(text)) continue;
      terms.push({ negate: neg === '-', key: null, values: [text] });
    }
  }
  return terms;
}

function like(value: string, pattern: string): boolean {
  const v = value.toLowerCase();
  const p = pattern.toLowerCase();
  if (p === '*') return true;
  if (p.endsWith('*') && !p.slice(0, -1).includes('*')) return v.startsWith(p.slice(0, -1));
  if (p.startsWith('*') && p.endsWith('*')) return v.includes(p.slice(1, -1));
  return v === p;
}

export function matches(terms: readonly Term[], item: Searchable): boolean {
  return terms.every((term) => {
    const hit = term.key === null
      ? term.values.some((v) => item.text.toLowerCase().includes(v.replace(/\*/g, '').toLowerCase()))
      : term.values.some((v) => item.facet(term.key!).some((own) => like(own, v)));
    return term.negate ? !hit : hit;
  });
}

/** The facet values of `@a.b` in an attribute tree. */
export function attributeValues(attributes: Record<string, unknown>, path: string): string[] {
  let node: unknown = attributes;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return [];
    node = (node as Record<string, unknown>)[part];
  }
  if (node === undefined || node === null) return [];
  return Array.isArray(node) ? node.map(String) : [String(node)];
}

/** Facet values from `key:value` tags (`env:prod`, `team:payments`). */
export function tagValues(tags: readonly string[], key: string): string[] {
  return tags.filter((tag) => tag.startsWith(`${key}:`)).map((tag) => tag.slice(key.length + 1));
}

/**
 * A search window bound: epoch milliseconds (as a number string), an ISO date, `now`, or
 * `now-15m` (s, m, h, d, w). `now` is the request's logical time.
 */
export function parseTime(value: string, nowMs: number, field: string): number {
  const relative = /^now(?:-(\d+)([smhdw]))?$/.exec(value.trim());
  if (relative) {
    const unit = { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7, w: 6.048e8 }[relative[2] as 's' ?? 's'];
    return nowMs - (relative[1] === undefined ? 0 : Number(relative[1]) * unit);
  }
  if (/^\d+$/.test(value)) return Number(value);
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) throw new ServiceError(400, 'bad_request', `invalid ${field} value '${value}'`);
  return parsed;
}
