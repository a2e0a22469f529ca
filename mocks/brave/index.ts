import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { loadCorpus } from '../kit/web/render.js';
import { braveAuth, braveContext, type BraveCtx } from './context.js';
import { BraveDatasetSchema, type BraveDataset } from './dataset.js';
import { braveError, renderBraveError } from './model.js';
import { braveOperations } from './search.js';

/**
 * Brave Search API (api.search.brave.com/res/v1) over the scenario's web (mocks/kit/web): the
 * subscription token in `X-Subscription-Token`, Brave's rate-limit headers on every answer, its
 * `ErrorResponse` envelope (422 for a bad token or parameter, 429 when limited). docs/brave-mock.md.
 */

function braveFault(order: FaultOrder, _req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') {
    return renderBraveError(braveError(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.',
      { plan: 'Pro AI', rate_limit: 20, rate_current: 21, quota_limit: 20_000_000, quota_current: 1, component: 'rate_limiter' },
      [['Retry-After', String(order.retryAfter)], ['X-RateLimit-Remaining', '0, 19999999'], ['X-RateLimit-Reset', `${order.retryAfter}, 2592000`]]), ctx);
  }
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' ? 502 : Number(order.kind);
  const code = status === 503 ? 'SERVICE_UNAVAILABLE' : status === 502 ? 'BAD_GATEWAY' : status === 504 ? 'GATEWAY_TIMEOUT' : 'INTERNAL_SERVER_ERROR';
  return renderBraveError(braveError(status, code, 'An unexpected error occurred. Please try again later.', { component: 'api' },
    status === 503 ? [['Retry-After', String(order.retryAfter)]] : []), ctx);
}

export const braveService = defineService<BraveDataset, BraveCtx>({
  id: 'brave',
  version: '1',
  dataset: BraveDatasetSchema,
  load(data, ctx) {
    const subscriptions = ctx.store.collection('subscriptions');
    for (const sub of data.subscriptions) subscriptions.put(sub.token, sub);
    loadCorpus(ctx.store, ctx, data.pages, data.places);
  },
  context: braveContext,
  operations: braveOperations,
  errors: (error, c) => renderBraveError(error, c?.ctx ?? null),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const errors = (detail.issues ?? []).map((issue) => ({
          type: issue.message === 'Required' || issue.message === 'Field required' ? 'missing' : 'value_error',
          loc: [detail.where ?? 'query', ...issue.path.map(String)],
          msg: issue.message === 'Required' ? 'Field required' : issue.message,
        }));
        return braveError(422, 'VALIDATION', 'Unable to validate request parameter(s)', { errors });
      }
      case 'malformed_body': return braveError(422, 'VALIDATION', 'Unable to validate request parameter(s)', { errors: [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error' }] });
      case 'unauthenticated': return braveError(422, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.', { component: 'authentication' });
      case 'method_not_allowed': return braveError(405, 'METHOD_NOT_ALLOWED', 'Method Not Allowed', { allowed: detail.allowed ?? [] });
      case 'payload_too_large': return braveError(413, 'PAYLOAD_TOO_LARGE', 'Request entity too large');
      case 'internal_error': return braveError(500, 'INTERNAL_SERVER_ERROR', 'An unexpected error occurred. Please try again later.', { component: 'api' });
      case 'not_found': return braveError(404, 'RESOURCE_NOT_FOUND', 'Resource not found', { component: 'api' });
    }
  },
  middleware: [braveAuth],
  fault: braveFault,
  // Tokens are credentials; usage counts every call (graded through the calls themselves).
  volatile: { subscriptions: '*', usage: '*' },
});
