/**
 * A small SQL subset, parsed as Postgres reads it (and ClickHouse's `logs` queries, which share
 * its surface): SELECT (columns, `*`, aggregates, WHERE, GROUP BY, ORDER BY, LIMIT/OFFSET),
 * INSERT … VALUES, UPDATE, DELETE (all with RETURNING), and the DDL migrations carry (CREATE/DROP
 * TABLE, ALTER TABLE, CREATE INDEX/POLICY/EXTENSION, COMMENT ON). Anything else is Postgres's own
 * `syntax error at or near`, with the offending token's position.
 */

export class PgError extends Error {
  constructor(readonly code: string, message: string, readonly pos: number | null = null, readonly detail: string | null = null) {
    super(message);
  }
}

export type Tok = { kind: 'ident' | 'qident' | 'string' | 'number' | 'param' | 'op' | 'eof'; value: string; pos: number };

const OPS = ['::', '<>', '!=', '<=', '>=', '||', '->>', '->', '=', '<', '>', '(', ')', ',', '.', ';', '*', '+', '-', '/', '[', ']', '%'];

export function lex(sql: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (c === '-' && sql[i + 1] === '-') { while (i < sql.length && sql[i] !== '\n') i++; continue; }
    if (c === '/' && sql[i + 1] === '*') { const end = sql.indexOf('*/', i + 2); i = end === -1 ? sql.length : end + 2; continue; }
    const start = i;
    if (c === "'" || ((c === 'E' || c === 'e') && sql[i + 1] === "'")) {
      if (c !== "'") i++;
      i++;
      let value = '';
      for (;;) {
        if (i >= sql.length) throw new PgError('42601', 'unterminated quoted string at or near "' + sql.slice(start) + '"', start);
        if (sql[i] === "'" && sql[i + 1] === "'") { value += "'"; i += 2; continue; }
        if (sql[i] === "'") { i++; break; }
        value += sql[i++];
      }
      out.push({ kind: 'string', value, pos: start });
      continue;
    }
    if (c === '"') {
      const end = sql.indexOf('"', i + 1);
      if (end === -1) throw new PgError('42601', 'unterminated quoted identifier at or near "' + sql.slice(start) + '"', start);
      out.push({ kind: 'qident', value: sql.slice(i + 1, end), pos: start });
      i = end + 1;
      continue;
    }
    if (c === '$' && /[0-9]/.test(sql[i + 1] ?? '')) {
      i++;
      while (/[0-9]/.test(sql[i] ?? '')) i++;
      out.push({ kind: 'param', value: sql.slice(start + 1, i), pos: start });
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      while (/[0-9.]/.test(sql[i] ?? '')) i++;
      if (/[eE]/.test(sql[i] ?? '')) { i++; if (/[+-]/.test(sql[i] ?? '')) i++; while (/[0-9]/.test(sql[i] ?? '')) i++; }
      out.push({ kind: 'number', value: sql.slice(start, i), pos: start });
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      while (/[A-Za-z0-9_$]/.test(sql[i] ?? '')) i++;
      out.push({ kind: 'ident', value: sql.slice(start, i), pos: start });
      continue;
    }
    const op = OPS.find((o) => sql.startsWith(o, i));
    if (!op) throw new PgError('42601', `syntax error at or near "${c}"`, start);
    out.push({ kind: 'op', value: op, pos: start });
    i += op.length;
  }
  out.push({ kind: 'eof', value: '', pos: sql.length });
  return out;
}

export type Expr =
  | { k: 'lit'; value: unknown }
  | { k: 'col'; table: string | null; name: string; pos: number }
  | { k: 'param'; index: number; pos: number }
  | { k: 'unary'; op: 'not' | '-'; arg: Expr }
  | { k: 'bin'; op: string; left: Expr; right: Expr }
  | { k: 'isnull'; arg: Expr; not: boolean }
  | { k: 'in'; arg: Expr; list: Expr[]; not: boolean }
  | { k: 'like'; arg: Expr; pattern: Expr; not: boolean; ci: boolean }
  | { k: 'between'; arg: Expr; low: Expr; high: Expr; not: boolean }
  | { k: 'func'; name: string; args: Expr[]; star: boolean; distinct: boolean; pos: number }
  | { k: 'cast'; arg: Expr; type: string }
  | { k: 'index'; arg: Expr; key: Expr }
  | { k: 'interval'; ms: number }
  | { k: 'case'; whens: [Expr, Expr][]; otherwise: Expr | null };

export interface TableRef { schema: string | null; name: string; alias: string | null; pos: number }
export interface SelectItem { expr: Expr | null; star: string | null | true; alias: string | null }
export interface OrderItem { expr: Expr; desc: boolean; nulls: 'first' | 'last' | null }
export interface ColumnDef {
  name: string; type: string; notNull: boolean; primary: boolean; unique: boolean; default: Expr | null; defaultText: string | null;
  identity: 'ALWAYS' | 'BY DEFAULT' | null; references: { table: TableRef; column: string | null } | null; check: string | null;
}
export type AlterAction =
  | { k: 'add_column'; column: ColumnDef; ifNotExists: boolean }
  | { k: 'drop_column'; name: string; ifExists: boolean; pos: number }
  | { k: 'rename_column'; from: string; to: string; pos: number }
  | { k: 'rename_table'; to: string }
  | { k: 'rls'; enable: boolean; force: boolean }
  | { k: 'alter_column'; name: string; set: { notNull?: boolean; default?: { expr: Expr | null; text: string | null }; type?: string }; pos: number }
  | { k: 'add_constraint'; name: string | null; text: string; primary: string[] | null; unique: string[] | null; fk: { columns: string[]; table: TableRef; target: string[] } | null };

export type Stmt =
  | { k: 'select'; distinct: boolean; items: SelectItem[]; from: TableRef | null; where: Expr | null; groupBy: Expr[]; orderBy: OrderItem[]; limit: Expr | null; offset: Expr | null }
  | { k: 'insert'; table: TableRef; columns: { name: string; pos: number }[] | null; rows: Expr[][]; returning: SelectItem[] | null; onConflictNothing: boolean }
  | { k: 'update'; table: TableRef; sets: { name: string; pos: number; expr: Expr }[]; where: Expr | null; returning: SelectItem[] | null }
  | { k: 'delete'; table: TableRef; where: Expr | null; returning: SelectItem[] | null }
  | { k: 'create_table'; table: TableRef; ifNotExists: boolean; columns: ColumnDef[]; constraints: AlterAction[] }
  | { k: 'alter_table'; table: TableRef; ifExists: boolean; actions: AlterAction[] }
  | { k: 'drop_table'; tables: TableRef[]; ifExists: boolean }
  | { k: 'truncate'; tables: TableRef[] }
  | { k: 'create_index'; name: string | null; table: TableRef; columns: string[]; unique: boolean; ifNotExists: boolean }
  | { k: 'create_policy'; name: string; table: TableRef; command: string; roles: string[]; using: string | null; check: string | null }
  | { k: 'drop_policy'; name: string; table: TableRef; ifExists: boolean }
  | { k: 'create_extension'; name: string; schema: string | null; ifNotExists: boolean }
  | { k: 'drop_extension'; name: string; ifExists: boolean }
  | { k: 'create_schema'; name: string; ifNotExists: boolean }
  | { k: 'comment'; on: 'table' | 'column'; table: TableRef; column: string | null; text: string | null }
  | { k: 'noop'; what: string };

const RESERVED = new Set(['select', 'from', 'where', 'group', 'order', 'limit', 'offset', 'and', 'or', 'not', 'on', 'as', 'returning', 'set', 'values', 'having', 'join', 'left', 'right', 'inner', 'union', 'is', 'in', 'like', 'ilike', 'between', 'asc', 'desc', 'nulls', 'then', 'when', 'else', 'end', 'into', 'distinct', 'by']);

const UNITS: Record<string, number> = { second: 1000, seconds: 1000, sec: 1000, secs: 1000, minute: 60_000, minutes: 60_000, min: 60_000, mins: 60_000, hour: 3_600_000, hours: 3_600_000, day: 86_400_000, days: 86_400_000, week: 604_800_000, weeks: 604_800_000, month: 2_592_000_000, months: 2_592_000_000 };

export function intervalMs(text: string, pos: number): number {
  let total = 0;
  const parts = text.trim().toLowerCase().split(/\s+/);
  if (parts.length % 2 !== 0) throw new PgError('22007', `invalid input syntax for type interval: "${text}"`, pos);
  for (let i = 0; i < parts.length; i += 2) {
    const n = Number(parts[i]);
    const unit = UNITS[parts[i + 1]!];
    if (!Number.isFinite(n) || unit === undefined) throw new PgError('22007', `invalid input syntax for type interval: "${text}"`, pos);
    total += n * unit;
  }
  return total;
}

export class Parser {
  private i = 0;
  constructor(private readonly toks: Tok[], private readonly sql: string) {}

  static parse(sql: string): Stmt[] {
    const parser = new Parser(lex(sql), sql);
    const out: Stmt[] = [];
    while (!parser.at('eof')) {
      if (parser.eatOp(';')) continue;
      out.push(parser.statement());
      if (!parser.at('eof') && !parser.eatOp(';')) parser.fail();
    }
    return out;
  }

  // ---- token helpers
  private peek(offset = 0): Tok { return this.toks[Math.min(this.i + offset, this.toks.length - 1)]!; }
  private at(kind: Tok['kind']): boolean { return this.peek().kind === kind; }
  private isWord(word: string, offset = 0): boolean { const t = this.peek(offset); return t.kind === 'ident' && t.value.toLowerCase() === word; }
  private eatWord(word: string): boolean { if (this.isWord(word)) { this.i++; return true; } return false; }
  private eatWords(...words: string[]): boolean {
    if (!words.every((w, n) => this.isWord(w, n))) return false;
    this.i += words.length;
    return true;
  }
  private word(word: string): void { if (!this.eatWord(word)) this.fail(); }
  private isOp(op: string): boolean { const t = this.peek(); return t.kind === 'op' && t.value === op; }
  private eatOp(op: string): boolean { if (this.isOp(op)) { this.i++; return true; } return false; }
  private op(op: string): void { if (!this.eatOp(op)) this.fail(); }
  fail(): never {
    const t = this.peek();
    if (t.kind === 'eof') throw new PgError('42601', 'syntax error at end of input', t.pos);
    const text = t.kind === 'string' ? `'${t.value}'` : t.kind === 'qident' ? `"${t.value}"` : t.kind === 'param' ? `$${t.value}` : t.value;
    throw new PgError('42601', `syntax error at or near "${text}"`, t.pos);
  }
  private ident(): string {
    const t = this.peek();
    if (t.kind === 'qident') { this.i++; return t.value; }
    if (t.kind === 'ident') { this.i++; return t.value.toLowerCase(); }
    return this.fail();
  }
  private identPos(): { name: string; pos: number } { const pos = this.peek().pos; return { name: this.ident(), pos }; }
  private tableRef(alias = false): TableRef {
    const pos = this.peek().pos;
    let name = this.ident();
    let schema: string | null = null;
    if (this.eatOp('.')) { schema = name; name = this.ident(); }
    let as: string | null = null;
    if (alias) {
      if (this.eatWord('as')) as = this.ident();
      else if ((this.at('ident') && !RESERVED.has(this.peek().value.toLowerCase())) || this.at('qident')) as = this.ident();
    }
    return { schema, name, alias: as, pos };
  }
  /** Raw text from token `from` up to (not including) the current token. */
  private textFrom(from: number): string { return this.sql.slice(this.toks[from]!.pos, this.peek().pos).trim(); }
  /** Skips a balanced parenthesised group, returning its inner text. */
  private group(): string {
    const open = this.i;
    this.op('(');
    let depth = 1;
    while (depth > 0) {
      if (this.at('eof')) this.fail();
      if (this.isOp('(')) depth++;
      if (this.isOp(')')) depth--;
      this.i++;
    }
    return this.sql.slice(this.toks[open]!.pos + 1, this.toks[this.i - 1]!.pos).trim();
  }
  private skipToEnd(): void { while (!this.at('eof') && !this.isOp(';')) { if (this.isOp('(')) this.group(); else this.i++; } }

  // ---- statements
  statement(): Stmt {
    if (this.isWord('select')) return this.select();
    if (this.isWord('insert')) return this.insert();
    if (this.isWord('update')) return this.update();
    if (this.isWord('delete')) return this.delete();
    if (this.isWord('create')) return this.create();
    if (this.isWord('alter')) return this.alter();
    if (this.isWord('drop')) return this.drop();
    if (this.isWord('comment')) return this.comment();
    if (this.isWord('truncate')) { this.i++; this.eatWord('table'); const tables = [this.tableRef()]; while (this.eatOp(',')) tables.push(this.tableRef()); this.skipToEnd(); return { k: 'truncate', tables }; }
    for (const word of ['begin', 'commit', 'rollback', 'grant', 'revoke', 'set', 'analyze', 'vacuum', 'notify', 'reset']) {
      if (this.isWord(word)) { this.skipToEnd(); return { k: 'noop', what: word }; }
    }
    return this.fail();
  }

  select(): Extract<Stmt, { k: 'select' }> {
    this.word('select');
    const distinct = this.eatWord('distinct');
    this.eatWord('all');
    const items = this.selectItems();
    let from: TableRef | null = null;
    if (this.eatWord('from')) {
      from = this.tableRef(true);
      if (this.isOp(',') || this.isWord('join') || this.isWord('left') || this.isWord('inner') || this.isWord('right') || this.isWord('cross')) this.fail();
    }
    const where = this.eatWord('where') ? this.expr() : null;
    const groupBy: Expr[] = [];
    if (this.eatWords('group', 'by')) { do groupBy.push(this.expr()); while (this.eatOp(',')); }
    if (this.isWord('having') || this.isWord('union') || this.isWord('except') || this.isWord('intersect')) this.fail();
    const orderBy: OrderItem[] = [];
    if (this.eatWords('order', 'by')) {
      do {
        const expr = this.expr();
        const desc = this.eatWord('desc') ? true : (this.eatWord('asc'), false);
        let nulls: OrderItem['nulls'] = null;
        if (this.eatWord('nulls')) nulls = this.eatWord('first') ? 'first' : (this.word('last'), 'last');
        orderBy.push({ expr, desc, nulls });
      } while (this.eatOp(','));
    }
    let limit: Expr | null = null;
    let offset: Expr | null = null;
    for (let n = 0; n < 2; n++) {
      if (this.eatWord('limit')) limit = this.eatWord('all') ? null : this.expr();
      if (this.eatWord('offset')) offset = this.expr();
    }
    return { k: 'select', distinct, items, from, where, groupBy, orderBy, limit, offset };
  }

  private selectItems(): SelectItem[] {
    const items: SelectItem[] = [];
    do {
      if (this.eatOp('*')) { items.push({ expr: null, star: true, alias: null }); continue; }
      if ((this.at('ident') || this.at('qident')) && this.peek(1).kind === 'op' && this.peek(1).value === '.' && this.peek(2).value === '*' && this.peek(2).kind === 'op') {
        const table = this.ident();
        this.i += 2;
        items.push({ expr: null, star: table, alias: null });
        continue;
      }
      const expr = this.expr();
      let alias: string | null = null;
      if (this.eatWord('as')) alias = this.ident();
      else if (this.at('qident') || (this.at('ident') && !RESERVED.has(this.peek().value.toLowerCase()))) alias = this.ident();
      items.push({ expr, star: null, alias });
    } while (this.eatOp(','));
    return items;
  }

  private returning(): SelectItem[] | null { return this.eatWord('returning') ? this.selectItems() : null; }

  private insert(): Stmt {
    this.word('insert');
    this.word('into');
    const table = this.tableRef();
    let columns: { name: string; pos: number }[] | null = null;
    if (this.eatOp('(')) { columns = []; do columns.push(this.identPos()); while (this.eatOp(',')); this.op(')'); }
    this.word('values');
    const rows: Expr[][] = [];
    do {
      this.op('(');
      const row: Expr[] = [];
      do row.push(this.isWord('default') ? (this.i++, { k: 'func', name: '__default', args: [], star: false, distinct: false, pos: 0 }) : this.expr()); while (this.eatOp(','));
      this.op(')');
      rows.push(row);
    } while (this.eatOp(','));
    let onConflictNothing = false;
    if (this.eatWords('on', 'conflict')) {
      if (this.isOp('(')) this.group();
      this.word('do');
      this.word('nothing');
      onConflictNothing = true;
    }
    return { k: 'insert', table, columns, rows, returning: this.returning(), onConflictNothing };
  }

  private update(): Stmt {
    this.word('update');
    const table = this.tableRef(true);
    this.word('set');
    const sets: { name: string; pos: number; expr: Expr }[] = [];
    do {
      const col = this.identPos();
      this.op('=');
      sets.push({ ...col, expr: this.expr() });
    } while (this.eatOp(','));
    const where = this.eatWord('where') ? this.expr() : null;
    return { k: 'update', table, sets, where, returning: this.returning() };
  }

  private delete(): Stmt {
    this.word('delete');
    this.word('from');
    const table = this.tableRef(true);
    const where = this.eatWord('where') ? this.expr() : null;
    return { k: 'delete', table, where, returning: this.returning() };
  }

  private ifNotExists(): boolean { return this.eatWords('if', 'not', 'exists'); }
  private ifExists(): boolean { return this.eatWords('if', 'exists'); }

  private typeName(): string {
    const from = this.i;
    this.ident();
    if (this.eatOp('.')) this.ident();
    // Multi-word types: double precision, character varying, timestamp with time zone.
    while (this.at('ident') && ['precision', 'varying', 'with', 'without', 'time', 'zone'].includes(this.peek().value.toLowerCase())) this.i++;
    if (this.isOp('(')) this.group();
    while (this.isOp('[')) { this.i++; this.op(']'); }
    return this.textFrom(from).toLowerCase().replace(/\s+/g, ' ');
  }

  private columnDef(): ColumnDef {
    const name = this.ident();
    const type = this.typeName();
    const col: ColumnDef = { name, type, notNull: false, primary: false, unique: false, default: null, defaultText: null, identity: null, references: null, check: null };
    for (;;) {
      if (this.eatWords('not', 'null')) col.notNull = true;
      else if (this.eatWord('null')) col.notNull = false;
      else if (this.eatWords('primary', 'key')) { col.primary = true; col.notNull = true; }
      else if (this.eatWord('unique')) col.unique = true;
      else if (this.eatWord('default')) { const from = this.i; col.default = this.expr(); col.defaultText = this.textFrom(from); }
      else if (this.eatWords('generated', 'always', 'as', 'identity')) { col.identity = 'ALWAYS'; col.notNull = true; if (this.isOp('(')) this.group(); }
      else if (this.eatWords('generated', 'by', 'default', 'as', 'identity')) { col.identity = 'BY DEFAULT'; col.notNull = true; if (this.isOp('(')) this.group(); }
      else if (this.eatWord('references')) {
        const table = this.tableRef();
        let column: string | null = null;
        if (this.eatOp('(')) { column = this.ident(); this.op(')'); }
        while (this.eatWord('on')) { this.ident(); if (this.eatWord('set')) this.ident(); else if (this.eatWord('no')) this.word('action'); else this.ident(); }
        col.references = { table, column };
      } else if (this.eatWord('check')) col.check = this.group();
      else if (this.eatWord('constraint')) this.ident();
      else if (this.eatWord('collate')) this.ident();
      else break;
    }
    return col;
  }

  private identList(): string[] { this.op('('); const out: string[] = []; do out.push(this.ident()); while (this.eatOp(',')); this.op(')'); return out; }

  private tableConstraint(): AlterAction {
    const from = this.i;
    const name = this.eatWord('constraint') ? this.ident() : null;
    if (this.eatWords('primary', 'key')) { const cols = this.identList(); return { k: 'add_constraint', name, text: this.textFrom(from), primary: cols, unique: null, fk: null }; }
    if (this.eatWord('unique')) { const cols = this.identList(); return { k: 'add_constraint', name, text: this.textFrom(from), primary: null, unique: cols, fk: null }; }
    if (this.eatWords('foreign', 'key')) {
      const columns = this.identList();
      this.word('references');
      const table = this.tableRef();
      const target = this.isOp('(') ? this.identList() : ['id'];
      while (this.eatWord('on')) { this.ident(); if (this.eatWord('set')) this.ident(); else if (this.eatWord('no')) this.word('action'); else this.ident(); }
      return { k: 'add_constraint', name, text: this.textFrom(from), primary: null, unique: null, fk: { columns, table, target } };
    }
    if (this.eatWord('check')) { this.group(); return { k: 'add_constraint', name, text: this.textFrom(from), primary: null, unique: null, fk: null }; }
    return this.fail();
  }

  private isConstraintStart(): boolean { return ['constraint', 'primary', 'unique', 'foreign', 'check'].some((w) => this.isWord(w)); }

  private create(): Stmt {
    this.word('create');
    if (this.eatWords('or', 'replace')) {
      // Functions, views and triggers are accepted and recorded by the migration only.
      this.skipToEnd();
      return { k: 'noop', what: 'create or replace' };
    }
    if (this.eatWord('table')) {
      const ifNotExists = this.ifNotExists();
      const table = this.tableRef();
      this.op('(');
      const columns: ColumnDef[] = [];
      const constraints: AlterAction[] = [];
      do {
        if (this.isConstraintStart()) constraints.push(this.tableConstraint());
        else columns.push(this.columnDef());
      } while (this.eatOp(','));
      this.op(')');
      return { k: 'create_table', table, ifNotExists, columns, constraints };
    }
    const unique = this.eatWord('unique');
    if (this.eatWord('index')) {
      this.eatWord('concurrently');
      const ifNotExists = this.ifNotExists();
      const name = this.isWord('on') ? null : this.ident();
      this.word('on');
      const table = this.tableRef();
      if (this.eatWord('using')) this.ident();
      const inner = this.group();
      this.skipToEnd();
      return { k: 'create_index', name, table, columns: inner.split(',').map((c) => c.trim().split(/\s+/)[0]!.replace(/"/g, '').toLowerCase()), unique, ifNotExists };
    }
    if (this.eatWord('policy')) {
      const name = this.ident();
      this.word('on');
      const table = this.tableRef();
      let command = 'ALL';
      const roles: string[] = [];
      let using: string | null = null;
      let check: string | null = null;
      if (this.eatWord('as')) this.ident();
      if (this.eatWord('for')) command = this.ident().toUpperCase();
      if (this.eatWord('to')) { do roles.push(this.ident()); while (this.eatOp(',')); }
      if (this.eatWord('using')) using = this.group();
      if (this.eatWords('with', 'check')) check = this.group();
      return { k: 'create_policy', name, table, command, roles: roles.length ? roles : ['public'], using, check };
    }
    if (this.eatWord('extension')) {
      const ifNotExists = this.ifNotExists();
      const name = this.ident();
      let schema: string | null = null;
      this.eatWord('with');
      if (this.eatWord('schema')) schema = this.ident();
      this.skipToEnd();
      return { k: 'create_extension', name, schema, ifNotExists };
    }
    if (this.eatWord('schema')) { const ifNotExists = this.ifNotExists(); const name = this.ident(); this.skipToEnd(); return { k: 'create_schema', name, ifNotExists }; }
    for (const word of ['function', 'trigger', 'view', 'type', 'sequence', 'role', 'publication']) {
      if (this.isWord(word)) { this.skipToEnd(); return { k: 'noop', what: `create ${word}` }; }
    }
    return this.fail();
  }

  private alter(): Stmt {
    this.word('alter');
    if (!this.eatWord('table')) {
      for (const word of ['function', 'publication', 'default', 'role', 'type', 'view', 'sequence', 'schema', 'database']) {
        if (this.isWord(word)) { this.skipToEnd(); return { k: 'noop', what: `alter ${word}` }; }
      }
      this.fail();
    }
    const ifExists = this.ifExists();
    this.eatWord('only');
    const table = this.tableRef();
    const actions: AlterAction[] = [];
    do {
      if (this.eatWord('add')) {
        if (this.isConstraintStart()) { actions.push(this.tableConstraint()); continue; }
        this.eatWord('column');
        const ifNot = this.ifNotExists();
        actions.push({ k: 'add_column', column: this.columnDef(), ifNotExists: ifNot });
      } else if (this.eatWord('drop')) {
        if (this.eatWord('constraint')) { this.ifExists(); this.ident(); this.eatWord('cascade'); continue; }
        this.eatWord('column');
        const ifEx = this.ifExists();
        const { name, pos } = this.identPos();
        this.eatWord('cascade');
        actions.push({ k: 'drop_column', name, ifExists: ifEx, pos });
      } else if (this.eatWord('rename')) {
        if (this.eatWord('to')) { actions.push({ k: 'rename_table', to: this.ident() }); continue; }
        this.eatWord('column');
        const { name, pos } = this.identPos();
        this.word('to');
        actions.push({ k: 'rename_column', from: name, to: this.ident(), pos });
      } else if (this.eatWord('enable')) {
        this.word('row'); this.word('level'); this.word('security');
        actions.push({ k: 'rls', enable: true, force: false });
      } else if (this.eatWord('disable')) {
        this.word('row'); this.word('level'); this.word('security');
        actions.push({ k: 'rls', enable: false, force: false });
      } else if (this.eatWord('force')) {
        this.word('row'); this.word('level'); this.word('security');
        actions.push({ k: 'rls', enable: true, force: true });
      } else if (this.eatWord('alter')) {
        this.eatWord('column');
        const { name, pos } = this.identPos();
        if (this.eatWords('set', 'not', 'null')) actions.push({ k: 'alter_column', name, pos, set: { notNull: true } });
        else if (this.eatWords('drop', 'not', 'null')) actions.push({ k: 'alter_column', name, pos, set: { notNull: false } });
        else if (this.eatWords('set', 'default')) { const from = this.i; const expr = this.expr(); actions.push({ k: 'alter_column', name, pos, set: { default: { expr, text: this.textFrom(from) } } }); }
        else if (this.eatWords('drop', 'default')) actions.push({ k: 'alter_column', name, pos, set: { default: { expr: null, text: null } } });
        else if (this.eatWord('type') || this.eatWords('set', 'data', 'type')) { const type = this.typeName(); if (this.eatWord('using')) this.expr(); actions.push({ k: 'alter_column', name, pos, set: { type } }); }
        else this.fail();
      } else if (this.eatWord('owner')) { this.word('to'); this.ident(); } else this.fail();
    } while (this.eatOp(','));
    return { k: 'alter_table', table, ifExists, actions };
  }

  private drop(): Stmt {
    this.word('drop');
    if (this.eatWord('table')) {
      const ifExists = this.ifExists();
      const tables = [this.tableRef()];
      while (this.eatOp(',')) tables.push(this.tableRef());
      this.eatWord('cascade') || this.eatWord('restrict');
      return { k: 'drop_table', tables, ifExists };
    }
    if (this.eatWord('policy')) { const ifExists = this.ifExists(); const name = this.ident(); this.word('on'); const table = this.tableRef(); return { k: 'drop_policy', name, table, ifExists }; }
    if (this.eatWord('extension')) { const ifExists = this.ifExists(); const name = this.ident(); this.skipToEnd(); return { k: 'drop_extension', name, ifExists }; }
    for (const word of ['index', 'function', 'trigger', 'view', 'type', 'schema', 'sequence']) {
      if (this.isWord(word)) { this.skipToEnd(); return { k: 'noop', what: `drop ${word}` }; }
    }
    return this.fail();
  }

  private comment(): Stmt {
    this.word('comment');
    this.word('on');
    let on: 'table' | 'column';
    let table: TableRef;
    let column: string | null = null;
    if (this.eatWord('table')) { on = 'table'; table = this.tableRef(); } else {
      this.word('column');
      on = 'column';
      const a = this.ident();
      this.op('.');
      const b = this.ident();
      if (this.eatOp('.')) { table = { schema: a, name: b, alias: null, pos: 0 }; column = this.ident(); } else { table = { schema: null, name: a, alias: null, pos: 0 }; column = b; }
    }
    this.word('is');
    const t = this.peek();
    let text: string | null = null;
    if (t.kind === 'string') { text = t.value; this.i++; } else this.word('null');
    return { k: 'comment', on, table, column, text };
  }

  // ---- expressions (Postgres precedence, loosest first)
  expr(): Expr { return this.or(); }
  private or(): Expr { let left = this.and(); while (this.eatWord('or')) left = { k: 'bin', op: 'or', left, right: this.and() }; return left; }
  private and(): Expr { let left = this.not(); while (this.eatWord('and')) left = { k: 'bin', op: 'and', left, right: this.not() }; return left; }
  private not(): Expr { return this.eatWord('not') ? { k: 'unary', op: 'not', arg: this.not() } : this.predicate(); }
  private predicate(): Expr {
    const left = this.comparison();
    if (this.eatWord('is')) {
      const not = this.eatWord('not');
      if (this.eatWord('null')) return { k: 'isnull', arg: left, not };
      if (this.eatWord('true')) return { k: 'bin', op: not ? '<>' : '=', left, right: { k: 'lit', value: true } };
      if (this.eatWord('false')) return { k: 'bin', op: not ? '<>' : '=', left, right: { k: 'lit', value: false } };
      this.fail();
    }
    const not = this.isWord('not') && ['in', 'like', 'ilike', 'between'].some((w) => this.isWord(w, 1)) ? (this.i++, true) : false;
    if (this.eatWord('in')) {
      this.op('(');
      const list: Expr[] = [];
      do list.push(this.expr()); while (this.eatOp(','));
      this.op(')');
      return { k: 'in', arg: left, list, not };
    }
    if (this.isWord('like') || this.isWord('ilike')) { const ci = this.ident() === 'ilike'; return { k: 'like', arg: left, pattern: this.comparison(), not, ci }; }
    if (this.eatWord('between')) { const low = this.additive(); this.word('and'); return { k: 'between', arg: left, low, high: this.additive(), not }; }
    return left;
  }
  private comparison(): Expr {
    const left = this.additive();
    for (const op of ['=', '<>', '!=', '<=', '>=', '<', '>']) {
      if (this.eatOp(op)) return { k: 'bin', op: op === '!=' ? '<>' : op, left, right: this.additive() };
    }
    return left;
  }
  private additive(): Expr {
    let left = this.multiplicative();
    for (;;) {
      if (this.eatOp('+')) left = { k: 'bin', op: '+', left, right: this.multiplicative() };
      else if (this.eatOp('-')) left = { k: 'bin', op: '-', left, right: this.multiplicative() };
      else if (this.eatOp('||')) left = { k: 'bin', op: '||', left, right: this.multiplicative() };
      else return left;
    }
  }
  private multiplicative(): Expr {
    let left = this.unary();
    for (;;) {
      if (this.eatOp('*')) left = { k: 'bin', op: '*', left, right: this.unary() };
      else if (this.eatOp('/')) left = { k: 'bin', op: '/', left, right: this.unary() };
      else if (this.eatOp('%')) left = { k: 'bin', op: '%', left, right: this.unary() };
      else return left;
    }
  }
  private unary(): Expr { return this.eatOp('-') ? { k: 'unary', op: '-', arg: this.unary() } : this.postfix(); }
  private postfix(): Expr {
    let e = this.primary();
    for (;;) {
      if (this.eatOp('::')) e = { k: 'cast', arg: e, type: this.typeName() };
      else if (this.eatOp('[')) { const key = this.expr(); this.op(']'); e = { k: 'index', arg: e, key }; } else if (this.eatOp('->>') || this.eatOp('->')) e = { k: 'index', arg: e, key: this.primary() };
      else return e;
    }
  }
  private primary(): Expr {
    const t = this.peek();
    if (t.kind === 'number') { this.i++; return { k: 'lit', value: Number(t.value) }; }
    if (t.kind === 'string') { this.i++; return { k: 'lit', value: t.value }; }
    if (t.kind === 'param') { this.i++; return { k: 'param', index: Number(t.value), pos: t.pos }; }
    if (this.eatOp('(')) {
      if (this.isWord('select')) this.fail();
      const e = this.expr();
      this.op(')');
      return e;
    }
    if (t.kind === 'ident') {
      const word = t.value.toLowerCase();
      if (word === 'null') { this.i++; return { k: 'lit', value: null }; }
      if (word === 'true' || word === 'false') { this.i++; return { k: 'lit', value: word === 'true' }; }
      if (word === 'interval' && this.peek(1).kind === 'string') { this.i += 2; return { k: 'interval', ms: intervalMs(this.toks[this.i - 1]!.value, t.pos) }; }
      if (word === 'case') return this.caseExpr();
      if (word === 'current_timestamp' || word === 'current_date') { this.i++; return { k: 'func', name: word === 'current_date' ? 'current_date' : 'now', args: [], star: false, distinct: false, pos: t.pos }; }
      if (RESERVED.has(word) && !(this.peek(1).kind === 'op' && this.peek(1).value === '(')) this.fail();
    }
    if (t.kind === 'ident' || t.kind === 'qident') {
      const name = this.ident();
      if (this.isOp('(') && t.kind === 'ident') {
        this.i++;
        if (this.eatOp('*')) { this.op(')'); return { k: 'func', name, args: [], star: true, distinct: false, pos: t.pos }; }
        const distinct = this.eatWord('distinct');
        const args: Expr[] = [];
        if (!this.isOp(')')) do args.push(this.expr()); while (this.eatOp(','));
        this.op(')');
        return { k: 'func', name, args, star: false, distinct, pos: t.pos };
      }
      if (this.isOp('.') && (this.peek(1).kind === 'ident' || this.peek(1).kind === 'qident')) {
        this.i++;
        const col = this.ident();
        return { k: 'col', table: name, name: col, pos: t.pos };
      }
      return { k: 'col', table: null, name, pos: t.pos };
    }
    return this.fail();
  }
  private caseExpr(): Expr {
    this.word('case');
    const whens: [Expr, Expr][] = [];
    while (this.eatWord('when')) { const cond = this.expr(); this.word('then'); whens.push([cond, this.expr()]); }
    const otherwise = this.eatWord('else') ? this.expr() : null;
    this.word('end');
    return { k: 'case', whens, otherwise };
  }
}
