import { createHash } from 'node:crypto';
import type { LoadContext } from '../core/service.js';
import type { Json } from '../core/store.js';
import { uuidId } from '../kit/ids.js';
import type { ProjectData, SupabaseDataset } from './dataset.js';
import { dbOf, iso, refFrom, rowKey, tableKey, type Db, type ExtensionDoc, type KeyDoc, type ProjectDoc, type TableDoc } from './model.js';
import { normaliseType } from './sql-exec.js';

const DAY = 86_400_000;

/** Schemas every Supabase project has. */
export const BASE_SCHEMAS = ['public', 'auth', 'storage', 'extensions', 'graphql', 'graphql_public', 'realtime', 'vault'];

/** The extensions a new Supabase project lists (installed ones with their schema). */
export const STANDARD_EXTENSIONS: ExtensionDoc[] = [
  { name: 'citext', default_version: '1.6', installed_version: null, schema: null, comment: 'data type for case-insensitive character strings' },
  { name: 'hstore', default_version: '1.8', installed_version: null, schema: null, comment: 'data type for storing sets of (key, value) pairs' },
  { name: 'http', default_version: '1.6', installed_version: null, schema: null, comment: 'HTTP client for PostgreSQL, allows web page retrieval inside the database.' },
  { name: 'pg_cron', default_version: '1.6', installed_version: null, schema: null, comment: 'Job scheduler for PostgreSQL' },
  { name: 'pg_graphql', default_version: '1.5.11', installed_version: '1.5.11', schema: 'graphql', comment: 'pg_graphql: GraphQL support' },
  { name: 'pg_net', default_version: '0.14.0', installed_version: null, schema: null, comment: 'Async HTTP' },
  { name: 'pg_stat_statements', default_version: '1.10', installed_version: '1.10', schema: 'extensions', comment: 'track planning and execution statistics of all SQL statements executed' },
  { name: 'pg_trgm', default_version: '1.6', installed_version: null, schema: null, comment: 'text similarity measurement and index searching based on trigrams' },
  { name: 'pgcrypto', default_version: '1.3', installed_version: '1.3', schema: 'extensions', comment: 'cryptographic functions' },
  { name: 'pgjwt', default_version: '0.2.0', installed_version: null, schema: null, comment: 'JSON Web Token API for Postgresql' },
  { name: 'plpgsql', default_version: '1.0', installed_version: '1.0', schema: 'pg_catalog', comment: 'PL/pgSQL procedural language' },
  { name: 'postgis', default_version: '3.3.7', installed_version: null, schema: null, comment: 'PostGIS geometry and geography spatial types and functions' },
  { name: 'supabase_vault', default_version: '0.3.1', installed_version: '0.3.1', schema: 'vault', comment: 'Supabase Vault Extension' },
  { name: 'uuid-ossp', default_version: '1.1', installed_version: '1.1', schema: 'extensions', comment: 'generate universally unique identifiers (UUIDs)' },
  { name: 'vector', default_version: '0.8.0', installed_version: null, schema: null, comment: 'vector data type and ivfflat and hnsw access methods' },
];

const hex = (ctx: Pick<LoadContext, 'ids'>, kind: string) => uuidId(ctx, kind).replace(/-/g, '');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

/** A JWT-shaped legacy key (header.payload.signature), signed by nothing: the mock never verifies it. */
function legacyJwt(ref: string, role: string, seed: string): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = b64url(JSON.stringify({ iss: 'supabase', ref, role, iat: 1700000000, exp: 2015576000 }));
  return `${header}.${payload}.${createHash('sha256').update(`${seed}:${role}`).digest('base64url')}`;
}

export function newApiKeys(ctx: Pick<LoadContext, 'ids'>, ref: string, at: number): KeyDoc[] {
  const seed = hex(ctx, 'key-seed');
  return [
    { id: 'anon', name: 'anon', type: 'legacy', api_key: legacyJwt(ref, 'anon', seed), prefix: null, description: 'Legacy anon API key', inserted_at: null },
    { id: 'service_role', name: 'service_role', type: 'legacy', api_key: legacyJwt(ref, 'service_role', seed), prefix: null, description: 'Legacy service_role API key', inserted_at: null },
    { id: uuidId(ctx, 'api-key'), name: 'default', type: 'publishable', api_key: `sb_publishable_${seed.slice(0, 22)}`, prefix: null, description: null, inserted_at: iso(at) },
    { id: uuidId(ctx, 'api-key'), name: 'default', type: 'secret', api_key: `sb_secret_${seed.slice(10, 14)}${'•'.repeat(28)}`, prefix: `sb_secret_${seed.slice(10, 14)}`, description: null, inserted_at: iso(at) },
  ];
}

export function newProject(ctx: Pick<LoadContext, 'ids'>, fields: { ref: string; name: string; organization: string; region: string; status: string; createdMs: number; parent: string | null }): ProjectDoc {
  return {
    ref: fields.ref, name: fields.name, organization_slug: fields.organization, region: fields.region, status: fields.status, created_at: iso(fields.createdMs),
    db_version: '15.8.1.085', parent_ref: fields.parent, branching_enabled: false,
    storage: { fileSizeLimit: 52_428_800, imageTransformation: false, s3Protocol: true },
    api_keys: newApiKeys(ctx, fields.ref, fields.createdMs), secrets: [], extensions: STANDARD_EXTENSIONS, enums: {}, schemas: [...BASE_SCHEMAS], next_oid: 17000,
  };
}

export function newProjectRef(ctx: Pick<LoadContext, 'ids'>): string {
  return refFrom(hex(ctx, 'project-ref'));
}

/** A table's schema copied into another project (a preview branch): no rows, sequences restarted. */
export function copyTable(table: TableDoc, ref: string): TableDoc {
  return { ...table, project: ref, next_rowid: 1, sequences: {} };
}

export function loadSupabase(data: SupabaseDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  for (const token of data.tokens) db.tokens.put(token.token, token);
  for (const org of data.organizations) db.organizations.put(org.slug, { id: org.slug, ...org });
  for (const p of data.projects) {
    if (!data.organizations.some((o) => o.slug === p.organization)) throw new Error(`supabase dataset: project ${p.ref} names an unknown organization ${p.organization}`);
    loadProject(db, p, ctx);
  }
}

function loadProject(db: Db, p: ProjectData, ctx: LoadContext): void {
  const created = ctx.epochMs - p.created_days_ago * DAY;
  const extensions = STANDARD_EXTENSIONS.map((e) => p.extensions.find((x) => x.name === e.name) ?? e);
  const project: ProjectDoc = {
    ...newProject(ctx, { ref: p.ref, name: p.name, organization: p.organization, region: p.region, status: p.status, createdMs: created, parent: null }),
    branching_enabled: p.branching_enabled || p.branches.length > 0,
    storage: p.storage, enums: p.enums, schemas: [...BASE_SCHEMAS, ...p.schemas.filter((s) => !BASE_SCHEMAS.includes(s))],
    extensions: [...extensions, ...p.extensions.filter((x) => !STANDARD_EXTENSIONS.some((e) => e.name === x.name))],
    secrets: p.secrets.map((s) => ({ ...s, updated_at: iso(created) })),
  };
  let oid = 17000;
  for (const t of p.tables) {
    const columns = t.columns.map((c) => {
      const type = normaliseType(c.type, p.enums);
      if (!type) throw new Error(`supabase dataset: ${p.ref} ${t.schema}.${t.name}.${c.name} has an unknown type ${c.type}`);
      return { name: c.name, type, not_null: c.not_null || c.primary, default: c.default, identity: c.identity, unique: c.unique, check: c.check, comment: c.comment };
    });
    const primary = t.columns.filter((c) => c.primary).map((c) => c.name);
    const sequences: Record<string, number> = {};
    for (const c of columns) {
      if (c.identity || (c.default && /^nextval\(/i.test(c.default))) sequences[c.name] = Math.max(0, ...t.rows.map((r) => Number(r[c.name] ?? 0)));
    }
    const key = `${t.schema}.${t.name}`;
    const table: TableDoc = {
      project: p.ref, schema: t.schema, name: t.name, oid: oid++, rls_enabled: t.rls_enabled, rls_forced: false, comment: t.comment,
      columns, primary_key: primary, uniques: t.uniques,
      foreign_keys: t.foreign_keys.map((fk) => {
        const [schema, name] = fk.table.includes('.') ? fk.table.split('.') as [string, string] : ['public', fk.table];
        return { name: fk.name ?? `${t.name}_${fk.columns.join('_')}_fkey`, columns: fk.columns, target_schema: schema, target_table: name, target_columns: fk.target_columns };
      }),
      policies: t.policies, indexes: t.indexes, next_rowid: t.rows.length + 1, sequences,
    };
    db.tables.put(tableKey(p.ref, t.schema, t.name), table);
    t.rows.forEach((row, i) => {
      const values: Record<string, Json> = {};
      for (const c of columns) values[c.name] = (row[c.name] ?? null) as Json;
      db.rows.put(rowKey(p.ref, key, i + 1), { project: p.ref, table: key, rowid: i + 1, values });
    });
  }
  project.next_oid = oid;
  db.projects.put(p.ref, project);
  for (const m of p.migrations) db.migrations.put(`${p.ref}/${m.version}`, { project: p.ref, ...m });
  for (const f of p.functions) {
    const id = uuidId(ctx, 'function');
    const at = ctx.epochMs - f.updated_days_ago * DAY;
    db.functions.put(`${p.ref}/${f.slug}`, {
      project: p.ref, id, slug: f.slug, name: f.name ?? f.slug, status: f.status, version: f.version, created_at: at - f.version * DAY, updated_at: at,
      verify_jwt: f.verify_jwt, entrypoint: f.entrypoint, import_map_path: f.import_map_path, files: f.files,
    });
  }
  for (const b of p.buckets) {
    const at = iso(ctx.epochMs - b.created_days_ago * DAY);
    db.buckets.put(`${p.ref}/${b.name}`, { project: p.ref, id: b.name, name: b.name, owner: '', public: b.public, created_at: at, updated_at: at });
  }
  if (project.branching_enabled) db.branches.put(`${p.ref}/main`, defaultBranch(ctx, project));
  for (const b of p.branches) {
    const ref = newProjectRef(ctx);
    const branchProject = { ...newProject(ctx, { ref, name: b.name, organization: p.organization, region: p.region, status: 'ACTIVE_HEALTHY', createdMs: ctx.epochMs - DAY, parent: p.ref }), enums: p.enums, schemas: project.schemas };
    db.projects.put(ref, branchProject);
    for (const t of db.tables.filter((x) => x.project === p.ref)) db.tables.put(tableKey(ref, t.schema, t.name), copyTable(t, ref));
    for (const m of p.migrations) db.migrations.put(`${ref}/${m.version}`, { project: ref, ...m });
    db.branches.put(`${p.ref}/${b.name}`, {
      id: uuidId(ctx, 'branch'), name: b.name, project_ref: ref, parent_project_ref: p.ref, is_default: false, git_branch: b.git_branch,
      persistent: b.persistent, status: 'FUNCTIONS_DEPLOYED', created_at: iso(ctx.epochMs - DAY), updated_at: iso(ctx.epochMs - DAY), with_data: false,
    });
  }
  p.logs.forEach((log, i) => {
    const id = uuidId(ctx, 'log');
    db.logs.put(`${p.ref}/${String(i).padStart(5, '0')}`, { project: p.ref, id, timestamp: ctx.epochMs - log.minutes_ago * 60_000, source: log.source, event_message: log.event_message, attributes: log.attributes as Record<string, Json> });
  });
  p.lints.forEach((l, i) => db.lints.put(`${p.ref}/${i}`, { project: p.ref, type: l.type, lint: l.lint as Record<string, Json> }));
}

export function defaultBranch(ctx: Pick<LoadContext, 'ids'>, project: ProjectDoc) {
  return {
    id: uuidId(ctx, 'branch'), name: 'main', project_ref: project.ref, parent_project_ref: project.ref, is_default: true, git_branch: null,
    persistent: true, status: 'FUNCTIONS_DEPLOYED', created_at: project.created_at, updated_at: project.created_at, with_data: true,
  };
}
