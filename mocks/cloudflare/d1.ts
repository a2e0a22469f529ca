import { z } from 'zod';
import { operation, rest, type Operation } from '../kit/operation.js';
import { uuidId } from '../kit/ids.js';
import { accountOf, type CfCtx } from './context.js';
import { cfError, iso, ok, pageOf, type D1DatabaseDoc, type D1TableDoc, type Db, type SqlValue } from './model.js';
import { runSql, SqlError } from './sql.js';

/** D1: databases (list, create, read, delete) and `/query` over the dataset's tables (sql.ts). */

const A = '/client/v4/accounts/:account_id';

function databaseOf(c: CfCtx, account: string, id: string): D1DatabaseDoc {
  accountOf(c, account);
  const db = c.db.d1_databases.get(id);
  if (!db || db.account_id !== account) throw cfError(404, [{ code: 7404, message: `The database ${id} could not be found` }]);
  return db;
}

/** What D1 reports about a database; the size grows with its rows, as SQLite pages would. */
function render(db: D1DatabaseDoc, full: boolean): Record<string, unknown> {
  const rows = Object.values(db.tables).reduce((n, t) => n + t.rows.length, 0);
  return {
    uuid: db.uuid, name: db.name, version: db.version, created_at: db.created_at,
    ...(full ? { file_size: 12288 + 4096 * Object.keys(db.tables).length + 64 * rows, num_tables: Object.keys(db.tables).length, running_in_region: 'WNAM', read_replication: { mode: 'disabled' } } : {}),
  };
}

const ListQuery = z.object({ name: z.string().optional(), page: z.coerce.number().int().min(1).optional(), per_page: z.coerce.number().int().min(10).max(10000).optional() }).passthrough();
const QueryBody = z.object({ sql: z.string().min(1), params: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).default([]) }).passthrough();

export const d1Operations: Operation<CfCtx>[] = [
  operation<CfCtx, '/client/v4/accounts/:account_id/d1/database', z.infer<typeof ListQuery>>('d1.database.list', rest('GET', `${A}/d1/database`), (call, c) => {
    accountOf(c, call.params.account_id);
    const all = c.db.d1_databases.filter((d) => d.account_id === call.params.account_id && (!call.query.name || d.name.includes(call.query.name)));
    const page = pageOf(all, call.query, 1000, 10000);
    return ok(page.items.map((d) => render(d, true)), { result_info: page.result_info });
  }, { input: { query: ListQuery } }),

  operation<CfCtx, '/client/v4/accounts/:account_id/d1/database', unknown, { name: string }>('d1.database.create', rest('POST', `${A}/d1/database`), (call, c) => {
    accountOf(c, call.params.account_id);
    if (c.db.d1_databases.find((d) => d.account_id === call.params.account_id && d.name === call.body.name)) {
      throw cfError(400, [{ code: 7502, message: 'A database with that name already exists' }]);
    }
    const uuid = uuidId(c.ctx, 'd1_database');
    const doc = c.db.d1_databases.put(uuid, { uuid, account_id: call.params.account_id, name: call.body.name, version: 'production', created_at: iso(c.ctx.nowMs), tables: {} });
    return ok(render(doc, false));
  }, { input: { body: z.object({ name: z.string().min(1).max(64), primary_location_hint: z.string().optional() }).passthrough() } }),

  operation<CfCtx, '/client/v4/accounts/:account_id/d1/database/:database_id'>('d1.database.get', rest('GET', `${A}/d1/database/:database_id`), (call, c) => (
    ok(render(databaseOf(c, call.params.account_id, call.params.database_id), true))
  )),

  operation<CfCtx, '/client/v4/accounts/:account_id/d1/database/:database_id'>('d1.database.delete', rest('DELETE', `${A}/d1/database/:database_id`), (call, c) => {
    const db = databaseOf(c, call.params.account_id, call.params.database_id);
    c.db.d1_databases.delete(db.uuid);
    return ok(null);
  }),

  // One result per statement; a failing statement fails the whole call (D1 runs the batch in one transaction).
  operation<CfCtx, '/client/v4/accounts/:account_id/d1/database/:database_id/query', unknown, z.infer<typeof QueryBody>>('d1.database.query', rest('POST', `${A}/d1/database/:database_id/query`), (call, c) => {
    const db = databaseOf(c, call.params.account_id, call.params.database_id);
    const tables: Record<string, D1TableDoc> = Object.fromEntries(Object.entries(db.tables).map(([n, t]) => [n, { columns: t.columns, rows: t.rows }]));
    const params = call.body.params.map((v): SqlValue => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
    let results;
    try {
      results = runSql(call.body.sql, params, tables);
    } catch (error) {
      if (error instanceof SqlError) throw cfError(400, [{ code: 7500, message: `${error.message}: SQLITE_ERROR` }]);
      throw error;
    }
    const changed = results.some((r) => r.changedDb);
    if (changed) c.db.d1_databases.put(db.uuid, { ...db, tables });
    const size = 12288 + 4096 * Object.keys(tables).length + 64 * Object.values(tables).reduce((n, t) => n + t.rows.length, 0);
    return ok(results.map((r) => ({
      results: r.rows, success: true,
      meta: {
        served_by: 'v3-prod', served_by_region: 'WNAM', served_by_primary: true, timings: { sql_duration_ms: 0.25 }, duration: 0.25,
        changes: r.changes, last_row_id: r.lastRowId, changed_db: r.changedDb, size_after: size, rows_read: r.rowsRead, rows_written: r.rowsWritten,
      },
    })));
  }, { input: { body: QueryBody } }),
];

/**
 * The grading view of D1: one document per row, `<database>/<table>/<primary key or row number>`,
 * with the database's name and uuid, the table and the row's columns as fields.
 */
export function d1Rows(db: Db): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const d of db.d1_databases.values()) {
    for (const [table, t] of Object.entries(d.tables)) {
      const pk = t.columns.findIndex((c) => c.primary_key);
      t.rows.forEach((row, i) => {
        out[`${d.name}/${table}/${pk === -1 ? i + 1 : String(row[pk])}`] = {
          database: d.name, database_id: d.uuid, table, ...Object.fromEntries(t.columns.map((c, j) => [c.name, row[j] ?? null])),
        };
      });
    }
  }
  return out;
}
