import { createHash } from 'node:crypto';
import { z } from 'zod';
import { bytes, emptyResponse, jsonResponse } from '../core/http.js';
import type { Json } from '../core/store.js';
import type { MultipartPart } from '../kit/bodies.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { computedLints, typescriptTypes } from './catalog.js';
import { projectOf, type SbCtx } from './context.js';
import { pgMessage } from './database.js';
import { sbError, type FunctionDoc } from './model.js';
import { execute, parseSql, type Relation, type Row, type Source } from './sql-exec.js';
import { PgError } from './sql-parse.js';
import { Workspace } from './workspace.js';

/** Edge functions, storage, API keys, secrets, TypeScript types, logs and advisors of a project. */

const fnPrefix = (f: FunctionDoc) => `file:///tmp/user_fn_${f.project}_${f.id}_${f.version}/source/`;

function renderFunction(f: FunctionDoc) {
  return {
    id: f.id, slug: f.slug, name: f.name, status: f.status, version: f.version, created_at: f.created_at, updated_at: f.updated_at,
    verify_jwt: f.verify_jwt, import_map: f.import_map_path !== null, entrypoint_path: `${fnPrefix(f)}${f.entrypoint}`,
    ...(f.import_map_path ? { import_map_path: `${fnPrefix(f)}${f.import_map_path}` } : {}),
    ezbr_sha256: createHash('sha256').update(JSON.stringify(f.files)).digest('hex'),
  };
}

function functionOf(c: SbCtx, ref: string, slug: string): FunctionDoc {
  const f = c.db.functions.get(`${ref}/${slug}`);
  if (!f || f.status === 'REMOVED') throw sbError(404, `Function ${slug} not found`);
  return f;
}

/** The function's files as multipart/form-data: a metadata part, then one part per file (Deno 2 relative names). */
function functionBody(f: FunctionDoc) {
  const boundary = `----SupabaseEdgeFunction${createHash('sha256').update(`${f.project}/${f.slug}/${f.version}`).digest('hex').slice(0, 16)}`;
  const parts = [
    `--${boundary}\r\nContent-Disposition: form-data; name="metadata"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ deno2_entrypoint_path: `source/${f.entrypoint}`, entrypoint_path: `${fnPrefix(f)}${f.entrypoint}`, name: f.slug })}\r\n`,
    ...f.files.map((file) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="source/${file.name}"\r\nContent-Type: application/typescript\r\n\r\n${file.content}\r\n`),
    `--${boundary}--\r\n`,
  ];
  return { status: 200, headers: [['Content-Type', `multipart/form-data; boundary=${boundary}`]] as [string, string][], body: bytes(parts.join('')) };
}

const DeployMetadata = z.object({
  name: z.string().optional(), entrypoint_path: z.string(), import_map_path: z.string().optional(), static_patterns: z.array(z.string()).optional(), verify_jwt: z.boolean().optional(),
}).passthrough();

const StorageConfigPatch = z.object({
  fileSizeLimit: z.number().int().min(0).max(536_870_912_000).optional(),
  features: z.object({ imageTransformation: z.object({ enabled: z.boolean() }).optional(), s3Protocol: z.object({ enabled: z.boolean() }).optional() }).passthrough().optional(),
}).passthrough();

// ---- logs: a `logs` relation of the project's events inside the requested window

const LOG_COLUMNS = ['id', 'timestamp', 'event_message', 'source', 'severity_text', 'log_attributes'];
const DAY = 86_400_000;

const logTime = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 23)}000`;

function logsSource(c: SbCtx, ref: string, startMs: number, endMs: number): Source {
  const rows: Row[] = c.db.logs.filter((l) => l.project === ref && l.timestamp >= startMs && l.timestamp <= endMs)
    .map((l) => ({ id: l.id, timestamp: logTime(l.timestamp), event_message: l.event_message, source: l.source, severity_text: (l.attributes.level ?? l.attributes['parsed.error_severity'] ?? 'INFO') as Json, log_attributes: l.attributes }));
  return {
    relation(schema, name): Relation | null {
      if (schema !== null) return null;
      if (name === 'logs') return { schema: 'default', name: 'logs', columns: LOG_COLUMNS, rows: () => rows };
      // BigQuery-style per-source tables (edge_logs, postgres_logs, …) as Logflare names them.
      if (rows.some((r) => r.source === name) || ['edge_logs', 'postgres_logs', 'function_edge_logs', 'function_logs', 'auth_logs', 'storage_logs', 'realtime_logs'].includes(name)) {
        return { schema: 'default', name, columns: LOG_COLUMNS, rows: () => rows.filter((r) => r.source === name) };
      }
      return null;
    },
    ddl() { throw new PgError('42501', 'Only SELECT queries are allowed'); },
  };
}

/**
 * The requested window (at most 24 hours, as the API caps it). A window reaching past the world's
 * present (an MCP server defaults `iso_timestamp_end` to its wall clock) is the same-length window
 * ending at the world's logical now, so what an agent sees never depends on the host's clock.
 */
function logWindow(nowMs: number, start?: string, end?: string): [number, number] {
  let endMs = end ? Date.parse(end) : nowMs;
  let startMs = start ? Date.parse(start) : endMs - DAY;
  if (Number.isNaN(endMs) || Number.isNaN(startMs)) throw sbError(400, 'iso_timestamp_start and iso_timestamp_end must be ISO 8601 timestamps');
  if (endMs > nowMs) { startMs = nowMs - (endMs - startMs); endMs = nowMs; }
  if (endMs - startMs > DAY) startMs = endMs - DAY;
  return [startMs, endMs];
}

const LogsQuery = z.object({ sql: z.string().optional(), iso_timestamp_start: z.string().optional(), iso_timestamp_end: z.string().optional() }).passthrough();

function logsHandler(call: { params: { ref: string }; query: z.infer<typeof LogsQuery> }, c: SbCtx) {
  const project = projectOf(c, call.params.ref);
  const [start, end] = logWindow(c.ctx.nowMs, call.query.iso_timestamp_start, call.query.iso_timestamp_end);
  const sql = call.query.sql ?? 'select id, timestamp, event_message from logs order by timestamp desc limit 100';
  try {
    const stmts = parseSql(sql);
    if (stmts.some((s) => s.k !== 'select')) throw new PgError('42501', 'Only SELECT queries are allowed');
    return jsonResponse(200, { result: execute(stmts, logsSource(c, project.ref, start, end), { nowMs: c.ctx.nowMs, uuid: () => '', params: [], readOnly: true }) });
  } catch (error) {
    if (!(error instanceof PgError)) throw error;
    const message = pgMessage(error, sql, '').trim();
    return jsonResponse(200, { result: [], error: { code: 400, errors: [{ domain: 'global', location: 'sql', locationType: 'parameter', message, reason: 'invalidQuery' }], message, status: 'INVALID_ARGUMENT' } });
  }
}

export const projectOperations: Operation<SbCtx>[] = [
  // ---- edge functions
  operation<SbCtx, '/v1/projects/:ref/functions'>('v1-list-all-functions', rest('GET', '/v1/projects/:ref/functions'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    return jsonResponse(200, c.db.functions.filter((f) => f.project === project.ref && f.status !== 'REMOVED').map(renderFunction));
  }),
  operation<SbCtx, '/v1/projects/:ref/functions/:function_slug'>('v1-get-a-function', rest('GET', '/v1/projects/:ref/functions/:function_slug'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    return jsonResponse(200, renderFunction(functionOf(c, project.ref, call.params.function_slug)));
  }),
  operation<SbCtx, '/v1/projects/:ref/functions/:function_slug/body'>('v1-get-a-function-body', rest('GET', '/v1/projects/:ref/functions/:function_slug/body'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    return functionBody(functionOf(c, project.ref, call.params.function_slug));
  }),
  operation<SbCtx, '/v1/projects/:ref/functions/:function_slug'>('v1-delete-a-function', rest('DELETE', '/v1/projects/:ref/functions/:function_slug'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    const f = functionOf(c, project.ref, call.params.function_slug);
    c.db.functions.delete(`${project.ref}/${f.slug}`);
    return emptyResponse(200);
  }),
  operation<SbCtx, '/v1/projects/:ref/functions/deploy', { slug?: string }>('v1-deploy-a-function', rest('POST', '/v1/projects/:ref/functions/deploy'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    const decoded = call.decoded;
    if (decoded.kind !== 'multipart') throw sbError(400, 'Expected multipart/form-data with a metadata part and file parts');
    const partsOf = (name: string): MultipartPart[] => { const p = decoded.value[name]; return p === undefined ? [] : Array.isArray(p) ? p : [p]; };
    const metaPart = partsOf('metadata')[0];
    if (!metaPart) throw sbError(400, 'metadata is required');
    let metaJson: unknown;
    try { metaJson = JSON.parse(metaPart.text); } catch { throw sbError(400, 'metadata must be valid JSON'); }
    const meta = DeployMetadata.safeParse(metaJson);
    if (!meta.success) throw sbError(400, `metadata.${meta.error.issues[0]?.path.join('.') ?? ''} ${meta.error.issues[0]?.message ?? 'is invalid'}`);
    const slug = call.query.slug ?? meta.data.name;
    if (!slug || !/^[A-Za-z][A-Za-z0-9_-]*$/.test(slug)) throw sbError(400, 'slug must start with a letter and contain only letters, digits, "-" and "_"');
    const files = partsOf('file').map((p) => ({ name: (p.filename ?? p.name).replace(/^\/?(source\/)?/, ''), content: p.text }));
    if (files.length === 0) throw sbError(400, 'No files were uploaded');
    const entrypoint = meta.data.entrypoint_path.replace(/^file:\/\/\/tmp\/user_fn_[^/]+\/source\//, '').replace(/^\.?\//, '').replace(/^source\//, '');
    if (!files.some((f) => f.name === entrypoint)) throw sbError(400, `Entrypoint ${entrypoint} was not found among the uploaded files`);
    const existing = c.db.functions.get(`${project.ref}/${slug}`);
    const doc: FunctionDoc = {
      project: project.ref, id: existing?.id ?? uuidId(c.ctx, 'function'), slug, name: meta.data.name ?? existing?.name ?? slug, status: 'ACTIVE',
      version: (existing?.version ?? 0) + 1, created_at: existing?.created_at ?? c.ctx.nowMs, updated_at: c.ctx.nowMs,
      verify_jwt: meta.data.verify_jwt ?? existing?.verify_jwt ?? true, entrypoint, import_map_path: meta.data.import_map_path?.replace(/^\.?\//, '') ?? null, files,
    };
    c.db.functions.put(`${project.ref}/${slug}`, doc);
    return jsonResponse(201, renderFunction(doc));
  }, { lazy: true, input: { query: z.object({ slug: z.string().optional(), bundleOnly: z.string().optional() }).passthrough() } }),

  // ---- storage
  operation<SbCtx, '/v1/projects/:ref/storage/buckets'>('v1-list-all-buckets', rest('GET', '/v1/projects/:ref/storage/buckets'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    return jsonResponse(200, c.db.buckets.filter((b) => b.project === project.ref).map(({ project: _p, ...b }) => b));
  }),
  operation<SbCtx, '/v1/projects/:ref/config/storage'>('v1-get-storage-config', rest('GET', '/v1/projects/:ref/config/storage'), (call, c) => {
    const { storage } = projectOf(c, call.params.ref);
    return jsonResponse(200, {
      fileSizeLimit: storage.fileSizeLimit,
      features: { imageTransformation: { enabled: storage.imageTransformation }, s3Protocol: { enabled: storage.s3Protocol }, icebergCatalog: { enabled: false, maxNamespaces: 0, maxTables: 0, maxCatalogs: 0 } },
      capabilities: { list_v2: true, iceberg_catalog: false },
      external: { upstreamTarget: 'main' }, migrationVersion: 'fix-object-level', databasePoolMode: 'single_tenant',
    });
  }),
  operation<SbCtx, '/v1/projects/:ref/config/storage', Record<string, string>, z.infer<typeof StorageConfigPatch>>('v1-update-storage-config', rest('PATCH', '/v1/projects/:ref/config/storage'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    const org = c.db.organizations.get(project.organization_slug)!;
    const limit = call.body.fileSizeLimit ?? project.storage.fileSizeLimit;
    if (org.plan === 'free' && limit > 52_428_800) throw sbError(400, 'The maximum file size limit on the Free Plan is 50 MB.');
    const image = call.body.features?.imageTransformation?.enabled ?? project.storage.imageTransformation;
    if (org.plan === 'free' && image) throw sbError(400, 'Image transformations are not available on the Free Plan.');
    c.db.projects.put(project.ref, { ...project, storage: { fileSizeLimit: limit, imageTransformation: image, s3Protocol: call.body.features?.s3Protocol?.enabled ?? project.storage.s3Protocol } });
    return emptyResponse(200);
  }, { input: { body: StorageConfigPatch } }),

  // ---- keys, secrets, types
  operation<SbCtx, '/v1/projects/:ref/api-keys', { reveal?: string }>('v1-get-project-api-keys', rest('GET', '/v1/projects/:ref/api-keys'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    return jsonResponse(200, project.api_keys.map((k) => ({
      api_key: k.api_key, id: k.id, type: k.type, prefix: k.prefix, name: k.name, description: k.description,
      hash: k.type === 'legacy' ? null : createHash('sha256').update(k.api_key).digest('base64'), secret_jwt_template: k.type === 'secret' ? { role: 'service_role' } : null, inserted_at: k.inserted_at, updated_at: k.inserted_at,
    })));
  }, { input: { query: z.object({ reveal: z.enum(['true', 'false']).optional() }).passthrough() } }),
  operation<SbCtx, '/v1/projects/:ref/api-keys/legacy'>('v1-get-project-legacy-api-keys', rest('GET', '/v1/projects/:ref/api-keys/legacy'), (call, c) => {
    projectOf(c, call.params.ref);
    return jsonResponse(200, { enabled: true });
  }),
  operation<SbCtx, '/v1/projects/:ref/secrets'>('v1-list-all-secrets', rest('GET', '/v1/projects/:ref/secrets'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    return jsonResponse(200, project.secrets.map((s) => ({ name: s.name, value: createHash('sha256').update(s.value).digest('hex'), updated_at: s.updated_at })));
  }),
  operation<SbCtx, '/v1/projects/:ref/types/typescript', { included_schemas?: string }>('v1-generate-typescript-types', rest('GET', '/v1/projects/:ref/types/typescript'), (call, c) => {
    const project = projectOf(c, call.params.ref);
    const schemas = (call.query.included_schemas ?? 'public').split(',').map((s) => s.trim()).filter(Boolean);
    return jsonResponse(200, { types: typescriptTypes(new Workspace(c.db, project), schemas) });
  }, { input: { query: z.object({ included_schemas: z.string().optional() }).passthrough() } }),

  // ---- logs and advisors
  operation<SbCtx, '/v1/projects/:ref/analytics/endpoints/logs', z.infer<typeof LogsQuery>>('v1-get-project-logs', rest('GET', '/v1/projects/:ref/analytics/endpoints/logs'), logsHandler, { input: { query: LogsQuery } }),
  operation<SbCtx, '/v1/projects/:ref/analytics/endpoints/logs.all', z.infer<typeof LogsQuery>>('v1-get-project-logs-all', rest('GET', '/v1/projects/:ref/analytics/endpoints/logs.all'), logsHandler, { input: { query: LogsQuery } }),
  ...(['security', 'performance'] as const).map((type) => operation<SbCtx, `/v1/projects/:ref/advisors/${string}`>(`v1-get-${type}-advisors`, rest('GET', `/v1/projects/:ref/advisors/${type}` as `/v1/projects/:ref/advisors/${string}`), (call, c) => {
    const project = projectOf(c, call.params.ref);
    const lints = [...computedLints(new Workspace(c.db, project), type), ...c.db.lints.filter((l) => l.project === project.ref && l.type === type).map((l) => l.lint as Row)];
    return jsonResponse(200, { lints });
  })),
];
