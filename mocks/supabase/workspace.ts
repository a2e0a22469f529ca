import type { Json } from '../core/store.js';
import { catalogRelation } from './catalog.js';
import { coerce, evaluate, isSerial, normaliseType, parseSql, type ColumnInfo, type Env, type Relation, type Row, type Source, type WritableTable } from './sql-exec.js';
import { PgError, type AlterAction, type ColumnDef, type Stmt, type TableRef } from './sql-parse.js';
import { rowKey, tableKey, type ColumnDoc, type Db, type ProjectDoc, type TableDoc } from './model.js';

/**
 * One project's database as a statement batch sees it: tables and rows are copied in on first
 * use, changed here, and written back to the store only when every statement succeeded, so a
 * failing batch leaves nothing behind (the query endpoint runs a batch as one transaction).
 */
export class Workspace implements Source {
  project: ProjectDoc;
  private readonly tables = new Map<string, TableDoc>();
  private readonly rows = new Map<string, Map<number, Row>>();
  private readonly dropped = new Set<string>();
  private readonly touched = new Set<string>();
  private projectDirty = false;

  constructor(private readonly db: Db, project: ProjectDoc) {
    this.project = project;
    for (const table of db.tables.filter((t) => t.project === project.ref)) this.tables.set(`${table.schema}.${table.name}`, table);
  }

  /** Tables in catalog order (creation order). */
  allTables(): TableDoc[] { return [...this.tables.values()]; }

  rowsOf(key: string): Map<number, Row> {
    let rows = this.rows.get(key);
    if (!rows) {
      rows = new Map(this.db.rows.filter((r) => r.project === this.project.ref && r.table === key).map((r) => [r.rowid, r.values]));
      this.rows.set(key, rows);
    }
    return rows;
  }

  private setTable(key: string, table: TableDoc): void {
    this.tables.set(key, table);
    this.touched.add(key);
  }

  private setProject(patch: Partial<ProjectDoc>): void {
    this.project = { ...this.project, ...patch };
    this.projectDirty = true;
  }

  private findTable(ref: TableRef): { key: string; table: TableDoc } | null {
    const schemas = ref.schema ? [ref.schema] : ['public'];
    for (const schema of schemas) {
      const key = `${schema}.${ref.name}`;
      const table = this.tables.get(key);
      if (table) return { key, table };
    }
    return null;
  }

  private mustTable(ref: TableRef): { key: string; table: TableDoc } {
    const found = this.findTable(ref);
    if (!found) throw new PgError('42P01', `relation "${ref.schema ? `${ref.schema}.` : ''}${ref.name}" does not exist`, ref.pos);
    return found;
  }

  relation(schema: string | null, name: string): Relation | null {
    const found = this.findTable({ schema, name, alias: null, pos: 0 });
    if (found) return this.tableRelation(found.key);
    return catalogRelation(this, schema, name);
  }

  tableRelation(key: string): Relation {
    const ws = this;
    const table = () => this.tables.get(key)!;
    const rows = () => this.rowsOf(key);
    const writable: WritableTable = {
      get columns() { return table().columns.map(columnInfo); },
      get primaryKey() { return table().primary_key; },
      get uniques() { return [...table().uniques, ...table().columns.filter((c) => c.unique).map((c) => [c.name])]; },
      handles: () => [...rows().entries()].map(([id, values]) => ({ id, values })),
      insert(values) {
        const t = table();
        rows().set(t.next_rowid, values);
        ws.setTable(key, { ...t, next_rowid: t.next_rowid + 1 });
      },
      update(id, values) { rows().set(id, values); ws.touched.add(key); },
      delete(id) { rows().delete(id); ws.touched.add(key); },
      nextSequence(column) {
        const t = table();
        const next = (t.sequences[column] ?? 0) + 1;
        ws.setTable(key, { ...t, sequences: { ...t.sequences, [column]: next } });
        return next;
      },
      enumLabels: (type) => this.project.enums[type] ?? null,
    };
    const t = table();
    return { schema: t.schema, name: t.name, columns: t.columns.map((c) => c.name), rows: () => [...rows().values()], table: writable };
  }

  /** Writes every changed table, row and the project back to the store. */
  commit(): void {
    const ref = this.project.ref;
    if (this.projectDirty) this.db.projects.put(ref, this.project);
    for (const key of this.dropped) {
      if (this.tables.has(key)) continue;
      this.db.tables.delete(tableKey(ref, ...split(key)));
      for (const row of this.db.rows.filter((r) => r.project === ref && r.table === key)) this.db.rows.delete(rowKey(ref, key, row.rowid));
    }
    for (const key of this.touched) {
      const table = this.tables.get(key);
      if (!table) continue;
      this.db.tables.put(tableKey(ref, table.schema, table.name), table);
      const rows = this.rows.get(key);
      if (!rows) continue;
      for (const row of this.db.rows.filter((r) => r.project === ref && r.table === key)) {
        if (!rows.has(row.rowid)) this.db.rows.delete(rowKey(ref, key, row.rowid));
      }
      for (const [rowid, values] of rows) {
        const existing = this.db.rows.get(rowKey(ref, key, rowid));
        if (!existing || JSON.stringify(existing.values) !== JSON.stringify(values)) this.db.rows.put(rowKey(ref, key, rowid), { project: ref, table: key, rowid, values });
      }
    }
  }

  // ---- DDL

  ddl(stmt: Stmt, env: Env): void {
    switch (stmt.k) {
      case 'create_table': return this.createTable(stmt, env);
      case 'alter_table': {
        const found = this.findTable(stmt.table);
        if (!found) {
          if (stmt.ifExists) return;
          this.mustTable(stmt.table);
        }
        for (const action of stmt.actions) this.alter(stmt.table, action, env);
        return;
      }
      case 'drop_table':
        for (const ref of stmt.tables) {
          const found = this.findTable(ref);
          if (!found) { if (stmt.ifExists) continue; this.mustTable(ref); return; }
          this.tables.delete(found.key);
          this.rows.delete(found.key);
          this.dropped.add(found.key);
        }
        return;
      case 'truncate':
        for (const ref of stmt.tables) { const { key } = this.mustTable(ref); this.rowsOf(key).clear(); this.touched.add(key); }
        return;
      case 'create_index': {
        const { key, table } = this.mustTable(stmt.table);
        for (const c of stmt.columns) if (!table.columns.some((col) => col.name === c)) throw new PgError('42703', `column "${c}" does not exist`);
        const name = stmt.name ?? `${table.name}_${stmt.columns.join('_')}_idx`;
        if (this.allTables().some((t) => t.indexes.some((i) => i.name === name))) {
          if (stmt.ifNotExists) return;
          throw new PgError('42P07', `relation "${name}" already exists`);
        }
        this.setTable(key, { ...table, indexes: [...table.indexes, { name, columns: stmt.columns, unique: stmt.unique }] });
        return;
      }
      case 'create_policy': {
        const { key, table } = this.mustTable(stmt.table);
        if (table.policies.some((p) => p.name === stmt.name)) throw new PgError('42710', `policy "${stmt.name}" for table "${table.name}" already exists`);
        this.setTable(key, { ...table, policies: [...table.policies, { name: stmt.name, command: stmt.command, roles: stmt.roles, using: stmt.using, check: stmt.check }] });
        return;
      }
      case 'drop_policy': {
        const { key, table } = this.mustTable(stmt.table);
        if (!table.policies.some((p) => p.name === stmt.name)) {
          if (stmt.ifExists) return;
          throw new PgError('42704', `policy "${stmt.name}" for table "${table.name}" does not exist`);
        }
        this.setTable(key, { ...table, policies: table.policies.filter((p) => p.name !== stmt.name) });
        return;
      }
      case 'create_extension': {
        const ext = this.project.extensions.find((e) => e.name === stmt.name);
        if (!ext) throw new PgError('0A000', `extension "${stmt.name}" is not available`, null, `Could not open extension control file "/usr/share/postgresql/15/extension/${stmt.name}.control": No such file or directory.`);
        if (ext.installed_version) { if (stmt.ifNotExists) return; throw new PgError('42710', `extension "${stmt.name}" already exists`); }
        this.setProject({ extensions: this.project.extensions.map((e) => (e.name === stmt.name ? { ...e, installed_version: e.default_version, schema: stmt.schema ?? 'public' } : e)) });
        return;
      }
      case 'drop_extension': {
        const ext = this.project.extensions.find((e) => e.name === stmt.name && e.installed_version);
        if (!ext) { if (stmt.ifExists) return; throw new PgError('42704', `extension "${stmt.name}" does not exist`); }
        this.setProject({ extensions: this.project.extensions.map((e) => (e.name === stmt.name ? { ...e, installed_version: null, schema: null } : e)) });
        return;
      }
      case 'create_schema':
        if (this.project.schemas.includes(stmt.name)) { if (stmt.ifNotExists) return; throw new PgError('42P06', `schema "${stmt.name}" already exists`); }
        this.setProject({ schemas: [...this.project.schemas, stmt.name] });
        return;
      case 'comment': {
        const { key, table } = this.mustTable(stmt.table);
        if (stmt.on === 'table') { this.setTable(key, { ...table, comment: stmt.text }); return; }
        if (!table.columns.some((c) => c.name === stmt.column)) throw new PgError('42703', `column "${stmt.column}" of relation "${table.name}" does not exist`);
        this.setTable(key, { ...table, columns: table.columns.map((c) => (c.name === stmt.column ? { ...c, comment: stmt.text } : c)) });
        return;
      }
      default:
        return;
    }
  }

  private columnDoc(def: ColumnDef, tableName: string): ColumnDoc {
    const type = normaliseType(def.type, this.project.enums);
    if (!type) throw new PgError('42704', `type "${def.type}" does not exist`);
    const serial = isSerial(def.type);
    return {
      name: def.name, type, not_null: def.notNull || serial, identity: def.identity, unique: def.unique, check: def.check, comment: null,
      default: serial ? `nextval('${tableName}_${def.name}_seq'::regclass)` : def.defaultText,
    };
  }

  private createTable(stmt: Extract<Stmt, { k: 'create_table' }>, env: Env): void {
    const schema = stmt.table.schema ?? 'public';
    if (!this.project.schemas.includes(schema)) throw new PgError('3F000', `schema "${schema}" does not exist`, stmt.table.pos);
    const key = `${schema}.${stmt.table.name}`;
    if (this.tables.has(key)) {
      if (stmt.ifNotExists) return;
      throw new PgError('42P07', `relation "${stmt.table.name}" already exists`);
    }
    const seen = new Set<string>();
    for (const c of stmt.columns) {
      if (seen.has(c.name)) throw new PgError('42701', `column "${c.name}" specified more than once`);
      seen.add(c.name);
    }
    let table: TableDoc = {
      project: this.project.ref, schema, name: stmt.table.name, oid: this.project.next_oid,
      rls_enabled: false, rls_forced: false, comment: null,
      columns: stmt.columns.map((c) => this.columnDoc(c, stmt.table.name)),
      primary_key: stmt.columns.filter((c) => c.primary).map((c) => c.name), uniques: [],
      foreign_keys: [], policies: [], indexes: [], next_rowid: 1, sequences: {},
    };
    this.setProject({ next_oid: this.project.next_oid + 1 });
    for (const c of stmt.columns) if (c.references) table = this.addForeignKey(table, [c.name], c.references.table, [c.references.column ?? 'id'], null);
    this.tables.set(key, table);
    this.touched.add(key);
    this.rows.set(key, new Map());
    for (const action of stmt.constraints) this.alter({ schema, name: stmt.table.name, alias: null, pos: stmt.table.pos }, action, env);
  }

  private addForeignKey(table: TableDoc, columns: string[], target: TableRef, targetColumns: string[], name: string | null): TableDoc {
    const found = this.findTable(target) ?? (target.schema === null && target.name === table.name ? { key: '', table } : null);
    if (!found) throw new PgError('42P01', `relation "${target.schema ? `${target.schema}.` : ''}${target.name}" does not exist`);
    for (const c of targetColumns) if (!found.table.columns.some((col) => col.name === c)) throw new PgError('42703', `column "${c}" referenced in foreign key constraint does not exist`);
    return { ...table, foreign_keys: [...table.foreign_keys, { name: name ?? `${table.name}_${columns.join('_')}_fkey`, columns, target_schema: found.table.schema, target_table: found.table.name, target_columns: targetColumns }] };
  }

  private alter(ref: TableRef, action: AlterAction, env: Env): void {
    const { key, table } = this.mustTable(ref);
    const colOf = (name: string, pos: number) => {
      const col = table.columns.find((c) => c.name === name);
      if (!col) throw new PgError('42703', `column "${name}" of relation "${table.name}" does not exist`, pos);
      return col;
    };
    switch (action.k) {
      case 'add_column': {
        if (table.columns.some((c) => c.name === action.column.name)) {
          if (action.ifNotExists) return;
          throw new PgError('42701', `column "${action.column.name}" of relation "${table.name}" already exists`);
        }
        const col = this.columnDoc(action.column, table.name);
        let next: TableDoc = { ...table, columns: [...table.columns, col], primary_key: action.column.primary ? [col.name] : table.primary_key };
        if (action.column.references) next = this.addForeignKey(next, [col.name], action.column.references.table, [action.column.references.column ?? 'id'], null);
        this.setTable(key, next);
        const rows = this.rowsOf(key);
        for (const [id, values] of rows) {
          const value = col.default === null && !col.identity ? null : this.defaultFor(key, col, env);
          if (value === null && col.not_null) throw new PgError('23502', `column "${col.name}" of relation "${table.name}" contains null values`);
          rows.set(id, { ...values, [col.name]: value });
        }
        return;
      }
      case 'drop_column': {
        if (!table.columns.some((c) => c.name === action.name)) { if (action.ifExists) return; colOf(action.name, action.pos); }
        this.setTable(key, { ...table, columns: table.columns.filter((c) => c.name !== action.name), primary_key: table.primary_key.filter((c) => c !== action.name) });
        const rows = this.rowsOf(key);
        for (const [id, values] of rows) { const { [action.name]: _gone, ...rest } = values; rows.set(id, rest); }
        return;
      }
      case 'rename_column': {
        colOf(action.from, action.pos);
        this.setTable(key, { ...table, columns: table.columns.map((c) => (c.name === action.from ? { ...c, name: action.to } : c)), primary_key: table.primary_key.map((c) => (c === action.from ? action.to : c)) });
        const rows = this.rowsOf(key);
        for (const [id, values] of rows) rows.set(id, Object.fromEntries(Object.entries(values).map(([k, v]) => [k === action.from ? action.to : k, v])));
        return;
      }
      case 'rename_table': {
        const rows = this.rowsOf(key);
        const newKey = `${table.schema}.${action.to}`;
        if (this.tables.has(newKey)) throw new PgError('42P07', `relation "${action.to}" already exists`);
        this.tables.delete(key);
        this.dropped.add(key);
        this.setTable(newKey, { ...table, name: action.to });
        this.rows.set(newKey, rows);
        return;
      }
      case 'rls':
        this.setTable(key, { ...table, rls_enabled: action.enable, rls_forced: action.force || (action.enable && table.rls_forced) });
        return;
      case 'alter_column': {
        const col = colOf(action.name, action.pos);
        let next: ColumnDoc = { ...col };
        if (action.set.notNull !== undefined) {
          if (action.set.notNull && [...this.rowsOf(key).values()].some((r) => (r[col.name] ?? null) === null)) throw new PgError('23502', `column "${col.name}" of relation "${table.name}" contains null values`);
          next = { ...next, not_null: action.set.notNull };
        }
        if (action.set.default) next = { ...next, default: action.set.default.text };
        if (action.set.type) {
          const type = normaliseType(action.set.type, this.project.enums);
          if (!type) throw new PgError('42704', `type "${action.set.type}" does not exist`);
          next = { ...next, type };
          const rows = this.rowsOf(key);
          const info = columnInfo(next);
          const writable = this.tableRelation(key).table!;
          for (const [id, values] of rows) rows.set(id, { ...values, [col.name]: coerce(values[col.name] ?? null, info, writable) });
        }
        this.setTable(key, { ...table, columns: table.columns.map((c) => (c.name === col.name ? next : c)) });
        return;
      }
      case 'add_constraint': {
        if (action.primary) {
          if (table.primary_key.length) throw new PgError('42P16', `multiple primary keys for table "${table.name}" are not allowed`);
          for (const c of action.primary) colOf(c, 0);
          this.setTable(key, { ...table, primary_key: action.primary, columns: table.columns.map((c) => (action.primary!.includes(c.name) ? { ...c, not_null: true } : c)) });
        } else if (action.unique) {
          for (const c of action.unique) colOf(c, 0);
          this.setTable(key, { ...table, uniques: [...table.uniques, action.unique] });
        } else if (action.fk) {
          for (const c of action.fk.columns) colOf(c, 0);
          this.setTable(key, this.addForeignKey(table, action.fk.columns, action.fk.table, action.fk.target, action.name));
        }
        return;
      }
    }
  }

  private defaultFor(key: string, col: ColumnDoc, env: Env): Json {
    const writable = this.tableRelation(key).table!;
    if (col.identity || (col.default && /^nextval\(/i.test(col.default))) return writable.nextSequence(col.name);
    const [stmt] = parseSql(`select ${col.default}`);
    if (!stmt || stmt.k !== 'select' || !stmt.items[0]?.expr) return null;
    return coerce(evaluate(stmt.items[0].expr, null, env), columnInfo(col), writable);
  }
}

function split(key: string): [string, string] {
  const dot = key.indexOf('.');
  return [key.slice(0, dot), key.slice(dot + 1)];
}

export function columnInfo(c: ColumnDoc): ColumnInfo {
  return { name: c.name, type: c.type, not_null: c.not_null, default: c.default, identity: c.identity };
}
