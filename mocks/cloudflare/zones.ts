import { z } from 'zod';
import type { ServiceResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { accountOf, zoneOf, type CfCtx } from './context.js';
import { cfError, hexId, isoMicros, ok, pageOf, type DnsRecordDoc, type ZoneDoc } from './model.js';

/** Accounts, zones and DNS records: list (filters, order, page/per_page), read, create, overwrite, patch, delete. */

const V4 = '/client/v4';
const Page = { page: z.coerce.number().int().min(1).optional(), per_page: z.coerce.number().int().min(1).optional() };
const Order = { direction: z.enum(['asc', 'desc']).optional(), match: z.enum(['all', 'any']).optional() };

export function renderZone(c: CfCtx, zone: ZoneDoc): Record<string, unknown> {
  const account = c.db.accounts.get(zone.account_id);
  const planId: Record<string, string> = { 'Free Website': 'free', 'Pro Website': 'pro', 'Business Website': 'business', 'Enterprise Website': 'enterprise' };
  return {
    id: zone.id, name: zone.name, status: zone.status, paused: zone.paused, type: zone.type, development_mode: 0,
    name_servers: zone.name_servers, original_name_servers: null, original_registrar: null, original_dnshost: null,
    modified_on: zone.modified_on, created_on: zone.created_on, activated_on: zone.activated_on,
    meta: { step: 2, custom_certificate_quota: 0, page_rule_quota: 3, phishing_detected: false },
    owner: { id: null, type: 'user', email: null },
    account: { id: zone.account_id, name: account?.name ?? '' },
    tenant: { id: null, name: null }, tenant_unit: { id: null },
    permissions: ['#dns_records:edit', '#dns_records:read', '#worker:edit', '#worker:read', '#zone:read'],
    plan: { id: planId[zone.plan] ?? 'free', name: zone.plan, price: 0, currency: 'USD', frequency: '', is_subscribed: false, can_subscribe: false, legacy_id: planId[zone.plan] ?? 'free', legacy_discount: false, externally_managed: false },
  };
}

export function renderRecord(record: DnsRecordDoc): Record<string, unknown> {
  return {
    id: record.id, name: record.name, type: record.type, content: record.content, proxiable: record.proxiable, proxied: record.proxied,
    ttl: record.ttl, settings: {}, meta: {}, comment: record.comment, tags: record.tags,
    ...(record.priority === undefined ? {} : { priority: record.priority }),
    created_on: record.created_on, modified_on: record.modified_on, zone_id: record.zone_id, zone_name: record.zone_name,
  };
}

/** `contains:foo`, `starts_with:`, `ends_with:`, `equal:`, `not_equal:` or a plain value (equal), as the zone list reads `name`. */
function zoneNameMatches(name: string, filter: string): boolean {
  const m = /^(contains|starts_with|ends_with|equal|not_equal):(.*)$/.exec(filter);
  if (!m) return name === filter.toLowerCase();
  const v = m[2]!.toLowerCase();
  switch (m[1]) {
    case 'contains': return name.includes(v);
    case 'starts_with': return name.startsWith(v);
    case 'ends_with': return name.endsWith(v);
    case 'equal': return name === v;
    default: return name !== v;
  }
}

const ZonesQuery = z.object({
  ...Page, ...Order, name: z.string().optional(), status: z.string().optional(),
  'account.id': z.string().optional(), 'account.name': z.string().optional(), order: z.enum(['name', 'status', 'account.id', 'account.name']).optional(),
}).passthrough();

const AccountsQuery = z.object({ ...Page, name: z.string().optional(), direction: z.enum(['asc', 'desc']).optional() }).passthrough();

/** One filter of a record field: `name=x`, `name.exact=x`, `name[contains]=x`, as the API and its SDKs send them. */
function fieldFilters(query: Record<string, unknown>, field: string): ((value: string) => boolean)[] {
  const out: ((value: string) => boolean)[] = [];
  for (const [key, raw] of Object.entries(query)) {
    const m = new RegExp(`^${field}(?:\\.|\\[)?(exact|contains|startswith|endswith)?\\]?$`).exec(key);
    if (!m || typeof raw !== 'string') continue;
    const v = raw.toLowerCase();
    const op = m[1] ?? 'exact';
    out.push((value) => {
      const have = value.toLowerCase();
      return op === 'exact' ? have === v : op === 'contains' ? have.includes(v) : op === 'startswith' ? have.startsWith(v) : have.endsWith(v);
    });
  }
  return out;
}

const RecordsQuery = z.object({
  ...Page, ...Order, type: z.string().optional(), proxied: z.enum(['true', 'false']).optional(),
  order: z.enum(['type', 'name', 'content', 'ttl', 'proxied']).optional(),
}).passthrough();

const RecordBody = z.object({
  type: z.string().optional(), name: z.string().optional(), content: z.string().optional(),
  ttl: z.number().int().optional(), proxied: z.boolean().optional(), priority: z.number().int().min(0).max(65535).optional(),
  comment: z.string().nullable().optional(), tags: z.array(z.string()).optional(), settings: z.record(z.unknown()).optional(),
  data: z.record(z.unknown()).optional(),
}).passthrough();
type RecordBody = z.infer<typeof RecordBody>;

const TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA', 'PTR', 'HTTPS', 'SVCB', 'LOC', 'CERT', 'DNSKEY', 'DS', 'NAPTR', 'SMIMEA', 'SSHFP', 'TLSA', 'URI'];
const PROXIABLE = new Set(['A', 'AAAA', 'CNAME']);
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-fA-F:]+$/;
const HOST = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9-]{0,61}[a-z0-9])?\.?$/i;

const validation = (code: number, message: string) => cfError(400, [{ code: 1004, message: 'DNS Validation Error', error_chain: [{ code, message }] }]);

/** A record name as Cloudflare stores it: lower case, fully qualified in the zone (`@` is the apex). */
export function fqdn(name: string, zone: string): string {
  const n = name.trim().toLowerCase().replace(/\.$/, '');
  if (n === '@' || n === zone) return zone;
  return n.endsWith(`.${zone}`) ? n : `${n}.${zone}`;
}

/** Checks a record as Cloudflare's DNS API does, and the conflicts with the zone's other records (81053, 81057). */
function checkRecord(c: CfCtx, zone: ZoneDoc, r: { type: string; name: string; content: string; ttl: number; proxied: boolean; priority?: number }, self: string | null): void {
  if (!TYPES.includes(r.type)) throw validation(9000, `DNS record type "${r.type}" is invalid.`);
  if (!HOST.test(r.name)) throw validation(9003, 'Invalid \'name\' of the record.');
  if (r.type === 'A' && !IPV4.test(r.content)) throw validation(9005, 'Content for A record must be a valid IPv4 address.');
  if (r.type === 'AAAA' && (!IPV6.test(r.content) || !r.content.includes(':'))) throw validation(9006, 'Content for AAAA record must be a valid IPv6 address.');
  if ((r.type === 'CNAME' || r.type === 'NS' || r.type === 'MX') && !HOST.test(r.content)) throw validation(9007, `Content for ${r.type} record is invalid.`);
  if (r.type === 'MX' && r.priority === undefined) throw validation(9101, 'Priority must be set for MX record.');
  if (r.ttl !== 1 && (r.ttl < 60 || r.ttl > 86400)) throw validation(9021, 'Invalid TTL. Must be between 60 and 86400 seconds, or 1 for Automatic.');
  if (r.proxied && !PROXIABLE.has(r.type)) throw validation(9004, 'This record type cannot be proxied.');
  const same = c.db.dns_records.filter((o) => o.zone_id === zone.id && o.id !== self && o.name === r.name);
  if (same.some((o) => o.type === r.type && o.content.toLowerCase() === r.content.toLowerCase())) {
    throw cfError(400, [{ code: 81057, message: 'Record already exists.' }]);
  }
  const addressy = (t: string) => t === 'A' || t === 'AAAA' || t === 'CNAME';
  if ((r.type === 'CNAME' && same.some((o) => addressy(o.type))) || (addressy(r.type) && same.some((o) => o.type === 'CNAME'))) {
    throw cfError(400, [{ code: 81053, message: 'An A, AAAA, or CNAME record with that host already exists. For more details, refer to <https://developers.cloudflare.com/dns/manage-dns-records/troubleshooting/records-with-same-name/>.' }]);
  }
}

function recordOf(c: CfCtx, zone: ZoneDoc, id: string): DnsRecordDoc {
  const record = c.db.dns_records.get(id);
  if (!record || record.zone_id !== zone.id) throw cfError(404, [{ code: 81044, message: 'Record does not exist.' }]);
  return record;
}

/** Create (POST), overwrite (PUT: fields left out take defaults) or patch (PATCH: fields left out stay). */
function writeRecord(c: CfCtx, zone: ZoneDoc, body: RecordBody, old: DnsRecordDoc | null, mode: 'create' | 'put' | 'patch'): DnsRecordDoc {
  const base = mode === 'patch' ? old : null;
  const type = (body.type ?? base?.type)?.toUpperCase();
  if (!type) throw validation(9000, 'DNS record type is invalid.');
  const rawName = body.name ?? base?.name;
  if (!rawName) throw validation(9003, 'Invalid \'name\' of the record.');
  const content = body.content ?? base?.content;
  if (content === undefined || content === '') throw validation(9008, 'Invalid \'content\' of the record.');
  const name = fqdn(rawName, zone.name);
  const ttl = body.ttl ?? base?.ttl ?? 1;
  const proxied = body.proxied ?? base?.proxied ?? false;
  const priority = body.priority ?? base?.priority;
  checkRecord(c, zone, { type, name, content, ttl, proxied, ...(priority === undefined ? {} : { priority }) }, old?.id ?? null);
  const now = isoMicros(c.ctx.nowMs);
  const id = old?.id ?? hexId(c.ctx, 'dns_record');
  const doc: DnsRecordDoc = {
    id, zone_id: zone.id, zone_name: zone.name, name, type, content, ttl, proxied, proxiable: PROXIABLE.has(type),
    ...(priority === undefined || (type !== 'MX' && type !== 'SRV' && type !== 'URI') ? {} : { priority }),
    comment: body.comment !== undefined ? body.comment : mode === 'patch' ? (old?.comment ?? null) : null,
    tags: body.tags ?? (mode === 'patch' ? (old?.tags ?? []) : []),
    created_on: old?.created_on ?? now, modified_on: now,
  };
  return c.db.dns_records.put(id, doc);
}

function listRecords(c: CfCtx, zone: ZoneDoc, q: z.infer<typeof RecordsQuery>): ServiceResponse {
  const query = q as Record<string, unknown>;
  const checks: ((r: DnsRecordDoc) => boolean)[] = [];
  for (const f of fieldFilters(query, 'name')) checks.push((r) => f(r.name));
  for (const f of fieldFilters(query, 'content')) checks.push((r) => f(r.content));
  for (const f of fieldFilters(query, 'comment')) checks.push((r) => f(r.comment ?? ''));
  if (q.type) checks.push((r) => r.type === q.type!.toUpperCase());
  if (q.proxied) checks.push((r) => r.proxied === (q.proxied === 'true'));
  if (typeof query.tag === 'string') checks.push((r) => r.tags.includes(query.tag as string));
  let records = c.db.dns_records.filter((r) => r.zone_id === zone.id)
    .filter((r) => checks.length === 0 || (q.match === 'any' ? checks.some((f) => f(r)) : checks.every((f) => f(r))));
  if (q.order) {
    const key = q.order;
    const dir = q.direction === 'desc' ? -1 : 1;
    records = [...records].sort((a, b) => (String(a[key]) < String(b[key]) ? -1 : String(a[key]) > String(b[key]) ? 1 : 0) * dir);
  }
  const page = pageOf(records, q, 100, 5_000_000);
  return ok(page.items.map(renderRecord), { result_info: page.result_info });
}

export const zoneOperations: Operation<CfCtx>[] = [
  operation<CfCtx, '/client/v4/accounts', z.infer<typeof AccountsQuery>>('accounts.list', rest('GET', `${V4}/accounts`), (call, c) => {
    const mine = c.auth.kind === 'ok' ? c.auth.accounts : [];
    let accounts = c.db.accounts.filter((a) => mine.includes(a.id));
    if (call.query.name) accounts = accounts.filter((a) => a.name.toLowerCase().includes(call.query.name!.toLowerCase()));
    if (call.query.direction === 'desc') accounts = [...accounts].reverse();
    const page = pageOf(accounts, call.query, 20, 50);
    return ok(page.items.map((a) => ({ id: a.id, name: a.name, type: 'standard', settings: { enforce_twofactor: false, api_access_enabled: null, access_approval_expiry: null, use_account_custom_ns_by_default: false }, legacy_flags: { enterprise_zone_quota: { maximum: 0, current: 0, available: 0 } }, created_on: '2021-04-12T08:15:30.000000Z' })), { result_info: page.result_info });
  }, { input: { query: AccountsQuery } }),

  operation<CfCtx, '/client/v4/accounts/:account_id'>('accounts.get', rest('GET', `${V4}/accounts/:account_id`), (call, c) => {
    const a = accountOf(c, call.params.account_id);
    return ok({ id: a.id, name: a.name, type: 'standard', settings: { enforce_twofactor: false, api_access_enabled: null, access_approval_expiry: null, use_account_custom_ns_by_default: false }, legacy_flags: { enterprise_zone_quota: { maximum: 0, current: 0, available: 0 } }, created_on: '2021-04-12T08:15:30.000000Z' });
  }),

  operation<CfCtx, '/client/v4/user/tokens/verify'>('user.tokens.verify', rest('GET', `${V4}/user/tokens/verify`), (call, c) => {
    const token = /^Bearer (.+)$/.exec(call.req.header('authorization') ?? '')?.[1];
    if (!token || !c.db.tokens.get(token)) throw cfError(401, [{ code: 1000, message: 'Invalid API Token' }]);
    return ok({ id: tokenId(token), status: 'active' }, { messages: [{ code: 10000, message: 'This API Token is valid and active', type: null }] });
  }),

  operation<CfCtx, '/client/v4/zones', z.infer<typeof ZonesQuery>>('zones.list', rest('GET', `${V4}/zones`), (call, c) => {
    const q = call.query;
    const mine = c.auth.kind === 'ok' ? c.auth.accounts : [];
    const checks: ((z: ZoneDoc) => boolean)[] = [];
    if (q.name) checks.push((zone) => zoneNameMatches(zone.name, q.name!));
    if (q.status) checks.push((zone) => zone.status === q.status);
    if (q['account.id']) checks.push((zone) => zone.account_id === q['account.id']);
    if (q['account.name']) checks.push((zone) => zoneNameMatches((c.db.accounts.get(zone.account_id)?.name ?? '').toLowerCase(), q['account.name']!));
    let zones = c.db.zones.filter((zone) => mine.includes(zone.account_id))
      .filter((zone) => checks.length === 0 || (q.match === 'any' ? checks.some((f) => f(zone)) : checks.every((f) => f(zone))));
    if (q.order) {
      const key = (zone: ZoneDoc) => q.order === 'status' ? zone.status : q.order === 'account.id' ? zone.account_id : q.order === 'account.name' ? (c.db.accounts.get(zone.account_id)?.name ?? '') : zone.name;
      zones = [...zones].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (q.direction === 'desc' ? -1 : 1));
    }
    if ((q.per_page ?? 20) < 5 || (q.per_page ?? 20) > 50) throw cfError(400, [{ code: 1019, message: 'per_page must be a number between 5 and 50' }]);
    const page = pageOf(zones, q, 20, 50);
    return ok(page.items.map((zone) => renderZone(c, zone)), { result_info: page.result_info });
  }, { input: { query: ZonesQuery } }),

  operation<CfCtx, '/client/v4/zones/:zone_id'>('zones.get', rest('GET', `${V4}/zones/:zone_id`), (call, c) => ok(renderZone(c, zoneOf(c, call.params.zone_id)))),

  operation<CfCtx, '/client/v4/zones/:zone_id/dns_records', z.infer<typeof RecordsQuery>>('dns.records.list', rest('GET', `${V4}/zones/:zone_id/dns_records`), (call, c) => (
    listRecords(c, zoneOf(c, call.params.zone_id), call.query)
  ), { input: { query: RecordsQuery } }),

  operation<CfCtx, '/client/v4/zones/:zone_id/dns_records/:dns_record_id'>('dns.records.get', rest('GET', `${V4}/zones/:zone_id/dns_records/:dns_record_id`), (call, c) => {
    const zone = zoneOf(c, call.params.zone_id);
    return ok(renderRecord(recordOf(c, zone, call.params.dns_record_id)));
  }),

  operation<CfCtx, '/client/v4/zones/:zone_id/dns_records', unknown, RecordBody>('dns.records.create', rest('POST', `${V4}/zones/:zone_id/dns_records`), (call, c) => {
    const zone = zoneOf(c, call.params.zone_id);
    return ok(renderRecord(writeRecord(c, zone, call.body, null, 'create')));
  }, { input: { body: RecordBody } }),

  operation<CfCtx, '/client/v4/zones/:zone_id/dns_records/:dns_record_id', unknown, RecordBody>('dns.records.update', rest('PUT', `${V4}/zones/:zone_id/dns_records/:dns_record_id`), (call, c) => {
    const zone = zoneOf(c, call.params.zone_id);
    const old = recordOf(c, zone, call.params.dns_record_id);
    return ok(renderRecord(writeRecord(c, zone, call.body, old, 'put')));
  }, { input: { body: RecordBody } }),

  operation<CfCtx, '/client/v4/zones/:zone_id/dns_records/:dns_record_id', unknown, RecordBody>('dns.records.edit', rest('PATCH', `${V4}/zones/:zone_id/dns_records/:dns_record_id`), (call, c) => {
    const zone = zoneOf(c, call.params.zone_id);
    const old = recordOf(c, zone, call.params.dns_record_id);
    return ok(renderRecord(writeRecord(c, zone, call.body, old, 'patch')));
  }, { input: { body: RecordBody } }),

  operation<CfCtx, '/client/v4/zones/:zone_id/dns_records/:dns_record_id'>('dns.records.delete', rest('DELETE', `${V4}/zones/:zone_id/dns_records/:dns_record_id`), (call, c) => {
    const zone = zoneOf(c, call.params.zone_id);
    const old = recordOf(c, zone, call.params.dns_record_id);
    c.db.dns_records.delete(old.id);
    return ok({ id: old.id });
  }),
];

/** A stable id for a token (the verify endpoint names it), from its text: no counter is spent on a read. */
function tokenId(token: string): string {
  let h = 0x811c9dc5;
  let out = '';
  for (let round = 0; out.length < 32; round++) {
    for (const ch of `${round}:${token}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 32);
}
