import type { HeaderList, ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import type { Middleware } from '../kit/define.js';
import { countRequest, windowState, type RateWindow } from '../kit/rate-window.js';
import { uuidId } from '../kit/ids.js';
import { AUTH_MESSAGE, hubspotContext, hubspotError, hubspotErrors, type HubspotCtx } from './context.js';

/**
 * A private app's limits (Professional tier): 190 requests per 10 seconds and 650,000 a day,
 * counted per token in logical time; every answer but search's carries HubSpot's
 * `X-HubSpot-RateLimit-*` headers. Past a limit, HubSpot's 429 names the policy.
 */
const TEN_SECONDLY = { limit: 190, seconds: 10 };
const DAILY = { limit: 650000, seconds: 86400 };

const windows = (token: string): [RateWindow, RateWindow] => [
  { key: `${token}:ten_secondly`, resource: 'TEN_SECONDLY_ROLLING', ...TEN_SECONDLY },
  { key: `${token}:daily`, resource: 'DAILY', ...DAILY },
];

function rateHeaders(interval: { used: number }, daily: { used: number }): HeaderList {
  return [
    ['X-HubSpot-RateLimit-Daily', String(DAILY.limit)],
    ['X-HubSpot-RateLimit-Daily-Remaining', String(DAILY.limit - daily.used)],
    ['X-HubSpot-RateLimit-Interval-Milliseconds', String(TEN_SECONDLY.seconds * 1000)],
    ['X-HubSpot-RateLimit-Max', String(TEN_SECONDLY.limit)],
    ['X-HubSpot-RateLimit-Remaining', String(TEN_SECONDLY.limit - interval.used)],
  ];
}

/** `X-HubSpot-Correlation-Id` on every answer (the same ID as an error body's `correlationId`). */
export const hubspotHeaders: Middleware<HubspotCtx> = (_req, c, next) => {
  const response = next();
  return { ...response, headers: [...response.headers, ['X-HubSpot-Correlation-Id', c.correlationId]] };
};

/** A private app token the portal knows, as a bearer token; the rate windows of that token. */
export const hubspotAuth: Middleware<HubspotCtx> = (_req, c, next, matched) => {
  if (c.token === null) throw hubspotError(401, 'INVALID_AUTHENTICATION', AUTH_MESSAGE);
  const [intervalWindow, dailyWindow] = windows(c.token.token);
  const interval = windowState(c.db.rateWindows, intervalWindow, c.ctx.nowMs);
  const daily = windowState(c.db.rateWindows, dailyWindow, c.ctx.nowMs);
  const over = interval.used >= interval.limit ? 'TEN_SECONDLY_ROLLING' : daily.used >= daily.limit ? 'DAILY' : null;
  if (over !== null) throw rateLimitError(c, over === 'DAILY' ? 'You have reached your daily limit.' : 'You have reached your ten_secondly_rolling limit.', over, rateHeaders(interval, daily));
  const counted = [countRequest(c.db.rateWindows, interval), countRequest(c.db.rateWindows, daily)] as const;
  const response = next();
  // Search answers carry no rate-limit headers (it has its own per-portal limit).
  if (matched?.name === 'objects.search') return response;
  return { ...response, headers: [...response.headers, ...rateHeaders(counted[0], counted[1])] };
};

function rateLimitError(c: HubspotCtx, message: string, policyName: string, headers: HeaderList) {
  return hubspotError(429, 'RATE_LIMIT', message, { policyName, requestId: uuidId(c.ctx, 'request') }, [...headers] as [string, string][]);
}

/**
 * HubSpot's answers when a fault stands in for the handler (docs/faults.md): 429 is its
 * secondly-limit body (`errorType: RATE_LIMIT`, `policyName: SECONDLY`) with the rate-limit
 * headers at zero and `Retry-After`; 5xx are its `{status: error}` bodies with a correlation ID.
 */
export function hubspotFault(order: FaultOrder, req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  const c = hubspotContext(req, ctx);
  const retry: [string, string][] = order.kind === '429' || order.kind === '503' ? [['Retry-After', String(order.retryAfter)]] : [];
  const error = order.kind === '429'
    ? rateLimitError(c, 'You have reached your secondly limit.', 'SECONDLY', [
      ['X-HubSpot-RateLimit-Secondly', '19'], ['X-HubSpot-RateLimit-Secondly-Remaining', '0'], ...rateHeaders({ used: TEN_SECONDLY.limit }, { used: 0 }), ...retry,
    ])
    : order.kind === '500'
      ? hubspotError(500, 'BAD_REQUEST', 'internal error', {}, retry)
      : hubspotError(FAULT_STATUS[order.kind], 'BAD_REQUEST', FAULT_MESSAGE[order.kind], {}, retry);
  const response = hubspotErrors(error, c);
  return { ...response, headers: [...response.headers, ['X-HubSpot-Correlation-Id', c.correlationId]] };
}

const FAULT_STATUS = { 502: 502, 503: 503, reset: 502, timeout: 504 } as const;
const FAULT_MESSAGE = {
  502: 'Bad Gateway: the request could not be completed', 503: 'Service Unavailable: please retry', reset: 'Bad Gateway: the request could not be completed', timeout: 'Gateway Timeout: the request timed out',
} as const;
