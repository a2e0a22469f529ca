import type { D1TableDoc, SqlValue } from './model.js';

/**
 * A small, deterministic subset of SQLite for D1's `/query`: CREATE TABLE, DROP TABLE, INSERT
 * (column list, several rows), SELECT (columns, `*`, COUNT(*), WHERE with AND/OR, comparisons,
 * LIKE, IN, IS [NOT] NULL, ORDER BY, LIMIT/OFFSET), UPDATE … SET … WHERE, DELETE … WHERE, and
 * `sqlite_master` for the table list; `?` and `?N` parameters. Anything else answers SQLite's own
 * `syntax error` (as D1 relays it), never a guess.
 */

export class SqlError extends Error {}

type Tok = { t: 'id' | 'str' | 'num' | 'sym' | 'param'; v: string; at: number };

function tokenize(sql: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (/\s/.test(ch)) { i++; continue; }
    if (ch === '-' && sql[i + 1] === '-') { while (i < sql.length && sql[i] !== '\n') i++; continue; }
    if (ch === "'") {
      let j = i + 1;
      let s = '';
      for (;;) {
        if (j >= sql.length) throw new SqlError(`unrecognized token: "${sql.slice(i, i + 10)}"`);
        if (sql[j] === "'") { if (sql[j + 1] === "'") { s += "'"; j += 2; continue; } break; }
        s += sql[j++];
      }
      out.push({ t: 'str', v: s, at: i });
      i = j + 1;
      continue;
    }
    if (ch === '"' || ch === '`' || ch === '[') {
      const close = ch === '[' ? ']' : ch;
      const j = sql.indexOf(close, i + 1);
      if (j === -1) throw new SqlError(`unrecognized token: "${sql.slice(i, i + 10)}"`);
      out.push({ t: 'id', v: sql.slice(i + 1, j), at: i });
      i = j + 1;
      continue;
    }
    const num = /^-?\d+(\.\d+)?/.exec(sql.slice(i));
    if (num && (ch !== '-' || !out.length || out.at(-1)!.t === 'sym')) { out.push({ t: 'num', v: num[0], at: i }); i += num[0].length; continue; }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i));
    if (id) { out.push({ t: 'id', v: id[0], at: i }); i += id[0].length; continue; }
    const param = /^\?(\d*)/.exec(sql.slice(i));
    if (param) { out.push({ t: 'param', v: param[1] ?? '', at: i }); i += param[0].length; continue; }
    const sym = /^(<>|!=|<=|>=|==|[(),*=<>;.])/.exec(sql.slice(i));
    if (sym) { out.push({ t: 'sym', v: sym[0], at: i }); i += sym[0].length; continue; }
    throw new SqlError(`unrecognized token: "${ch}"`);
  }
  return out;
}

export interface StatementResult { rows: Record<string, SqlValue>[]; changes: number; lastRowId: number; rowsRead: number; rowsWritten: number; changedDb: boolean }

type Cond = (row: Record<string, SqlValue>) => boolean;

/** Runs `sql` over `tables` (changed in place: the caller gives a copy and stores it after). */
export function runSql(sql: string, params: readonly SqlValue[], tables: Record<string, D1TableDoc>): StatementResult[] {
  const toks = tokenize(sql);
  let p = 0;
  let nextParam = 0;
  const results: StatementResult[] = [];
  const peek = (k = 0) => toks[p + k];
  const kw = (word: string, k = 0) => peek(k)?.t === 'id' && peek(k)!.v.toUpperCase() === word;
  const syntax = (): never => {
    const tok = peek();
    throw new SqlError(tok ? `near "${tok.t === 'str' ? `'${tok.v}'` : tok.v}": syntax error at offset ${tok.at}` : 'incomplete input');
  };
  const expectKw = (word: string) => { if (!kw(word)) syntax(); p++; };
  const expectSym = (s: string) => { if (peek()?.t !== 'sym' || peek()!.v !== s) syntax(); p++; };
  const isSym = (s: string) => peek()?.t === 'sym' && peek()!.v === s;
  const ident = (): string => { const tok = peek(); if (tok?.t !== 'id') syntax(); p++; return tok!.v; };
  const value = (): SqlValue => {
    const tok = peek();
    if (!tok) return syntax();
    p++;
    if (tok.t === 'str') return tok.v;
    if (tok.t === 'num') return Number(tok.v);
    if (tok.t === 'param') {
      const index = tok.v === '' ? nextParam++ : Number(tok.v) - 1;
      if (index >= params.length) throw new SqlError(`Wrong number of parameter bindings for SQL query.`);
      return params[index] ?? null;
    }
    if (tok.t === 'id' && tok.v.toUpperCase() === 'NULL') return null;
    if (tok.t === 'id' && (tok.v.toUpperCase() === 'TRUE' || tok.v.toUpperCase() === 'FALSE')) return tok.v.toUpperCase() === 'TRUE' ? 1 : 0;
    p--;
    return syntax();
  };
  const table = (name: string): D1TableDoc => {
    const t = tables[name];
    if (!t) throw new SqlError(`no such table: ${name}`);
    return t;
  };
  const column = (t: D1TableDoc, name: string) => {
    const index = t.columns.findIndex((col) => col.name.toLowerCase() === name.toLowerCase());
    if (index === -1) throw new SqlError(`no such column: ${name}`);
    return t.columns[index]!.name;
  };
  const compare = (a: SqlValue, b: SqlValue): number => {
    // Numeric affinity, as SQLite applies it between an INTEGER/REAL column and a numeric text.
    if (typeof a === 'number' && typeof b === 'string' && b.trim() !== '' && !Number.isNaN(Number(b))) return a - Number(b);
    if (typeof b === 'number' && typeof a === 'string' && a.trim() !== '' && !Number.isNaN(Number(a))) return Number(a) - b;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    if (typeof a === 'number') return -1;
    if (typeof b === 'number') return 1;
    return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  };
  const like = (text: string, pattern: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\*?]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.')}$`, 'is').test(text);

  const condition = (t: D1TableDoc): Cond => {
    const term = (): Cond => {
      if (isSym('(')) { p++; const inner = or(); expectSym(')'); return inner; }
      if (kw('NOT')) { p++; const inner = term(); return (row) => !inner(row); }
      const col = column(t, ident());
      if (kw('IS')) {
        p++;
        const negate = kw('NOT') ? (p++, true) : false;
        expectKw('NULL');
        return (row) => (row[col] === null) !== negate;
      }
      const negate = kw('NOT') ? (p++, true) : false;
      if (kw('IN')) {
        p++;
        expectSym('(');
        const values: SqlValue[] = [value()];
        while (isSym(',')) { p++; values.push(value()); }
        expectSym(')');
        return (row) => values.some((v) => v !== null && row[col] !== null && compare(row[col]!, v) === 0) !== negate;
      }
      if (kw('LIKE')) { p++; const v = value(); return (row) => (row[col] !== null && v !== null && like(String(row[col]), String(v))) !== negate; }
      if (negate) syntax();
      const op = peek();
      if (op?.t !== 'sym' || !['=', '==', '!=', '<>', '<', '>', '<=', '>='].includes(op.v)) return syntax();
      p++;
      const v = value();
      return (row) => {
        const have = row[col] ?? null;
        if (have === null || v === null) return false;
        const d = compare(have, v);
        switch (op.v) {
          case '=': case '==': return d === 0;
          case '!=': case '<>': return d !== 0;
          case '<': return d < 0;
          case '>': return d > 0;
          case '<=': return d <= 0;
          default: return d >= 0;
        }
      };
    };
    const and = (): Cond => { let left = term(); while (kw('AND')) { p++; const l = left; const r = term(); left = (row) => l(row) && r(row); } return left; };
    const or = (): Cond => { let left = and(); while (kw('OR')) { p++; const l = left; const r = and(); left = (row) => l(row) || r(row); } return left; };
    return or();
  };
  const rowsOf = (t: D1TableDoc) => t.rows.map((r) => Object.fromEntries(t.columns.map((col, i) => [col.name, r[i] ?? null])) as Record<string, SqlValue>);
  const where = (t: D1TableDoc): Cond => (kw('WHERE') ? (p++, condition(t)) : () => true);
  const done = (r: Partial<StatementResult>) => results.push({ rows: [], changes: 0, lastRowId: 0, rowsRead: 0, rowsWritten: 0, changedDb: false, ...r });

  while (p < toks.length) {
    if (isSym(';')) { p++; continue; }
    if (kw('SELECT')) {
      p++;
      const cols: ({ kind: 'star' } | { kind: 'count' } | { kind: 'col'; name: string })[] = [];
      do {
        if (cols.length > 0) p++;
        if (isSym('*')) { p++; cols.push({ kind: 'star' }); } else if (kw('COUNT') && peek(1)?.v === '(') { p += 2; expectSym('*'); expectSym(')'); cols.push({ kind: 'count' }); } else cols.push({ kind: 'col', name: ident() });
      } while (isSym(','));
      expectKw('FROM');
      const name = ident();
      const isMaster = name.toLowerCase() === 'sqlite_master' || name.toLowerCase() === 'sqlite_schema';
      const t = isMaster
        ? { columns: ['type', 'name', 'tbl_name', 'sql'].map((n) => ({ name: n, type: 'TEXT', primary_key: false })), rows: Object.entries(tables).map(([n, tb]): SqlValue[] => ['table', n, n, `CREATE TABLE ${n} (${tb.columns.map((c) => `${c.name} ${c.type}${c.primary_key ? ' PRIMARY KEY' : ''}`).join(', ')})`]) }
        : table(name);
      const filter = where(t);
      let rows = rowsOf(t).filter(filter);
      const read = t.rows.length;
      if (kw('ORDER')) {
        p++;
        expectKw('BY');
        const keys: { col: string; dir: number }[] = [];
        do {
          if (keys.length > 0) p++;
          const col = column(t, ident());
          const dir = kw('DESC') ? (p++, -1) : kw('ASC') ? (p++, 1) : 1;
          keys.push({ col, dir });
        } while (isSym(','));
        rows = [...rows].sort((a, b) => {
          for (const k of keys) {
            const x = a[k.col] ?? null;
            const y = b[k.col] ?? null;
            const d = x === null ? (y === null ? 0 : -1) : y === null ? 1 : compare(x, y);
            if (d !== 0) return d * k.dir;
          }
          return 0;
        });
      }
      if (kw('LIMIT')) {
        p++;
        const limit = Number(value());
        const offset = kw('OFFSET') ? (p++, Number(value())) : 0;
        rows = rows.slice(offset, offset + limit);
      }
      const out = cols.some((col) => col.kind === 'count')
        ? [Object.fromEntries(cols.map((col) => (col.kind === 'count' ? ['COUNT(*)', rows.length] : col.kind === 'col' ? [column(t, col.name), rows[0]?.[column(t, col.name)] ?? null] : ['*', null])))]
        : rows.map((row) => Object.fromEntries(cols.flatMap((col) => (col.kind === 'star' ? Object.entries(row) : col.kind === 'col' ? [[column(t, col.name), row[column(t, col.name)] ?? null]] : []))));
      done({ rows: out, rowsRead: read });
    } else if (kw('INSERT')) {
      p++;
      expectKw('INTO');
      const name = ident();
      const t = table(name);
      let cols = t.columns.map((c) => c.name);
      if (isSym('(')) { p++; cols = [column(t, ident())]; while (isSym(',')) { p++; cols.push(column(t, ident())); } expectSym(')'); }
      expectKw('VALUES');
      let changes = 0;
      let lastRowId = 0;
      do {
        if (changes > 0) p++;
        expectSym('(');
        const values: SqlValue[] = [value()];
        while (isSym(',')) { p++; values.push(value()); }
        expectSym(')');
        if (values.length !== cols.length) throw new SqlError(`${values.length} values for ${cols.length} columns`);
        const row = t.columns.map((c) => { const i = cols.indexOf(c.name); return i === -1 ? null : values[i]!; });
        const pk = t.columns.findIndex((c) => c.primary_key);
        if (pk !== -1) {
          if (row[pk] === null && t.columns[pk]!.type === 'INTEGER') row[pk] = t.rows.reduce((m, r) => Math.max(m, Number(r[pk] ?? 0)), 0) + 1;
          if (t.rows.some((r) => r[pk] === row[pk])) throw new SqlError(`UNIQUE constraint failed: ${name}.${t.columns[pk]!.name}`);
          lastRowId = typeof row[pk] === 'number' ? row[pk] as number : t.rows.length + 1;
        } else lastRowId = t.rows.length + 1;
        t.rows = [...t.rows, row];
        changes++;
      } while (isSym(','));
      done({ changes, lastRowId, rowsWritten: changes, changedDb: true });
    } else if (kw('UPDATE')) {
      p++;
      const t = table(ident());
      expectKw('SET');
      const sets: [string, SqlValue][] = [];
      do {
        if (sets.length > 0) p++;
        const col = column(t, ident());
        expectSym('=');
        sets.push([col, value()]);
      } while (isSym(','));
      const filter = where(t);
      let changes = 0;
      const rows = rowsOf(t);
      t.rows = t.rows.map((r, i) => {
        if (!filter(rows[i]!)) return r;
        changes++;
        return t.columns.map((c, j) => { const set = sets.find(([n]) => n === c.name); return set ? set[1] : r[j] ?? null; });
      });
      done({ changes, rowsRead: rows.length, rowsWritten: changes, changedDb: changes > 0 });
    } else if (kw('DELETE')) {
      p++;
      expectKw('FROM');
      const t = table(ident());
      const filter = where(t);
      const rows = rowsOf(t);
      const keep = t.rows.filter((_r, i) => !filter(rows[i]!));
      const changes = t.rows.length - keep.length;
      t.rows = keep;
      done({ changes, rowsRead: rows.length, rowsWritten: changes, changedDb: changes > 0 });
    } else if (kw('CREATE')) {
      p++;
      expectKw('TABLE');
      const ifNot = kw('IF') ? (p += 3, true) : false;
      const name = ident();
      expectSym('(');
      const columns: D1TableDoc['columns'] = [];
      do {
        if (columns.length > 0) p++;
        const col = ident();
        const type = peek()?.t === 'id' && ['INTEGER', 'INT', 'TEXT', 'REAL'].includes(peek()!.v.toUpperCase()) ? (p++, toks[p - 1]!.v.toUpperCase().replace(/^INT$/, 'INTEGER')) : 'TEXT';
        let primary = false;
        while (peek()?.t === 'id') { if (kw('PRIMARY')) primary = true; p++; }
        columns.push({ name: col, type, primary_key: primary });
      } while (isSym(','));
      expectSym(')');
      if (tables[name]) { if (!ifNot) throw new SqlError(`table ${name} already exists`); } else tables[name] = { columns, rows: [] };
      done({ changedDb: true });
    } else if (kw('DROP')) {
      p++;
      expectKw('TABLE');
      const ifExists = kw('IF') ? (p += 2, true) : false;
      const name = ident();
      if (!tables[name]) { if (!ifExists) throw new SqlError(`no such table: ${name}`); } else delete tables[name];
      done({ changedDb: true });
    } else {
      syntax();
    }
    if (p < toks.length && !isSym(';')) syntax();
  }
  return results;
}
