/**
 * Sentry's search syntax, the subset the issue stream and the events endpoint take here:
 * `key:value` (`!key:value` negates; `key:[a,b]` is any of; `*` wildcards; quoted values), `is:`
 * (unresolved, resolved, ignored, archived, assigned, unassigned), `has:key`, and free text,
 * which must occur in the record's text. Unknown keys compare with the record's own field.
 */
export interface Term { key: string | null; values: string[]; negate: boolean }

export function parseQuery(query: string): Term[] {
  const terms: Term[] = [];
  const re = /(!?)(?:([A-Za-z_.()]+):)?("(?:[^"\\]|\\.)*"|\[[^\]]*\]|\S+)/g;
  for (const m of query.matchAll(re)) {
    const raw = m[3]!;
    const unquote = (v: string) => (v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1).replace(/\\"/g, '"') : v);
    const values = raw.startsWith('[') && m[2] ? raw.slice(1, -1).split(',').map((v) => unquote(v.trim())) : [unquote(raw)];
    terms.push({ key: m[2] ?? null, values, negate: m[1] === '!' });
  }
  return terms;
}

/** `*` wildcards, case-insensitive, as Sentry's tag search compares. */
export function like(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i');
  return re.test(value);
}

/**
 * Whether a record matches every term. `field(key)` is the record's value(s) for a key
 * (undefined: the key is unknown to it, which fails the term); `text` is what free text searches.
 */
export function matchTerms(terms: Term[], field: (key: string) => string | string[] | null | undefined, text: string): boolean {
  return terms.every((term) => {
    let ok: boolean;
    if (term.key === null) ok = text.toLowerCase().includes(term.values[0]!.toLowerCase());
    else if (term.key === 'has') ok = term.values.some((key) => { const v = field(key); return v !== null && v !== undefined && v !== ''; });
    else {
      const v = field(term.key);
      const have = v === null || v === undefined ? [] : Array.isArray(v) ? v : [v];
      ok = term.values.some((want) => have.some((h) => like(want, h)));
    }
    return term.negate ? !ok : ok;
  });
}

/** `24h`, `14d`, `90d`, `30m`, `2w` in milliseconds (null when it is none of them). */
export function periodMs(value: string | null): number | null {
  const m = /^(\d+)([smhdw])$/.exec(value ?? '');
  if (!m) return null;
  return Number(m[1]) * { s: 1e3, m: 6e4, h: 36e5, d: 864e5, w: 6048e5 }[m[2] as 's' | 'm' | 'h' | 'd' | 'w'];
}
