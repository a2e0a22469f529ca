import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { FaultOrder } from '../core/service.js';
import { ServiceError, type KitRefusal, type RefusalDetail } from '../kit/index.js';

/**
 * Google's error envelope: `{error: {code, message, errors: [{message, domain, reason, location,
 * locationType}], status}}`. Drive and Calendar (www.googleapis.com) carry the `errors` list;
 * Docs, Sheets and Slides (their own hosts, paths under /v1 and /v4) only code, message, status.
 */
const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 409: 'ALREADY_EXISTS',
  412: 'FAILED_PRECONDITION', 413: 'INVALID_ARGUMENT', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 502: 'UNAVAILABLE', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED',
};

export interface GoogleErrorDetail {
  location?: string;
  locationType?: 'parameter' | 'header' | 'body';
  domain?: string;
}

export function googleError(status: number, reason: string, message: string, detail: GoogleErrorDetail = {}, headers: [string, string][] = []): ServiceError {
  return new ServiceError(status, reason, message, { ...detail }, headers);
}

/** Whether a path belongs to an API that answers in the `errors`-list style (Drive, Calendar, uploads). */
export function legacyStyle(path: string): boolean {
  return path.startsWith('/drive/') || path.startsWith('/calendar/') || path.startsWith('/upload/') || path.startsWith('/oauth2/') || !/^\/v\d+\//.test(path);
}

export function renderGoogleError(error: ServiceError, path: string): ServiceResponse {
  const detail = error.details as GoogleErrorDetail;
  const body: Record<string, unknown> = { code: error.status, message: error.message };
  if (legacyStyle(path)) {
    body.errors = [{
      message: error.message, domain: detail.domain ?? 'global', reason: error.code,
      ...(detail.location ? { location: detail.location, locationType: detail.locationType ?? 'parameter' } : {}),
    }];
  }
  body.status = STATUS[error.status] ?? 'UNKNOWN';
  return jsonResponse(error.status, { error: body }, [['Vary', 'Origin, X-Origin, Referer'], ...error.headers]);
}

export function googleRefusal(reason: KitRefusal, detail: RefusalDetail): ServiceError {
  switch (reason) {
    case 'invalid_params': {
      const issue = detail.issues?.[0];
      const where = issue?.path.join('.') || String(detail.where ?? 'body');
      return googleError(400, 'invalid', `Invalid value for ${where}: ${issue?.message ?? 'invalid'}`, { location: where, locationType: detail.where === 'body' ? 'body' : 'parameter' });
    }
    case 'malformed_body': return googleError(400, 'parseError', 'Invalid JSON payload received.');
    case 'unauthenticated': return unauthenticated();
    case 'payload_too_large': return googleError(413, 'uploadTooLarge', 'The request is too large.');
    case 'method_not_allowed': return googleError(405, 'httpMethodNotAllowed', 'HTTP method not allowed for this path.');
    case 'internal_error': return googleError(500, 'backendError', 'Internal Error');
    default: return googleError(404, 'notFound', 'Not Found');
  }
}

export function unauthenticated(): ServiceError {
  return googleError(401, 'authError',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    { location: 'Authorization', locationType: 'header' }, [['WWW-Authenticate', 'Bearer realm="https://accounts.google.com/", error="invalid_token"']]);
}

/**
 * Injected faults in Google's words: Drive and Calendar throttle with 403 `rateLimitExceeded`
 * (what their client libraries retry on), Docs, Sheets and Slides with 429 `RESOURCE_EXHAUSTED`;
 * 5xx are `backendError`; `reset` is a 502 the transport cuts, `timeout` a 504.
 */
export function googleFault(order: FaultOrder, req: ServiceRequest): ServiceResponse {
  const retry: [string, string][] = order.kind === '429' || order.kind === '503' ? [['Retry-After', String(order.retryAfter)]] : [];
  if (order.kind === '429') {
    return legacyStyle(req.path)
      ? renderGoogleError(googleError(403, 'rateLimitExceeded', 'Rate Limit Exceeded', { domain: 'usageLimits' }, retry), req.path)
      : renderGoogleError(googleError(429, 'rateLimitExceeded', "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute per user' of service.", {}, retry), req.path);
  }
  const status = order.kind === 'reset' ? 502 : order.kind === 'timeout' ? 504 : Number(order.kind);
  const message = status === 503 ? 'The service is currently unavailable.' : status === 504 ? 'Deadline exceeded.' : 'Internal Error';
  return renderGoogleError(googleError(status, 'backendError', message, {}, retry), req.path);
}
