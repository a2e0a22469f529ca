// The official `cloudflare` SDK (the devDependency, 7.x, unmodified) against api.cloudflare.com
// through whatever the preload set up: zones by name, DNS records filtered and auto-paged, a
// record created, patched, overwritten and deleted, Cloudflare's duplicate (81057) and CNAME
// conflict (81053) errors, a KV value written and read, Workers and R2 listed, a D1 query, and
// an unknown token. Prints one JSON object.
import Cloudflare from 'cloudflare';

const ACCOUNT = process.env.CF_ACCOUNT;
const cf = new Cloudflare({ apiToken: process.env.CF_TOKEN, maxRetries: 0 });
const out = {};
const errorOf = async (promise) => {
  try { await promise; return null; } catch (e) { return { status: e.status, errors: e.errors, name: e.constructor.name }; }
};

const zones = await cf.zones.list({ name: 'example.com' });
const zone = zones.result[0];
out.zone = { count: zones.result.length, name: zone.name, plan: zone.plan.name, account: zone.account.name };
const api = await cf.dns.records.list({ zone_id: zone.id, type: 'A', name: { exact: 'api.example.com' } });
out.api = api.result.map((r) => `${r.name} ${r.type} ${r.content} proxied=${r.proxied}`);
let all = 0;
for await (const _record of cf.dns.records.list({ zone_id: zone.id, per_page: 10 })) all++;
out.allRecords = all;
const shops = await cf.dns.records.list({ zone_id: zone.id, name: { startswith: 'shop-0' }, per_page: 5 });
out.shops = { page: shops.result.map((r) => r.name), total: shops.result_info.total_count };

const created = await cf.dns.records.create({ zone_id: zone.id, type: 'A', name: 'sdk', content: '192.0.2.10', ttl: 300, proxied: false, comment: 'made by the SDK' });
out.created = { name: created.name, content: created.content, ttl: created.ttl, comment: created.comment };
const edited = await cf.dns.records.edit(created.id, { zone_id: zone.id, content: '192.0.2.11' });
out.edited = { content: edited.content, ttl: edited.ttl, comment: edited.comment };
const replaced = await cf.dns.records.update(created.id, { zone_id: zone.id, type: 'A', name: 'sdk.example.com', content: '192.0.2.12' });
out.replaced = { content: replaced.content, ttl: replaced.ttl, comment: replaced.comment };
out.duplicate = await errorOf(cf.dns.records.create({ zone_id: zone.id, type: 'A', name: 'api', content: '203.0.113.20' }));
out.cnameConflict = await errorOf(cf.dns.records.create({ zone_id: zone.id, type: 'CNAME', name: 'api', content: 'example.net' }));
out.badIp = await errorOf(cf.dns.records.create({ zone_id: zone.id, type: 'A', name: 'broken', content: '300.1.2.3' }));
const deleted = await cf.dns.records.delete(created.id, { zone_id: zone.id });
out.deleted = deleted.id === created.id;
out.gone = await errorOf(cf.dns.records.get(created.id, { zone_id: zone.id }));
out.badZone = await errorOf(cf.zones.get({ zone_id: '0123456789abcdef0123456789abcdef' }));

const namespaces = await cf.kv.namespaces.list({ account_id: ACCOUNT });
const edge = namespaces.result.find((n) => n.title === 'edge-config');
await cf.kv.namespaces.values.update('maintenance_mode', { account_id: ACCOUNT, namespace_id: edge.id, value: 'true', metadata: JSON.stringify({ by: 'sdk' }) });
const value = await (await cf.kv.namespaces.values.get('maintenance_mode', { account_id: ACCOUNT, namespace_id: edge.id })).text();
const keys = await cf.kv.namespaces.keys.list(edge.id, { account_id: ACCOUNT, prefix: 'origin:' });
out.kv = { namespaces: namespaces.result.map((n) => n.title), value, keys: keys.result.map((k) => k.name) };
const scripts = await cf.workers.scripts.list({ account_id: ACCOUNT });
out.workers = scripts.result.map((s) => s.id);
const buckets = await cf.r2.buckets.list({ account_id: ACCOUNT });
out.buckets = buckets.buckets.map((b) => b.name);
const query = await cf.d1.database.query('6b1e3c2a-8d4f-4a9b-9c1d-2e3f4a5b6c7d', { account_id: ACCOUNT, sql: 'SELECT COUNT(*) FROM orders WHERE status = ?', params: ['refunded'] });
out.d1 = query.result[0].results;
out.badToken = await errorOf(new Cloudflare({ apiToken: 'cf-not-a-real-token', maxRetries: 0 }).zones.list());
console.log(JSON.stringify(out));
