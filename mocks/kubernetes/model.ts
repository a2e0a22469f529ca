import { createHash } from 'node:crypto';
import { jsonResponse, type ServiceResponse } from '../core/http.js';
import type { Collection, DocumentStore } from '../core/store.js';
import { ServiceError } from '../kit/errors.js';
import { uuidId } from '../kit/ids.js';
import { collectionOf, type ResourceType } from './resources.js';

/** A Kubernetes object as the store keeps it: the API's own JSON, `kind`/`apiVersion` included. */
export type K8sObject = { apiVersion: string; kind: string; metadata: Meta; [field: string]: unknown };
export interface Meta {
  name: string;
  namespace?: string;
  generateName?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }[];
  finalizers?: string[];
  [field: string]: unknown;
}

type Ids = { ids: { next(kind: string, start?: number): number; seed: string | number; service: string } };

/** The cluster's resourceVersion counter (one etcd revision for every object). */
export function counters(store: DocumentStore): Collection<{ rv: number }> {
  return store.collection<{ rv: number }>('cluster');
}

export function currentRv(store: DocumentStore): number {
  return counters(store).get('revision')?.rv ?? 1;
}

export function nextRv(store: DocumentStore): string {
  const rv = currentRv(store) + 1;
  counters(store).put('revision', { rv });
  return String(rv);
}

export function objects(store: DocumentStore, type: ResourceType): Collection<K8sObject> {
  return store.collection<K8sObject>(collectionOf(type));
}

/** RFC 3339 at second precision, as the API server writes timestamps. */
export function timestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export function newUid(ctx: Ids): string {
  return uuidId(ctx as never, 'uid');
}

/** `deployments.apps`, `pods`: how Status messages name a resource. */
export function qualified(type: { group: string; plural: string }): string {
  return type.group === '' ? type.plural : `${type.plural}.${type.group}`;
}

/** A `Status` failure: the body every API server error carries. */
export function status(code: number, reason: string, message: string, details?: Record<string, unknown>, headers: [string, string][] = []): ServiceError {
  return new ServiceError(code, reason, message, details ?? {}, headers);
}

export function renderStatus(error: ServiceError): ServiceResponse {
  const body: Record<string, unknown> = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: error.message };
  if (error.code) body.reason = error.code;
  if (error.details && (Object.keys(error.details).length > 0 || error.status === 404)) body.details = error.details;
  body.code = error.status;
  return jsonResponse(error.status, body, [['Cache-Control', 'no-cache, private'], ...error.headers]);
}

export function notFound(type: { group: string; plural: string }, name: string): ServiceError {
  return status(404, 'NotFound', `${qualified(type)} "${name}" not found`, { name, ...(type.group ? { group: type.group } : {}), kind: type.plural });
}

export function alreadyExists(type: { group: string; plural: string }, name: string): ServiceError {
  return status(409, 'AlreadyExists', `${qualified(type)} "${name}" already exists`, { name, ...(type.group ? { group: type.group } : {}), kind: type.plural });
}

export function conflict(type: { group: string; plural: string }, name: string): ServiceError {
  return status(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(type)} "${name}": the object has been modified; please apply your changes to the latest version and try again`, { name, ...(type.group ? { group: type.group } : {}), kind: type.plural });
}

/** 422 Invalid with one cause per field, as the API server's validation answers. */
export function invalid(type: { group: string; kind: string }, name: string, causes: { field: string; reason: string; message: string }[]): ServiceError {
  const kind = type.group ? `${type.kind}.${type.group}` : type.kind;
  const summary = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
  return status(422, 'Invalid', `${kind} "${name}" is invalid: ${causes.length > 1 ? `[${summary}]` : summary}`, {
    name, ...(type.group ? { group: type.group } : {}), kind: type.kind, causes: causes.map((c) => ({ reason: c.reason, message: c.message, field: c.field })),
  });
}

export function badRequest(message: string): ServiceError {
  return status(400, 'BadRequest', message);
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** What is wrong with a name, in the validator's words; null when it is fine. */
export function nameProblem(name: string, label: boolean): string | null {
  if (label) {
    if (name.length > 63) return 'must be no more than 63 characters';
    return DNS1123_LABEL.test(name) ? null : "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  }
  if (name.length > 253) return 'must be no more than 253 characters';
  return DNS1123_SUBDOMAIN.test(name) ? null : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
}

/** Kubernetes' safe alphabet for generated name suffixes (no vowels, no look-alikes). */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

export function randomSuffix(ctx: Ids, kind: string, length = 5): string {
  const n = ctx.ids.next(`suffix:${kind}`);
  const digest = createHash('sha256').update(`${ctx.ids.seed}/${ctx.ids.service}/suffix:${kind}/${n}`).digest();
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMS[digest[i]! % ALPHANUMS.length];
  return out;
}

/** The pod-template-hash of a template: a hash of its JSON (stable, not seeded), in the safe alphabet. */
export function templateHash(template: unknown): string {
  const digest = createHash('sha256').update(canonical(dropNulls(template))).digest();
  let out = '';
  for (let i = 0; i < 10; i++) out += ALPHANUMS[digest[i]! % ALPHANUMS.length];
  return out;
}

/** A Go struct's JSON without its zero `null`s (`creationTimestamp: null` in a template is no field). */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, dropNulls(v)]));
  return value;
}

export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A deep, mutable copy of a stored (frozen) document. */
export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** kubectl's HumanDuration: how `AGE` columns read. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 0) return '<invalid>';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (days < 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}
