import { z } from 'zod';
import type { MultipartPart } from '../kit/bodies.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { accountOf, zoneOf, type CfCtx } from './context.js';
import { cfError, hexId, isoMicros, ok, pageOf, raw, workerKey, type RouteDoc, type WorkerDoc } from './model.js';

/**
 * Workers: scripts (list, download, upload as multipart with a `metadata` part, delete), their
 * workers.dev subdomain, zone routes, custom domains and Durable Object namespaces.
 */

const V4 = '/client/v4';
const A = `${V4}/accounts/:account_id`;

const notFound = () => cfError(404, [{ code: 10007, message: 'This Worker does not exist on your account.' }]);

export function workerOf(c: CfCtx, account: string, name: string): WorkerDoc {
  accountOf(c, account);
  const worker = c.db.workers.get(workerKey(account, name));
  if (!worker) throw notFound();
  return worker;
}

/** The handlers a module exports (`export default { async fetch(…) … scheduled(…) }`), as Cloudflare reports them. */
export function handlersOf(script: string): string[] {
  const found = ['fetch', 'scheduled', 'queue', 'email', 'tail', 'alarm'].filter((h) => new RegExp(`(^|[^A-Za-z0-9_.])(async\\s+)?${h}\\s*\\(`, 'm').test(script));
  return found.length > 0 ? found : ['fetch'];
}

/** An etag over the script and its settings: a stable function of what was uploaded. */
export function etagOf(parts: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < parts.length; i++) {
    h1 = Math.imul(h1 ^ parts.charCodeAt(i), 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ parts.charCodeAt(i), 0x811c9dc5) >>> 0;
  }
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${hex(h1)}${hex(h2)}${hex(h1 ^ h2)}${hex((h1 + h2) >>> 0)}`.repeat(2);
}

export function renderScript(w: WorkerDoc): Record<string, unknown> {
  return {
    id: w.id, etag: w.etag, handlers: w.handlers, modified_on: w.modified_on, created_on: w.created_on,
    usage_model: w.usage_model, compatibility_date: w.compatibility_date, compatibility_flags: w.compatibility_flags,
    last_deployed_from: 'api', logpush: w.logpush, has_assets: false, has_modules: true, tail_consumers: null,
  };
}

const first = (part: MultipartPart | MultipartPart[] | undefined): MultipartPart | undefined => (Array.isArray(part) ? part[0] : part);

const Metadata = z.object({
  main_module: z.string().optional(),
  body_part: z.string().optional(),
  bindings: z.array(z.object({ type: z.string(), name: z.string() }).passthrough()).default([]),
  compatibility_date: z.string().optional(),
  compatibility_flags: z.array(z.string()).default([]),
  logpush: z.boolean().optional(),
  observability: z.object({ enabled: z.boolean() }).passthrough().optional(),
  usage_model: z.string().optional(),
}).passthrough();

const BINDING_TYPES = new Set(['kv_namespace', 'r2_bucket', 'd1', 'd1_database', 'service', 'analytics_engine', 'queue', 'durable_object_namespace',
  'plain_text', 'secret_text', 'json', 'ai', 'browser', 'hyperdrive', 'vectorize', 'version_metadata', 'workflow', 'assets', 'mtls_certificate', 'dispatch_namespace', 'secrets_store_secret']);

/** Checks the upload's bindings against what exists in the account, as the upload API does. */
function checkBindings(c: CfCtx, account: string, bindings: Record<string, unknown>[]): void {
  for (const b of bindings) {
    const type = String(b.type);
    if (!BINDING_TYPES.has(type)) throw cfError(400, [{ code: 10021, message: `Unknown binding type "${type}" for binding "${String(b.name)}".` }]);
    if (type === 'kv_namespace') {
      const ns = c.db.kv_namespaces.get(String(b.namespace_id ?? ''));
      if (!ns || ns.account_id !== account) throw cfError(400, [{ code: 10041, message: `KV namespace '${String(b.namespace_id ?? '')}' is not valid. [code: 10041]` }]);
    }
    if (type === 'r2_bucket' && !c.db.r2_buckets.get(`${account}/${String(b.bucket_name ?? '')}`)) {
      throw cfError(400, [{ code: 10085, message: `R2 bucket '${String(b.bucket_name ?? '')}' cannot be found. [code: 10085]` }]);
    }
  }
}

const ScriptsQuery = z.object({ tags: z.string().optional() }).passthrough();
const RouteBody = z.object({ pattern: z.string().min(1), script: z.string().optional() }).passthrough();
const DomainsQuery = z.object({ zone_name: z.string().optional(), zone_id: z.string().optional(), hostname: z.string().optional(), service: z.string().optional(), environment: z.string().optional() }).passthrough();
const NamespacesQuery = z.object({ page: z.coerce.number().int().min(1).optional(), per_page: z.coerce.number().int().min(1).optional() }).passthrough();

function routeOf(c: CfCtx, zoneId: string, id: string): RouteDoc {
  const route = c.db.worker_routes.get(id);
  if (!route || route.zone_id !== zoneId) throw cfError(404, [{ code: 10005, message: 'Route not found' }]);
  return route;
}

/** A route pattern must lie in its zone (`*.example.com/*`, `shop.example.com/api/*`). */
function checkRoute(c: CfCtx, zoneId: string, zoneName: string, body: { pattern: string; script?: string | undefined }, self: string | null): void {
  const host = body.pattern.replace(/^https?:\/\//, '').split('/')[0]!.replace(/^\*\.?/, '');
  if (!(host === zoneName || host.endsWith(`.${zoneName}`))) throw cfError(400, [{ code: 10022, message: `Route pattern must include zone name: ${zoneName}` }]);
  if (c.db.worker_routes.find((r) => r.zone_id === zoneId && r.pattern === body.pattern && r.id !== self)) {
    throw cfError(409, [{ code: 10020, message: 'A route with the same pattern already exists.' }]);
  }
  const zone = c.db.zones.get(zoneId)!;
  if (body.script && !c.db.workers.get(workerKey(zone.account_id, body.script))) throw notFound();
}

export const workerOperations: Operation<CfCtx>[] = [
  operation<CfCtx, '/client/v4/accounts/:account_id/workers/scripts', z.infer<typeof ScriptsQuery>>('workers.scripts.list', rest('GET', `${A}/workers/scripts`), (call, c) => {
    accountOf(c, call.params.account_id);
    return ok(c.db.workers.filter((w) => w.account_id === call.params.account_id).map(renderScript));
  }, { input: { query: ScriptsQuery } }),

  // The script's source: module Workers come back as multipart/form-data, one part per module.
  operation<CfCtx, '/client/v4/accounts/:account_id/workers/scripts/:script_name'>('workers.scripts.content.get', rest('GET', `${A}/workers/scripts/:script_name`), (call, c) => {
    const w = workerOf(c, call.params.account_id, call.params.script_name);
    const boundary = `----${w.etag.slice(0, 24)}`;
    const text = `--${boundary}\r\nContent-Disposition: form-data; name="${w.main_module}"; filename="${w.main_module}"\r\nContent-Type: application/javascript+module\r\n\r\n${w.script}\r\n--${boundary}--\r\n`;
    return raw(200, `multipart/form-data; boundary=${boundary}`, text, [['cf-entrypoint', w.main_module]]);
  }),

  operation<CfCtx, '/client/v4/accounts/:account_id/workers/scripts/:script_name'>('workers.scripts.update', rest('PUT', `${A}/workers/scripts/:script_name`), (call, c) => {
    const account = call.params.account_id;
    accountOf(c, account);
    const name = call.params.script_name;
    if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(name)) throw cfError(400, [{ code: 10016, message: 'Invalid Worker name. Worker names must be lowercase alphanumeric and dashes.' }]);
    if (call.decoded.kind !== 'multipart') throw cfError(400, [{ code: 10021, message: 'Expected a multipart/form-data upload with a metadata part.' }]);
    const parts = call.decoded.value;
    const metaPart = first(parts.metadata);
    let metaJson: unknown;
    try {
      metaJson = JSON.parse(metaPart?.text ?? '');
    } catch {
      throw cfError(400, [{ code: 10021, message: 'Failed to parse the metadata part as JSON.' }]);
    }
    const parsed = Metadata.safeParse(metaJson);
    if (!parsed.success) throw cfError(400, [{ code: 10021, message: `Invalid metadata: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}` }]);
    const meta = parsed.data;
    const mainName = meta.main_module ?? meta.body_part ?? 'worker.js';
    const main = first(parts[mainName]);
    if (!main) throw cfError(400, [{ code: 10021, message: `No such module "${mainName}".` }]);
    checkBindings(c, account, meta.bindings);
    const old = c.db.workers.get(workerKey(account, name));
    const now = isoMicros(c.ctx.nowMs);
    const compat = meta.compatibility_date ?? old?.compatibility_date ?? '2024-01-01';
    const doc: WorkerDoc = {
      account_id: account, id: name, script: main.text, etag: etagOf(`${name}\n${main.text}\n${JSON.stringify(meta)}`), bindings: meta.bindings,
      compatibility_date: compat, compatibility_flags: meta.compatibility_flags, handlers: handlersOf(main.text), main_module: mainName,
      workers_dev: old?.workers_dev ?? false, logpush: meta.logpush ?? false, observability: meta.observability?.enabled ?? false,
      usage_model: 'standard', secrets: old?.secrets ?? [], schedules: old?.schedules ?? [], created_on: old?.created_on ?? now, modified_on: now,
    };
    c.db.workers.put(workerKey(account, name), doc);
    // Object.assign on the fresh render, not `{ ...renderScript(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
    return ok(Object.assign(renderScript(doc), { startup_time_ms: 4 }));
  }),

  operation<CfCtx, '/client/v4/accounts/:account_id/workers/scripts/:script_name'>('workers.scripts.delete', rest('DELETE', `${A}/workers/scripts/:script_name`), (call, c) => {
    const w = workerOf(c, call.params.account_id, call.params.script_name);
    c.db.workers.delete(workerKey(w.account_id, w.id));
    for (const route of c.db.worker_routes.filter((r) => r.script === w.id)) c.db.worker_routes.put(route.id, { ...route, script: null });
    return ok(null);
  }),

  operation<CfCtx, '/client/v4/accounts/:account_id/workers/scripts/:script_name/subdomain'>('workers.scripts.subdomain.get', rest('GET', `${A}/workers/scripts/:script_name/subdomain`), (call, c) => {
    const w = workerOf(c, call.params.account_id, call.params.script_name);
    return ok({ enabled: w.workers_dev, previews_enabled: w.workers_dev });
  }),

  operation<CfCtx, '/client/v4/accounts/:account_id/workers/scripts/:script_name/subdomain', unknown, { enabled: boolean; previews_enabled?: boolean }>('workers.scripts.subdomain.create', rest('POST', `${A}/workers/scripts/:script_name/subdomain`), (call, c) => {
    const w = workerOf(c, call.params.account_id, call.params.script_name);
    c.db.workers.put(workerKey(w.account_id, w.id), { ...w, workers_dev: call.body.enabled });
    return ok({ enabled: call.body.enabled, previews_enabled: call.body.previews_enabled ?? call.body.enabled });
  }, { input: { body: z.object({ enabled: z.boolean(), previews_enabled: z.boolean().optional() }).passthrough() } }),

  operation<CfCtx, '/client/v4/accounts/:account_id/workers/subdomain'>('workers.subdomains.get', rest('GET', `${A}/workers/subdomain`), (call, c) => (
    ok({ subdomain: accountOf(c, call.params.account_id).workers_subdomain })
  )),

  operation<CfCtx, '/client/v4/zones/:zone_id/workers/routes'>('workers.routes.list', rest('GET', `${V4}/zones/:zone_id/workers/routes`), (call, c) => {
    const zone = zoneOf(c, call.params.zone_id);
    return ok(c.db.worker_routes.filter((r) => r.zone_id === zone.id).map((r) => ({ id: r.id, pattern: r.pattern, script: r.script })));
  }),

  operation<CfCtx, '/client/v4/zones/:zone_id/workers/routes', unknown, z.infer<typeof RouteBody>>('workers.routes.create', rest('POST', `${V4}/zones/:zone_id/workers/routes`), (call, c) => {
    const zone = zoneOf(c, call.params.zone_id);
    checkRoute(c, zone.id, zone.name, call.body, null);
    const id = hexId(c.ctx, 'worker_route');
    const doc = c.db.worker_routes.put(id, { id, zone_id: zone.id, pattern: call.body.pattern, script: call.body.script ?? null });
    return ok({ id: doc.id, pattern: doc.pattern, script: doc.script });
  }, { input: { body: RouteBody } }),

  operation<CfCtx, '/client/v4/zones/:zone_id/workers/routes/:route_id'>('workers.routes.get', rest('GET', `${V4}/zones/:zone_id/workers/routes/:route_id`), (call, c) => {
    const zone = zoneOf(c, call.params.zone_id);
    const r = routeOf(c, zone.id, call.params.route_id);
    return ok({ id: r.id, pattern: r.pattern, script: r.script });
  }),

  operation<CfCtx, '/client/v4/zones/:zone_id/workers/routes/:route_id', unknown, z.infer<typeof RouteBody>>('workers.routes.update', rest('PUT', `${V4}/zones/:zone_id/workers/routes/:route_id`), (call, c) => {
    const zone = zoneOf(c, call.params.zone_id);
    const r = routeOf(c, zone.id, call.params.route_id);
    checkRoute(c, zone.id, zone.name, call.body, r.id);
    const doc = c.db.worker_routes.put(r.id, { ...r, pattern: call.body.pattern, script: call.body.script ?? null });
    return ok({ id: doc.id, pattern: doc.pattern, script: doc.script });
  }, { input: { body: RouteBody } }),

  operation<CfCtx, '/client/v4/zones/:zone_id/workers/routes/:route_id'>('workers.routes.delete', rest('DELETE', `${V4}/zones/:zone_id/workers/routes/:route_id`), (call, c) => {
    const zone = zoneOf(c, call.params.zone_id);
    const r = routeOf(c, zone.id, call.params.route_id);
    c.db.worker_routes.delete(r.id);
    return ok({ id: r.id });
  }),

  operation<CfCtx, '/client/v4/accounts/:account_id/workers/domains', z.infer<typeof DomainsQuery>>('workers.domains.list', rest('GET', `${A}/workers/domains`), (call, c) => {
    accountOf(c, call.params.account_id);
    const q = call.query;
    const domains = c.db.worker_domains.filter((d) => d.account_id === call.params.account_id
      && (!q.zone_name || d.zone_name === q.zone_name) && (!q.zone_id || d.zone_id === q.zone_id) && (!q.hostname || d.hostname === q.hostname)
      && (!q.service || d.service === q.service) && (!q.environment || d.environment === q.environment));
    return ok(domains.map((d) => ({ id: d.id, zone_id: d.zone_id, zone_name: d.zone_name, hostname: d.hostname, service: d.service, environment: d.environment, cert_id: d.id.split('').reverse().join('') })));
  }, { input: { query: DomainsQuery } }),

  operation<CfCtx, '/client/v4/accounts/:account_id/workers/durable_objects/namespaces', z.infer<typeof NamespacesQuery>>('durable_objects.namespaces.list', rest('GET', `${A}/workers/durable_objects/namespaces`), (call, c) => {
    accountOf(c, call.params.account_id);
    const page = pageOf(c.db.do_namespaces.filter((n) => n.account_id === call.params.account_id), call.query, 20, 1000);
    return ok(page.items.map((n) => ({ id: n.id, name: n.name, script: n.script, class: n.class, use_sqlite: n.use_sqlite })), { result_info: page.result_info });
  }, { input: { query: NamespacesQuery } }),
];
