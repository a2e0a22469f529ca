import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { analyticsOperations } from './analytics.js';
import { cfAuth, cfContext, type CfCtx } from './context.js';
import { d1Operations, d1Rows } from './d1.js';
import { CloudflareDatasetSchema, type CloudflareDataset } from './dataset.js';
import { loadCloudflare } from './load.js';
import { cfError, dbOf, renderError } from './model.js';
import { platformOperations } from './platform.js';
import { storageOperations } from './storage.js';
import { unroutedOperations } from './unrouted.js';
import { workerOperations } from './workers.js';
import { zoneOperations } from './zones.js';

/**
 * Cloudflare's API v4 (api.cloudflare.com/client/v4): API tokens (`Authorization: Bearer`) and
 * Global API Keys (`X-Auth-Email` + `X-Auth-Key`); accounts, zones and DNS records; Workers
 * scripts, routes, custom domains, Durable Object namespaces; Workers KV; R2; D1 with a SQL
 * subset; the GraphQL Analytics API. Every answer is the v4 envelope `{result, success, errors,
 * messages[, result_info]}` (raw bytes for KV values, R2 objects and script sources), errors with
 * Cloudflare's numeric codes. docs/cloudflare-mock.md.
 */

/**
 * Cloudflare's answers when a fault stands in for the handler (docs/faults.md): 429 is its
 * rate-limit error 971 with `Retry-After`; 5xx are its 10000-range internal errors.
 */
function cfFault(order: FaultOrder, _req: ServiceRequest, _ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') {
    return renderError(cfError(429, [{ code: 971, message: 'Please wait and consider throttling your request speed' }], [['Retry-After', String(order.retryAfter)]]));
  }
  if (order.kind === '503') return renderError(cfError(503, [{ code: 10002, message: 'Service temporarily unavailable, please try again later' }], [['Retry-After', String(order.retryAfter)]]));
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' || order.kind === '502' ? 502 : 500;
  return renderError(cfError(status, [{ code: 10002, message: 'An unknown error has occurred' }]));
}

export const cloudflareService = defineService<CloudflareDataset, CfCtx>({
  id: 'cloudflare',
  version: '1',
  dataset: CloudflareDatasetSchema,
  load: loadCloudflare,
  context: cfContext,
  operations: [...zoneOperations, ...workerOperations, ...platformOperations, ...storageOperations, ...d1Operations, ...analyticsOperations, ...unroutedOperations],
  errors: (error) => renderError(error),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const issue = detail.issues?.[0];
        const where = issue?.path.join('.') || detail.where || 'request';
        if (detail.where === 'body') return cfError(400, [{ code: 9207, message: `Request body is invalid: ${where}: ${issue?.message ?? 'invalid value'}` }]);
        return cfError(400, [{ code: 1001, message: `Invalid ${where}: ${issue?.message ?? 'invalid value'}` }]);
      }
      case 'malformed_body': return cfError(400, [{ code: 6007, message: 'Malformed JSON in request body' }]);
      case 'unauthenticated': return cfError(400, [{ code: 9106, message: 'Missing X-Auth-Email header' }, { code: 9107, message: 'Missing X-Auth-Key header' }]);
      case 'method_not_allowed': return cfError(405, [{ code: 10000, message: 'Method not allowed for this endpoint' }]);
      case 'payload_too_large': return cfError(413, [{ code: 10012, message: 'Request entity too large' }]);
      case 'internal_error': return cfError(500, [{ code: 10002, message: 'An unknown error has occurred' }]);
      case 'not_found': return cfError(400, [{ code: 7000, message: 'No route for that URI' }]);
    }
  },
  middleware: [cfAuth],
  fault: cfFault,
  volatile: {
    // Credentials are not state an agent changes; etags, times and analytics follow from writes.
    tokens: '*',
    api_keys: '*',
    zone_traffic: '*',
    worker_invocations: '*',
    zones: ['modified_on'],
    dns_records: ['created_on', 'modified_on'],
    workers: ['etag', 'created_on', 'modified_on'],
    r2_objects: ['etag', 'uploaded'],
    // Graded row by row through the `d1_rows` view; the raw table dump would name every row twice.
    d1_databases: ['tables'],
  },
  views: (store) => ({ d1_rows: d1Rows(dbOf(store)) }),
});
