import { bytes, jsonResponse, type HeaderList, type ServiceResponse } from '../core/http.js';
import type { Collection, DocumentStore } from '../core/store.js';
import type { LoadContext } from '../core/service.js';
import { uuidId } from '../kit/ids.js';
import { ServiceError } from '../kit/errors.js';

/** The store's documents and Cloudflare's v4 envelope, errors and page/per_page pagination. */

export interface TokenDoc { token: string; accounts: string[]; read_only: boolean }
export interface ApiKeyDoc { email: string; key: string }
export interface AccountDoc { id: string; name: string; workers_subdomain: string }
export interface ZoneDoc {
  id: string; name: string; account_id: string; status: string; paused: boolean; type: string; plan: string;
  name_servers: string[]; created_on: string; modified_on: string; activated_on: string;
}
export interface DnsRecordDoc {
  id: string; zone_id: string; zone_name: string; name: string; type: string; content: string; ttl: number;
  proxied: boolean; proxiable: boolean; priority?: number; comment: string | null; tags: string[];
  created_on: string; modified_on: string;
}
export interface WorkerDoc {
  account_id: string; id: string; script: string; etag: string; bindings: Record<string, unknown>[];
  compatibility_date: string; compatibility_flags: string[]; handlers: string[]; main_module: string;
  workers_dev: boolean; logpush: boolean; observability: boolean; usage_model: string;
  secrets: string[]; schedules: { cron: string; created_on: string; modified_on: string }[];
  created_on: string; modified_on: string;
}
export interface QueueDoc { queue_id: string; account_id: string; queue_name: string; created_on: string; modified_on: string }
export interface DispatchNamespaceDoc { namespace_id: string; account_id: string; namespace_name: string; created_on: string; modified_on: string; script_count: number }
export interface RouteDoc { id: string; zone_id: string; pattern: string; script: string | null }
export interface WorkerDomainDoc { id: string; account_id: string; zone_id: string; zone_name: string; hostname: string; service: string; environment: string }
export interface DoNamespaceDoc { id: string; account_id: string; name: string; script: string; class: string; use_sqlite: boolean }
export interface KvNamespaceDoc { id: string; account_id: string; title: string; supports_url_encoding: boolean }
export interface KvValueDoc { namespace_id: string; key: string; value: string; expiration?: number; metadata?: Record<string, unknown> }
export interface R2BucketDoc { account_id: string; name: string; location: string; creation_date: string; storage_class: string }
export interface R2ObjectDoc { bucket: string; key: string; content: string; content_type: string; size: number; etag: string; uploaded: string }
export type SqlValue = string | number | null;
export interface D1TableDoc { columns: { name: string; type: string; primary_key: boolean }[]; rows: SqlValue[][] }
export interface D1DatabaseDoc {
  uuid: string; account_id: string; name: string; version: string; created_at: string;
  tables: Record<string, D1TableDoc>;
}
export interface TrafficDoc { zone_id: string; date: string; requests: number; bytes: number; threats: number; pageViews: number; uniques: number }
export interface InvocationDoc { account_id: string; script: string; datetime: string; status: string; requests: number; errors: number; subrequests: number; cpuTimeP50: number; cpuTimeP99: number }

export interface Db {
  tokens: Collection<TokenDoc>;
  api_keys: Collection<ApiKeyDoc>;
  accounts: Collection<AccountDoc>;
  zones: Collection<ZoneDoc>;
  dns_records: Collection<DnsRecordDoc>;
  workers: Collection<WorkerDoc>;
  worker_routes: Collection<RouteDoc>;
  worker_domains: Collection<WorkerDomainDoc>;
  do_namespaces: Collection<DoNamespaceDoc>;
  kv_namespaces: Collection<KvNamespaceDoc>;
  queues: Collection<QueueDoc>;
  dispatch_namespaces: Collection<DispatchNamespaceDoc>;
  kv_values: Collection<KvValueDoc>;
  r2_buckets: Collection<R2BucketDoc>;
  r2_objects: Collection<R2ObjectDoc>;
  d1_databases: Collection<D1DatabaseDoc>;
  zone_traffic: Collection<TrafficDoc>;
  worker_invocations: Collection<InvocationDoc>;
}

const NAMES = ['tokens', 'api_keys', 'accounts', 'zones', 'dns_records', 'workers', 'worker_routes', 'worker_domains', 'do_namespaces',
  'kv_namespaces', 'queues', 'dispatch_namespaces', 'kv_values', 'r2_buckets', 'r2_objects', 'd1_databases', 'zone_traffic', 'worker_invocations'] as const;

export function dbOf(store: DocumentStore): Db {
  return Object.fromEntries(NAMES.map((name) => [name, store.collection(name)])) as unknown as Db;
}

/** Keys: workers and buckets by account and name, KV values by namespace and key, R2 objects by bucket and key. */
export const workerKey = (account: string, name: string) => `${account}/${name}`;
export const bucketKey = (account: string, name: string) => `${account}/${name}`;
export const kvKey = (namespace: string, key: string) => `${namespace}/${key}`;
export const objectKey = (bucket: string, key: string) => `${bucket}/${key}`;

/** A 32-hex-digit id, as Cloudflare's zone, record, namespace and route ids look; seeded. */
export function hexId(ctx: Pick<LoadContext, 'ids'>, kind: string): string {
  return uuidId(ctx, kind).replace(/-/g, '');
}

export const iso = (ms: number): string => new Date(ms).toISOString();
/** Cloudflare writes zone and record times with microseconds: `2025-11-30T09:00:00.000000Z`. */
export const isoMicros = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

export interface CfMessage { code: number; message: string; error_chain?: CfMessage[] }

/** A failed call: `{result: null, success: false, errors: [...], messages: []}` with the status Cloudflare gives. */
export function cfError(status: number, errors: CfMessage[], headers: HeaderList = []): ServiceError {
  const first = errors[0] ?? { code: 10000, message: 'Internal error' };
  return new ServiceError(status, String(first.code), first.message, { errors }, headers);
}

export function renderError(error: ServiceError): ServiceResponse {
  const errors = (error.details as { errors?: CfMessage[] } | undefined)?.errors ?? [{ code: Number(error.code) || 10000, message: error.message }];
  const response = jsonResponse(error.status, { result: null, success: false, errors, messages: [] });
  return { ...response, headers: [...response.headers, ...error.headers] };
}

export function ok(result: unknown, extra: { result_info?: unknown; messages?: unknown[] } = {}, status = 200): ServiceResponse {
  return jsonResponse(status, {
    result, success: true, errors: [], messages: extra.messages ?? [],
    ...(extra.result_info === undefined ? {} : { result_info: extra.result_info }),
  });
}

/** Raw bytes (a KV value, an R2 object, a Worker's source), not the JSON envelope. */
export function raw(status: number, contentType: string, text: string, headers: HeaderList = []): ServiceResponse {
  return { status, headers: [['Content-Type', contentType], ...headers], body: bytes(text) };
}

/** `page`/`per_page` as Cloudflare reads them: a bad value is its 400 with code 1004-style validation. */
export function pageOf<T>(items: readonly T[], query: { page?: number; per_page?: number }, perPageDefault: number, perPageMax: number) {
  const page = query.page ?? 1;
  const perPage = Math.min(query.per_page ?? perPageDefault, perPageMax);
  const slice = items.slice((page - 1) * perPage, page * perPage);
  return {
    items: slice,
    result_info: { page, per_page: perPage, count: slice.length, total_count: items.length, total_pages: Math.max(1, Math.ceil(items.length / perPage)) },
  };
}

/** Cloudflare's answer to a path it has no route for. */
export const noRoute = (): ServiceError => cfError(400, [{ code: 7000, message: 'No route for that URI' }]);

/** An identifier in the path that names nothing (Cloudflare routes by id: the route itself fails). */
export const badIdentifier = (path: string): ServiceError => cfError(400, [
  { code: 7003, message: `Could not route to ${path}, perhaps your object identifier is invalid?` },
  { code: 7000, message: 'No route for that URI' },
]);

export const authError = (): ServiceError => cfError(403, [{ code: 10000, message: 'Authentication error' }]);
