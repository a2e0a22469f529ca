import { createHash } from 'node:crypto';
import { bytes, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { stripeError, stripeErrors, stripeRefusal } from '../kit/envelopes/stripe.js';
import type { Middleware } from '../kit/define.js';
import { prefixedId } from '../kit/ids.js';
import { stripeContext, type StripeCtx } from './context.js';

/**
 * Stripe's headers on every answer, errors included: `Request-Id` (seeded) and `Stripe-Version`
 * (the request's, or the account's default); `Idempotency-Key` echoed when one was sent.
 */
export const stripeHeaders: Middleware<StripeCtx> = (req, c, next, matched) => {
  const requested = req.header('stripe-version');
  if (requested !== undefined && !/^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/.test(requested)) {
    return withStripeHeaders(req, c, stripeErrors(stripeError(400, 'invalid_request_error', '', `Invalid Stripe API version: ${requested}`, 'Stripe-Version')));
  }
  // Stripe names the method and path it did not recognise (the kit's refusal does not see them).
  if (matched === null) return withStripeHeaders(req, c, stripeErrors(stripeRefusal('not_found', {}, req)));
  return withStripeHeaders(req, c, next());
};

export function withStripeHeaders(req: ServiceRequest, c: StripeCtx, response: ServiceResponse): ServiceResponse {
  const key = req.header('idempotency-key');
  const headers: [string, string][] = [['Request-Id', prefixedId(c.ids, 'req_', 'request')], ['Stripe-Version', req.header('stripe-version') ?? c.account.api_version]];
  if (key) headers.push(['Idempotency-Key', key]);
  return { ...response, headers: [...response.headers, ...headers] };
}

/**
 * Stripe's answers when a fault stands in for the handler (docs/faults.md): 429 is its rate limit
 * (`rate_limit`, with `Retry-After`), 5xx its `api_error` with `Stripe-Should-Retry: true` (what
 * stripe-node's retry logic reads); `reset` is a 502 the transport cuts, `timeout` a gateway's 504.
 */
export function stripeFault(order: FaultOrder, req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  const c = stripeContext(req, ctx);
  const retryAfter: [string, string][] = order.kind === '429' || order.kind === '503' ? [['Retry-After', String(order.retryAfter)]] : [];
  const error = order.kind === '429'
    ? stripeError(429, 'invalid_request_error', 'rate_limit', 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.', undefined, retryAfter)
    : stripeError(FAULT_STATUS[order.kind], 'api_error', '', 'An unknown error occurred. Please try again later.', undefined, [...retryAfter, ['Stripe-Should-Retry', 'true']]);
  return withStripeHeaders(req, c, stripeErrors(error));
}

const FAULT_STATUS: Record<Exclude<FaultOrder['kind'], '429'>, number> = { 500: 500, 502: 502, 503: 503, reset: 502, timeout: 504 };

/** A secret key of the account, by bearer or basic auth; the docs search (ai.stripe.com) takes none. */
export const stripeAuth: Middleware<StripeCtx> = (req, c, next, matched) => {
  if (matched?.name === 'docs.search') return next();
  if (c.key === null) throw stripeRefusal('unauthenticated', {});
  if (!c.account.api_keys.includes(c.key)) {
    const masked = `${c.key.slice(0, 8)}${'*'.repeat(Math.max(0, c.key.length - 12))}${c.key.slice(-4)}`;
    throw stripeError(401, 'invalid_request_error', '', `Invalid API Key provided: ${masked}`, undefined, [['WWW-Authenticate', 'Basic realm="Stripe"']]);
  }
  const account = req.header('stripe-account');
  if (account !== undefined && account !== c.account.id) {
    throw stripeError(403, 'invalid_request_error', 'account_invalid', `The provided key '${c.key.slice(0, 8)}…${c.key.slice(-4)}' does not have access to account '${account}' (or that account does not exist). Application access may have been revoked.`);
  }
  return next();
};

/**
 * `Idempotency-Key` on a POST: the first answer is kept and replayed (with `Idempotent-Replayed:
 * true`) for a retry with the same parameters; other parameters under the same key are Stripe's
 * idempotency_error. Only successes are kept: Stripe saves no result for a request that failed
 * validation or conflicted, so a corrected retry under the same key runs.
 */
export const stripeIdempotency: Middleware<StripeCtx> = (req, c, next) => {
  const key = req.header('idempotency-key');
  if (req.method !== 'POST' || key === undefined) return next();
  if (key.length > 255) throw stripeError(400, 'invalid_request_error', '', 'Idempotency-Key must be at most 255 characters long.');
  const slot = `${c.key ?? ''}\u0000${key}`;
  const digest = createHash('sha256').update(req.path).update('\0').update(req.body).digest('hex');
  const kept = c.db.idempotency.get(slot);
  if (kept) {
    if (kept.path !== req.path || kept.digest !== digest) {
      throw stripeError(400, 'idempotency_error', 'idempotency_key_in_use',
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`);
    }
    return { status: kept.status, headers: [...kept.headers, ['Idempotent-Replayed', 'true']], body: bytes(kept.body) };
  }
  const response = next();
  if (response.status >= 200 && response.status < 300) {
    c.db.idempotency.put(slot, { key, method: req.method, path: req.path, digest, status: response.status, headers: response.headers, body: new TextDecoder().decode(response.body) });
  }
  return response;
};
