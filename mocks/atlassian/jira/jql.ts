/**
 * A subset of JQL, parsed and evaluated as Jira does: clauses `field op value` joined by AND, OR,
 * NOT and parentheses, then ORDER BY. Operators = != ~ !~ > >= < <= IN, NOT IN, IS [NOT] EMPTY;
 * values are words, quoted strings, numbers, lists and the functions currentUser(), openSprints(),
 * closedSprints(), futureSprints(), now(), startOfDay(), endOfDay(). Errors carry Jira's own messages.
 */
export type Operand =
  | { kind: 'value'; value: string; quoted: boolean }
  | { kind: 'list'; values: Operand[] }
  | { kind: 'function'; name: string; args: string[] }
  | { kind: 'empty' };

export type Clause =
  | { kind: 'terminal'; field: string; operator: string; operand: Operand; at: number }
  | { kind: 'and'; clauses: Clause[] }
  | { kind: 'or'; clauses: Clause[] }
  | { kind: 'not'; clause: Clause };

export interface OrderField { field: string; direction: 'ASC' | 'DESC' | null }
export interface Query { where: Clause | null; orderBy: OrderField[] }

export class JqlError extends Error {
  override name = 'JqlError';
}

type Token = { kind: 'word' | 'string' | 'op' | 'lparen' | 'rparen' | 'comma'; text: string; at: number; quoted?: boolean };

const OPS = ['!=', '!~', '>=', '<=', '=', '~', '>', '<'];

function tokenize(jql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < jql.length) {
    const ch = jql[i]!;
    if (/\s/.test(ch)) { i++; continue; }
    if (ch === '(') { out.push({ kind: 'lparen', text: ch, at: i }); i++; continue; }
    if (ch === ')') { out.push({ kind: 'rparen', text: ch, at: i }); i++; continue; }
    if (ch === ',') { out.push({ kind: 'comma', text: ch, at: i }); i++; continue; }
    const op = OPS.find((o) => jql.startsWith(o, i));
    if (op) { out.push({ kind: 'op', text: op, at: i }); i += op.length; continue; }
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      let text = '';
      while (j < jql.length && jql[j] !== ch) {
        if (jql[j] === '\\' && j + 1 < jql.length) { text += jql[j + 1]; j += 2; continue; }
        text += jql[j];
        j++;
      }
      if (j >= jql.length) throw new JqlError(`Error in the JQL Query: The quoted string '${text}' has not been completed. (line 1, character ${i + 1})`);
      out.push({ kind: 'string', text, at: i, quoted: true });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < jql.length && !/[\s(),=!~<>"']/.test(jql[j]!)) j++;
    if (j === i) throw new JqlError(`Error in the JQL Query: The character '${ch}' is a reserved JQL character. You must enclose it in a string or use the escape '\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}' instead. (line 1, character ${i + 1})`);
    out.push({ kind: 'word', text: jql.slice(i, j), at: i });
    i = j;
  }
  return out;
}

export function parseJql(jql: string): Query {
  const tokens = tokenize(jql);
  let pos = 0;
  const peek = () => tokens[pos];
  const isWord = (t: Token | undefined, w: string) => t?.kind === 'word' && t.text.toUpperCase() === w;
  const unexpected = (what: string): never => {
    const t = peek();
    throw new JqlError(t ? `Error in the JQL Query: Expecting ${what} but got '${t.text}'. (line 1, character ${t.at + 1})` : `Error in the JQL Query: Expecting ${what} before the end of the query.`);
  };

  const parseOr = (): Clause => {
    const clauses = [parseAnd()];
    while (isWord(peek(), 'OR')) { pos++; clauses.push(parseAnd()); }
    return clauses.length === 1 ? clauses[0]! : { kind: 'or', clauses };
  };
  const parseAnd = (): Clause => {
    const clauses = [parseNot()];
    while (isWord(peek(), 'AND')) { pos++; clauses.push(parseNot()); }
    return clauses.length === 1 ? clauses[0]! : { kind: 'and', clauses };
  };
  const parseNot = (): Clause => {
    if (isWord(peek(), 'NOT') || (peek()?.kind === 'op' && peek()!.text === '!')) { pos++; return { kind: 'not', clause: parseNot() }; }
    if (peek()?.kind === 'lparen') {
      pos++;
      const inner = parseOr();
      if (peek()?.kind !== 'rparen') unexpected("')'");
      pos++;
      return inner;
    }
    return parseTerminal();
  };
  const parseTerminal = (): Clause => {
    const f = peek();
    if (!f || (f.kind !== 'word' && f.kind !== 'string')) return unexpected('a field name');
    pos++;
    const at = f.at;
    const field = f.text;
    const o = peek();
    let operator: string;
    if (o?.kind === 'op') { operator = o.text; pos++; }
    else if (isWord(o, 'IN')) { operator = 'in'; pos++; }
    else if (isWord(o, 'NOT') && isWord(tokens[pos + 1], 'IN')) { operator = 'not in'; pos += 2; }
    else if (isWord(o, 'IS') && isWord(tokens[pos + 1], 'NOT')) { operator = 'is not'; pos += 2; }
    else if (isWord(o, 'IS')) { operator = 'is'; pos++; }
    else if (isWord(o, 'WAS') || isWord(o, 'CHANGED')) throw new JqlError(`Error in the JQL Query: The operator '${o!.text.toLowerCase()}' is not supported by this site's search. (line 1, character ${o!.at + 1})`);
    else return unexpected("one of the operators '=', '!=', '~', '!~', '<', '<=', '>', '>=', 'in', 'not in', 'is', 'is not'");
    const operand = parseOperand();
    if ((operator === 'is' || operator === 'is not') && operand.kind !== 'empty') throw new JqlError(`The operator '${operator}' can only be used with the EMPTY or NULL value. (line 1, character ${at + 1})`);
    if ((operator === 'in' || operator === 'not in') && operand.kind !== 'list' && operand.kind !== 'function') throw new JqlError(`Error in the JQL Query: Expecting '(' but got '${tokens[pos - 1]?.text}'. (line 1, character ${at + 1})`);
    return { kind: 'terminal', field, operator, operand, at };
  };
  const parseOperand = (): Operand => {
    const t = peek();
    if (!t) return unexpected('either a value, list or function');
    if (t.kind === 'lparen') {
      pos++;
      const values: Operand[] = [];
      while (true) {
        values.push(parseOperand());
        if (peek()?.kind === 'comma') { pos++; continue; }
        if (peek()?.kind === 'rparen') { pos++; break; }
        unexpected("')'");
      }
      return { kind: 'list', values };
    }
    if (t.kind === 'string') { pos++; return { kind: 'value', value: t.text, quoted: true }; }
    if (t.kind !== 'word') return unexpected('either a value, list or function');
    pos++;
    if (!t.quoted && (t.text.toUpperCase() === 'EMPTY' || t.text.toUpperCase() === 'NULL')) return { kind: 'empty' };
    if (peek()?.kind === 'lparen') {
      pos++;
      const args: string[] = [];
      while (peek() && peek()!.kind !== 'rparen') {
        const a = peek()!;
        if (a.kind === 'word' || a.kind === 'string') args.push(a.text);
        pos++;
      }
      if (!peek()) unexpected("')'");
      pos++;
      return { kind: 'function', name: t.text, args };
    }
    if (['AND', 'OR', 'ORDER', 'NOT'].includes(t.text.toUpperCase())) { pos--; return unexpected('either a value, list or function'); }
    return { kind: 'value', value: t.text, quoted: false };
  };

  let where: Clause | null = null;
  if (peek() && !isWord(peek(), 'ORDER')) where = parseOr();
  const orderBy: OrderField[] = [];
  if (isWord(peek(), 'ORDER')) {
    pos++;
    if (!isWord(peek(), 'BY')) unexpected("'by'");
    pos++;
    while (true) {
      const f = peek();
      if (!f || (f.kind !== 'word' && f.kind !== 'string')) unexpected('a field name');
      pos++;
      let direction: OrderField['direction'] = null;
      if (isWord(peek(), 'ASC') || isWord(peek(), 'DESC')) { direction = peek()!.text.toUpperCase() as 'ASC' | 'DESC'; pos++; }
      orderBy.push({ field: f!.text, direction });
      if (peek()?.kind === 'comma') { pos++; continue; }
      break;
    }
  }
  if (peek()) unexpected(where ? "either 'OR' or 'AND'" : 'a field name');
  return { where, orderBy };
}

/** The structure `POST /rest/api/3/jql/parse` answers for a parsed query. */
export function jqlStructure(query: Query): Record<string, unknown> {
  const operand = (o: Operand): Record<string, unknown> =>
    o.kind === 'value' ? { value: o.value, encodedValue: o.quoted || /\s/.test(o.value) ? JSON.stringify(o.value) : o.value }
      : o.kind === 'list' ? { values: o.values.map(operand), encodedOperand: `(${o.values.map((x) => (x.kind === 'value' ? x.value : '')).join(', ')})` }
        : o.kind === 'function' ? { function: o.name, arguments: o.args, encodedOperand: `${o.name}(${o.args.join(', ')})` }
          : { value: 'EMPTY', encodedValue: 'EMPTY' };
  const clause = (c: Clause): Record<string, unknown> =>
    c.kind === 'terminal' ? { field: { name: c.field, encodedName: /\s/.test(c.field) ? JSON.stringify(c.field) : c.field }, operator: c.operator, operand: operand(c.operand) }
      : c.kind === 'not' ? { operator: 'not', clauses: [clause(c.clause)] }
        : { operator: c.kind, clauses: c.clauses.map(clause) };
  return {
    ...(query.where ? { where: clause(query.where) } : {}),
    ...(query.orderBy.length ? { orderBy: { fields: query.orderBy.map((f) => ({ field: { name: f.field, encodedName: f.field }, ...(f.direction ? { direction: f.direction.toLowerCase() } : {}) })) } } : {}),
  };
}
