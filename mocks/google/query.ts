import { googleError } from './errors.js';

/**
 * Drive's search query language (`q` of files.list): `name contains 'plan' and 'FOLDER' in
 * parents and trashed = false`, with `and`, `or`, `not` and parentheses. Terms: name, fullText,
 * mimeType, trashed, starred, sharedWithMe, createdTime, modifiedTime, parents / owners /
 * writers / readers (`'x' in …`, `'me'` for the caller), properties and appProperties (`has {key='k' and value='v'}`).
 * A query that does not parse is Drive's 400 `invalid` on `q`.
 */
export interface QueryFile {
  name: string;
  mimeType: string;
  trashed: boolean;
  starred: boolean;
  sharedWithMe: boolean;
  createdTime: string;
  modifiedTime: string;
  parents: readonly string[];
  owners: readonly string[];
  writers: readonly string[];
  readers: readonly string[];
  /** Name, description and content, for fullText. */
  fullText: string;
  properties: Readonly<Record<string, string>>;
  appProperties: Readonly<Record<string, string>>;
}

export type Query = (file: QueryFile) => boolean;

type Token = { kind: 'str'; value: string } | { kind: 'word'; value: string } | { kind: 'op'; value: string };

function invalid(): never {
  throw googleError(400, 'invalid', 'Invalid Value', { location: 'q', locationType: 'parameter' });
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) { i++; continue; }
    if (ch === "'" || ch === '"') {
      let value = '';
      i++;
      while (i < text.length && text[i] !== ch) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        value += text[i++];
      }
      if (i >= text.length) invalid();
      i++;
      tokens.push({ kind: 'str', value });
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '!=' || two === '<=' || two === '>=') { tokens.push({ kind: 'op', value: two }); i += 2; continue; }
    if ('=<>(){}'.includes(ch)) { tokens.push({ kind: 'op', value: ch }); i++; continue; }
    const m = /^[A-Za-z0-9_.:+-]+/.exec(text.slice(i));
    if (!m) invalid();
    tokens.push({ kind: 'word', value: m[0] });
    i += m[0].length;
  }
  return tokens;
}

const COLLECTIONS = new Set(['parents', 'owners', 'writers', 'readers']);
const COMPARE = new Set(['=', '!=', '<', '<=', '>', '>=']);

export function parseQuery(text: string): Query {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos];
  const isWord = (t: Token | undefined, w: string) => t?.kind === 'word' && t.value.toLowerCase() === w;
  const next = () => tokens[pos++] ?? invalid();
  const expect = (kind: Token['kind'], value?: string) => {
    const t = next();
    if (t.kind !== kind || (value !== undefined && t.value !== value)) invalid();
    return t;
  };

  const or = (): Query => {
    let left = and();
    while (isWord(peek(), 'or')) { pos++; const l = left, r = and(); left = (f) => l(f) || r(f); }
    return left;
  };
  const and = (): Query => {
    let left = not();
    while (isWord(peek(), 'and')) { pos++; const l = left, r = not(); left = (f) => l(f) && r(f); }
    return left;
  };
  const not = (): Query => {
    if (isWord(peek(), 'not')) { pos++; const inner = not(); return (f) => !inner(f); }
    const t = peek();
    if (t?.kind === 'op' && t.value === '(') {
      pos++;
      const inner = or();
      expect('op', ')');
      return inner;
    }
    return term();
  };
  const term = (): Query => {
    const first = next();
    if (first.kind === 'str') {
      // 'value' in parents|owners|writers|readers
      if (!isWord(next(), 'in')) invalid();
      const field = expect('word').value;
      if (!COLLECTIONS.has(field)) invalid();
      const value = first.value;
      return (f) => (f[field as 'parents'] as readonly string[]).includes(value);
    }
    if (first.kind !== 'word') invalid();
    const field = first.value;
    if (field === 'properties' || field === 'appProperties') {
      if (!isWord(next(), 'has')) invalid();
      expect('op', '{');
      if (!isWord(next(), 'key')) invalid();
      expect('op', '=');
      const key = expect('str').value;
      if (!isWord(next(), 'and')) invalid();
      if (!isWord(next(), 'value')) invalid();
      expect('op', '=');
      const value = expect('str').value;
      expect('op', '}');
      return (f) => f[field][key] === value;
    }
    // `sharedWithMe` (and the other flags) alone means `= true`.
    const after = peek();
    if ((field === 'sharedWithMe' || field === 'starred' || field === 'trashed') && (after === undefined || isWord(after, 'and') || isWord(after, 'or') || (after.kind === 'op' && after.value === ')'))) {
      return (f) => f[field];
    }
    const op = next();
    const operator = op.kind === 'word' && op.value === 'contains' ? 'contains' : op.kind === 'op' && COMPARE.has(op.value) ? op.value : invalid();
    const raw = next();
    if (raw.kind === 'op') invalid();
    switch (field) {
      case 'name': return textTerm(operator, raw, (f) => f.name, wordPrefix);
      case 'fullText': if (operator !== 'contains') invalid(); return textTerm(operator, raw, (f) => f.fullText, phrase);
      case 'mimeType': return textTerm(operator, raw, (f) => f.mimeType, (h, n) => h.toLowerCase().includes(n.toLowerCase()));
      case 'trashed': case 'starred': case 'sharedWithMe': {
        if (operator !== '=' && operator !== '!=') invalid();
        const value = raw.kind === 'word' && (raw.value === 'true' || raw.value === 'false') ? raw.value === 'true' : invalid();
        return (f) => (f[field] === value) === (operator === '=');
      }
      case 'createdTime': case 'modifiedTime': {
        if (raw.kind !== 'str' || operator === 'contains') invalid();
        const at = Date.parse(raw.value);
        if (Number.isNaN(at)) invalid();
        return (f) => compare(Date.parse(f[field]), at, operator);
      }
      default: return invalid();
    }
  };
  const query = or();
  if (pos !== tokens.length) invalid();
  return query;
}

function textTerm(operator: string, raw: Token, get: (f: QueryFile) => string, contains: (haystack: string, needle: string) => boolean): Query {
  if (raw.kind !== 'str') invalid();
  const value = raw.value;
  if (operator === 'contains') return (f) => contains(get(f), value);
  if (operator === '=') return (f) => get(f) === value;
  if (operator === '!=') return (f) => get(f) !== value;
  return invalid();
}

function compare(a: number, b: number, op: string): boolean {
  switch (op) {
    case '=': return a === b;
    case '!=': return a !== b;
    case '<': return a < b;
    case '<=': return a <= b;
    case '>': return a > b;
    default: return a >= b;
  }
}

/** `name contains`: Drive matches the start of the name or of one of its words, ignoring case. */
function wordPrefix(name: string, value: string): boolean {
  const n = name.toLowerCase(), v = value.toLowerCase();
  if (v === '') return true;
  let at = n.indexOf(v);
  while (at !== -1) {
    if (at === 0 || !/[\p{L}\p{N}]/u.test(n[at - 1]!)) return true;
    at = n.indexOf(v, at + 1);
  }
  return false;
}

/** `fullText contains`: the phrase, as whole words, anywhere in the text, ignoring case. */
function phrase(text: string, value: string): boolean {
  const words = value.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words) return false;
  const haystack = ` ${(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ')} `;
  return haystack.includes(` ${words.join(' ')} `);
}
