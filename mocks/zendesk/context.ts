import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import type { RefusalDetail } from '../kit/define.js';
import { ServiceError, type KitRefusal } from '../kit/errors.js';
import { numericId } from '../kit/ids.js';
import { dbOf, type AccountDoc, type Db, type UserDoc } from './model.js';

/** What a Zendesk handler gets: the store's collections, the account, the caller, the time. */
export interface ZendeskCtx {
  ctx: ServiceContext;
  db: Db;
  account: AccountDoc;
  /** The agent the request authenticated as (null before the auth middleware has run, or never). */
  caller: UserDoc | null;
  /** The request's logical time as Zendesk writes it (`2025-09-25T16:00:04Z`). */
  now: string;
  /** `https://{subdomain}.zendesk.com`, for the `url`s and page links of answers. */
  origin: string;
}

export function zendeskContext(req: ServiceRequest, ctx: ServiceContext): ZendeskCtx {
  const db = dbOf(ctx.store);
  const account = db.account.get('account') ?? { subdomain: 'example', name: 'Example', api_tokens: [] };
  return { ctx, db, account, caller: callerOf(req, db, account), now: isoSecond(ctx.nowMs), origin: `https://${account.subdomain}.zendesk.com` };
}

export function isoSecond(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The agent of `Authorization: Basic base64(email/token:API_TOKEN)`, Zendesk's API-token auth:
 * the token must be one of the account's, the email an agent's or admin's who is not suspended.
 * Passwords and OAuth tokens are not modelled (their requests are 401).
 */
function callerOf(req: ServiceRequest, db: Db, account: AccountDoc): UserDoc | null {
  const match = /^\s*Basic\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const token = /^(.+)\/token:(.+)$/.exec(decoded);
  if (!token || !account.api_tokens.includes(token[2]!)) return null;
  const email = token[1]!.toLowerCase();
  const user = db.users.find((u) => u.email.toLowerCase() === email);
  return user && user.role !== 'end-user' && !user.suspended && user.active ? user : null;
}

/** Next number of `kind` (tickets, comments, audits, users…), above every id the dataset brought. */
export function nextId(c: ZendeskCtx, kind: string): number {
  return numericId(c.ctx, kind);
}

/**
 * Zendesk's error bodies: `{"error": "RecordNotFound", "description": "Not found"}`, with
 * `details` for validation errors; a bare `{"error": "Couldn't authenticate you"}` for 401 (the
 * error's code is then empty).
 */
export function zendeskErrors(error: ServiceError): ServiceResponse {
  const body = error.code === ''
    ? { error: error.message }
    : { error: error.code, description: error.message, ...(error.details.details ? { details: error.details.details } : {}) };
  return jsonResponse(error.status, body, [...error.headers]);
}

export const notFound = (): ServiceError => new ServiceError(404, 'RecordNotFound', 'Not found');
export const unauthenticated = (): ServiceError => new ServiceError(401, '', "Couldn't authenticate you");

/** 422 RecordInvalid with Zendesk's per-field details (`{"status": [{"description": …}]}`). */
export function recordInvalid(field: string, description: string, error = 'InvalidValue'): ServiceError {
  return new ServiceError(422, 'RecordInvalid', 'Record validation errors', { details: { [field]: [{ description, error }] } });
}

export function zendeskRefusal(reason: KitRefusal, detail: RefusalDetail): ServiceError {
  switch (reason) {
    case 'unauthenticated': return unauthenticated();
    case 'malformed_body': return new ServiceError(400, 'InvalidJSON', `The request body is not valid JSON: ${detail.message ?? 'parse error'}`);
    case 'invalid_params': {
      const issue = detail.issues?.[0];
      const field = issue ? issue.path.join('.') || 'base' : 'base';
      return recordInvalid(field, `${field}: ${issue?.message ?? 'is invalid'}`);
    }
    case 'payload_too_large': return new ServiceError(413, 'RequestEntityTooLarge', 'Request entity too large');
    case 'internal_error': return new ServiceError(500, 'InternalServerError', 'Something went wrong');
    default: return new ServiceError(404, 'InvalidEndpoint', 'Not found');
  }
}

/**
 * Zendesk's answers when a fault stands in for the handler (docs/faults.md): 429 is the account's
 * API rate limit (`APIRateLimitExceeded`, `Retry-After` and the `X-Rate-Limit` headers at zero),
 * 503 Zendesk's maintenance answer with `Retry-After`, the rest its generic server errors.
 */
export function zendeskFault(order: FaultOrder): ServiceResponse {
  if (order.kind === '429') {
    return zendeskErrors(new ServiceError(429, 'APIRateLimitExceeded', 'Number of allowed API requests per minute exceeded', {},
      [['Retry-After', String(order.retryAfter)], ['X-Rate-Limit', '700'], ['X-Rate-Limit-Remaining', '0'], ['X-Zendesk-API-Version', 'v2']]));
  }
  if (order.kind === '503') {
    return zendeskErrors(new ServiceError(503, 'ServiceUnavailable', 'Zendesk is temporarily unavailable. Please try again later.', {}, [['Retry-After', String(order.retryAfter)]]));
  }
  const status = order.kind === 'timeout' ? 504 : order.kind === '500' ? 500 : 502;
  return zendeskErrors(new ServiceError(status, status === 500 ? 'InternalServerError' : 'BadGateway', 'Something went wrong, please try again later'));
}
