import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { ServiceError } from '../kit/errors.js';
import { loadCorpus } from '../kit/web/render.js';
import { tavilyOperations } from './api.js';
import { tavilyAuth, tavilyContext, tavilyError, type TavilyCtx } from './context.js';
import { TavilyDatasetSchema, type TavilyDataset } from './dataset.js';

/**
 * Tavily (api.tavily.com) over the scenario's web (mocks/kit/web): a `tvly-` key as a bearer token or
 * the body's `api_key`; errors as `{"detail": {"error": …}}` (401, 400, 404, 429, 432), schema
 * failures as FastAPI's 422 `{"detail": [{type, loc, msg}]}`. docs/tavily-mock.md.
 */

const render = (error: ServiceError): ServiceResponse => {
  if (error.code === 'validation') return jsonResponse(422, { detail: error.details.detail }, error.headers as [string, string][]);
  return jsonResponse(error.status, { detail: { error: error.message } }, error.headers as [string, string][]);
};

function tavilyFault(order: FaultOrder, _req: ServiceRequest, _ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') return render(tavilyError(429, 'Your request has been blocked due to excessive requests. Please reduce rate of requests.', [['Retry-After', String(order.retryAfter)]]));
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' ? 502 : Number(order.kind);
  return render(tavilyError(status, status === 503 ? 'Service temporarily unavailable. Please try again later.' : 'Internal Server Error', status === 503 ? [['Retry-After', String(order.retryAfter)]] : []));
}

export const tavilyService = defineService<TavilyDataset, TavilyCtx>({
  id: 'tavily',
  version: '1',
  dataset: TavilyDatasetSchema,
  load(data, ctx) {
    const keys = ctx.store.collection('keys');
    for (const key of data.keys) keys.put(key.key, key);
    loadCorpus(ctx.store, ctx, data.pages, data.places);
  },
  context: tavilyContext,
  operations: tavilyOperations,
  errors: (error) => render(error),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const issues = detail.issues ?? [];
        // Tavily's own messages for the fields it checks itself; FastAPI's 422 list for the rest.
        const own = issues.find((i) => ['Query is missing.', 'URL is missing.', 'Input is missing.', 'Max 20 URLs are allowed.'].includes(i.message) || i.message.startsWith('Query is too long'));
        if (own) return tavilyError(400, own.message);
        return new ServiceError(422, 'validation', 'validation', { detail: issues.map((i) => ({ type: i.code === 'invalid_type' ? (i.received === 'undefined' ? 'missing' : 'type_error') : 'value_error', loc: [detail.where ?? 'body', ...i.path.map(String)], msg: i.message })) });
      }
      case 'malformed_body': return new ServiceError(422, 'validation', 'validation', { detail: [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error' }] });
      case 'unauthenticated': return tavilyError(401, 'Unauthorized: missing or invalid API key.');
      case 'method_not_allowed': return tavilyError(405, 'Method Not Allowed');
      case 'payload_too_large': return tavilyError(413, 'Request entity too large');
      case 'internal_error': return tavilyError(500, 'Internal Server Error');
      case 'not_found': return tavilyError(404, 'Not Found');
    }
  },
  middleware: [tavilyAuth],
  fault: tavilyFault,
  // Keys are credentials; credits count every call; request ids are seeded.
  volatile: { keys: '*', credits: '*', research: ['created_ms'] },
});
