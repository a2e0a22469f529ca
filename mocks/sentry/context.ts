import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import type { RefusalDetail } from '../kit/define.js';
import { ServiceError, type KitRefusal } from '../kit/errors.js';
import { numericId } from '../kit/ids.js';
import { dbOf, type Db, type MemberDoc, type OrgDoc } from './model.js';

/** What a Sentry handler gets: the store's collections, the organization, the caller, the time. */
export interface SentryCtx {
  ctx: ServiceContext;
  db: Db;
  org: OrgDoc;
  /** The member whose API token authenticated the request (null: none or unknown). */
  caller: MemberDoc | null;
  /** The request's logical time as Sentry writes it (`2025-03-03T09:00:04.000000Z`). */
  now: string;
}

export function sentryContext(req: ServiceRequest, ctx: ServiceContext): SentryCtx {
  const db = dbOf(ctx.store);
  const org = db.org.get('org') ?? { id: '1', slug: 'example-org', name: 'Example Org', dateCreated: iso(ctx.nowMs) };
  const token = /^\s*Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '')?.[1] ?? null;
  const caller = token === null ? null : db.members.find((m) => m.tokens.includes(token)) ?? null;
  return { ctx, db, org, caller, now: iso(ctx.nowMs) };
}

/** Sentry's timestamps carry microseconds: `2025-03-03T09:00:00.000000Z`. */
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** The next numeric id of `kind` (as a string, as Sentry answers ids). */
export function nextId(c: SentryCtx, kind: string): string {
  return String(numericId(c.ctx, kind));
}

/** Sentry's error body: `{"detail": "..."}` (validation errors: `{"field": ["message"]}`). */
export function sentryErrors(error: ServiceError): ServiceResponse {
  const body = error.details.fields ? error.details.fields : { detail: error.message };
  return jsonResponse(error.status, body, [...error.headers]);
}

export const notFound = (): ServiceError => new ServiceError(404, 'not_found', 'The requested resource does not exist');
export const unauthenticated = (): ServiceError => new ServiceError(401, 'unauthenticated', 'Authentication credentials were not provided.');
/** A 400 with Django REST framework's per-field messages, as Sentry's serializers answer. */
export const fieldError = (field: string, message: string): ServiceError => new ServiceError(400, 'invalid', message, { fields: { [field]: [message] } });

export function sentryRefusal(reason: KitRefusal, detail: RefusalDetail): ServiceError {
  switch (reason) {
    case 'unauthenticated': return unauthenticated();
    case 'malformed_body': return new ServiceError(400, 'parse_error', `JSON parse error - ${detail.message ?? 'invalid JSON'}`);
    case 'invalid_params': {
      const issue = detail.issues?.[0];
      const field = issue?.path.join('.') || 'non_field_errors';
      return fieldError(field, issue?.message ?? 'Invalid value.');
    }
    case 'payload_too_large': return new ServiceError(413, 'too_large', 'Request body too large.');
    case 'method_not_allowed': return new ServiceError(405, 'method_not_allowed', 'Method not allowed.');
    case 'internal_error': return new ServiceError(500, 'internal', 'Internal Error');
    default: return notFound();
  }
}

/** The rate-limit headers Sentry sends on every API answer (40 requests a second per caller). */
export function rateHeaders(remaining: number, resetSeconds: number): [string, string][] {
  return [['X-Sentry-Rate-Limit-Limit', '40'], ['X-Sentry-Rate-Limit-Remaining', String(remaining)], ['X-Sentry-Rate-Limit-Reset', String(resetSeconds)], ['X-Sentry-Rate-Limit-ConcurrentLimit', '25']];
}

/**
 * Sentry's answers when a fault stands in for the handler (docs/faults.md): 429 is its rate-limit
 * body with `Retry-After` and the `X-Sentry-Rate-Limit-*` headers at zero (reset: the epoch second
 * the window ends, logical time); 5xx are its `{"detail": ...}` server errors.
 */
export function sentryFault(order: FaultOrder, _req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') {
    const reset = Math.floor(ctx.nowMs / 1000) + order.retryAfter;
    return sentryErrors(new ServiceError(429, 'rate_limited', 'You are attempting to use this endpoint too frequently. Limit is 40 requests in 1 seconds', {},
      [['Retry-After', String(order.retryAfter)], ...rateHeaders(0, reset)]));
  }
  if (order.kind === '503') return sentryErrors(new ServiceError(503, 'unavailable', 'Service Unavailable', {}, [['Retry-After', String(order.retryAfter)]]));
  const status = order.kind === 'timeout' ? 504 : order.kind === '500' ? 500 : 502;
  return sentryErrors(new ServiceError(status, 'server', status === 500 ? 'Internal Error' : status === 504 ? 'Gateway Timeout' : 'Bad Gateway'));
}
