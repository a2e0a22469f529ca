import { parsingError, type DocDoc } from './model.js';

/**
 * Lucene's query-string syntax as `query_string` takes it: terms, `"phrases"`, `field:value`,
 * `field:(a OR b)`, wildcards (`err*`, `te?t`), ranges (`field:[a TO b]`, `{a TO b}`, `field:>=5`),
 * `AND`/`&&`, `OR`/`||`, `NOT`/`!`, `+required`, `-prohibited`, and parentheses; adjacent clauses
 * join by `default_operator`. Precedence is NOT over AND over OR (docs/elasticsearch-mock.md says
 * where Lucene's classic parser differs). `simple_query_string` reads `+` as AND, `|` as OR and
 * a leading `-` as NOT, and has no `field:` syntax.
 */

type Scorer = (doc: DocDoc) => number | null;

export interface CompileOps {
  leaf(field: string | null, text: string, kind: 'term' | 'phrase' | 'pattern'): Scorer;
  range(field: string, spec: Record<string, unknown>): Scorer;
  /** Whether adjacent clauses join by AND (`default_operator: and`). */
  and: boolean;
}

export interface QueryNode {
  compile(ops: CompileOps): Scorer;
}

type Token =
  | { t: 'word'; v: string; quoted: boolean }
  | { t: 'field'; v: string }
  | { t: 'range'; field: string | null; spec: Record<string, unknown> }
  | { t: '(' } | { t: ')' } | { t: 'AND' } | { t: 'OR' } | { t: 'NOT' } | { t: '+' } | { t: '-' };

type Ast =
  | { k: 'leaf'; field: string | null; text: string; kind: 'term' | 'phrase' | 'pattern' }
  | { k: 'range'; field: string; spec: Record<string, unknown> }
  | { k: 'any'; items: Ast[] }
  | { k: 'bool'; must: Ast[]; should: Ast[]; mustNot: Ast[] };

export function parseQueryString(query: string, simple: boolean): QueryNode {
  const tokens = simple ? lexSimple(query) : lex(query);
  const parser = new Parser(tokens, query);
  const ast = parser.parseAll();
  return { compile: (ops) => compileAst(ast, ops) };
}

function lex(query: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const fail = (): never => {
    throw parsingError(`Failed to parse query [${query}]`);
  };
  while (i < query.length) {
    const c = query[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (c === '(' || c === ')') { out.push({ t: c }); i++; continue; }
    if (query.startsWith('&&', i)) { out.push({ t: 'AND' }); i += 2; continue; }
    if (query.startsWith('||', i)) { out.push({ t: 'OR' }); i += 2; continue; }
    if (c === '!' ) { out.push({ t: 'NOT' }); i++; continue; }
    if ((c === '+' || c === '-') && (i === 0 || /[\s(]/.test(query[i - 1]!))) { out.push({ t: c }); i++; continue; }
    if (c === '"') {
      const end = findClosingQuote(query, i + 1);
      if (end === -1) fail();
      out.push({ t: 'word', v: unescape(query.slice(i + 1, end)), quoted: true });
      i = end + 1;
      continue;
    }
    if (c === '[' || c === '{') {
      const close = query.slice(i).search(/[\]}]/);
      if (close === -1) fail();
      const inner = query.slice(i + 1, i + close);
      const closing = query[i + close]!;
      const m = /^\s*(\S+)\s+TO\s+(\S+)\s*$/.exec(inner);
      if (!m) fail();
      const spec: Record<string, unknown> = {};
      if (m![1] !== '*') spec[c === '[' ? 'gte' : 'gt'] = stripQuotes(m![1]!);
      if (m![2] !== '*') spec[closing === ']' ? 'lte' : 'lt'] = stripQuotes(m![2]!);
      out.push({ t: 'range', field: null, spec });
      i += close + 1;
      continue;
    }
    let j = i;
    let word = '';
    while (j < query.length && !/[\s()"]/.test(query[j]!)) {
      if (query[j] === '\\' && j + 1 < query.length) { word += query[j + 1]; j += 2; continue; }
      if (query[j] === ':' ) break;
      word += query[j];
      j++;
    }
    if (query[j] === ':') {
      out.push({ t: 'field', v: word });
      i = j + 1;
      const cmp = /^(>=|<=|>|<)/.exec(query.slice(i));
      if (cmp) {
        const rest = /^[^\s()]+/.exec(query.slice(i + cmp[1]!.length))?.[0] ?? '';
        const key = { '>=': 'gte', '<=': 'lte', '>': 'gt', '<': 'lt' }[cmp[1]!]!;
        out.push({ t: 'range', field: null, spec: { [key]: stripQuotes(rest) } });
        i += cmp[1]!.length + rest.length;
      }
      continue;
    }
    if (word === 'AND' || word === 'OR' || word === 'NOT') out.push({ t: word });
    else if (word !== '') out.push({ t: 'word', v: word, quoted: false });
    i = j === i ? i + 1 : j;
  }
  return out;
}

function lexSimple(query: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (c === '(' || c === ')') { out.push({ t: c }); i++; continue; }
    if (c === '+') { out.push({ t: 'AND' }); i++; continue; }
    if (c === '|') { out.push({ t: 'OR' }); i++; continue; }
    if (c === '-' && (i === 0 || /[\s(|+]/.test(query[i - 1]!))) { out.push({ t: 'NOT' }); i++; continue; }
    if (c === '"') {
      const end = findClosingQuote(query, i + 1);
      const stop = end === -1 ? query.length : end;
      out.push({ t: 'word', v: query.slice(i + 1, stop), quoted: true });
      i = stop + 1;
      continue;
    }
    const m = /^[^\s()|+"]+/.exec(query.slice(i))!;
    out.push({ t: 'word', v: m[0], quoted: false });
    i += m[0].length;
  }
  return out;
}

function findClosingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') { i++; continue; }
    if (text[i] === '"') return i;
  }
  return -1;
}

const unescape = (text: string): string => text.replace(/\\(.)/g, '$1');
const stripQuotes = (text: string): string => (text.startsWith('"') && text.endsWith('"') && text.length >= 2 ? text.slice(1, -1) : text);

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[], private readonly query: string) {}

  parseAll(): Ast {
    const ast = this.parseOr(null);
    if (this.pos < this.tokens.length) throw parsingError(`Failed to parse query [${this.query}]`);
    return ast;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  /** OR-joined AND groups. */
  private parseOr(field: string | null): Ast {
    const groups: Ast[] = [this.parseAnd(field)];
    while (this.peek()?.t === 'OR') {
      this.pos++;
      groups.push(this.parseAnd(field));
    }
    return groups.length === 1 ? groups[0]! : { k: 'any', items: groups };
  }

  /** Clauses joined by AND or by adjacency (the default operator decides later), with +/- marks. */
  private parseAnd(field: string | null): Ast {
    const must: Ast[] = [];
    const should: Ast[] = [];
    const mustNot: Ast[] = [];
    let explicitAnd = false;
    let first = true;
    let lastShould: Ast | null = null;
    for (;;) {
      const next = this.peek();
      if (!next || next.t === ')' || next.t === 'OR') break;
      if (!first && next.t === 'AND') {
        this.pos++;
        explicitAnd = true;
        // Lucene's `a AND b`: the AND makes its left neighbour required too.
        if (lastShould !== null) {
          should.splice(should.indexOf(lastShould), 1);
          must.push(lastShould);
          lastShould = null;
        }
        continue;
      }
      let mark: '+' | '-' | null = null;
      if (next.t === '+' || next.t === '-') {
        mark = next.t;
        this.pos++;
      } else if (next.t === 'NOT') {
        mark = '-';
        this.pos++;
      }
      const clause = this.parseClause(field);
      lastShould = null;
      if (mark === '-') mustNot.push(clause);
      else if (mark === '+' || explicitAnd) must.push(clause);
      else {
        should.push(clause);
        lastShould = clause;
      }
      explicitAnd = false;
      first = false;
    }
    if (must.length === 0 && should.length === 0 && mustNot.length === 0) throw parsingError(`Failed to parse query [${this.query}]`);
    return { k: 'bool', must, should, mustNot };
  }

  private parseClause(field: string | null): Ast {
    const token = this.peek();
    if (!token) throw parsingError(`Failed to parse query [${this.query}]`);
    if (token.t === 'field') {
      this.pos++;
      return this.parseClause(token.v);
    }
    if (token.t === '(') {
      this.pos++;
      const inner = this.parseOr(field);
      if (this.peek()?.t !== ')') throw parsingError(`Failed to parse query [${this.query}]`);
      this.pos++;
      return inner;
    }
    if (token.t === 'range') {
      this.pos++;
      if (field === null) throw parsingError(`Failed to parse query [${this.query}]`);
      return { k: 'range', field, spec: token.spec };
    }
    if (token.t === 'word') {
      this.pos++;
      if (token.quoted) return { k: 'leaf', field, text: token.v, kind: 'phrase' };
      if (/[*?]/.test(token.v)) return { k: 'leaf', field, text: token.v, kind: 'pattern' };
      return { k: 'leaf', field, text: token.v, kind: 'term' };
    }
    throw parsingError(`Failed to parse query [${this.query}]`);
  }
}

function compileAst(ast: Ast, ops: CompileOps): Scorer {
  switch (ast.k) {
    case 'leaf': return ops.leaf(ast.field, ast.text, ast.kind);
    case 'range': return ops.range(ast.field, ast.spec);
    case 'any': {
      const items = ast.items.map((item) => compileAst(item, ops));
      return (doc) => {
        let sum = 0;
        let matched = 0;
        for (const item of items) {
          const s = item(doc);
          if (s === null) continue;
          matched++;
          sum += s;
        }
        return matched === 0 ? null : sum;
      };
    }
    case 'bool': {
      // Adjacent clauses without a mark join by the default operator.
      const must = [...ast.must, ...(ops.and ? ast.should : [])].map((item) => compileAst(item, ops));
      const should = (ops.and ? [] : ast.should).map((item) => compileAst(item, ops));
      const mustNot = ast.mustNot.map((item) => compileAst(item, ops));
      return (doc) => {
        let sum = 0;
        for (const item of must) {
          const s = item(doc);
          if (s === null) return null;
          sum += s;
        }
        for (const item of mustNot) if (item(doc) !== null) return null;
        let matched = 0;
        for (const item of should) {
          const s = item(doc);
          if (s !== null) {
            matched++;
            sum += s;
          }
        }
        // Only prohibited clauses: everything else matches (Lucene adds match_all).
        if (must.length === 0 && should.length > 0 && matched === 0) return null;
        return must.length === 0 && should.length === 0 ? 1 : sum;
      };
    }
  }
}
