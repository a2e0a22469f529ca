import type { Json } from '../core/store.js';
import { Parser, PgError, type Expr, type SelectItem, type Stmt, type TableRef } from './sql-parse.js';

/**
 * Runs the parsed SQL subset over a `Source`: a set of relations (the project's tables, plus
 * read-only catalog views) and, for writable tables, a `Writer`. Results are rows as Postgres's
 * JSON renders them (column order of the select list). Everything is synchronous and pure: the
 * logical time and seeded UUIDs come in through `Env`.
 */

export type Row = Record<string, Json>;

export interface ColumnInfo { name: string; type: string; not_null: boolean; default: string | null; identity: 'ALWAYS' | 'BY DEFAULT' | null }

export interface Relation {
  schema: string;
  name: string;
  columns: string[];
  rows(): Row[];
  /** Present on a table the statement may write. */
  table?: WritableTable;
}

export interface WritableTable {
  columns: ColumnInfo[];
  primaryKey: string[];
  uniques: string[][];
  /** Row handles in heap order. */
  handles(): { id: number; values: Row }[];
  insert(values: Row): void;
  update(id: number, values: Row): void;
  delete(id: number): void;
  nextSequence(column: string): number;
  /** `public.order_status` → its labels, for enum-typed columns. */
  enumLabels(type: string): string[] | null;
}

export interface Env {
  nowMs: number;
  uuid(): string;
  params: unknown[];
  readOnly: boolean;
}

export interface Source {
  /** The relation, or null (the executor answers `relation … does not exist`). */
  relation(schema: string | null, name: string): Relation | null;
  /** DDL and everything that is not a row query. */
  ddl(stmt: Stmt, env: Env): void;
}

export function parseSql(sql: string): Stmt[] {
  return Parser.parse(sql);
}

/** Runs every statement; answers the last one's rows (as the Management API's query endpoint does). */
export function execute(stmts: Stmt[], source: Source, env: Env): Row[] {
  let result: Row[] = [];
  for (const stmt of stmts) result = executeOne(stmt, source, env);
  return result;
}

function executeOne(stmt: Stmt, source: Source, env: Env): Row[] {
  const write = stmt.k !== 'select' && stmt.k !== 'noop';
  if (write && env.readOnly) throw new PgError('25006', `cannot execute ${verb(stmt)} in a read-only transaction`);
  switch (stmt.k) {
    case 'select': return select(stmt, source, env);
    case 'insert': return insert(stmt, source, env);
    case 'update': return update(stmt, source, env);
    case 'delete': return remove(stmt, source, env);
    default:
      source.ddl(stmt, env);
      return [];
  }
}

function verb(stmt: Stmt): string {
  switch (stmt.k) {
    case 'insert': return 'INSERT';
    case 'update': return 'UPDATE';
    case 'delete': return 'DELETE';
    case 'create_table': return 'CREATE TABLE';
    case 'alter_table': return 'ALTER TABLE';
    case 'drop_table': return 'DROP TABLE';
    case 'truncate': return 'TRUNCATE TABLE';
    default: return stmt.k.replace('_', ' ').toUpperCase();
  }
}

export function relationOf(source: Source, ref: TableRef): Relation {
  const found = source.relation(ref.schema, ref.name);
  if (!found) throw new PgError('42P01', `relation "${ref.schema ? `${ref.schema}.` : ''}${ref.name}" does not exist`, ref.pos);
  return found;
}

// ---- evaluation

interface Scope { row: Row; columns: string[]; alias: string; relation: string | null }

function lookup(scope: Scope | null, e: Extract<Expr, { k: 'col' }>): Json {
  if (!scope) throw new PgError('42703', `column "${e.name}" does not exist`, e.pos);
  if (e.table !== null && e.table !== scope.alias && e.table !== scope.relation) {
    throw new PgError('42P01', `missing FROM-clause entry for table "${e.table}"`, e.pos);
  }
  if (!scope.columns.includes(e.name)) {
    throw new PgError('42703', e.table ? `column ${e.table}.${e.name} does not exist` : `column "${e.name}" does not exist`, e.pos);
  }
  return scope.row[e.name] ?? null;
}

const isNum = (v: unknown): v is number => typeof v === 'number';
const numeric = (v: unknown) => (isNum(v) ? v : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : null);
const isTimestamp = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/.test(v);
const timeOf = (v: string) => Date.parse(v.includes(' ') && !v.includes('T') ? v.replace(' ', 'T') : v);

export function compare(a: Json, b: Json): number {
  const na = numeric(a);
  const nb = numeric(b);
  if ((isNum(a) || isNum(b)) && na !== null && nb !== null) return na - nb;
  if (isTimestamp(a) && isTimestamp(b)) return timeOf(a as string) - timeOf(b as string);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const sa = typeof a === 'string' ? a : JSON.stringify(a);
  const sb = typeof b === 'string' ? b : JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function truthy(v: Json): boolean { return v === true || v === 't' || v === 'true'; }

function likeRegex(pattern: string, ci: boolean): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) out += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') out += '[\\s\\S]*';
    else if (c === '_') out += '[\\s\\S]';
    else out += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, ci ? 'i' : '');
}

export function evaluate(e: Expr, scope: Scope | null, env: Env, group?: Scope[]): Json {
  switch (e.k) {
    case 'lit': return e.value as Json;
    case 'col': return lookup(scope, e);
    case 'param': {
      if (e.index < 1 || e.index > env.params.length) throw new PgError('42P02', `there is no parameter $${e.index}`, e.pos);
      return env.params[e.index - 1] as Json;
    }
    case 'interval': return { __interval: e.ms } as unknown as Json;
    case 'unary': {
      const v = evaluate(e.arg, scope, env, group);
      if (v === null) return null;
      if (e.op === 'not') return !truthy(v);
      const n = numeric(v);
      if (n === null) throw new PgError('42883', `operator does not exist: - ${typeof v === 'string' ? 'text' : 'unknown'}`);
      return -n;
    }
    case 'bin': {
      if (e.op === 'and') {
        const l = evaluate(e.left, scope, env, group);
        if (l !== null && !truthy(l)) return false;
        const r = evaluate(e.right, scope, env, group);
        if (r !== null && !truthy(r)) return false;
        return l === null || r === null ? null : true;
      }
      if (e.op === 'or') {
        const l = evaluate(e.left, scope, env, group);
        if (l !== null && truthy(l)) return true;
        const r = evaluate(e.right, scope, env, group);
        if (r !== null && truthy(r)) return true;
        return l === null || r === null ? null : false;
      }
      const l = evaluate(e.left, scope, env, group);
      const r = evaluate(e.right, scope, env, group);
      if (l === null || r === null) return null;
      switch (e.op) {
        case '=': return compare(l, r) === 0;
        case '<>': return compare(l, r) !== 0;
        case '<': return compare(l, r) < 0;
        case '<=': return compare(l, r) <= 0;
        case '>': return compare(l, r) > 0;
        case '>=': return compare(l, r) >= 0;
        case '||': return `${typeof l === 'string' ? l : JSON.stringify(l)}${typeof r === 'string' ? r : JSON.stringify(r)}`;
        default: return arithmetic(e.op, l, r);
      }
    }
    case 'isnull': { const v = evaluate(e.arg, scope, env, group); return e.not ? v !== null : v === null; }
    case 'in': {
      const v = evaluate(e.arg, scope, env, group);
      if (v === null) return null;
      const hit = e.list.some((item) => { const x = evaluate(item, scope, env, group); return x !== null && compare(v, x) === 0; });
      return e.not ? !hit : hit;
    }
    case 'like': {
      const v = evaluate(e.arg, scope, env, group);
      const p = evaluate(e.pattern, scope, env, group);
      if (v === null || p === null) return null;
      const hit = likeRegex(String(p), e.ci).test(typeof v === 'string' ? v : JSON.stringify(v));
      return e.not ? !hit : hit;
    }
    case 'between': {
      const v = evaluate(e.arg, scope, env, group);
      const lo = evaluate(e.low, scope, env, group);
      const hi = evaluate(e.high, scope, env, group);
      if (v === null || lo === null || hi === null) return null;
      const hit = compare(v, lo) >= 0 && compare(v, hi) <= 0;
      return e.not ? !hit : hit;
    }
    case 'cast': return cast(evaluate(e.arg, scope, env, group), e.type);
    case 'index': {
      const v = evaluate(e.arg, scope, env, group);
      const key = evaluate(e.key, scope, env, group);
      if (v === null || key === null || typeof v !== 'object') return null;
      // Postgres arrays count from 1; JSON objects and ClickHouse maps by key.
      return (Array.isArray(v) ? v[Number(key) - 1] : (v as Record<string, Json>)[String(key)]) ?? null;
    }
    case 'case': {
      for (const [cond, then] of e.whens) if (truthy(evaluate(cond, scope, env, group))) return evaluate(then, scope, env, group);
      return e.otherwise ? evaluate(e.otherwise, scope, env, group) : null;
    }
    case 'func': return call(e, scope, env, group);
  }
}

function arithmetic(op: string, l: Json, r: Json): Json {
  const interval = (v: Json) => (v !== null && typeof v === 'object' && '__interval' in (v as object) ? (v as unknown as { __interval: number }).__interval : null);
  const li = interval(l);
  const ri = interval(r);
  if (ri !== null && typeof l === 'string' && isTimestamp(l)) return isoPg(timeOf(l) + (op === '-' ? -ri : ri));
  if (li !== null && typeof r === 'string' && isTimestamp(r) && op === '+') return isoPg(timeOf(r) + li);
  const a = numeric(l);
  const b = numeric(r);
  if (a === null || b === null) throw new PgError('42883', `operator does not exist: ${typeof l === 'string' ? 'text' : 'integer'} ${op} ${typeof r === 'string' ? 'text' : 'integer'}`);
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': if (b === 0) throw new PgError('22012', 'division by zero'); return Number.isInteger(a) && Number.isInteger(b) ? Math.trunc(a / b) : a / b;
    case '%': return a % b;
  }
  throw new PgError('42601', `syntax error at or near "${op}"`);
}

export function isoPg(ms: number): string {
  const text = new Date(ms).toISOString();
  const frac = text.slice(19, 23);
  return `${text.slice(0, 19)}${frac === '.000' ? '' : frac}+00:00`;
}

function cast(v: Json, type: string): Json {
  if (v === null) return null;
  const t = type.replace(/\(.*\)/, '').trim();
  if (['int', 'integer', 'int4', 'int8', 'bigint', 'smallint', 'int2'].includes(t)) {
    const n = numeric(v);
    if (n === null) throw new PgError('22P02', `invalid input syntax for type ${t === 'int8' ? 'bigint' : t === 'int4' || t === 'int' ? 'integer' : t}: "${String(v)}"`);
    return Math.round(n);
  }
  if (['numeric', 'decimal', 'float8', 'float4', 'real', 'double precision'].includes(t)) {
    const n = numeric(v);
    if (n === null) throw new PgError('22P02', `invalid input syntax for type ${t}: "${String(v)}"`);
    return n;
  }
  if (t === 'text' || t === 'varchar' || t === 'character varying') return typeof v === 'string' ? v : JSON.stringify(v);
  if (t === 'bool' || t === 'boolean') return truthy(v) || v === 1;
  if (t === 'jsonb' || t === 'json') return typeof v === 'string' ? parseJson(v) : v;
  if (t === 'interval' && typeof v === 'string') return v;
  return v;
}

function parseJson(text: string): Json {
  try { return JSON.parse(text) as Json; } catch { throw new PgError('22P02', 'invalid input syntax for type json'); }
}

const AGGREGATES = new Set(['count', 'sum', 'avg', 'min', 'max', 'array_agg', 'bool_and', 'bool_or']);

function call(e: Extract<Expr, { k: 'func' }>, scope: Scope | null, env: Env, group?: Scope[]): Json {
  const name = e.name.toLowerCase();
  if (AGGREGATES.has(name)) {
    const rows = group ?? (scope ? [scope] : []);
    if (name === 'count' && (e.star || e.args.length === 0)) return rows.length;
    let values = rows.map((s) => evaluate(e.args[0]!, s, env)).filter((v) => v !== null);
    if (e.distinct) values = values.filter((v, i) => values.findIndex((w) => compare(v, w) === 0) === i);
    switch (name) {
      case 'count': return values.length;
      case 'sum': return values.length ? values.reduce<number>((a, v) => a + (numeric(v) ?? 0), 0) : null;
      case 'avg': return values.length ? values.reduce<number>((a, v) => a + (numeric(v) ?? 0), 0) / values.length : null;
      case 'min': return values.length ? values.reduce((a, v) => (compare(v, a) < 0 ? v : a)) : null;
      case 'max': return values.length ? values.reduce((a, v) => (compare(v, a) > 0 ? v : a)) : null;
      case 'array_agg': return values.length ? values : null;
      case 'bool_and': return values.length ? values.every(truthy) : null;
      case 'bool_or': return values.length ? values.some(truthy) : null;
    }
  }
  const args = e.args.map((a) => evaluate(a, scope, env, group));
  switch (name) {
    case 'now': case 'current_timestamp': case 'statement_timestamp': case 'transaction_timestamp': return isoPg(env.nowMs);
    case 'current_date': return new Date(env.nowMs).toISOString().slice(0, 10);
    case 'gen_random_uuid': case 'uuid_generate_v4': return env.uuid();
    case 'lower': return args[0] === null ? null : String(args[0]).toLowerCase();
    case 'upper': return args[0] === null ? null : String(args[0]).toUpperCase();
    case 'length': case 'char_length': return args[0] === null ? null : String(args[0]).length;
    case 'trim': return args[0] === null ? null : String(args[0]).trim();
    case 'coalesce': return args.find((a) => a !== null) ?? null;
    case 'nullif': return args[0] !== null && args[1] !== null && compare(args[0]!, args[1]!) === 0 ? null : args[0] ?? null;
    case 'concat': return args.filter((a) => a !== null).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join('');
    case 'round': { const n = numeric(args[0]); if (n === null) return null; const d = numeric(args[1]) ?? 0; return Math.round(n * 10 ** d) / 10 ** d; }
    case 'abs': { const n = numeric(args[0]); return n === null ? null : Math.abs(n); }
    case 'version': return 'PostgreSQL 15.8 on aarch64-unknown-linux-gnu, compiled by gcc (GCC) 13.2.0, 64-bit';
    case 'current_user': case 'session_user': case 'current_role': return 'postgres';
    case 'current_database': return 'postgres';
    case 'current_schema': return 'public';
    case 'date_trunc': {
      const unit = String(args[0]);
      if (args[1] === null || typeof args[1] !== 'string') return null;
      const d = new Date(timeOf(args[1]));
      const parts = ['year', 'month', 'day', 'hour', 'minute', 'second'];
      const keep = parts.indexOf(unit);
      if (keep === -1) throw new PgError('22023', `unit "${unit}" not recognized for type timestamp with time zone`);
      const fields = [d.getUTCFullYear(), keep >= 1 ? d.getUTCMonth() : 0, keep >= 2 ? d.getUTCDate() : 1, keep >= 3 ? d.getUTCHours() : 0, keep >= 4 ? d.getUTCMinutes() : 0, keep >= 5 ? d.getUTCSeconds() : 0] as const;
      return isoPg(Date.UTC(...fields));
    }
    case 'nextval': case '__default': throw new PgError('0A000', `${name} is not allowed here`, e.pos);
  }
  throw new PgError('42883', `function ${name}(${args.map((a) => (typeof a === 'number' ? 'integer' : 'unknown')).join(', ')}) does not exist`, e.pos);
}

function hasAggregate(e: Expr | null): boolean {
  if (!e) return false;
  switch (e.k) {
    case 'func': return AGGREGATES.has(e.name.toLowerCase()) || e.args.some(hasAggregate);
    case 'bin': return hasAggregate(e.left) || hasAggregate(e.right);
    case 'unary': case 'cast': case 'isnull': return hasAggregate(e.arg);
    default: return false;
  }
}

/** Postgres's output name for a select item. */
function outputName(item: SelectItem): string {
  if (item.alias) return item.alias;
  const e = item.expr!;
  if (e.k === 'col') return e.name;
  if (e.k === 'func') return e.name.toLowerCase();
  if (e.k === 'cast') return outputName({ expr: e.arg, star: null, alias: null }) === '?column?' ? e.type : outputName({ expr: e.arg, star: null, alias: null });
  if (e.k === 'index' && e.key.k === 'lit') return e.arg.k === 'col' ? e.arg.name : '?column?';
  return '?column?';
}

function project(items: SelectItem[], scope: Scope | null, env: Env, rel: Relation | null, group?: Scope[]): Row {
  const out: Row = {};
  for (const item of items) {
    if (item.star !== null) {
      if (!rel || !scope) throw new PgError('42601', 'SELECT * with no tables specified is not valid');
      for (const c of rel.columns) out[c] = scope.row[c] ?? null;
      continue;
    }
    out[outputName(item)] = evaluate(item.expr!, scope, env, group);
  }
  return out;
}

function limitOf(e: Expr | null, env: Env): number | null {
  if (!e) return null;
  const n = numeric(evaluate(e, null, env));
  if (n === null || n < 0) throw new PgError('2201W', 'LIMIT must not be negative');
  return n;
}

function select(stmt: Extract<Stmt, { k: 'select' }>, source: Source, env: Env): Row[] {
  const rel = stmt.from ? relationOf(source, stmt.from) : null;
  const alias = stmt.from?.alias ?? stmt.from?.name ?? '';
  const scopes: Scope[] = rel
    ? rel.rows().map((row) => ({ row, columns: rel.columns, alias, relation: rel.name }))
    : [{ row: {}, columns: [], alias: '', relation: null }];
  const filtered = stmt.where ? scopes.filter((s) => truthy(evaluate(stmt.where!, s, env))) : scopes;
  const grouped = stmt.groupBy.length > 0 || stmt.items.some((i) => hasAggregate(i.expr));
  let out: { row: Row; scope: Scope | null; group?: Scope[] }[];
  if (grouped) {
    const groups = new Map<string, Scope[]>();
    for (const s of filtered) {
      const key = JSON.stringify(stmt.groupBy.map((g) => evaluate(g, s, env)));
      groups.set(key, [...(groups.get(key) ?? []), s]);
    }
    if (groups.size === 0 && stmt.groupBy.length === 0) groups.set('[]', []);
    out = [...groups.values()].map((group) => ({ row: project(stmt.items, group[0] ?? null, env, rel, group), scope: group[0] ?? null, group }));
  } else {
    out = filtered.map((s) => ({ row: project(stmt.items, rel ? s : null, env, rel), scope: rel ? s : null }));
  }
  if (stmt.orderBy.length > 0) {
    const keyed = out.map((o) => ({ o, keys: stmt.orderBy.map((ob) => orderValue(ob.expr, o, stmt.items, env)) }));
    keyed.sort((x, y) => {
      for (let i = 0; i < stmt.orderBy.length; i++) {
        const { desc, nulls } = stmt.orderBy[i]!;
        const a = x.keys[i]!;
        const b = y.keys[i]!;
        if (a === null || b === null) {
          if (a === b) continue;
          const nullsFirst = nulls === null ? desc : nulls === 'first';
          return (a === null) === nullsFirst ? -1 : 1;
        }
        const c = compare(a, b);
        if (c !== 0) return desc ? -c : c;
      }
      return 0;
    });
    out = keyed.map((k) => k.o);
  }
  let rows = out.map((o) => o.row);
  if (stmt.distinct) rows = rows.filter((r, i) => rows.findIndex((s) => JSON.stringify(s) === JSON.stringify(r)) === i);
  const offset = limitOf(stmt.offset, env) ?? 0;
  const limit = limitOf(stmt.limit, env);
  return rows.slice(offset, limit === null ? undefined : offset + limit);
}

function orderValue(e: Expr, o: { row: Row; scope: Scope | null; group?: Scope[] }, items: SelectItem[], env: Env): Json {
  if (e.k === 'lit' && typeof e.value === 'number') {
    const key = Object.keys(o.row)[e.value - 1];
    if (key === undefined) throw new PgError('42P10', `ORDER BY position ${e.value} is not in select list`);
    return o.row[key] ?? null;
  }
  if (e.k === 'col' && e.table === null && items.some((i) => i.alias === e.name)) return o.row[e.name] ?? null;
  return evaluate(e, o.scope, env, o.group);
}

// ---- writes

function writable(source: Source, ref: TableRef): { rel: Relation; table: WritableTable } {
  const rel = relationOf(source, ref);
  if (!rel.table) throw new PgError('42501', `permission denied for table ${rel.name}`, ref.pos);
  return { rel, table: rel.table };
}

function typeLabel(type: string): string {
  return ({ int8: 'bigint', int4: 'integer', int2: 'smallint', bool: 'boolean', float8: 'double precision', float4: 'real', timestamptz: 'timestamp with time zone', timestamp: 'timestamp without time zone', varchar: 'character varying' } as Record<string, string>)[type] ?? type;
}

/** A value as the column's type stores it, or Postgres's input error. */
export function coerce(value: Json, col: ColumnInfo, table: WritableTable): Json {
  if (value === null) return null;
  const t = col.type;
  const bad = () => new PgError('22P02', `invalid input syntax for type ${typeLabel(t)}: "${typeof value === 'string' ? value : JSON.stringify(value)}"`);
  if (['int2', 'int4', 'int8'].includes(t)) {
    const n = numeric(value);
    if (n === null || !Number.isInteger(n)) throw bad();
    return n;
  }
  if (['numeric', 'float4', 'float8'].includes(t)) { const n = numeric(value); if (n === null) throw bad(); return n; }
  if (t === 'bool') {
    if (typeof value === 'boolean') return value;
    const s = String(value).toLowerCase();
    if (['t', 'true', 'yes', 'on', '1'].includes(s)) return true;
    if (['f', 'false', 'no', 'off', '0'].includes(s)) return false;
    throw bad();
  }
  if (t === 'uuid') {
    if (typeof value !== 'string' || !/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(value)) throw bad();
    return value.toLowerCase();
  }
  if (t === 'timestamptz' || t === 'timestamp' || t === 'date') {
    if (typeof value !== 'string' || Number.isNaN(timeOf(value))) throw bad();
    if (t === 'date') return value.slice(0, 10);
    return t === 'timestamptz' ? isoPg(timeOf(/[zZ]|[+-]\d{2}(:?\d{2})?$/.test(value) ? value : `${value.replace(' ', 'T')}Z`)) : value;
  }
  if (t === 'jsonb' || t === 'json') return typeof value === 'string' ? parseJson(value) : value;
  if (t.startsWith('_')) {
    if (Array.isArray(value)) return value;
    if (typeof value === 'string' && value.startsWith('{') && value.endsWith('}')) return value.slice(1, -1).split(',').filter(Boolean).map((s) => s.trim().replace(/^"|"$/g, ''));
    throw new PgError('22P02', `malformed array literal: "${String(value)}"`);
  }
  const labels = table.enumLabels(t);
  if (labels) {
    if (!labels.includes(String(value))) throw new PgError('22P02', `invalid input value for enum ${t.split('.').pop()}: "${String(value)}"`);
    return String(value);
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The column's default, evaluated now: sequences, identity, now(), gen_random_uuid(), literals. */
function defaultValue(col: ColumnInfo, table: WritableTable, env: Env): Json {
  if (col.identity) return table.nextSequence(col.name);
  if (col.default === null) return null;
  if (/^nextval\(/i.test(col.default)) return table.nextSequence(col.name);
  const [stmt] = parseSql(`select ${col.default}`);
  if (!stmt || stmt.k !== 'select' || !stmt.items[0]?.expr) return null;
  return coerce(evaluate(stmt.items[0].expr, null, env), col, table);
}

function check(table: WritableTable, rel: Relation, values: Row, skip: number | null): void {
  for (const col of table.columns) {
    if (col.not_null && (values[col.name] ?? null) === null) {
      throw new PgError('23502', `null value in column "${col.name}" of relation "${rel.name}" violates not-null constraint`, null, `Failing row contains (${table.columns.map((c) => fmt(values[c.name] ?? null)).join(', ')}).`);
    }
  }
  const keys = [...(table.primaryKey.length ? [table.primaryKey] : []), ...table.uniques];
  for (const key of keys) {
    if (key.some((k) => (values[k] ?? null) === null)) continue;
    const clash = table.handles().find((h) => h.id !== skip && key.every((k) => compare(h.values[k] ?? null, values[k] ?? null) === 0));
    if (clash) {
      const name = key === table.primaryKey ? `${rel.name}_pkey` : `${rel.name}_${key.join('_')}_key`;
      throw new PgError('23505', `duplicate key value violates unique constraint "${name}"`, null, `Key (${key.join(', ')})=(${key.map((k) => fmt(values[k] ?? null)).join(', ')}) already exists.`);
    }
  }
}

const fmt = (v: Json) => (v === null ? 'null' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));

function returning(items: SelectItem[] | null, rel: Relation, values: Row, env: Env): Row | null {
  if (!items) return null;
  return project(items, { row: values, columns: rel.columns, alias: rel.name, relation: rel.name }, env, rel);
}

function columnOf(table: WritableTable, rel: Relation, name: string, pos: number): ColumnInfo {
  const col = table.columns.find((c) => c.name === name);
  if (!col) throw new PgError('42703', `column "${name}" of relation "${rel.name}" does not exist`, pos);
  return col;
}

function insert(stmt: Extract<Stmt, { k: 'insert' }>, source: Source, env: Env): Row[] {
  const { rel, table } = writable(source, stmt.table);
  const targets = stmt.columns ? stmt.columns.map((c) => columnOf(table, rel, c.name, c.pos)) : table.columns;
  const out: Row[] = [];
  for (const exprs of stmt.rows) {
    if (exprs.length > targets.length) throw new PgError('42601', 'INSERT has more expressions than target columns');
    if (stmt.columns && exprs.length < targets.length) throw new PgError('42601', 'INSERT has more target columns than expressions');
    const values: Row = {};
    const given = new Map<string, Expr>(exprs.map((e, i) => [targets[i]!.name, e]));
    for (const col of table.columns) {
      const e = given.get(col.name);
      if (e && !(e.k === 'func' && e.name === '__default')) {
        if (col.identity === 'ALWAYS') throw new PgError('428C9', `cannot insert a non-DEFAULT value into column "${col.name}"`, null, `Column "${col.name}" is an identity column defined as GENERATED ALWAYS.`);
        values[col.name] = coerce(evaluate(e, null, env), col, table);
      } else {
        values[col.name] = defaultValue(col, table, env);
      }
    }
    try {
      check(table, rel, values, null);
    } catch (error) {
      if (stmt.onConflictNothing && error instanceof PgError && error.code === '23505') continue;
      throw error;
    }
    table.insert(values);
    const r = returning(stmt.returning, rel, values, env);
    if (r) out.push(r);
  }
  return out;
}

function update(stmt: Extract<Stmt, { k: 'update' }>, source: Source, env: Env): Row[] {
  const { rel, table } = writable(source, stmt.table);
  const alias = stmt.table.alias ?? rel.name;
  const sets = stmt.sets.map((s) => ({ col: columnOf(table, rel, s.name, s.pos), expr: s.expr }));
  const out: Row[] = [];
  for (const handle of table.handles()) {
    const scope: Scope = { row: handle.values, columns: rel.columns, alias, relation: rel.name };
    if (stmt.where && !truthy(evaluate(stmt.where, scope, env))) continue;
    const values: Row = { ...handle.values };
    for (const { col, expr } of sets) {
      if (col.identity === 'ALWAYS') throw new PgError('428C9', `column "${col.name}" can only be updated to DEFAULT`, null, `Column "${col.name}" is an identity column defined as GENERATED ALWAYS.`);
      values[col.name] = expr.k === 'func' && expr.name === '__default' ? defaultValue(col, table, env) : coerce(evaluate(expr, scope, env), col, table);
    }
    check(table, rel, values, handle.id);
    table.update(handle.id, values);
    const r = returning(stmt.returning, rel, values, env);
    if (r) out.push(r);
  }
  return out;
}

function remove(stmt: Extract<Stmt, { k: 'delete' }>, source: Source, env: Env): Row[] {
  const { rel, table } = writable(source, stmt.table);
  const alias = stmt.table.alias ?? rel.name;
  const out: Row[] = [];
  for (const handle of table.handles()) {
    const scope: Scope = { row: handle.values, columns: rel.columns, alias, relation: rel.name };
    if (stmt.where && !truthy(evaluate(stmt.where, scope, env))) continue;
    table.delete(handle.id);
    const r = returning(stmt.returning, rel, handle.values, env);
    if (r) out.push(r);
  }
  return out;
}

/** Normalises a declared type to its catalog name (`bigint` → `int8`), or null when Postgres would not know it. */
export function normaliseType(type: string, enums: Record<string, string[]>): string | null {
  const t = type.toLowerCase().replace(/\(.*?\)/g, '').replace(/"/g, '').trim();
  if (t.endsWith('[]')) { const inner = normaliseType(t.slice(0, -2), enums); return inner && `_${inner}`; }
  const map: Record<string, string> = {
    bigint: 'int8', int8: 'int8', bigserial: 'int8', serial8: 'int8', integer: 'int4', int: 'int4', int4: 'int4', serial: 'int4', serial4: 'int4',
    smallint: 'int2', int2: 'int2', smallserial: 'int2', text: 'text', varchar: 'varchar', 'character varying': 'varchar', char: 'bpchar', character: 'bpchar',
    boolean: 'bool', bool: 'bool', uuid: 'uuid', timestamptz: 'timestamptz', 'timestamp with time zone': 'timestamptz', timestamp: 'timestamp',
    'timestamp without time zone': 'timestamp', date: 'date', time: 'time', numeric: 'numeric', decimal: 'numeric', real: 'float4', float4: 'float4',
    'double precision': 'float8', float8: 'float8', float: 'float8', jsonb: 'jsonb', json: 'json', bytea: 'bytea', inet: 'inet', citext: 'citext', interval: 'interval',
  };
  if (map[t]) return map[t]!;
  const bare = t.includes('.') ? t : `public.${t}`;
  if (enums[bare]) return bare;
  return null;
}

export function isSerial(type: string): boolean { return /^(big|small)?serial[248]?$/i.test(type.trim()); }

