import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { ciAuth, ciContext, type CiCtx } from './context.js';
import { CircleciDatasetSchema, type CircleciDataset } from './dataset.js';
import { loadCircleci } from './load.js';
import { ciError, renderError } from './model.js';
import { ciOperations } from './ops.js';

/**
 * CircleCI (circleci.com/api/v2 and /api/v1.1, the /api/private endpoints its MCP server calls,
 * api.circleci.com's config compiler, output.circle-artifacts.com's artifact and usage-export
 * downloads): projects, pipelines, workflows, jobs with step output, tests and artifacts,
 * flaky-test insights, deploys and rollbacks, usage exports. docs/circleci-mock.md.
 */

/** 429 is CircleCI's `{"message": "Rate limit exceeded"}` with `Retry-After` and its RateLimit headers. */
function ciFault(order: FaultOrder, _req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') {
    return renderError(ciError(429, 'Rate limit exceeded', [
      ['Retry-After', String(order.retryAfter)], ['X-RateLimit-Limit', '300'], ['X-RateLimit-Remaining', '0'], ['X-RateLimit-Reset', String(Math.floor(ctx.nowMs / 1000) + order.retryAfter)],
    ]));
  }
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' || order.kind === '502' ? 502 : order.kind === '503' ? 503 : 500;
  return renderError(ciError(status, status === 500 ? 'Internal server error' : 'Service unavailable', order.kind === '503' ? [['Retry-After', String(order.retryAfter)]] : []));
}

export const circleciService = defineService<CircleciDataset, CiCtx>({
  id: 'circleci',
  version: '1',
  dataset: CircleciDatasetSchema,
  load: loadCircleci,
  context: ciContext,
  operations: ciOperations,
  errors: (error) => renderError(error),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': return ciError(400, `${detail.issues?.[0]?.path.join('.') || detail.where || 'parameter'}: ${detail.issues?.[0]?.message ?? 'invalid value'}`);
      case 'malformed_body': return ciError(400, 'Request body is not valid JSON.');
      case 'unauthenticated': return ciError(401, 'You must log in first.');
      case 'method_not_allowed': return ciError(405, 'Method not allowed');
      case 'payload_too_large': return ciError(413, 'Request entity too large');
      case 'internal_error': return ciError(500, 'Internal server error');
      case 'not_found': return ciError(404, 'Not found');
    }
  },
  middleware: [ciAuth],
  fault: ciFault,
  volatile: { tokens: '*', org: '*', workflows: ['order', 'started_by'], jobs: ['order'] },
});
