import { z } from 'zod';
import { operation, rest, type Operation } from '../kit/operation.js';
import { accountOf, type CfCtx } from './context.js';
import { cfError, hexId, iso, kvKey, noRoute, objectKey, bucketKey, ok, pageOf, raw, type KvNamespaceDoc, type R2BucketDoc } from './model.js';
import { etagOf } from './workers.js';

/** Workers KV (namespaces, values, key listing with cursors) and R2 (buckets, objects). */

const A = '/client/v4/accounts/:account_id';
const Page = { page: z.coerce.number().int().min(1).optional(), per_page: z.coerce.number().int().min(1).optional() };

function namespaceOf(c: CfCtx, account: string, id: string): KvNamespaceDoc {
  accountOf(c, account);
  const ns = c.db.kv_namespaces.get(id);
  if (!ns || ns.account_id !== account) throw cfError(404, [{ code: 10013, message: 'get namespace: \'namespace not found\'' }]);
  return ns;
}

function bucketOf(c: CfCtx, account: string, name: string): R2BucketDoc {
  accountOf(c, account);
  const bucket = c.db.r2_buckets.get(bucketKey(account, name));
  if (!bucket) throw cfError(404, [{ code: 10006, message: 'The specified bucket does not exist.' }]);
  return bucket;
}

/** Opaque cursors: the index to resume at, base64url, as the API hands out strings it alone reads. */
const cursorOf = (index: number) => Buffer.from(`idx:${index}`).toString('base64url');
function indexOf(cursor: string | undefined): number {
  if (!cursor) return 0;
  const m = /^idx:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw cfError(400, [{ code: 10011, message: 'Invalid cursor' }]);
  return Number(m[1]);
}

const renderNs = (ns: KvNamespaceDoc) => ({ id: ns.id, title: ns.title, supports_url_encoding: ns.supports_url_encoding });

const NsQuery = z.object({ ...Page, order: z.enum(['id', 'title']).optional(), direction: z.enum(['asc', 'desc']).optional() }).passthrough();
const KeysQuery = z.object({ prefix: z.string().optional(), limit: z.coerce.number().int().optional(), cursor: z.string().optional() }).passthrough();
const PutQuery = z.object({ expiration: z.coerce.number().int().optional(), expiration_ttl: z.coerce.number().int().optional() }).passthrough();
const BucketsQuery = z.object({ name_contains: z.string().optional(), start_after: z.string().optional(), per_page: z.coerce.number().int().min(1).max(1000).optional(), cursor: z.string().optional(), direction: z.enum(['asc', 'desc']).optional() }).passthrough();
const ObjectsQuery = z.object({ prefix: z.string().optional(), delimiter: z.string().optional(), limit: z.coerce.number().int().min(1).max(1000).optional(), cursor: z.string().optional() }).passthrough();

const renderBucket = (b: R2BucketDoc) => ({ name: b.name, creation_date: b.creation_date, location: b.location, storage_class: b.storage_class });

export const storageOperations: Operation<CfCtx>[] = [
  operation<CfCtx, '/client/v4/accounts/:account_id/storage/kv/namespaces', z.infer<typeof NsQuery>>('kv.namespaces.list', rest('GET', `${A}/storage/kv/namespaces`), (call, c) => {
    accountOf(c, call.params.account_id);
    const q = call.query;
    if ((q.per_page ?? 20) > 100 || (q.per_page ?? 20) < 5) throw cfError(400, [{ code: 10001, message: 'per_page must be between 5 and 100' }]);
    let items = c.db.kv_namespaces.filter((n) => n.account_id === call.params.account_id);
    if (q.order) items = [...items].sort((a, b) => (a[q.order!] < b[q.order!] ? -1 : 1) * (q.direction === 'desc' ? -1 : 1));
    const page = pageOf(items, q, 20, 100);
    return ok(page.items.map(renderNs), { result_info: page.result_info });
  }, { input: { query: NsQuery } }),

  operation<CfCtx, '/client/v4/accounts/:account_id/storage/kv/namespaces', unknown, { title: string }>('kv.namespaces.create', rest('POST', `${A}/storage/kv/namespaces`), (call, c) => {
    accountOf(c, call.params.account_id);
    if (c.db.kv_namespaces.find((n) => n.account_id === call.params.account_id && n.title === call.body.title)) {
      throw cfError(400, [{ code: 10014, message: 'create namespace: \'A namespace with this account ID and title already exists.\'' }]);
    }
    const id = hexId(c.ctx, 'kv_namespace');
    return ok(renderNs(c.db.kv_namespaces.put(id, { id, account_id: call.params.account_id, title: call.body.title, supports_url_encoding: true })));
  }, { input: { body: z.object({ title: z.string().min(1).max(512) }).passthrough() } }),

  operation<CfCtx, '/client/v4/accounts/:account_id/storage/kv/namespaces/:namespace_id'>('kv.namespaces.get', rest('GET', `${A}/storage/kv/namespaces/:namespace_id`), (call, c) => (
    ok(renderNs(namespaceOf(c, call.params.account_id, call.params.namespace_id)))
  )),

  operation<CfCtx, '/client/v4/accounts/:account_id/storage/kv/namespaces/:namespace_id'>('kv.namespaces.delete', rest('DELETE', `${A}/storage/kv/namespaces/:namespace_id`), (call, c) => {
    const ns = namespaceOf(c, call.params.account_id, call.params.namespace_id);
    for (const v of c.db.kv_values.filter((v) => v.namespace_id === ns.id)) c.db.kv_values.delete(kvKey(ns.id, v.key));
    c.db.kv_namespaces.delete(ns.id);
    return ok({});
  }),

  operation<CfCtx, '/client/v4/accounts/:account_id/storage/kv/namespaces/:namespace_id/keys', z.infer<typeof KeysQuery>>('kv.namespaces.keys.list', rest('GET', `${A}/storage/kv/namespaces/:namespace_id/keys`), (call, c) => {
    const ns = namespaceOf(c, call.params.account_id, call.params.namespace_id);
    const q = call.query;
    const limit = q.limit ?? 1000;
    if (limit < 10 || limit > 1000) throw cfError(400, [{ code: 10026, message: `Invalid key limit: ${limit}. Please specify an integer between 10 and 1000` }]);
    const keys = c.db.kv_values.filter((v) => v.namespace_id === ns.id && v.key.startsWith(q.prefix ?? ''))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const start = indexOf(q.cursor);
    const slice = keys.slice(start, start + limit);
    const more = start + limit < keys.length;
    return ok(slice.map((v) => ({ name: v.key, ...(v.expiration === undefined ? {} : { expiration: v.expiration }), ...(v.metadata === undefined ? {} : { metadata: v.metadata }) })), {
      result_info: { count: slice.length, cursor: more ? cursorOf(start + limit) : '' },
    });
  }, { input: { query: KeysQuery } }),

  operation<CfCtx, '/client/v4/accounts/:account_id/storage/kv/namespaces/:namespace_id/values/*key_name'>('kv.namespaces.values.get', rest('GET', `${A}/storage/kv/namespaces/:namespace_id/values/*key_name`), (call, c) => {
    const ns = namespaceOf(c, call.params.account_id, call.params.namespace_id);
    if (call.params.key_name === '') throw noRoute();
    const value = c.db.kv_values.get(kvKey(ns.id, call.params.key_name));
    if (!value || (value.expiration !== undefined && value.expiration * 1000 <= c.ctx.nowMs)) throw cfError(404, [{ code: 10009, message: 'get: \'key not found\'' }]);
    return raw(200, 'application/octet-stream', value.value, value.expiration === undefined ? [] : [['Expiration', String(value.expiration)]]);
  }),

  // The value is the raw body (text/plain, or any type), or a multipart form with `value` and `metadata`.
  operation<CfCtx, '/client/v4/accounts/:account_id/storage/kv/namespaces/:namespace_id/values/*key_name', z.infer<typeof PutQuery>>('kv.namespaces.values.update', rest('PUT', `${A}/storage/kv/namespaces/:namespace_id/values/*key_name`), (call, c) => {
    const ns = namespaceOf(c, call.params.account_id, call.params.namespace_id);
    const key = call.params.key_name;
    if (key === '') throw noRoute();
    if (new TextEncoder().encode(key).length > 512) throw cfError(414, [{ code: 10033, message: 'put: \'key too long\'' }]);
    const q = call.query;
    if (q.expiration_ttl !== undefined && q.expiration_ttl < 60) throw cfError(400, [{ code: 10019, message: `Invalid expiration_ttl of ${q.expiration_ttl}. Expiration TTL must be at least 60.` }]);
    let value = call.req.text();
    let metadata: Record<string, unknown> | undefined;
    const decoded = call.decoded;
    if (decoded.kind === 'multipart') {
      const part = decoded.value.value;
      value = (Array.isArray(part) ? part[0] : part)?.text ?? '';
      const meta = decoded.value.metadata;
      const text = (Array.isArray(meta) ? meta[0] : meta)?.text;
      if (text) {
        try {
          metadata = JSON.parse(text) as Record<string, unknown>;
        } catch {
          throw cfError(400, [{ code: 10020, message: 'put: \'metadata must be valid JSON\'' }]);
        }
      }
    }
    const expiration = q.expiration ?? (q.expiration_ttl === undefined ? undefined : Math.floor(c.ctx.nowMs / 1000) + q.expiration_ttl);
    c.db.kv_values.put(kvKey(ns.id, key), { namespace_id: ns.id, key, value, ...(expiration === undefined ? {} : { expiration }), ...(metadata === undefined ? {} : { metadata }) });
    return ok({});
  }, { input: { query: PutQuery }, lazy: true }),

  operation<CfCtx, '/client/v4/accounts/:account_id/storage/kv/namespaces/:namespace_id/values/*key_name'>('kv.namespaces.values.delete', rest('DELETE', `${A}/storage/kv/namespaces/:namespace_id/values/*key_name`), (call, c) => {
    const ns = namespaceOf(c, call.params.account_id, call.params.namespace_id);
    if (call.params.key_name === '') throw noRoute();
    c.db.kv_values.delete(kvKey(ns.id, call.params.key_name));
    return ok({});
  }),

  operation<CfCtx, '/client/v4/accounts/:account_id/r2/buckets', z.infer<typeof BucketsQuery>>('r2.buckets.list', rest('GET', `${A}/r2/buckets`), (call, c) => {
    accountOf(c, call.params.account_id);
    const q = call.query;
    let buckets = c.db.r2_buckets.filter((b) => b.account_id === call.params.account_id && (!q.name_contains || b.name.includes(q.name_contains)) && (!q.start_after || b.name > q.start_after))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    if (q.direction === 'desc') buckets = buckets.reverse();
    const start = indexOf(q.cursor);
    const perPage = q.per_page ?? 20;
    const slice = buckets.slice(start, start + perPage);
    return ok({ buckets: slice.map(renderBucket) }, { result_info: { cursor: start + perPage < buckets.length ? cursorOf(start + perPage) : '', per_page: perPage } });
  }, { input: { query: BucketsQuery } }),

  operation<CfCtx, '/client/v4/accounts/:account_id/r2/buckets', unknown, { name: string; locationHint?: string; storageClass?: string }>('r2.buckets.create', rest('POST', `${A}/r2/buckets`), (call, c) => {
    accountOf(c, call.params.account_id);
    const name = call.body.name;
    if (!/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(name)) throw cfError(400, [{ code: 10005, message: 'The specified bucket name is not valid.' }]);
    if (c.db.r2_buckets.get(bucketKey(call.params.account_id, name))) throw cfError(409, [{ code: 10004, message: 'The bucket you tried to create already exists, and you own it.' }]);
    const hint = (call.body.locationHint ?? 'wnam').toUpperCase();
    const doc = c.db.r2_buckets.put(bucketKey(call.params.account_id, name), {
      account_id: call.params.account_id, name, location: ['WNAM', 'ENAM', 'WEUR', 'EEUR', 'APAC', 'OC'].includes(hint) ? hint : 'WNAM',
      creation_date: iso(c.ctx.nowMs), storage_class: call.body.storageClass ?? 'Standard',
    });
    return ok(renderBucket(doc));
  }, { input: { body: z.object({ name: z.string(), locationHint: z.string().optional(), storageClass: z.enum(['Standard', 'InfrequentAccess']).optional() }).passthrough() } }),

  operation<CfCtx, '/client/v4/accounts/:account_id/r2/buckets/:bucket_name'>('r2.buckets.get', rest('GET', `${A}/r2/buckets/:bucket_name`), (call, c) => (
    ok(renderBucket(bucketOf(c, call.params.account_id, call.params.bucket_name)))
  )),

  operation<CfCtx, '/client/v4/accounts/:account_id/r2/buckets/:bucket_name'>('r2.buckets.delete', rest('DELETE', `${A}/r2/buckets/:bucket_name`), (call, c) => {
    const bucket = bucketOf(c, call.params.account_id, call.params.bucket_name);
    const key = bucketKey(bucket.account_id, bucket.name);
    if (c.db.r2_objects.find((o) => o.bucket === key)) throw cfError(409, [{ code: 10008, message: 'The bucket you tried to delete is not empty.' }]);
    c.db.r2_buckets.delete(key);
    return ok({});
  }),

  operation<CfCtx, '/client/v4/accounts/:account_id/r2/buckets/:bucket_name/objects', z.infer<typeof ObjectsQuery>>('r2.buckets.objects.list', rest('GET', `${A}/r2/buckets/:bucket_name/objects`), (call, c) => {
    const bucket = bucketOf(c, call.params.account_id, call.params.bucket_name);
    const q = call.query;
    const prefix = q.prefix ?? '';
    const all = c.db.r2_objects.filter((o) => o.bucket === bucketKey(bucket.account_id, bucket.name) && o.key.startsWith(prefix)).sort((a, b) => (a.key < b.key ? -1 : 1));
    const delimited = new Set<string>();
    const objects = all.filter((o) => {
      if (!q.delimiter) return true;
      const at = o.key.indexOf(q.delimiter, prefix.length);
      if (at === -1) return true;
      delimited.add(o.key.slice(0, at + q.delimiter.length));
      return false;
    });
    const start = indexOf(q.cursor);
    const limit = q.limit ?? 1000;
    const slice = objects.slice(start, start + limit);
    const truncated = start + limit < objects.length;
    return ok(slice.map((o) => ({
      key: o.key, size: o.size, etag: o.etag, last_modified: o.uploaded, http_metadata: { contentType: o.content_type }, custom_metadata: {}, storage_class: 'Standard',
    })), { result_info: { cursor: truncated ? cursorOf(start + limit) : '', is_truncated: truncated, delimited: [...delimited], per_page: limit } });
  }, { input: { query: ObjectsQuery } }),

  operation<CfCtx, '/client/v4/accounts/:account_id/r2/buckets/:bucket_name/objects/*object_key'>('r2.buckets.objects.get', rest('GET', `${A}/r2/buckets/:bucket_name/objects/*object_key`), (call, c) => {
    const bucket = bucketOf(c, call.params.account_id, call.params.bucket_name);
    if (call.params.object_key === '') throw noRoute();
    const o = c.db.r2_objects.get(objectKey(bucketKey(bucket.account_id, bucket.name), call.params.object_key));
    if (!o) throw cfError(404, [{ code: 10007, message: 'The specified key does not exist.' }]);
    return raw(200, o.content_type, o.content, [['ETag', `"${o.etag}"`], ['Last-Modified', new Date(o.uploaded).toUTCString()]]);
  }),

  operation<CfCtx, '/client/v4/accounts/:account_id/r2/buckets/:bucket_name/objects/*object_key'>('r2.buckets.objects.upload', rest('PUT', `${A}/r2/buckets/:bucket_name/objects/*object_key`), (call, c) => {
    const bucket = bucketOf(c, call.params.account_id, call.params.bucket_name);
    const key = call.params.object_key;
    if (key === '') throw noRoute();
    const content = call.req.text();
    const contentType = call.req.header('content-type') ?? 'application/octet-stream';
    const etag = etagOf(content).slice(0, 32);
    const uploaded = iso(c.ctx.nowMs);
    const doc = c.db.r2_objects.put(objectKey(bucketKey(bucket.account_id, bucket.name), key), {
      bucket: bucketKey(bucket.account_id, bucket.name), key, content, content_type: contentType, size: call.req.body.length, etag, uploaded,
    });
    return ok({ key: doc.key, version: etagOf(`${doc.key}@${uploaded}`).slice(0, 32), size: doc.size, etag: doc.etag, http_metadata: { contentType }, custom_metadata: {}, uploaded, storage_class: 'Standard' });
  }, { lazy: true }),

  operation<CfCtx, '/client/v4/accounts/:account_id/r2/buckets/:bucket_name/objects/*object_key'>('r2.buckets.objects.delete', rest('DELETE', `${A}/r2/buckets/:bucket_name/objects/*object_key`), (call, c) => {
    const bucket = bucketOf(c, call.params.account_id, call.params.bucket_name);
    if (call.params.object_key === '') throw noRoute();
    c.db.r2_objects.delete(objectKey(bucketKey(bucket.account_id, bucket.name), call.params.object_key));
    return ok({});
  }),
];
