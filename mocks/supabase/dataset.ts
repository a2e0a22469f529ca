import { z } from 'zod';

/** The Supabase dataset: organizations, projects and, per project, its database, functions, storage, branches, logs and linter findings. */

const Json: z.ZodType<unknown> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(Json), z.record(Json)]));

const Column = z.object({
  name: z.string().min(1),
  /** A Postgres type as DDL writes it (`bigint`, `text`, `timestamptz`, `public.order_status`). */
  type: z.string().min(1),
  not_null: z.boolean().default(false),
  primary: z.boolean().default(false),
  unique: z.boolean().default(false),
  /** The default as SQL text (`now()`, `'pending'::order_status`). */
  default: z.string().nullable().default(null),
  identity: z.enum(['ALWAYS', 'BY DEFAULT']).nullable().default(null),
  check: z.string().nullable().default(null),
  comment: z.string().nullable().default(null),
}).strict();

const Table = z.object({
  schema: z.string().default('public'),
  name: z.string().min(1),
  rls_enabled: z.boolean().default(false),
  comment: z.string().nullable().default(null),
  columns: z.array(Column).min(1),
  uniques: z.array(z.array(z.string())).default([]),
  /** `table` is `name` in public or `schema.name`. */
  foreign_keys: z.array(z.object({ name: z.string().optional(), columns: z.array(z.string()).min(1), table: z.string(), target_columns: z.array(z.string()).default(['id']) }).strict()).default([]),
  policies: z.array(z.object({ name: z.string(), command: z.enum(['ALL', 'SELECT', 'INSERT', 'UPDATE', 'DELETE']).default('ALL'), roles: z.array(z.string()).default(['public']), using: z.string().nullable().default(null), check: z.string().nullable().default(null) }).strict()).default([]),
  indexes: z.array(z.object({ name: z.string(), columns: z.array(z.string()).min(1), unique: z.boolean().default(false) }).strict()).default([]),
  rows: z.array(z.record(Json)).default([]),
}).strict();

const Extension = z.object({
  name: z.string(), default_version: z.string(), installed_version: z.string().nullable().default(null), schema: z.string().nullable().default(null), comment: z.string().nullable().default(null),
}).strict();

const Project = z.object({
  /** 20 lower-case letters, as Supabase project refs are. */
  ref: z.string().regex(/^[a-z]{20}$/),
  name: z.string().min(1),
  organization: z.string(),
  region: z.string().default('us-east-1'),
  status: z.enum(['ACTIVE_HEALTHY', 'INACTIVE', 'COMING_UP', 'PAUSING', 'RESTORING', 'UNKNOWN', 'INIT_FAILED', 'REMOVED', 'GOING_DOWN']).default('ACTIVE_HEALTHY'),
  created_days_ago: z.number().int().min(0).default(120),
  branching_enabled: z.boolean().default(false),
  storage: z.object({ fileSizeLimit: z.number().int().min(0).default(52_428_800), imageTransformation: z.boolean().default(false), s3Protocol: z.boolean().default(true) }).strict().default({}),
  /** `public.order_status` → its labels. */
  enums: z.record(z.array(z.string())).default({}),
  /** Schemas beyond the ones every project has (public, auth, storage, extensions, graphql, realtime, vault). */
  schemas: z.array(z.string()).default([]),
  /** Extensions beyond (or overriding) the standard list. */
  extensions: z.array(Extension).default([]),
  tables: z.array(Table).default([]),
  migrations: z.array(z.object({ version: z.string().regex(/^\d{14}$/), name: z.string(), statements: z.string().default('') }).strict()).default([]),
  functions: z.array(z.object({
    slug: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/), name: z.string().optional(), version: z.number().int().min(1).default(1),
    status: z.enum(['ACTIVE', 'REMOVED', 'THROTTLED']).default('ACTIVE'), verify_jwt: z.boolean().default(true),
    entrypoint: z.string().default('index.ts'), import_map_path: z.string().nullable().default(null), updated_days_ago: z.number().min(0).default(7),
    files: z.array(z.object({ name: z.string(), content: z.string() }).strict()).min(1),
  }).strict()).default([]),
  buckets: z.array(z.object({ name: z.string(), public: z.boolean().default(false), created_days_ago: z.number().min(0).default(60) }).strict()).default([]),
  branches: z.array(z.object({ name: z.string(), git_branch: z.string().nullable().default(null), persistent: z.boolean().default(false) }).strict()).default([]),
  /** Log events, `minutes_ago` before the epoch. */
  logs: z.array(z.object({ source: z.string(), minutes_ago: z.number().min(0), event_message: z.string(), attributes: z.record(Json).default({}) }).strict()).default([]),
  /** Linter findings beyond the ones computed from the tables (RLS, unindexed foreign keys). */
  lints: z.array(z.object({ type: z.enum(['security', 'performance']), lint: z.record(Json) }).strict()).default([]),
  secrets: z.array(z.object({ name: z.string(), value: z.string() }).strict()).default([]),
}).strict();

export const SupabaseDatasetSchema = z.object({
  /** Personal access tokens (`sbp_…`); `organizations` limits one to those slugs. */
  tokens: z.array(z.object({ token: z.string().min(1), organizations: z.array(z.string()).nullable().default(null) }).strict()).default([]),
  organizations: z.array(z.object({
    slug: z.string().regex(/^[\w-]+$/), name: z.string(), plan: z.enum(['free', 'pro', 'team', 'enterprise']).default('free'),
    opt_in_tags: z.array(z.string()).default([]), allowed_release_channels: z.array(z.string()).default(['ga']),
  }).strict()).default([]),
  projects: z.array(Project).default([]),
}).strict();

export type SupabaseDataset = z.infer<typeof SupabaseDatasetSchema>;
export type ProjectData = z.infer<typeof Project>;
