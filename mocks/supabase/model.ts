import { jsonResponse, type ServiceResponse } from '../core/http.js';
import type { Collection, DocumentStore, Json } from '../core/store.js';
import { ServiceError } from '../kit/errors.js';

/** The store's documents, as the Supabase mock keeps them (rendered into the Management API's shapes by the handlers). */

export interface TokenDoc { token: string; organizations: string[] | null }
export interface OrgDoc { id: string; slug: string; name: string; plan: 'free' | 'pro' | 'team' | 'enterprise'; opt_in_tags: string[]; allowed_release_channels: string[] }
export interface KeyDoc { id: string; name: string; type: 'legacy' | 'publishable' | 'secret'; api_key: string; prefix: string | null; description: string | null; inserted_at: string | null }
export interface ExtensionDoc { name: string; default_version: string; installed_version: string | null; schema: string | null; comment: string | null }
export interface StorageConfigDoc { fileSizeLimit: number; imageTransformation: boolean; s3Protocol: boolean }
export interface ProjectDoc {
  ref: string; name: string; organization_slug: string; region: string;
  status: string; created_at: string; db_version: string;
  /** Set on a preview branch's own project: the project it branches from. */
  parent_ref: string | null;
  branching_enabled: boolean;
  storage: StorageConfigDoc;
  api_keys: KeyDoc[];
  secrets: { name: string; value: string; updated_at: string }[];
  extensions: ExtensionDoc[];
  enums: Record<string, string[]>;
  schemas: string[];
  next_oid: number;
}
export interface ColumnDoc { name: string; type: string; not_null: boolean; default: string | null; identity: 'ALWAYS' | 'BY DEFAULT' | null; unique: boolean; check: string | null; comment: string | null }
export interface ForeignKeyDoc { name: string; columns: string[]; target_schema: string; target_table: string; target_columns: string[] }
export interface PolicyDoc { name: string; command: string; roles: string[]; using: string | null; check: string | null }
export interface IndexDoc { name: string; columns: string[]; unique: boolean }
export interface TableDoc {
  project: string; schema: string; name: string; oid: number;
  rls_enabled: boolean; rls_forced: boolean; comment: string | null;
  columns: ColumnDoc[]; primary_key: string[]; uniques: string[][];
  foreign_keys: ForeignKeyDoc[]; policies: PolicyDoc[]; indexes: IndexDoc[];
  next_rowid: number; sequences: Record<string, number>;
}
export interface RowDoc { project: string; table: string; rowid: number; values: Record<string, Json> }
export interface MigrationDoc { project: string; version: string; name: string; statements: string }
export interface FunctionDoc {
  project: string; id: string; slug: string; name: string; status: 'ACTIVE' | 'REMOVED' | 'THROTTLED'; version: number;
  created_at: number; updated_at: number; verify_jwt: boolean; entrypoint: string; import_map_path: string | null;
  files: { name: string; content: string }[];
}
export interface BucketDoc { project: string; id: string; name: string; owner: string; public: boolean; created_at: string; updated_at: string }
export interface BranchDoc {
  id: string; name: string; project_ref: string; parent_project_ref: string; is_default: boolean; git_branch: string | null;
  persistent: boolean; status: string; created_at: string; updated_at: string; with_data: boolean;
}
export interface LogDoc { project: string; id: string; timestamp: number; source: string; event_message: string; attributes: Record<string, Json> }
export interface LintDoc { project: string; type: 'security' | 'performance'; lint: Record<string, Json> }

export interface Db {
  tokens: Collection<TokenDoc>;
  organizations: Collection<OrgDoc>;
  projects: Collection<ProjectDoc>;
  tables: Collection<TableDoc>;
  rows: Collection<RowDoc>;
  migrations: Collection<MigrationDoc>;
  functions: Collection<FunctionDoc>;
  buckets: Collection<BucketDoc>;
  branches: Collection<BranchDoc>;
  logs: Collection<LogDoc>;
  lints: Collection<LintDoc>;
}

export function dbOf(store: DocumentStore): Db {
  return {
    tokens: store.collection('tokens'),
    organizations: store.collection('organizations'),
    projects: store.collection('projects'),
    tables: store.collection('tables'),
    rows: store.collection('rows'),
    migrations: store.collection('migrations'),
    functions: store.collection('functions'),
    buckets: store.collection('buckets'),
    branches: store.collection('branches'),
    logs: store.collection('logs'),
    lints: store.collection('lints'),
  };
}

export const tableKey = (ref: string, schema: string, name: string) => `${ref}/${schema}.${name}`;
export const rowKey = (ref: string, table: string, rowid: number) => `${ref}/${table}/${rowid}`;

/** The Management API's errors: `{message}` with the HTTP status (as its NestJS/Go services answer). */
export function sbError(status: number, message: string, headers: [string, string][] = []): ServiceError {
  return new ServiceError(status, String(status), message, {}, headers);
}

export function renderError(error: ServiceError): ServiceResponse {
  return jsonResponse(error.status, { message: error.message }, error.headers.map(([k, v]) => [k, v]));
}

export const iso = (ms: number) => new Date(ms).toISOString();
/** Lower-case letters only, 20 long: a project ref, from the seeded hex of an id. */
export function refFrom(hex: string): string {
  let out = '';
  for (let i = 0; out.length < 20; i++) out += String.fromCharCode(97 + (parseInt(hex[i % hex.length]!, 16) + i * 7) % 26);
  return out;
}
