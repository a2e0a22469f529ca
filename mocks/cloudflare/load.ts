import type { LoadContext } from '../core/service.js';
import { uuidId } from '../kit/ids.js';
import type { CloudflareDataset } from './dataset.js';
import { bucketKey, dbOf, hexId, iso, isoMicros, kvKey, objectKey, workerKey, type D1TableDoc, type ZoneDoc } from './model.js';
import { etagOf, handlersOf } from './workers.js';
import { fqdn } from './zones.js';

const DAY = 86_400_000;

/** Fills the store from the dataset, once: ids the dataset leaves out are seeded, times count back from the epoch. */
export function loadCloudflare(data: CloudflareDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const ago = (days: number) => ctx.epochMs - days * DAY;
  if (data.accounts.length === 0 && (data.zones.length > 0 || data.workers.length > 0)) throw new Error('cloudflare dataset: resources need an account (accounts = [...])');
  const defaultAccount = data.accounts[0]?.id ?? '';
  const accountIds = data.accounts.map((a) => a.id);
  for (const a of data.accounts) db.accounts.put(a.id, { id: a.id, name: a.name, workers_subdomain: data.workers_subdomain });
  for (const t of data.tokens) {
    for (const a of t.accounts ?? []) if (!accountIds.includes(a)) throw new Error(`cloudflare dataset: token names an unknown account ${a}`);
    db.tokens.put(t.token, { token: t.token, accounts: t.accounts ?? accountIds, read_only: t.read_only });
  }
  for (const k of data.api_keys) db.api_keys.put(k.email, k);

  const zonesByName = new Map<string, ZoneDoc>();
  for (const z of data.zones) {
    const account = z.account_id ?? defaultAccount;
    if (!accountIds.includes(account)) throw new Error(`cloudflare dataset: zone ${z.name} names an unknown account ${account}`);
    const created = ago(z.created_days_ago);
    const doc: ZoneDoc = {
      id: z.id ?? hexId(ctx, 'zone'), name: z.name, account_id: account, status: z.status, paused: z.paused, type: z.type, plan: z.plan,
      name_servers: z.name_servers, created_on: isoMicros(created), modified_on: isoMicros(created + DAY), activated_on: isoMicros(created + DAY),
    };
    db.zones.put(doc.id, doc);
    zonesByName.set(z.name, doc);
  }
  const zoneNamed = (name: string, what: string): ZoneDoc => {
    const zone = zonesByName.get(name);
    if (!zone) throw new Error(`cloudflare dataset: ${what} names an unknown zone ${name}`);
    return zone;
  };
  for (const r of data.dns_records) {
    const zone = zoneNamed(r.zone, `record ${r.name}`);
    const id = r.id ?? hexId(ctx, 'dns_record');
    const at = isoMicros(ago(r.modified_days_ago));
    const proxiable = ['A', 'AAAA', 'CNAME'].includes(r.type);
    db.dns_records.put(id, {
      id, zone_id: zone.id, zone_name: zone.name, name: fqdn(r.name, zone.name), type: r.type, content: r.content, ttl: r.ttl,
      proxied: r.proxied ?? false, proxiable, ...(r.priority === undefined ? {} : { priority: r.priority }), comment: r.comment, tags: r.tags,
      created_on: at, modified_on: at,
    });
  }
  for (const w of data.workers) {
    const meta = JSON.stringify({ main_module: 'worker.js', bindings: w.bindings, compatibility_date: w.compatibility_date, compatibility_flags: w.compatibility_flags });
    db.workers.put(workerKey(defaultAccount, w.name), {
      account_id: defaultAccount, id: w.name, script: w.script, etag: etagOf(`${w.name}\n${w.script}\n${meta}`), bindings: w.bindings,
      compatibility_date: w.compatibility_date, compatibility_flags: w.compatibility_flags, handlers: w.handlers.length > 0 ? w.handlers : handlersOf(w.script),
      main_module: 'worker.js', workers_dev: w.workers_dev, logpush: w.logpush, observability: w.observability, usage_model: 'standard',
      secrets: w.secrets, schedules: w.crons.map((cron) => ({ cron, created_on: isoMicros(ago(w.modified_days_ago)), modified_on: isoMicros(ago(w.modified_days_ago)) })),
      created_on: isoMicros(ago(w.created_days_ago)), modified_on: isoMicros(ago(w.modified_days_ago)),
    });
  }
  for (const r of data.worker_routes) {
    const zone = zoneNamed(r.zone, `route ${r.pattern}`);
    const id = r.id ?? hexId(ctx, 'worker_route');
    db.worker_routes.put(id, { id, zone_id: zone.id, pattern: r.pattern, script: r.script });
  }
  for (const d of data.worker_domains) {
    const zone = zoneNamed(d.zone, `domain ${d.hostname}`);
    const id = d.id ?? hexId(ctx, 'worker_domain');
    db.worker_domains.put(id, { id, account_id: zone.account_id, zone_id: zone.id, zone_name: zone.name, hostname: d.hostname, service: d.service, environment: d.environment });
  }
  for (const n of data.durable_object_namespaces) {
    const id = n.id ?? hexId(ctx, 'do_namespace');
    db.do_namespaces.put(id, { id, account_id: defaultAccount, name: n.name, script: n.script, class: n.class, use_sqlite: n.use_sqlite });
  }
  for (const q of data.queues) {
    const id = q.id ?? hexId(ctx, 'queue');
    db.queues.put(id, { queue_id: id, account_id: defaultAccount, queue_name: q.name, created_on: iso(ago(q.created_days_ago)), modified_on: iso(ago(q.created_days_ago)) });
  }
  for (const d of data.dispatch_namespaces) {
    const id = d.id ?? uuidId(ctx, 'dispatch_namespace');
    db.dispatch_namespaces.put(id, { namespace_id: id, account_id: defaultAccount, namespace_name: d.name, created_on: iso(ago(30)), modified_on: iso(ago(30)), script_count: d.scripts });
  }
  for (const ns of data.kv_namespaces) {
    const id = ns.id ?? hexId(ctx, 'kv_namespace');
    db.kv_namespaces.put(id, { id, account_id: defaultAccount, title: ns.title, supports_url_encoding: true });
    for (const v of ns.values) {
      db.kv_values.put(kvKey(id, v.key), { namespace_id: id, key: v.key, value: v.value, ...(v.expiration === undefined ? {} : { expiration: v.expiration }), ...(v.metadata === undefined ? {} : { metadata: v.metadata }) });
    }
  }
  for (const b of data.r2_buckets) {
    const key = bucketKey(defaultAccount, b.name);
    db.r2_buckets.put(key, { account_id: defaultAccount, name: b.name, location: b.location, creation_date: iso(ago(b.created_days_ago)), storage_class: 'Standard' });
    for (const o of b.objects) {
      db.r2_objects.put(objectKey(key, o.key), {
        bucket: key, key: o.key, content: o.content, content_type: o.content_type, size: new TextEncoder().encode(o.content).length,
        etag: etagOf(o.content).slice(0, 32), uploaded: iso(ago(o.uploaded_days_ago)),
      });
    }
  }
  for (const d of data.d1_databases) {
    const uuid = d.uuid ?? uuidId(ctx, 'd1_database');
    const tables: Record<string, D1TableDoc> = {};
    for (const t of d.tables) {
      for (const row of t.rows) if (row.length !== t.columns.length) throw new Error(`cloudflare dataset: D1 table ${d.name}.${t.name} has a row of ${row.length} values for ${t.columns.length} columns`);
      tables[t.name] = { columns: t.columns, rows: t.rows };
    }
    db.d1_databases.put(uuid, { uuid, account_id: defaultAccount, name: d.name, version: 'production', created_at: iso(ago(d.created_days_ago)), tables });
  }
  data.zone_traffic.forEach((t, i) => {
    const zone = zoneNamed(t.zone, 'traffic');
    db.zone_traffic.put(`${zone.id}/${t.date}/${i}`, { zone_id: zone.id, date: t.date, requests: t.requests, bytes: t.bytes, threats: t.threats, pageViews: t.pageViews, uniques: t.uniques });
  });
  data.worker_invocations.forEach((w, i) => {
    db.worker_invocations.put(`${w.script}/${w.datetime}/${w.status}/${i}`, { account_id: defaultAccount, ...w });
  });
}
