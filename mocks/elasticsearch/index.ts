import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { esAuth, esContext, type EsCtx } from './context.js';
import { ElasticsearchDatasetSchema, type ElasticsearchDataset } from './dataset.js';
import { documentOperations } from './documents.js';
import { indexOperations } from './indices.js';
import { loadElasticsearch } from './load.js';
import { badRequest, EsError, esJson } from './model.js';
import { sameApi } from './routes.js';
import { searchOperations } from './search-ops.js';

/**
 * An Elasticsearch 9 deployment (Elastic Cloud, three nodes) reached by `ES_URL`: API-key auth,
 * indices with mappings (dynamic mapping of new fields), documents, the query DSL with BM25
 * scoring, sorting, paging, `_source` filtering, highlighting and aggregations, `_cat`, and
 * Elasticsearch's error bodies. docs/elasticsearch-mock.md.
 */

function render(error: EsError | import('../kit/errors.js').ServiceError, accept: string | undefined): ServiceResponse {
  const es = error instanceof EsError ? error : new EsError(error.status, { type: error.code, reason: error.message });
  const response = esJson(es.status, es.body(), accept);
  // The security layer answers before the REST layer adds the product header.
  const headers = es.status === 401 ? response.headers.filter(([name]) => name !== 'X-elastic-product') : response.headers;
  return { ...response, headers: [...headers, ...es.headers] };
}

/** 429 is the search thread pool's queue being full (`es_rejected_execution_exception`), as a loaded cluster answers; 5xx are Elastic Cloud's proxy. */
function esFault(order: FaultOrder, req: ServiceRequest): ServiceResponse {
  const accept = req.header('accept');
  if (order.kind === '429') {
    const reason = 'rejected execution of org.elasticsearch.action.search.SearchQueryThenFetchAsyncAction$1@4d0c2a3f on TaskExecutionTimeTrackingEsThreadPoolExecutor[name = instance-0000000001/search, queue capacity = 1000, task execution EWMA = 2.1ms, total task execution time = 1.9h, org.elasticsearch.common.util.concurrent.TaskExecutionTimeTrackingEsThreadPoolExecutor@6f1d0b5e[Running, pool size = 13, active threads = 13, queued tasks = 1000, completed tasks = 8812331]]';
    return render(new EsError(429, { type: 'es_rejected_execution_exception', reason }), accept);
  }
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' || order.kind === '502' ? 502 : order.kind === '503' ? 503 : 500;
  if (status === 500) return render(new EsError(500, { type: 'exception', reason: 'Elasticsearch exception [type=exception, reason=internal error]' }), accept);
  // Elastic Cloud's proxy in front of the deployment answers gateway errors itself, in its own shape.
  return { status, headers: [['content-type', 'application/json; charset=UTF-8'], ...(order.kind === '503' ? [['Retry-After', String(order.retryAfter)] as [string, string]] : [])], body: new TextEncoder().encode(JSON.stringify({ ok: false, message: status === 504 ? 'Request timed out.' : 'Resource temporarily unavailable.' })) };
}

export const elasticsearchService = defineService<ElasticsearchDataset, EsCtx>({
  id: 'elasticsearch',
  version: '1',
  dataset: ElasticsearchDatasetSchema,
  load: loadElasticsearch,
  context: esContext,
  operations: sameApi([...searchOperations, ...documentOperations, ...indexOperations]),
  errors: (error, context) => render(error, context?.accept),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': return badRequest('illegal_argument_exception', `request [${detail.operation ?? ''}] has invalid ${detail.where ?? 'parameters'}: ${detail.issues?.[0]?.message ?? 'invalid value'}`);
      case 'malformed_body': return new EsError(400, { type: 'x_content_parse_exception', reason: `[1:1] ${detail.message ?? 'Unexpected character'}` });
      case 'unauthenticated': return new EsError(401, { type: 'security_exception', reason: 'missing authentication credentials for REST request' });
      case 'method_not_allowed': return EsError.plain(405, `Incorrect HTTP method for uri, allowed: [${(detail.allowed ?? []).join(', ')}]`);
      case 'payload_too_large': return new EsError(413, { type: 'content_too_long_exception', reason: 'request body is too large' });
      case 'internal_error': return new EsError(500, { type: 'exception', reason: 'internal error' });
      case 'not_found': return EsError.plain(400, 'no handler found for uri and method');
    }
  },
  middleware: [esAuth],
  fault: esFault,
  volatile: {
    api_keys: '*',
    cluster: '*',
    indices: ['nextSeq', 'uuid', 'created'],
    docs: ['seqNo', 'version', 'order'],
  },
});

