import { createHash } from 'node:crypto';
import { bytes, type ServiceResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { accountOf, awsError, baseHeaders, el, isoMs, wrap, xmlResponse, type AwsCtx, type BucketDoc, type Grant, type ObjectDoc, type PublicAccessBlock } from './model.js';

/**
 * Amazon S3 (REST-XML, 2006-03-01): buckets with policy, public access block, ACL and tags;
 * objects with tags. Virtual-host and path style both arrive here as `/_s3/…` (route.ts).
 */

const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';
const GROUP_URI: Record<string, string> = {
  AllUsers: ALL_USERS,
  AuthenticatedUsers: 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers',
  LogDelivery: 'http://acs.amazonaws.com/groups/s3/LogDelivery',
};

export const objectKey = (bucket: string, key: string) => `${bucket}/${key}`;
export const etagOf = (body: string) => `"${createHash('md5').update(body).digest('hex')}"`;

function bucketOf(c: AwsCtx, name: string): BucketDoc {
  const bucket = c.db.buckets.get(name);
  if (!bucket) throw awsError(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: name });
  return bucket;
}

const empty = (c: AwsCtx, status = 200, headers: [string, string][] = []): ServiceResponse => ({ status, headers: [...baseHeaders(c, null), ...headers], body: new Uint8Array(0) });
const ns = (name: string, inner: string) => `<${name} xmlns="${NS}">${inner}</${name}>`;
const owner = (c: AwsCtx) => wrap('Owner', `${el('ID', accountOf(c.db).canonical_id)}${el('DisplayName', 'aws-admin')}`);

/** The text of every `<name>` in an XML body (S3's request bodies are small and flat enough). */
function tags(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g'))].map((m) => unescapeXml(m[1]!));
}
const unescapeXml = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

function malformed(): Error {
  return awsError(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema');
}

function parseTagSet(xml: string): Record<string, string> {
  if (!/<Tagging[\s>]/.test(xml)) throw malformed();
  const out: Record<string, string> = {};
  for (const tag of tags(xml, 'Tag')) {
    const [key] = tags(tag, 'Key');
    const [value] = tags(tag, 'Value');
    if (key === undefined) throw malformed();
    out[key] = value ?? '';
  }
  return out;
}

const tagSetXml = (t: Record<string, string>) => ns('Tagging', wrap('TagSet', Object.entries(t).map(([k, v]) => wrap('Tag', `${el('Key', k)}${el('Value', v)}`)).join('')));

function grantXml(c: AwsCtx, grant: Grant): string {
  const grantee = grant.grantee === 'owner'
    ? `<Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="CanonicalUser">${el('ID', accountOf(c.db).canonical_id)}${el('DisplayName', 'aws-admin')}</Grantee>`
    : `<Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Group">${el('URI', GROUP_URI[grant.grantee])}</Grantee>`;
  return wrap('Grant', `${grantee}${el('Permission', grant.permission)}`);
}

/** The grants of a canned ACL (x-amz-acl), as S3 expands them. */
const CANNED: Record<string, Grant[]> = {
  'private': [{ grantee: 'owner', permission: 'FULL_CONTROL' }],
  'public-read': [{ grantee: 'owner', permission: 'FULL_CONTROL' }, { grantee: 'AllUsers', permission: 'READ' }],
  'public-read-write': [{ grantee: 'owner', permission: 'FULL_CONTROL' }, { grantee: 'AllUsers', permission: 'READ' }, { grantee: 'AllUsers', permission: 'WRITE' }],
  'authenticated-read': [{ grantee: 'owner', permission: 'FULL_CONTROL' }, { grantee: 'AuthenticatedUsers', permission: 'READ' }],
  'log-delivery-write': [{ grantee: 'owner', permission: 'FULL_CONTROL' }, { grantee: 'LogDelivery', permission: 'WRITE' }, { grantee: 'LogDelivery', permission: 'READ_ACP' }],
};

function aclFromBody(c: AwsCtx, xml: string): Grant[] {
  if (!/<AccessControlPolicy[\s>]/.test(xml)) throw malformed();
  const grants: Grant[] = [];
  for (const grant of tags(xml, 'Grant')) {
    const [permission] = tags(grant, 'Permission');
    const [uri] = tags(grant, 'URI');
    const [id] = tags(grant, 'ID');
    if (!permission) throw malformed();
    const group = uri === undefined ? undefined : Object.entries(GROUP_URI).find(([, u]) => u === uri)?.[0];
    if (group) grants.push({ grantee: group as Grant['grantee'], permission });
    else if (id === accountOf(c.db).canonical_id) grants.push({ grantee: 'owner', permission });
    else throw awsError(400, 'InvalidArgument', 'Invalid id');
  }
  return grants;
}

export const s3Operations: Operation<AwsCtx>[] = [
  operation<AwsCtx, '/_s3'>('s3.ListBuckets', rest('GET', '/_s3'), (_call, c) => {
    const buckets = c.db.buckets.values().sort((a, b) => a.name.localeCompare(b.name))
      .map((b) => wrap('Bucket', `${el('Name', b.name)}${el('CreationDate', isoMs(b.created))}${el('BucketRegion', b.region)}`)).join('');
    return xmlResponse(200, ns('ListAllMyBucketsResult', `${owner(c)}${wrap('Buckets', buckets)}`), c);
  }),

  operation<AwsCtx, '/_s3/b/-/:bucket'>('s3.CreateBucket', rest('PUT', '/_s3/b/-/:bucket'), (call, c) => {
    const name = call.params.bucket;
    if (c.db.buckets.has(name)) throw awsError(409, 'BucketAlreadyOwnedByYou', 'Your previous request to create the named bucket succeeded and you already own it.', { BucketName: name });
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name)) throw awsError(400, 'InvalidBucketName', 'The specified bucket is not valid.', { BucketName: name });
    const region = tags(call.req.text(), 'LocationConstraint')[0] ?? c.target.region;
    c.db.buckets.put(name, { name, region, created: new Date(c.ctx.nowMs).toISOString(),
      public_access_block: { BlockPublicAcls: true, IgnorePublicAcls: true, BlockPublicPolicy: true, RestrictPublicBuckets: true }, acl: CANNED.private!, tags: {} });
    return empty(c, 200, [['Location', `/${name}`]]);
  }),

  operation<AwsCtx, '/_s3/b/location/:bucket'>('s3.GetBucketLocation', rest('GET', '/_s3/b/location/:bucket'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    return xmlResponse(200, bucket.region === 'us-east-1' ? `<LocationConstraint xmlns="${NS}"/>` : ns('LocationConstraint', bucket.region), c);
  }),

  listObjects('s3.ListObjectsV2', '/_s3/b/list-v2/:bucket', true),
  listObjects('s3.ListObjects', '/_s3/b/-/:bucket', false),

  operation<AwsCtx, '/_s3/b/policy/:bucket'>('s3.GetBucketPolicy', rest('GET', '/_s3/b/policy/:bucket'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    if (bucket.policy === undefined) throw awsError(404, 'NoSuchBucketPolicy', 'The bucket policy does not exist', { BucketName: bucket.name });
    return { status: 200, headers: baseHeaders(c, 'application/json'), body: bytes(bucket.policy) };
  }),
  operation<AwsCtx, '/_s3/b/policy/:bucket'>('s3.PutBucketPolicy', rest('PUT', '/_s3/b/policy/:bucket'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    const text = call.req.text();
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      doc = null;
    }
    if (!text.trimStart().startsWith('{') || typeof doc !== 'object' || doc === null) throw awsError(400, 'MalformedPolicy', "Policies must be valid JSON and the first byte must be '{'");
    const pab = bucket.public_access_block;
    if (pab?.BlockPublicPolicy && grantsPublic(doc)) throw awsError(403, 'AccessDenied', 'Access Denied');
    c.db.buckets.put(bucket.name, { ...bucket, policy: text });
    return empty(c, 204);
  }),
  operation<AwsCtx, '/_s3/b/policy/:bucket'>('s3.DeleteBucketPolicy', rest('DELETE', '/_s3/b/policy/:bucket'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    const { policy: _removed, ...rest } = bucket;
    c.db.buckets.put(bucket.name, rest);
    return empty(c, 204);
  }),

  operation<AwsCtx, '/_s3/b/publicAccessBlock/:bucket'>('s3.GetPublicAccessBlock', rest('GET', '/_s3/b/publicAccessBlock/:bucket'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    const pab = bucket.public_access_block;
    if (!pab) throw awsError(404, 'NoSuchPublicAccessBlockConfiguration', 'The public access block configuration was not found', { BucketName: bucket.name });
    return xmlResponse(200, ns('PublicAccessBlockConfiguration', (['BlockPublicAcls', 'IgnorePublicAcls', 'BlockPublicPolicy', 'RestrictPublicBuckets'] as const).map((k) => el(k, pab[k])).join('')), c);
  }),
  operation<AwsCtx, '/_s3/b/publicAccessBlock/:bucket'>('s3.PutPublicAccessBlock', rest('PUT', '/_s3/b/publicAccessBlock/:bucket'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    const xml = call.req.text();
    if (!/<PublicAccessBlockConfiguration[\s>]/.test(xml)) throw malformed();
    const flag = (name: string) => tags(xml, name)[0]?.trim() === 'true';
    const pab: PublicAccessBlock = { BlockPublicAcls: flag('BlockPublicAcls'), IgnorePublicAcls: flag('IgnorePublicAcls'), BlockPublicPolicy: flag('BlockPublicPolicy'), RestrictPublicBuckets: flag('RestrictPublicBuckets') };
    c.db.buckets.put(bucket.name, { ...bucket, public_access_block: pab });
    return empty(c);
  }),
  operation<AwsCtx, '/_s3/b/publicAccessBlock/:bucket'>('s3.DeletePublicAccessBlock', rest('DELETE', '/_s3/b/publicAccessBlock/:bucket'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    c.db.buckets.put(bucket.name, { ...bucket, public_access_block: null });
    return empty(c, 204);
  }),

  operation<AwsCtx, '/_s3/b/acl/:bucket'>('s3.GetBucketAcl', rest('GET', '/_s3/b/acl/:bucket'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    return xmlResponse(200, ns('AccessControlPolicy', `${owner(c)}${wrap('AccessControlList', bucket.acl.map((g) => grantXml(c, g)).join(''))}`), c);
  }),
  operation<AwsCtx, '/_s3/b/acl/:bucket'>('s3.PutBucketAcl', rest('PUT', '/_s3/b/acl/:bucket'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    const canned = call.req.header('x-amz-acl');
    let acl: Grant[];
    if (canned !== undefined) {
      const grants = CANNED[canned];
      if (!grants) throw awsError(400, 'InvalidArgument', `Invalid canned ACL: ${canned}`);
      acl = grants;
    } else {
      acl = aclFromBody(c, call.req.text());
    }
    if (bucket.public_access_block?.BlockPublicAcls && acl.some((g) => g.grantee === 'AllUsers' || g.grantee === 'AuthenticatedUsers')) throw awsError(403, 'AccessDenied', 'Access Denied');
    c.db.buckets.put(bucket.name, { ...bucket, acl });
    return empty(c);
  }),

  operation<AwsCtx, '/_s3/b/tagging/:bucket'>('s3.GetBucketTagging', rest('GET', '/_s3/b/tagging/:bucket'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    if (Object.keys(bucket.tags).length === 0) throw awsError(404, 'NoSuchTagSet', 'The TagSet does not exist', { BucketName: bucket.name });
    return xmlResponse(200, tagSetXml(bucket.tags), c);
  }),
  operation<AwsCtx, '/_s3/b/tagging/:bucket'>('s3.PutBucketTagging', rest('PUT', '/_s3/b/tagging/:bucket'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    c.db.buckets.put(bucket.name, { ...bucket, tags: parseTagSet(call.req.text()) });
    return empty(c, 204);
  }),
  operation<AwsCtx, '/_s3/b/tagging/:bucket'>('s3.DeleteBucketTagging', rest('DELETE', '/_s3/b/tagging/:bucket'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    c.db.buckets.put(bucket.name, { ...bucket, tags: {} });
    return empty(c, 204);
  }),

  operation<AwsCtx, '/_s3/o/-/:bucket/*key'>('s3.GetObject', rest('GET', '/_s3/o/-/:bucket/*key'), (call, c) => {
    const object = objectOf(c, call.params.bucket, call.params.key);
    return { status: 200, headers: [...baseHeaders(c, object.content_type), ['Last-Modified', new Date(object.last_modified).toUTCString()], ['ETag', object.etag], ['Accept-Ranges', 'bytes']], body: bytes(object.body) };
  }),
  operation<AwsCtx, '/_s3/o/-/:bucket/*key'>('s3.PutObject', rest('PUT', '/_s3/o/-/:bucket/*key'), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    const body = call.req.text();
    const etag = etagOf(body);
    const key = call.params.key;
    const existing = c.db.objects.get(objectKey(bucket.name, key));
    c.db.objects.put(objectKey(bucket.name, key), {
      bucket: bucket.name, key, body, content_type: call.req.header('content-type') ?? 'binary/octet-stream', last_modified: new Date(c.ctx.nowMs).toISOString(),
      etag, size: call.req.body.length, storage_class: call.req.header('x-amz-storage-class') ?? 'STANDARD', tags: existing?.tags ?? {},
    });
    return empty(c, 200, [['ETag', etag]]);
  }),
  operation<AwsCtx, '/_s3/o/-/:bucket/*key'>('s3.DeleteObject', rest('DELETE', '/_s3/o/-/:bucket/*key'), (call, c) => {
    bucketOf(c, call.params.bucket);
    c.db.objects.delete(objectKey(call.params.bucket, call.params.key));
    return empty(c, 204);
  }),
  operation<AwsCtx, '/_s3/o/tagging/:bucket/*key'>('s3.GetObjectTagging', rest('GET', '/_s3/o/tagging/:bucket/*key'), (call, c) => {
    return xmlResponse(200, tagSetXml(objectOf(c, call.params.bucket, call.params.key).tags), c);
  }),
  operation<AwsCtx, '/_s3/o/tagging/:bucket/*key'>('s3.PutObjectTagging', rest('PUT', '/_s3/o/tagging/:bucket/*key'), (call, c) => {
    const object = objectOf(c, call.params.bucket, call.params.key);
    c.db.objects.put(objectKey(object.bucket, object.key), { ...object, tags: parseTagSet(call.req.text()) });
    return empty(c);
  }),
];

function objectOf(c: AwsCtx, bucketName: string, key: string): ObjectDoc {
  bucketOf(c, bucketName);
  const object = c.db.objects.get(objectKey(bucketName, key));
  if (!object) throw awsError(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
  return object;
}

/** Whether a policy allows anyone (`"Principal": "*"` or `{"AWS": "*"}`), which BlockPublicPolicy refuses. */
export function grantsPublic(doc: unknown): boolean {
  const statements = (doc as { Statement?: unknown }).Statement;
  const list = Array.isArray(statements) ? statements : statements ? [statements] : [];
  return list.some((s: { Effect?: string; Principal?: unknown }) => {
    if (s.Effect !== 'Allow') return false;
    const p = s.Principal;
    if (p === '*') return true;
    const aws = (p as { AWS?: unknown } | undefined)?.AWS;
    return aws === '*' || (Array.isArray(aws) && aws.includes('*'));
  });
}

function listObjects(name: string, pattern: '/_s3/b/list-v2/:bucket' | '/_s3/b/-/:bucket', v2: boolean): Operation<AwsCtx> {
  return operation<AwsCtx, typeof pattern>(name, rest('GET', pattern), (call, c) => {
    const bucket = bucketOf(c, call.params.bucket);
    const q = call.req.query;
    const prefix = q.get('prefix') ?? '';
    const delimiter = q.get('delimiter');
    const maxKeys = Math.max(0, Math.min(1000, Number(q.get('max-keys') ?? 1000) || 0));
    const token = q.get('continuation-token');
    const after = v2 ? (token ? Buffer.from(token, 'base64').toString('utf8') : q.get('start-after') ?? '') : q.get('marker') ?? '';
    const all = c.db.objects.filter((o) => o.bucket === bucket.name && o.key.startsWith(prefix) && o.key > after).sort((a, b) => (a.key < b.key ? -1 : 1));
    const contents: ObjectDoc[] = [];
    const prefixes: string[] = [];
    let truncated = false;
    let last = '';
    for (const object of all) {
      let commonPrefix: string | null = null;
      if (delimiter) {
        const at = object.key.indexOf(delimiter, prefix.length);
        if (at !== -1) commonPrefix = object.key.slice(0, at + delimiter.length);
      }
      if (commonPrefix !== null && prefixes.includes(commonPrefix)) continue;
      if (contents.length + prefixes.length >= maxKeys) {
        truncated = true;
        break;
      }
      if (commonPrefix !== null) prefixes.push(commonPrefix);
      else contents.push(object);
      last = commonPrefix ?? object.key;
    }
    const items = contents.map((o) => wrap('Contents', `${el('Key', o.key)}${el('LastModified', isoMs(o.last_modified))}${el('ETag', o.etag)}${el('Size', o.size)}${el('StorageClass', o.storage_class)}`)).join('');
    const common = prefixes.map((p) => wrap('CommonPrefixes', el('Prefix', p))).join('');
    const head = `${el('Name', bucket.name)}${el('Prefix', prefix)}${v2 ? '' : el('Marker', after)}${v2 && token ? el('ContinuationToken', token) : ''}${v2 && q.get('start-after') ? el('StartAfter', q.get('start-after')) : ''}`;
    const tail = v2
      ? `${el('KeyCount', contents.length + prefixes.length)}${el('MaxKeys', maxKeys)}${delimiter ? el('Delimiter', delimiter) : ''}${el('IsTruncated', truncated)}${truncated ? el('NextContinuationToken', Buffer.from(last).toString('base64')) : ''}`
      : `${el('MaxKeys', maxKeys)}${delimiter ? el('Delimiter', delimiter) : ''}${el('IsTruncated', truncated)}${truncated && delimiter ? el('NextMarker', last) : ''}`;
    return xmlResponse(200, ns('ListBucketResult', `${head}${tail}${items}${common}`), c);
  });
}
