/**
 * GitHub's search syntax, the parts the mock understands: free terms (`"quoted phrases"` too),
 * `key:value` qualifiers (`label:"good first issue"`), negation with `-key:value`, and ranges
 * (`>5`, `>=2024-01-01`, `<=3`, `1..5`) for numbers and dates.
 */
export interface Qualifier {
  key: string;
  value: string;
  negated: boolean;
}

export interface SearchQuery {
  terms: string[];
  qualifiers: Qualifier[];
}

const TOKEN = /(-?)([A-Za-z][\w-]*):("([^"]*)"|\S+)|"([^"]*)"|(\S+)/g;

export function parseQuery(q: string): SearchQuery {
  const terms: string[] = [];
  const qualifiers: Qualifier[] = [];
  for (const match of q.matchAll(TOKEN)) {
    if (match[2] !== undefined) {
      qualifiers.push({ key: match[2].toLowerCase(), value: match[4] ?? match[3]!, negated: match[1] === '-' });
    } else {
      const term = match[5] ?? match[6]!;
      if (term !== '' && !/^(AND|OR|NOT)$/.test(term)) terms.push(term.toLowerCase());
    }
  }
  return { terms, qualifiers };
}

/** Values of qualifier `key` that are not negated. */
export function values(query: SearchQuery, key: string): string[] {
  return query.qualifiers.filter((q) => q.key === key && !q.negated).map((q) => q.value);
}

/**
 * Every qualifier with one of `keys` holds for the item: `test` answers for one value, and a
 * negated qualifier must not hold. Qualifiers of other keys are ignored here.
 */
export function allHold(query: SearchQuery, keys: readonly string[], test: (key: string, value: string) => boolean): boolean {
  return query.qualifiers.every((q) => !keys.includes(q.key) || test(q.key, q.value) !== q.negated);
}

/** A number or an ISO date against `>x`, `>=x`, `<x`, `<=x`, `a..b`, `a..*` or an exact value. */
export function inRange(value: number | string, spec: string): boolean {
  const asNumber = typeof value === 'number';
  const parse = (text: string): number | string => (asNumber ? Number(text) : text);
  const cut = (v: number | string, bound: number | string) => (typeof v === 'string' && typeof bound === 'string' ? v.slice(0, bound.length) : v);
  const cmp = (bound: number | string) => {
    const v = cut(value, bound);
    return v < bound ? -1 : v > bound ? 1 : 0;
  };
  const m = /^(>=|<=|>|<)(.+)$/.exec(spec);
  if (m) {
    const c = cmp(parse(m[2]!));
    return m[1] === '>' ? c > 0 : m[1] === '>=' ? c >= 0 : m[1] === '<' ? c < 0 : c <= 0;
  }
  const range = /^(.+)\.\.(.+)$/.exec(spec);
  if (range) {
    const low = range[1]!;
    const high = range[2]!;
    return (low === '*' || cmp(parse(low)) >= 0) && (high === '*' || cmp(parse(high)) <= 0);
  }
  return cmp(parse(spec)) === 0;
}

/** How many of the terms occur in the text (case-insensitive); every term must, for a match. */
export function termHits(terms: readonly string[], ...texts: (string | null | undefined)[]): number | null {
  if (terms.length === 0) return 0;
  return termHitsIn(terms, haystack(texts));
}

/** The texts a search reads (nulls left out), as one lowercased string. */
export function haystack(texts: readonly (string | null | undefined)[]): string {
  return texts.filter((t): t is string => typeof t === 'string').join('\n').toLowerCase();
}

/** `termHits` on a haystack built already. */
export function termHitsIn(terms: readonly string[], text: string): number | null {
  let hits = 0;
  for (const term of terms) {
    if (!text.includes(term)) return null;
    hits += 1;
  }
  return hits;
}
