import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { ServiceError } from '../kit/errors.js';
import { uuidId } from '../kit/ids.js';
import { loadCorpus } from '../kit/web/render.js';
import { retrievalOperations } from './api.js';
import { exaAuth, exaContext, exaError, type ExaCtx } from './context.js';
import { ExaDatasetSchema, type ExaDataset } from './dataset.js';
import { taskOperations } from './tasks.js';

/**
 * Exa (api.exa.ai) over the scenario's web (mocks/kit/web): the key in `x-api-key` (or a bearer
 * token); every error is `{"requestId", "error", "tag"}` (400 INVALID_REQUEST_BODY, 401
 * INVALID_API_KEY, 402 NO_MORE_CREDITS, 404 NOT_FOUND, 429 RATE_LIMIT_EXCEEDED, …). docs/exa-mock.md.
 */

/** Error bodies carry a request id; with no request context (a refusal before it), a seeded one from the world. */
function render(error: ServiceError, ctx: ServiceContext | null): ServiceResponse {
  const requestId = ctx ? uuidId(ctx, 'request').replace(/-/g, '') : '00000000000000000000000000000000';
  return jsonResponse(error.status, { requestId, error: error.message, tag: error.code }, error.headers as [string, string][]);
}

function exaFault(order: FaultOrder, _req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') return render(exaError(429, 'RATE_LIMIT_EXCEEDED', 'You have exceeded your rate limit. Please slow down and retry after a moment.', [['Retry-After', String(order.retryAfter)]]), ctx);
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' ? 502 : Number(order.kind);
  const words: Record<number, [string, string]> = { 500: ['INTERNAL_ERROR', 'Internal server error'], 502: ['BAD_GATEWAY', 'Bad gateway'], 503: ['SERVICE_UNAVAILABLE', 'Service temporarily unavailable'], 504: ['GATEWAY_TIMEOUT', 'The request timed out'] };
  const [tag, message] = words[status] ?? ['INTERNAL_ERROR', 'Internal server error'];
  return render(exaError(status, tag, message, status === 503 ? [['Retry-After', String(order.retryAfter)]] : []), ctx);
}

export const exaService = defineService<ExaDataset, ExaCtx>({
  id: 'exa',
  // Bump when any answer changes a byte: journals of this service then need a re-record.
  version: '1',
  dataset: ExaDatasetSchema,
  load(data, ctx) {
    const keys = ctx.store.collection('keys');
    for (const key of data.keys) keys.put(key.key, key);
    loadCorpus(ctx.store, ctx, data.pages, data.places);
  },
  context: exaContext,
  operations: [...retrievalOperations, ...taskOperations],
  errors: (error, c) => render(error, c?.ctx ?? null),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const issue = detail.issues?.[0];
        const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
        return exaError(400, 'INVALID_REQUEST_BODY', `Invalid request body: ${where}${issue?.message ?? 'invalid value'}`);
      }
      case 'malformed_body': return exaError(400, 'INVALID_REQUEST_BODY', 'Invalid request body: the body is not valid JSON');
      case 'unauthenticated': return exaError(401, 'INVALID_API_KEY', 'Invalid API key');
      case 'method_not_allowed': return exaError(405, 'METHOD_NOT_ALLOWED', 'Method not allowed');
      case 'payload_too_large': return exaError(413, 'PAYLOAD_TOO_LARGE', 'Request entity too large');
      case 'internal_error': return exaError(500, 'INTERNAL_ERROR', 'Internal server error');
      case 'not_found': return exaError(404, 'NOT_FOUND', 'Not found');
    }
  },
  middleware: [exaAuth],
  fault: exaFault,
  // Keys are credentials; spend counts every call; task times come from the clock.
  volatile: { keys: '*', spend: '*', research: ['createdAt'], agentRuns: ['createdMs', 'cancelledMs'] },
});
