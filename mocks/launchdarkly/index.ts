import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { accountOperations } from './account.js';
import { aiOperations } from './ai.js';
import { ldAuth, ldContext, type LdCtx } from './context.js';
import { LaunchDarklyDatasetSchema, type LaunchDarklyDataset } from './dataset.js';
import { flagOperations } from './flags.js';
import { loadLaunchDarkly } from './load.js';
import { ldError, renderError } from './model.js';

/**
 * LaunchDarkly's REST API v2 (app.launchdarkly.com/api/v2): an access token in the bare
 * `Authorization` header; projects, environments, feature flags with per-environment targeting
 * (JSON patch and semantic patch updates), flag status, AI configs, code-reference repositories
 * and the audit log, all by hand-written handlers; errors as `{code, message}`. Every operation
 * the pinned @launchdarkly/mcp-server calls is modelled. docs/launchdarkly-mock.md.
 */

/**
 * LaunchDarkly's answers when a fault stands in for the handler (docs/faults.md): 429 is its
 * `rate_limited` error with `Retry-After` (seconds) and `X-Ratelimit-Reset` (epoch milliseconds
 * when the window reopens), as it sends them; 5xx are `{code: "internal_server_error"}`.
 */
function ldFault(order: FaultOrder, _req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') {
    return renderError(ldError(429, 'rate_limited', "You've exceeded the API rate limit. Try again later.", [
      ['Retry-After', String(order.retryAfter)], ['X-Ratelimit-Reset', String(ctx.nowMs + order.retryAfter * 1000)], ['X-Ratelimit-Route-Remaining', '0'],
    ]));
  }
  if (order.kind === '503') return renderError(ldError(503, 'service_unavailable', 'Service unavailable', [['Retry-After', String(order.retryAfter)]]));
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' || order.kind === '502' ? 502 : 500;
  return renderError(ldError(status, 'internal_server_error', 'An internal server error occurred'));
}

export const launchdarklyService = defineService<LaunchDarklyDataset, LdCtx>({
  id: 'launchdarkly',
  version: '1',
  dataset: LaunchDarklyDatasetSchema,
  load: loadLaunchDarkly,
  context: ldContext,
  operations: [...flagOperations, ...aiOperations, ...accountOperations],
  errors: (error) => renderError(error),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const issue = detail.issues?.[0];
        const name = issue?.path.join('.') || (detail.where === 'body' ? 'body' : 'parameter');
        return ldError(400, 'invalid_request', `${name}: ${issue?.message ?? 'invalid value'}`);
      }
      case 'malformed_body': return ldError(400, 'invalid_request', 'Request body could not be parsed as JSON');
      case 'unauthenticated': return ldError(401, 'unauthorized', 'Invalid access token');
      case 'method_not_allowed': return ldError(405, 'method_not_allowed', 'Method not allowed');
      case 'payload_too_large': return ldError(413, 'request_too_large', 'Request body too large');
      case 'internal_error': return ldError(500, 'internal_server_error', 'An internal server error occurred');
      case 'not_found': return ldError(404, 'not_found', 'Invalid resource identifier');
    }
  },
  middleware: [ldAuth],
  fault: ldFault,
  volatile: {
    // Access tokens are credentials, not state an agent changes; the audit log records every
    // write (graded through the writes themselves); versions and modification times move with
    // every change (the baseline and scenario projects use the environments production, staging, test).
    tokens: '*',
    audit_log: '*',
    flags: ['version', 'archivedDate', ...['production', 'staging', 'test'].flatMap((env) => [`environments.${env}.lastModified`, `environments.${env}.version`])],
    ai_configs: ['version', 'updatedAt'],
  },
});
