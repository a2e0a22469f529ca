import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService, type Middleware } from '../kit/define.js';
import { rateWindow, type WindowState } from '../kit/rate-window.js';
import { doAuth, doContext, type DoCtx } from './context.js';
import { docsOperations, docsRewrite } from './docs.js';
import { simulationOperations } from './simulations.js';
import { DigitalOceanDatasetSchema, type DigitalOceanDataset } from './dataset.js';
import { dropletOperations, settleActions } from './droplets.js';
import { doTail } from './fallback.js';
import { loadDigitalOcean } from './load.js';
import { doError, renderError, requestId } from './model.js';
import { resourceOperations } from './resources.js';

/**
 * DigitalOcean's API v2 (api.digitalocean.com/v2): a personal access token as a bearer token;
 * resources wrapped in their singular name, lists paged with `links.pages` and `meta.total`;
 * errors as `{id, message, request_id}`; every answer carries the hourly `RateLimit-*` headers.
 * Droplets and their actions, sizes, regions, images, volumes, domains and records, firewalls,
 * tags, SSH keys, the account and projects by hand-written handlers; every other operation of
 * DigitalOcean's description by the spec fallback. docs/digitalocean-mock.md.
 */

const HOURLY_LIMIT = 5000;

/** `RateLimit-Reset` is the Unix time (seconds) the window reopens, as DigitalOcean sends it. */
const rateHeaders = (state: WindowState): [string, string][] => [
  ['RateLimit-Limit', String(state.limit)], ['RateLimit-Remaining', String(state.limit - state.used)], ['RateLimit-Reset', String(state.reset)],
];

const rateLimit = rateWindow<DoCtx>({
  window: (_req, c, matched) => (c.auth.kind === 'ok' && !matched?.name.startsWith('docs.') && !matched?.name.startsWith('presigned.') ? { key: c.auth.token.token, limit: HOURLY_LIMIT, seconds: 3600, resource: 'api' } : null),
  store: (c) => c.ctx.store.collection<{ used: number; reset: number }>('rate_limits'),
  now: (c) => c.ctx.nowMs,
  exceeded: () => doError(429, 'too_many_requests', 'API Rate limit exceeded.'),
  headers: rateHeaders,
});

/** Actions move on with the logical clock before anything reads them. */
const settle: Middleware<DoCtx> = (_req, c, next) => {
  settleActions(c.db, c.ctx.nowMs);
  return next();
};

/**
 * DigitalOcean's answers when a fault stands in for the handler (docs/faults.md): 429 is
 * `too_many_requests` with the `RateLimit-*` headers at zero remaining and `Retry-After`; 5xx
 * are `server_error` (`service_unavailable` for a 503).
 */
function doFault(order: FaultOrder, _req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  const id = requestId(ctx);
  if (order.kind === '429') {
    const reset = Math.floor(ctx.nowMs / 1000) + order.retryAfter;
    return renderError(doError(429, 'too_many_requests', 'API Rate limit exceeded.', [
      ['RateLimit-Limit', String(HOURLY_LIMIT)], ['RateLimit-Remaining', '0'], ['RateLimit-Reset', String(reset)], ['Retry-After', String(order.retryAfter)],
    ]), id);
  }
  if (order.kind === '503') return renderError(doError(503, 'service_unavailable', 'Service is temporarily unavailable. Please try again later.', [['Retry-After', String(order.retryAfter)]]), id);
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' || order.kind === '502' ? 502 : 500;
  return renderError(doError(status, 'server_error', 'Server was unable to give you a response.'), id);
}

export const digitaloceanService = defineService<DigitalOceanDataset, DoCtx>({
  id: 'digitalocean',
  version: '1',
  dataset: DigitalOceanDatasetSchema,
  load: loadDigitalOcean,
  context: doContext,
  rewrite: docsRewrite,
  operations: [...dropletOperations, ...resourceOperations, ...simulationOperations, ...docsOperations],
  errors: (error, c) => renderError(error, c ? requestId(c.ctx) : null),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const issue = detail.issues?.[0];
        const name = issue?.path.join('.') || (detail.where === 'body' ? 'body' : 'parameter');
        return doError(detail.where === 'body' ? 422 : 400, detail.where === 'body' ? 'unprocessable_entity' : 'bad_request', `${name}: ${issue?.message ?? 'invalid value'}`);
      }
      case 'malformed_body': return doError(400, 'bad_request', 'unable to parse the request body as JSON');
      case 'unauthenticated': return doError(401, 'Unauthorized', 'Unable to authenticate you');
      case 'method_not_allowed': return doError(405, 'method_not_allowed', 'Method Not Allowed');
      case 'payload_too_large': return doError(413, 'request_entity_too_large', 'Request Entity Too Large');
      case 'internal_error': return doError(500, 'server_error', 'Server was unable to give you a response.');
      case 'not_found': return doError(404, 'not_found', 'The resource you were accessing could not be found.');
    }
  },
  middleware: [doAuth, rateLimit, settle],
  fault: doFault,
  fallback: doTail,
  volatile: {
    // Credentials and rate windows are not state an agent changes; action bookkeeping moves with the clock.
    tokens: '*',
    rate_limits: '*',
    volume_actions: '*',
    // The action log is how a change happened, not state: graded through the resources it changed.
    actions: '*',
    // A Droplet's size object is derived from its size_slug (compared, with memory, vcpus and disk).
    droplets: ['size'],
  },
});


