import { jsonResponse, type HeaderList, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { xRateLimitHeaders } from '../kit/rate-window.js';
import { authenticate, makeGh } from './context.js';
import { GENERIC_DOCS, GitHubError, RATE_LIMIT_DOCS } from './errors.js';
import { db } from './model.js';
import { rateState, resourceFor } from './ratelimit.js';
import { decorate, errorResponse, requestId } from './service.js';

/**
 * GitHub's answers when a fault stands in for the handler (docs/faults.md):
 * - 429: the secondary rate limit, with `Retry-After` and the request ID in the message (what
 *   @octokit/plugin-throttling recognises); the primary limit's headers as they stand, uncounted.
 * - 500: the API's own "Server Error".
 * - 502 and `reset` (which the transport cuts mid-body): the edge's "Server Error".
 * - 503: "Service Unavailable", with `Retry-After`.
 * - `timeout`: the 504 GitHub sends when a request runs past its 10 seconds.
 * The request still authenticates for the headers (scopes, limits), but nothing is counted.
 */
export const SECONDARY_LIMIT_DOCS = `${RATE_LIMIT_DOCS}#about-secondary-rate-limits`;

export function renderFault(order: FaultOrder, req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  const auth = authenticate(req, db(ctx.store));
  const gh = makeGh(ctx, req, auth.kind === 'bad' ? { kind: 'anonymous' } : auth);
  const retryAfter: HeaderList = [['Retry-After', String(order.retryAfter)]];
  switch (order.kind) {
    case '429': {
      const message = 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. '
        + `If you reach out to GitHub Support for help, please include the request ID ${requestId(gh)}.`;
      const error = errorResponse(new GitHubError(429, message, { docs: SECONDARY_LIMIT_DOCS }), gh);
      const rate = xRateLimitHeaders(rateState(gh, resourceFor(req.path) ?? 'core'));
      return decorate(gh, req, { ...error, headers: [...error.headers, ...retryAfter, ...rate] });
    }
    case '500':
      return decorate(gh, req, errorResponse(new GitHubError(500, 'Server Error', { docs: GENERIC_DOCS }), gh));
    case '502':
    case 'reset':
      return decorate(gh, req, jsonResponse(502, { message: 'Server Error' }));
    case '503':
      return decorate(gh, req, jsonResponse(503, { message: 'Service Unavailable' }, retryAfter));
    case 'timeout':
      return decorate(gh, req, jsonResponse(504, {
        message: 'We couldn\'t respond to your request in time. Sorry about that. Please try resubmitting your request and contact us if the problem persists.',
      }));
  }
}
