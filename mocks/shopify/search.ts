/**
 * Shopify's search syntax for the `query` argument of list fields (shopify.dev "Shopify API
 * search syntax"): whitespace-separated terms that must all match, `OR` between alternatives,
 * `-term` or `NOT term` to negate, `field:value` with `*` wildcards, `field:>value`,
 * `field:<=value` comparisons (numbers, ISO dates), and quoted values. A bare term matches any of
 * the resource's default fields. Field values compare case-insensitively; an unknown field
 * matches nothing, as Shopify's search ignores no filter silently.
 */
export type SearchValue = string | number | boolean | null;
export type Searchable = Record<string, SearchValue | readonly SearchValue[]>;

interface Clause { negate: boolean; field: string | null; op: ':' | '>' | '<' | '>=' | '<='; value: string }

function tokenize(query: string): string[] {
  const tokens: string[] = [];
  const re = /\s*((?:[^\s"'()]+?:)?(?:"[^"]*"|'[^']*'|[^\s()]+)|[()])/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(query)) !== null) if (match[1] && match[1] !== '(' && match[1] !== ')') tokens.push(match[1]);
  return tokens;
}

const unquote = (value: string) => (/^(".*"|'.*')$/.test(value) ? value.slice(1, -1) : value);

function clause(token: string, negate: boolean): Clause {
  if (token.startsWith('-') && token.length > 1) return clause(token.slice(1), !negate);
  const colon = /^([a-z_.]+):(.*)$/i.exec(token);
  if (!colon) return { negate, field: null, op: ':', value: unquote(token) };
  const rest = colon[2]!;
  const op = /^(>=|<=|>|<)/.exec(rest)?.[1] as Clause['op'] | undefined;
  return { negate, field: colon[1]!.toLowerCase(), op: op ?? ':', value: unquote(op ? rest.slice(op.length) : rest) };
}

/** The query as alternatives (split at OR), each a list of clauses that must all match. */
export function parseSearch(query: string): Clause[][] {
  const groups: Clause[][] = [[]];
  let negateNext = false;
  for (const token of tokenize(query)) {
    if (token === 'OR') { groups.push([]); continue; }
    if (token === 'AND') continue;
    if (token === 'NOT') { negateNext = true; continue; }
    groups.at(-1)!.push(clause(token, negateNext));
    negateNext = false;
  }
  return groups.filter((g) => g.length > 0);
}

function wildcard(pattern: string): RegExp {
  const escaped = pattern.toLowerCase().split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${escaped}$`, 's');
}

function compare(actual: SearchValue, clause: Clause): boolean {
  if (actual === null) return false;
  if (clause.op !== ':') {
    const a = typeof actual === 'number' ? actual : Number.isFinite(Number(actual)) && actual !== '' ? Number(actual) : String(actual);
    const b = typeof a === 'number' && Number.isFinite(Number(clause.value)) ? Number(clause.value) : clause.value;
    if (typeof a !== typeof b) return false;
    return clause.op === '>' ? a > b : clause.op === '<' ? a < b : clause.op === '>=' ? a >= b : a <= b;
  }
  const text = String(actual).toLowerCase();
  const wanted = clause.value.toLowerCase();
  // Shopify tokenizes text fields: a value matches the whole text or one of its words.
  const words = text.split(/[\s,/()-]+/).filter(Boolean);
  if (wanted.includes('*')) {
    const re = wildcard(wanted);
    return re.test(text) || words.some((word) => re.test(word));
  }
  return text === wanted || words.some((word) => word === wanted) || (clause.field === null && text.includes(wanted));
}

function matches(record: Searchable, defaults: readonly string[], c: Clause): boolean {
  const fields = c.field === null ? defaults : [c.field];
  const hit = fields.some((field) => {
    const value = record[field];
    if (value === undefined) return false;
    const values = Array.isArray(value) ? value : [value as SearchValue];
    return values.some((v) => compare(v, c));
  });
  return c.negate ? !hit : hit;
}

/** Whether a record's searchable fields satisfy the query (no query: everything matches). */
export function searchMatches(query: string | null | undefined, record: Searchable, defaults: readonly string[]): boolean {
  if (query === null || query === undefined || query.trim() === '') return true;
  const groups = parseSearch(query);
  if (groups.length === 0) return true;
  return groups.some((group) => group.every((c) => matches(record, defaults, c)));
}
