import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService, type Middleware } from '../kit/define.js';
import { clusterSummaries, settleClusters } from './clusters.js';
import { atlasAuth, atlasContext, type AtlasCtx } from './context.js';
import { MongodbAtlasDatasetSchema, type MongodbAtlasDataset } from './dataset.js';
import { atlasFallback, customMethodOperations, customMethodRewrite, resourceVersions } from './fallback.js';
import { knowledgeOperations, knowledgeRewrite } from './knowledge.js';
import { loadAtlas } from './load.js';
import { atlasError, dbOf, renderAtlasError } from './model.js';
import { atlasOperations } from './ops.js';
import { streamOperations } from './streams.js';
import { tokenOperations } from './token.js';

/**
 * MongoDB Atlas's Administration API v2 (cloud.mongodb.com/api/atlas/v2): service-account OAuth
 * tokens, versioned media types (`application/vnd.atlas.YYYY-MM-DD+json`), Atlas's error
 * envelope `{detail, error, errorCode, parameters, reason}`, `{links, results, totalCount}`
 * lists; and MongoDB Assistant's knowledge base (knowledge.mongodb.com). docs/mongodb-atlas-mock.md.
 */

/**
 * Versioned resources: a success answer carries the resource version the request's `Accept`
 * resolves to (`application/vnd.atlas.<version>+json`, as Atlas sends it); an `Accept` dated
 * before the one version modelled is refused with Atlas's 406.
 */
const versioned: Middleware<AtlasCtx> = (_req, c, next, matched) => {
  const version = matched ? resourceVersions.get(matched.name) : undefined;
  if (version === undefined) return next();
  if (c.version !== null && c.version < version) throw atlasError(406, 'INVALID_VERSION_DATE', 'Invalid accept header or version date.');
  const response = next();
  if (response.status >= 300 || response.body.length === 0) return response;
  const headers = response.headers.map(([name, value]): [string, string] => (name.toLowerCase() === 'content-type' && value.startsWith('application/json') ? [name, `application/vnd.atlas.${version}+json;charset=utf-8`] : [name, value]));
  return { ...response, headers };
};

/** Clusters move on with the logical clock before anything reads them. */
const settle: Middleware<AtlasCtx> = (_req, c, next) => {
  settleClusters(c.db, c.ctx.nowMs);
  return next();
};

/**
 * Atlas's answers when a fault stands in for the handler (docs/faults.md): 429 is
 * `RATE_LIMITED` with `RateLimit-Limit`, `RateLimit-Remaining: 0` and `Retry-After`, as the
 * spec's `tooManyRequests` response has them; 5xx are `UNEXPECTED_ERROR` / `SERVICE_UNAVAILABLE`.
 */
function atlasFault(order: FaultOrder, _req: ServiceRequest, _ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') {
    return renderAtlasError(atlasError(429, 'RATE_LIMITED', 'You have exceeded the rate limit. Please try again later.', [], [
      ['RateLimit-Limit', '100'], ['RateLimit-Remaining', '0'], ['Retry-After', String(order.retryAfter)],
    ]));
  }
  if (order.kind === '503') return renderAtlasError(atlasError(503, 'SERVICE_UNAVAILABLE', 'Service is temporarily unavailable. Please try again later.', [], [['Retry-After', String(order.retryAfter)]]));
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' || order.kind === '502' ? 502 : 500;
  return renderAtlasError(atlasError(status, 'UNEXPECTED_ERROR', 'Unexpected error.'));
}

export const mongodbAtlasService = defineService<MongodbAtlasDataset, AtlasCtx>({
  id: 'mongodb-atlas',
  // Bump when any answer changes a byte: journals of this service then need a re-record.
  version: '1',
  dataset: MongodbAtlasDatasetSchema,
  load: loadAtlas,
  context: atlasContext,
  rewrite: (req) => customMethodRewrite(knowledgeRewrite(req)),
  operations: [...tokenOperations, ...atlasOperations, ...streamOperations, ...customMethodOperations, ...knowledgeOperations],
  fallback: atlasFallback,
  middleware: [atlasAuth, versioned, settle],
  errors: (error) => renderAtlasError(error),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const issue = detail.issues?.[0];
        const name = issue?.path.join('.') || (detail.where === 'body' ? 'body' : 'parameter');
        return issue?.code === 'invalid_type' && issue.message === 'Required'
          ? atlasError(400, 'MISSING_ATTRIBUTE', `The required attribute ${name} was not specified.`, [name])
          : atlasError(400, 'INVALID_ATTRIBUTE', `Invalid attribute ${name} specified.`, [name]);
      }
      case 'malformed_body': return atlasError(400, 'INVALID_JSON', 'Received JSON is malformed.');
      case 'unauthenticated': return atlasError(401, 'UNAUTHORIZED', 'You are not authorized for this resource.');
      case 'method_not_allowed': return atlasError(405, 'METHOD_NOT_ALLOWED', 'Method not allowed.');
      case 'payload_too_large': return atlasError(413, 'PAYLOAD_TOO_LARGE', 'Request payload too large.');
      case 'internal_error': return atlasError(500, 'UNEXPECTED_ERROR', 'Unexpected error.');
      case 'not_found': return atlasError(404, 'RESOURCE_NOT_FOUND', 'Cannot find resource.');
    }
  },
  fault: atlasFault,
  views: (store) => ({ cluster_summaries: clusterSummaries(dbOf(store)) }),
  volatile: {
    // Credentials and issued tokens are not state an agent changes.
    service_accounts: '*',
    api_keys: '*',
    tokens: '*',
    settings: '*',
    knowledge_sources: '*',
    knowledge_documents: '*',
    // Seeded ids, logical timestamps and settling bookkeeping.
    clusters: ['id', 'createDate', 'hostTag', 'readyAtMs', 'stateName'],
    flex_clusters: ['id', 'createDate', 'hostTag', 'readyAtMs', 'stateName'],
    projects: ['id', 'created'],
    alerts: ['alertConfigId'],
    stream_workspaces: ['_id', 'hostnames'],
    stream_processors: ['_id'],
    // A view: the clusters' own documents carry their changes.
    cluster_summaries: '*',
    sample_dataset_loads: ['_id', 'createDate', 'readyAtMs', 'state'],
  },
});
