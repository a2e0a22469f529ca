import { z } from 'zod';
import { emptyResponse, jsonResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { pgMetaExtensions, pgMetaTables } from './catalog.js';
import { projectOf, type SbCtx } from './context.js';
import { sbError, type Db, type ProjectDoc } from './model.js';
import { execute, parseSql, type Env, type Row } from './sql-exec.js';
import { PgError } from './sql-parse.js';
import { Workspace } from './workspace.js';

/** The project database: `database/query` (the SQL subset), migrations (list and apply). */

/** Postgres's error text as the query endpoint wraps it: code, message, the line with a caret, DETAIL. */
export function pgMessage(error: PgError, sql: string, prefix = 'Failed to run sql query: '): string {
  let text = `ERROR:  ${error.code}: ${error.message}\n`;
  if (error.pos !== null && error.pos <= sql.length) {
    const before = sql.slice(0, error.pos);
    const lineNo = before.split('\n').length;
    const lineStart = before.lastIndexOf('\n') + 1;
    const lineEnd = sql.indexOf('\n', error.pos);
    const line = sql.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
    const label = `LINE ${lineNo}: `;
    text += `${label}${line}\n${' '.repeat(label.length + (error.pos - lineStart))}^\n`;
  }
  if (error.detail) text += `DETAIL:  ${error.detail}\n`;
  return `${prefix}${text}`;
}

export function envFor(c: SbCtx, params: unknown[], readOnly: boolean): Env {
  return { nowMs: c.ctx.nowMs, uuid: () => uuidId(c.ctx, 'row-uuid'), params, readOnly };
}

/**
 * postgres-meta's queries the MCP server sends verbatim (list_tables, list_extensions): answered
 * from the catalog, with list_tables' schema filter from its parameters. Null for anything else.
 */
function pgMetaQuery(ws: Workspace, query: string, params: unknown[]): Row[] | null {
  if (query.includes('pg_available_extensions()') && query.includes('pg_extension x')) return pgMetaExtensions(ws.project);
  if (query.includes('pg_total_relation_size') && query.includes('columns as (')) {
    const exclude = /where schema not in \(/.test(query);
    return pgMetaTables(ws, params.map(String), exclude);
  }
  return null;
}

/** Runs `query` against the project; throws the endpoint's 400 with Postgres's text on an error. */
export function runSql(c: SbCtx, project: ProjectDoc, query: string, params: unknown[], readOnly: boolean): Row[] {
  const ws = new Workspace(c.db, project);
  const meta = pgMetaQuery(ws, query, params);
  if (meta) return meta;
  try {
    const rows = execute(parseSql(query), ws, envFor(c, params, readOnly));
    ws.commit();
    return rows;
  } catch (error) {
    if (error instanceof PgError) throw sbError(400, pgMessage(error, query));
    throw error;
  }
}

/** Applies `statements` to a project as a migration batch (all or nothing); the PgError escapes. */
export function applyStatements(db: Db, c: SbCtx, ref: string, statements: string): void {
  const project = db.projects.get(ref)!;
  const ws = new Workspace(db, project);
  execute(parseSql(statements), ws, envFor(c, [], false));
  ws.commit();
}

/** `YYYYMMDDHHMMSS` of the logical time: the version the API gives a migration applied without one. */
export function migrationVersion(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

const RunQuery = z.object({ query: z.string().min(1), parameters: z.array(z.unknown()).optional(), read_only: z.boolean().optional() }).strict();
const ReadOnlyQuery = z.object({ query: z.string().min(1), parameters: z.array(z.unknown()).optional() }).strict();
const CreateMigration = z.object({ query: z.string().min(1), name: z.string().optional(), rollback: z.string().optional() }).strict();

export const databaseOperations: Operation<SbCtx>[] = [
  operation<SbCtx, '/v1/projects/:ref/database/query', Record<string, string>, z.infer<typeof RunQuery>>('v1-run-a-query', rest('POST', '/v1/projects/:ref/database/query'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    return jsonResponse(201, runSql(c, project, call.body.query, call.body.parameters ?? [], call.body.read_only ?? false));
  }, { input: { body: RunQuery } }),

  operation<SbCtx, '/v1/projects/:ref/database/query/read-only', Record<string, string>, z.infer<typeof ReadOnlyQuery>>('v1-read-only-query', rest('POST', '/v1/projects/:ref/database/query/read-only'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    return jsonResponse(201, runSql(c, project, call.body.query, call.body.parameters ?? [], true));
  }, { input: { body: ReadOnlyQuery } }),

  operation<SbCtx, '/v1/projects/:ref/database/migrations'>('v1-list-migration-history', rest('GET', '/v1/projects/:ref/database/migrations'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    const migrations = c.db.migrations.filter((m) => m.project === project.ref).sort((a, b) => a.version.localeCompare(b.version));
    return jsonResponse(200, migrations.map((m) => ({ version: m.version, name: m.name })));
  }),

  operation<SbCtx, '/v1/projects/:ref/database/migrations', Record<string, string>, z.infer<typeof CreateMigration>>('v1-apply-a-migration', rest('POST', '/v1/projects/:ref/database/migrations'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    const version = migrationVersion(c.ctx.nowMs);
    if (c.db.migrations.get(`${project.ref}/${version}`)) throw sbError(400, `Failed to insert migration: duplicate key value violates unique constraint "schema_migrations_pkey"`);
    try {
      applyStatements(c.db, c, project.ref, call.body.query);
    } catch (error) {
      if (error instanceof PgError) throw sbError(400, pgMessage(error, call.body.query));
      throw error;
    }
    c.db.migrations.put(`${project.ref}/${version}`, { project: project.ref, version, name: call.body.name ?? '', statements: call.body.query });
    return emptyResponse(200);
  }, { input: { body: CreateMigration } }),
];
