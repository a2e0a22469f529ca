import { z } from 'zod';

/**
 * The Cloudflare dataset (`<scenario>/dataset/cloudflare.json`): one account's API tokens, zones
 * with their DNS records, Workers (scripts, routes, custom domains, Durable Object namespaces),
 * Workers KV, R2, D1 and the analytics the GraphQL API answers from. Every field has a default so
 * a missing file is an empty account; IDs the dataset leaves out are seeded (32 hex digits, as
 * Cloudflare's are). docs/cloudflare-mock.md.
 */

const Hex32 = z.string().regex(/^[0-9a-f]{32}$/, 'a Cloudflare id is 32 lower-case hex digits');

export const TokenSchema = z.object({
  token: z.string().min(1),
  /** Accounts the token may act in; default every account of the dataset. */
  accounts: z.array(z.string()).optional(),
  /** A read-only token answers writes with Cloudflare's 403 `Authentication error`. */
  read_only: z.boolean().default(false),
}).strict();

/** A Global API Key, sent as `X-Auth-Email` + `X-Auth-Key`. */
export const ApiKeySchema = z.object({ email: z.string().email(), key: z.string().min(1) }).strict();

export const AccountSchema = z.object({ id: Hex32, name: z.string().min(1) }).strict();

export const ZoneSchema = z.object({
  id: Hex32.optional(),
  name: z.string().min(1),
  account_id: Hex32.optional(),
  status: z.enum(['active', 'pending', 'initializing', 'moved']).default('active'),
  paused: z.boolean().default(false),
  type: z.enum(['full', 'partial', 'secondary']).default('full'),
  plan: z.enum(['Free Website', 'Pro Website', 'Business Website', 'Enterprise Website']).default('Free Website'),
  name_servers: z.array(z.string()).default(['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com']),
  created_days_ago: z.number().int().min(0).default(400),
}).strict();

export const DnsRecordSchema = z.object({
  id: Hex32.optional(),
  /** The zone's name (`example.com`). */
  zone: z.string().min(1),
  /** The full name (`api.example.com`), or `@` for the apex. */
  name: z.string().min(1),
  type: z.enum(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA']),
  content: z.string().min(1),
  ttl: z.number().int().default(1),
  proxied: z.boolean().optional(),
  priority: z.number().int().optional(),
  comment: z.string().nullable().default(null),
  tags: z.array(z.string()).default([]),
  modified_days_ago: z.number().int().min(0).default(30),
}).strict();

export const BindingSchema = z.object({ type: z.string(), name: z.string() }).passthrough();

export const WorkerSchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  /** The main module's source. */
  script: z.string(),
  bindings: z.array(BindingSchema).default([]),
  compatibility_date: z.string().default('2025-01-15'),
  compatibility_flags: z.array(z.string()).default([]),
  handlers: z.array(z.string()).default(['fetch']),
  workers_dev: z.boolean().default(true),
  logpush: z.boolean().default(false),
  observability: z.boolean().default(true),
  /** Names of its secrets (values are write-only in the API). */
  secrets: z.array(z.string()).default([]),
  /** Cron triggers. */
  crons: z.array(z.string()).default([]),
  created_days_ago: z.number().int().min(0).default(120),
  modified_days_ago: z.number().int().min(0).default(10),
}).strict();

export const RouteSchema = z.object({ id: Hex32.optional(), zone: z.string(), pattern: z.string(), script: z.string().nullable() }).strict();

export const WorkerDomainSchema = z.object({
  id: Hex32.optional(), hostname: z.string(), zone: z.string(), service: z.string(), environment: z.string().default('production'),
}).strict();

export const DurableObjectNamespaceSchema = z.object({
  id: Hex32.optional(), name: z.string(), script: z.string(), class: z.string(), use_sqlite: z.boolean().default(true),
}).strict();

export const QueueSchema = z.object({ id: Hex32.optional(), name: z.string().min(1), created_days_ago: z.number().int().min(0).default(60) }).strict();
export const DispatchNamespaceSchema = z.object({ id: z.string().uuid().optional(), name: z.string().min(1), scripts: z.number().int().min(0).default(0) }).strict();

export const KvNamespaceSchema = z.object({
  id: Hex32.optional(),
  title: z.string().min(1),
  values: z.array(z.object({
    key: z.string().min(1).max(512),
    value: z.string(),
    /** Seconds since the epoch. */
    expiration: z.number().int().optional(),
    metadata: z.record(z.unknown()).optional(),
  }).strict()).default([]),
}).strict();

export const R2BucketSchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/),
  location: z.enum(['WNAM', 'ENAM', 'WEUR', 'EEUR', 'APAC', 'OC']).default('WNAM'),
  created_days_ago: z.number().int().min(0).default(200),
  objects: z.array(z.object({
    key: z.string().min(1),
    content: z.string(),
    content_type: z.string().default('application/octet-stream'),
    uploaded_days_ago: z.number().int().min(0).default(5),
  }).strict()).default([]),
}).strict();

export const D1TableSchema = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  columns: z.array(z.object({
    name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
    type: z.enum(['INTEGER', 'TEXT', 'REAL']),
    primary_key: z.boolean().default(false),
  }).strict()).min(1),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))).default([]),
}).strict();

export const D1DatabaseSchema = z.object({
  uuid: z.string().uuid().optional(),
  name: z.string().min(1),
  created_days_ago: z.number().int().min(0).default(90),
  tables: z.array(D1TableSchema).default([]),
}).strict();

/** Daily zone traffic for `httpRequests1dGroups`. */
export const ZoneTrafficSchema = z.object({
  zone: z.string(), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  requests: z.number().int(), bytes: z.number().int(), threats: z.number().int(), pageViews: z.number().int(), uniques: z.number().int(),
}).strict();

/** Hourly Worker invocations for `workersInvocationsAdaptive`. */
export const WorkerInvocationsSchema = z.object({
  script: z.string(), datetime: z.string(), status: z.enum(['success', 'clientDisconnected', 'scriptThrewException', 'exceededResources', 'internalError']),
  requests: z.number().int(), errors: z.number().int(), subrequests: z.number().int(), cpuTimeP50: z.number(), cpuTimeP99: z.number(),
}).strict();

export const CloudflareDatasetSchema = z.object({
  tokens: z.array(TokenSchema).default([]),
  api_keys: z.array(ApiKeySchema).default([]),
  accounts: z.array(AccountSchema).default([]),
  /** The account's workers.dev subdomain (`<name>.workers.dev`). */
  workers_subdomain: z.string().default('acme'),
  zones: z.array(ZoneSchema).default([]),
  dns_records: z.array(DnsRecordSchema).default([]),
  workers: z.array(WorkerSchema).default([]),
  worker_routes: z.array(RouteSchema).default([]),
  worker_domains: z.array(WorkerDomainSchema).default([]),
  durable_object_namespaces: z.array(DurableObjectNamespaceSchema).default([]),
  kv_namespaces: z.array(KvNamespaceSchema).default([]),
  queues: z.array(QueueSchema).default([]),
  dispatch_namespaces: z.array(DispatchNamespaceSchema).default([]),
  r2_buckets: z.array(R2BucketSchema).default([]),
  d1_databases: z.array(D1DatabaseSchema).default([]),
  zone_traffic: z.array(ZoneTrafficSchema).default([]),
  worker_invocations: z.array(WorkerInvocationsSchema).default([]),
}).strict();

export type CloudflareDataset = z.infer<typeof CloudflareDatasetSchema>;
export type D1Table = z.infer<typeof D1TableSchema>;
