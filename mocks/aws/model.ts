import { bytes, type HeaderList, type ServiceResponse } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Collection, DocumentStore } from '../core/store.js';
import { ServiceError } from '../kit/errors.js';
import type { InvocationRule } from './dataset.js';

/** The store's documents (docs/aws-mock.md, "What graders see"). Times are ISO strings. */

export interface CredentialDoc { access_key_id: string; secret_access_key: string; user: string }
export interface PolicyRef { name: string; arn: string }
export interface UserDoc { name: string; id: string; path: string; arn: string; created: string; password_last_used?: string; attached_policies: PolicyRef[]; tags: Record<string, string> }
export interface RoleDoc { name: string; id: string; path: string; arn: string; description: string; created: string; assume_role_policy: Record<string, unknown>; attached_policies: PolicyRef[]; max_session_duration: number; tags: Record<string, string> }
export interface Grant { grantee: 'owner' | 'AllUsers' | 'AuthenticatedUsers' | 'LogDelivery'; permission: string }
export interface PublicAccessBlock { BlockPublicAcls: boolean; IgnorePublicAcls: boolean; BlockPublicPolicy: boolean; RestrictPublicBuckets: boolean }
export interface BucketDoc { name: string; region: string; created: string; /** Absent when the bucket has no policy. */ policy?: string; public_access_block: PublicAccessBlock | null; acl: Grant[]; tags: Record<string, string> }
export interface ObjectDoc { bucket: string; key: string; body: string; content_type: string; last_modified: string; etag: string; size: number; storage_class: string; tags: Record<string, string> }
/** One inbound rule: protocol and ports, and its IPv4 ranges, each with its own description (as EC2 keeps them). */
export interface IpRange { cidr: string; description?: string }
export interface IngressRule { protocol: string; from_port?: number; to_port?: number; ranges: IpRange[] }
export interface SecurityGroupDoc { id: string; name: string; description: string; vpc_id: string; ingress: IngressRule[]; tags: Record<string, string> }
export interface InstanceDoc {
  id: string; type: string; state: string; image_id: string; launched: string; az: string; private_ip: string; public_ip: string | null;
  subnet_id: string; vpc_id: string; security_groups: string[]; key_name?: string; tags: Record<string, string>; reservation_id: string;
}
export interface FunctionDoc {
  name: string; arn: string; runtime: string; handler: string; role: string; description: string; memory: number; timeout: number;
  environment: Record<string, string>; last_modified: string; code_sha256: string; code_size: number; tags: Record<string, string>;
  revision_id: string; invocations: InvocationRule[];
}
export interface LogGroupDoc { name: string; arn: string; created: string; retention_days: number | null }
export interface LogEvent { timestamp: number; ingestion: number; message: string; event_id: string }
export interface LogStreamDoc { group: string; name: string; created: number; events: LogEvent[] }
export interface TableDoc { name: string; arn: string; id: string; hash_key: { name: string; type: string }; range_key?: { name: string; type: string }; created: string; billing_mode: string }
export interface ItemDoc { table: string; item: Record<string, Record<string, unknown>> }
export interface AccountDoc { account_id: string; region: string; canonical_id: string }

export interface Db {
  account: Collection<AccountDoc>;
  credentials: Collection<CredentialDoc>;
  users: Collection<UserDoc>;
  roles: Collection<RoleDoc>;
  buckets: Collection<BucketDoc>;
  objects: Collection<ObjectDoc>;
  instances: Collection<InstanceDoc>;
  security_groups: Collection<SecurityGroupDoc>;
  functions: Collection<FunctionDoc>;
  log_groups: Collection<LogGroupDoc>;
  log_streams: Collection<LogStreamDoc>;
  tables: Collection<TableDoc>;
  items: Collection<ItemDoc>;
}

export function dbOf(store: DocumentStore): Db {
  const c = <T>(name: string) => store.collection<T>(name);
  return {
    account: c('account'), credentials: c('credentials'), users: c('users'), roles: c('roles'), buckets: c('buckets'), objects: c('objects'),
    instances: c('instances'), security_groups: c('security_groups'), functions: c('functions'), log_groups: c('log_groups'),
    log_streams: c('log_streams'), tables: c('tables'), items: c('items'),
  };
}

export const accountOf = (db: Db): AccountDoc => db.account.get('account') ?? { account_id: '123456789012', region: 'us-east-1', canonical_id: '0'.repeat(64) };

/**
 * The wire protocol a request speaks, from the service it addresses: S3's REST-XML, EC2's query
 * dialect, the awsQuery of IAM and STS, Lambda's REST-JSON, and JSON 1.x (CloudWatch Logs 1.1,
 * DynamoDB 1.0). Each renders its errors in its own shape.
 */
export type Protocol = 's3' | 'ec2' | 'query' | 'rest-json' | 'json';

export const PROTOCOL: Record<string, Protocol> = { s3: 's3', ec2: 'ec2', iam: 'query', sts: 'query', lambda: 'rest-json', logs: 'json', dynamodb: 'json' };

export interface Target { service: string; region: string; bucket: string | null }

/** What an AWS handler gets. */
export interface AwsCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  readonly target: Target;
  readonly protocol: Protocol;
  readonly requestId: string;
  readonly auth: { kind: 'ok'; credential: CredentialDoc } | { kind: 'anonymous' | 'unknown-key' | 'bad-signature' | 'malformed'; keyId?: string; detail?: string };
}

export function awsError(status: number, code: string, message: string, details: Record<string, unknown> = {}, headers: [string, string][] = []): ServiceError {
  return new ServiceError(status, code, message, details, headers);
}

// ---- XML ----

export function esc(value: unknown): string {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** `<name>value</name>`, nothing when the value is undefined or null. */
export function el(name: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  return `<${name}>${esc(value)}</${name}>`;
}

/** `<name>` around already-rendered XML. */
export function wrap(name: string, inner: string): string {
  return `<${name}>${inner}</${name}>`;
}

export const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

export function xmlResponse(status: number, xml: string, c: AwsCtx, headers: HeaderList = []): ServiceResponse {
  return { status, headers: [...baseHeaders(c, 'text/xml'), ...headers], body: bytes(XML_HEAD + xml) };
}

export function jsonOut(status: number, value: unknown, c: AwsCtx, headers: HeaderList = []): ServiceResponse {
  const type = c.protocol === 'rest-json' ? 'application/json' : c.target.service === 'dynamodb' ? 'application/x-amz-json-1.0' : 'application/x-amz-json-1.1';
  return { status, headers: [...baseHeaders(c, type), ...headers], body: bytes(JSON.stringify(value)) };
}

/** The headers every answer carries: S3 names its request `x-amz-request-id`, the others `x-amzn-RequestId`. */
export function baseHeaders(c: AwsCtx, contentType: string | null): HeaderList {
  const headers: HeaderList = [];
  if (c.protocol === 's3') {
    headers.push(['x-amz-id-2', c.ctx.ids.opaqueBase64('host-id', c.ctx.seq, 56)], ['x-amz-request-id', c.requestId.replace(/-/g, '').slice(0, 16).toUpperCase()]);
  } else {
    headers.push(['x-amzn-RequestId', c.requestId]);
  }
  headers.push(['Date', new Date(c.ctx.nowMs).toUTCString()]);
  if (contentType) headers.push(['Content-Type', contentType]);
  headers.push(['Server', c.protocol === 's3' ? 'AmazonS3' : 'Server']);
  return headers;
}

const QUERY_NS: Record<string, string> = { iam: 'https://iam.amazonaws.com/doc/2010-05-08/', sts: 'https://sts.amazonaws.com/doc/2011-06-15/' };
export const EC2_NS = 'http://ec2.amazonaws.com/doc/2016-11-15/';

/** An awsQuery answer (IAM, STS): `<XResponse><XResult>…</XResult><ResponseMetadata>`. */
export function queryResponse(c: AwsCtx, action: string, result: string | null): ServiceResponse {
  const ns = QUERY_NS[c.target.service] ?? '';
  const body = `<${action}Response xmlns="${ns}">${result === null ? '' : wrap(`${action}Result`, result)}${wrap('ResponseMetadata', el('RequestId', c.requestId))}</${action}Response>`;
  return xmlResponse(200, body, c);
}

/** An EC2 answer: `<XResponse xmlns=…><requestId>…</requestId>…`. */
export function ec2Response(c: AwsCtx, action: string, inner: string): ServiceResponse {
  return xmlResponse(200, `<${action}Response xmlns="${EC2_NS}">${el('requestId', c.requestId)}${inner}</${action}Response>`, c);
}

/** Each protocol's error body, as AWS sends it. */
export function renderError(error: ServiceError, c: AwsCtx): ServiceResponse {
  const headers: HeaderList = [...error.headers];
  switch (c.protocol) {
    case 's3': {
      const extra = Object.entries(error.details).map(([k, v]) => el(k, v)).join('');
      return xmlResponse(error.status, wrap('Error', `${el('Code', error.code)}${el('Message', error.message)}${extra}${el('RequestId', c.requestId.replace(/-/g, '').slice(0, 16).toUpperCase())}${el('HostId', c.ctx.ids.opaqueBase64('host-id', c.ctx.seq, 56))}`), c, headers);
    }
    case 'ec2':
      return xmlResponse(error.status, `<Response>${wrap('Errors', wrap('Error', `${el('Code', error.code)}${el('Message', error.message)}`))}${el('RequestID', c.requestId)}</Response>`, c, headers);
    case 'query': {
      const ns = QUERY_NS[c.target.service] ?? '';
      const type = error.status >= 500 ? 'Receiver' : 'Sender';
      return xmlResponse(error.status, `<ErrorResponse xmlns="${ns}">${wrap('Error', `${el('Type', type)}${el('Code', error.code)}${el('Message', error.message)}`)}${el('RequestId', c.requestId)}</ErrorResponse>`, c, headers);
    }
    case 'rest-json':
      return jsonOut(error.status, { Type: error.status >= 500 ? 'Service' : 'User', message: error.message }, c, [['x-amzn-ErrorType', error.code], ...headers]);
    case 'json': {
      const prefix = c.target.service === 'dynamodb' ? 'com.amazonaws.dynamodb.v20120810#' : '';
      return jsonOut(error.status, { __type: `${prefix}${error.code}`, message: error.message }, c, headers);
    }
  }
}

/** A request id in AWS's UUID form, seeded by the request's sequence number. */
export function requestIdOf(ctx: ServiceContext): string {
  const hex = ctx.ids.opaqueOnce('request-id', ctx.seq, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** AWS's time formats: ISO 8601 with milliseconds for XML, epoch seconds for JSON 1.x. */
export const isoMs = (iso: string | number): string => new Date(iso).toISOString();
export const isoSec = (iso: string | number): string => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const epochSec = (iso: string | number): number => new Date(iso).getTime() / 1000;
