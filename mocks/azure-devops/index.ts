import { createHash } from 'node:crypto';
import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { decodeBody } from '../kit/bodies.js';
import { buildOperations } from './build.js';
import { adoAuth, adoContext, type AdoCtx } from './context.js';
import { coreOperations } from './core.js';
import { AzureDevopsDatasetSchema, type AzureDevopsDataset } from './dataset.js';
import { gitOperations } from './git.js';
import { loadAzureDevops } from './load.js';
import { adoRewrite, literalsOf, locationOperations } from './locations.js';
import { adoError, guidOf, renderError } from './model.js';
import { searchOperations } from './search.js';
import { azureDevopsViews } from './views.js';
import { testOperations } from './testing.js';
import { wikiOperations } from './wiki.js';
import { witOperations } from './wit.js';
import { workOperations } from './work.js';

/**
 * Azure DevOps Services (dev.azure.com, vssps.dev.azure.com, almsearch.dev.azure.com,
 * vstmr.dev.azure.com, advsec.dev.azure.com): resource-location discovery for
 * azure-devops-node-api, projects and teams, identities, work items (WIQL, JSON Patch,
 * comments, links, revisions, $batch), boards and iterations, Git repositories with pull
 * requests and threads, builds and pipelines with logs, test plans and results, wikis, search
 * and Advanced Security alerts. Hand-written handlers: no usable OpenAPI description exists
 * (docs/azure-devops-mock.md).
 */

const operations = [...locationOperations, ...coreOperations, ...witOperations, ...workOperations, ...gitOperations, ...buildOperations, ...testOperations, ...wikiOperations, ...searchOperations];

/** ADO answers every error with an ActivityId; the mock derives it from the request's sequence number. */
const activityOf = (ctx: ServiceContext | null) => {
  // A function of the request's place in the journal only, so that another seed leaves it alone.
  const hex = createHash('sha256').update(`activity/${ctx?.seq ?? 0}`).digest('hex');
  return guidOf(hex);
};

/** 429 is ADO's throttling answer (TF400733) with Retry-After and its X-RateLimit headers. */
function adoFault(order: FaultOrder, _req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') {
    return renderError(adoError(429, 'RequestBlockedException', 'TF400733: The request has been canceled: Request was blocked due to exceeding usage of resource \'Concurrency\' in namespace \'User\'. For more information on why your request was blocked, see the topic "Rate limits" on the Microsoft Web site (https://go.microsoft.com/fwlink/?LinkId=823950).', {
      headers: [['Retry-After', String(order.retryAfter)], ['X-RateLimit-Resource', 'Concurrency'], ['X-RateLimit-Delay', '0'], ['X-RateLimit-Limit', '200'], ['X-RateLimit-Remaining', '0'], ['X-RateLimit-Reset', String(Math.floor(ctx.nowMs / 1000) + order.retryAfter)]],
    }), activityOf(ctx));
  }
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' || order.kind === '502' ? 502 : order.kind === '503' ? 503 : 500;
  const error = status === 500
    ? adoError(500, 'VssServiceException', 'VS800075: An unexpected error occurred. Please try again later.', { namespace: 'Microsoft.VisualStudio.Services.WebApi' })
    : adoError(status, 'ServiceUnavailableException', `TF400898: The service is temporarily unavailable (${status}). Try again later.`, { namespace: 'Microsoft.VisualStudio.Services.WebApi', headers: order.kind === '503' ? [['Retry-After', String(order.retryAfter)]] : [] });
  return renderError(error, activityOf(ctx));
}

/** Reads that Azure DevOps answers to a POST (queries, batches, searches): no state changes. */
export const ADO_POST_READS: ReadonlySet<string> = new Set(['wit.queryByWiql', 'wit.getWorkItemsBatch', 'wiki.getPagesBatch', 'git.getPullRequestQuery',
  'search.fetchWorkItemSearchResults', 'search.fetchCodeSearchResults', 'search.fetchWikiSearchResults', 'search.fetchCommitSearchResults']);

export const azureDevopsService = defineService<AzureDevopsDataset, AdoCtx>({
  id: 'azure-devops',
  // Bump when any answer changes a byte: journals of this service then need a re-record.
  version: '1',
  dataset: AzureDevopsDatasetSchema,
  load: loadAzureDevops,
  context: adoContext,
  operations,
  rewrite: adoRewrite(literalsOf(operations)),
  // Work item patches are `application/json-patch+json`; ADO reads every body as JSON.
  decode: (req, options) => decodeBody(req.headers.map(([k, v]) => (k.toLowerCase() === 'content-type' && v.includes('json') ? [k, 'application/json'] : [k, v])), req.body, options),
  errors: (error, context) => renderError(error, activityOf(context?.ctx ?? null)),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': return adoError(400, 'InvalidArgumentValueException', `The value of parameter ${detail.issues?.[0]?.path.join('.') || detail.where || 'body'} is not valid.`, { namespace: 'Microsoft.VisualStudio.Services.Common' });
      case 'malformed_body': return adoError(400, 'VssRequestContentException', 'VS402352: The request body could not be read as JSON.', { namespace: 'Microsoft.VisualStudio.Services.WebApi' });
      case 'unauthenticated': return adoError(401, 'UnauthorizedRequestException', "TF400813: The user '' is not authorized to access this resource.");
      case 'method_not_allowed': return adoError(405, 'HttpMethodNotAllowedException', `The requested resource does not support http method. Allowed: ${(detail.allowed ?? []).join(', ')}.`, { namespace: 'System.Web.Http' });
      case 'payload_too_large': return adoError(413, 'RequestContentTooLargeException', 'VS403409: The request body is larger than the maximum allowed size.');
      case 'internal_error': return adoError(500, 'VssServiceException', 'VS800075: An unexpected error occurred. Please try again later.', { namespace: 'Microsoft.VisualStudio.Services.WebApi' });
      case 'not_found': return adoError(404, 'ApiResourceNotFoundException', 'VS402371: The resource cannot be found. API resource location was not found for the route.', { namespace: 'Microsoft.VisualStudio.Services.WebApi' });
    }
  },
  middleware: [adoAuth],
  fault: adoFault,
  views: azureDevopsViews,
  // Raw work items and their revisions are stamped on every write; graders read the `workitems` view.
  volatile: {
    org: '*', tokens: '*', work_items: '*', revisions: '*', logs: '*',
    comments: ['id', 'createdDate', 'modifiedDate', 'version'],
    threads: ['publishedDate', 'lastUpdatedDate'],
    pull_requests: ['creationDate', 'closedDate'],
    builds: ['queueTime', 'buildNumber'],
    pages: ['eTag', 'id'],
    iterations: ['id', 'identifier'],
  },
});
