import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { RefusalDetail } from '../kit/define.js';
import { ServiceError, type KitRefusal } from '../kit/errors.js';
import { uuidId } from '../kit/ids.js';
import { db, type Db, type PortalDoc, type TokenDoc } from './model.js';

/** What a HubSpot handler gets: the store's collections, the portal, the caller, the time. */
export interface HubspotCtx {
  ctx: ServiceContext;
  db: Db;
  portal: PortalDoc;
  /** The private app token the request authenticated with; null when none or unknown. */
  token: TokenDoc | null;
  /** Whether an Authorization header was sent at all. */
  presented: boolean;
  /** This request's X-HubSpot-Correlation-Id, also in every error body. */
  correlationId: string;
  /** The logical time as HubSpot writes it (ISO-8601 with milliseconds). */
  now: string;
}

const DEFAULT_PORTAL: PortalDoc = { portalId: 0, accountType: 'STANDARD', timeZone: 'US/Eastern', companyCurrency: 'USD', additionalCurrencies: [], utcOffset: '-05:00', utcOffsetMilliseconds: -18000000, uiDomain: 'app.hubspot.com', dataHostingLocation: 'na1' };

export function hubspotContext(req: ServiceRequest, ctx: ServiceContext): HubspotCtx {
  const d = db(ctx.store);
  const auth = req.header('authorization');
  const bearer = auth === undefined ? null : /^Bearer\s+(\S+)$/i.exec(auth)?.[1] ?? null;
  return {
    ctx, db: d, portal: d.portal.get('portal') ?? DEFAULT_PORTAL,
    token: bearer === null ? null : d.tokens.get(bearer) ?? null,
    presented: auth !== undefined,
    correlationId: uuidId(ctx, 'correlation'),
    now: new Date(ctx.nowMs).toISOString(),
  };
}

/**
 * HubSpot's error categories (the `category` of its error body) and their statuses; the message
 * is the request's own. `context` and `errors` ride in `details`.
 */
export type Category = 'VALIDATION_ERROR' | 'OBJECT_NOT_FOUND' | 'INVALID_AUTHENTICATION' | 'MISSING_SCOPES' | 'CONFLICT' | 'OBJECT_ALREADY_EXISTS' | 'RATE_LIMIT' | 'BAD_REQUEST';

export function hubspotError(status: number, category: Category, message: string, details: Record<string, unknown> = {}, headers: [string, string][] = []): ServiceError {
  return new ServiceError(status, category, message, details, headers);
}

/** `{"status":"error","message","correlationId","category",…}`, HubSpot's error body, in its key order. */
export function hubspotErrors(error: ServiceError, c: HubspotCtx | null): ServiceResponse {
  const correlationId = c?.correlationId ?? '00000000-0000-4000-8000-000000000000';
  const body = error.code === 'RATE_LIMIT'
    ? { status: 'error', message: error.message, errorType: 'RATE_LIMIT', correlationId, ...error.details }
    : { status: 'error', message: error.message, correlationId, category: error.code, ...error.details };
  return jsonResponse(error.status, body, [...error.headers]);
}

export const AUTH_MESSAGE = 'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview';

/** HubSpot's answers to what the kit refuses: an unknown path is its 404, a bad body its 400. */
export function hubspotRefusal(reason: KitRefusal, detail: RefusalDetail): ServiceError {
  switch (reason) {
    case 'invalid_params': {
      const issue = detail.issues?.[0];
      const where = issue?.path.length ? issue.path.join('.') : detail.where ?? 'body';
      return hubspotError(400, 'VALIDATION_ERROR', `Invalid input JSON on line 1: ${where}: ${issue?.message ?? 'invalid value'}`);
    }
    case 'malformed_body': return hubspotError(400, 'VALIDATION_ERROR', `Invalid input JSON on line 1, column 1: ${detail.message ?? 'Cannot parse the request body'}`);
    case 'unauthenticated': return hubspotError(401, 'INVALID_AUTHENTICATION', AUTH_MESSAGE);
    case 'payload_too_large': return hubspotError(413, 'VALIDATION_ERROR', 'Request entity too large');
    case 'internal_error': return hubspotError(500, 'BAD_REQUEST', 'internal error');
    case 'method_not_allowed': return hubspotError(405, 'VALIDATION_ERROR', `HTTP method not allowed${detail.allowed ? `; allowed: ${detail.allowed.join(', ')}` : ''}`);
    default: return hubspotError(404, 'OBJECT_NOT_FOUND', 'Resource not found');
  }
}

/** 404 for a record that does not exist (or is archived, unless asked for). */
export function objectNotFound(id: string): never {
  throw hubspotError(404, 'OBJECT_NOT_FOUND', 'Object not found.  objectId are usually numeric.', { context: { id: [id] } });
}

/** 400 for a path segment that names no object type. */
export function unknownType(segment: string): never {
  throw hubspotError(400, 'VALIDATION_ERROR', `Unable to infer object type from: ${segment}`);
}

export const ok = (status: number, value: unknown): ServiceResponse => jsonResponse(status, value);
