import type { ServiceRequest } from '../core/http.js';
import { ServiceRequest as Request } from '../core/http.js';
import { defineService, type Middleware } from '../kit/define.js';
import { adminOperations } from './admin.js';
import { unauthenticated, zendeskContext, zendeskErrors, zendeskFault, zendeskRefusal, type ZendeskCtx } from './context.js';
import { ZendeskDatasetSchema, type ZendeskDataset } from './dataset.js';
import { loadZendesk } from './load.js';
import { peopleOperations } from './people.js';
import { searchOperations } from './search.js';
import { ticketOperations } from './tickets.js';

/** Every answer, errors included, names the API version as Zendesk's do. */
const zendeskHeaders: Middleware<ZendeskCtx> = (_req, _c, next) => {
  const response = next();
  return { ...response, headers: [...response.headers, ['X-Zendesk-API-Version', 'v2']] };
};

/** API-token auth (context.ts): anything else is Zendesk's 401. */
const zendeskAuth: Middleware<ZendeskCtx> = (_req, c, next) => {
  if (c.caller === null) throw unauthenticated();
  return next();
};

/**
 * Zendesk takes every path with or without `.json` (`/api/v2/tickets/7.json` = `/api/v2/tickets/7`);
 * operations are declared without it.
 */
function withoutJsonSuffix(req: ServiceRequest): ServiceRequest {
  if (!req.path.endsWith('.json')) return req;
  const q = req.target.indexOf('?');
  const target = req.path.slice(0, -'.json'.length) + (q === -1 ? '' : req.target.slice(q));
  return new Request(req.method, target, req.headers, req.body);
}

/**
 * Zendesk Support API v2 at `{subdomain}.zendesk.com/api/v2` on the service kit: tickets and
 * their comments and audits, users, organizations, groups, search with Zendesk's query syntax
 * (a subset), ticket fields, macros and views; API-token basic auth; offset and cursor pages;
 * Zendesk's error bodies and its 429 with Retry-After. docs/zendesk-mock.md.
 */
export const zendeskService = defineService<ZendeskDataset, ZendeskCtx>({
  id: 'zendesk',
  version: '1',
  dataset: ZendeskDatasetSchema,
  load: loadZendesk,
  context: zendeskContext,
  rewrite: withoutJsonSuffix,
  operations: [...ticketOperations, ...peopleOperations, ...searchOperations, ...adminOperations],
  errors: (error) => zendeskErrors(error),
  refusal: (reason, detail) => zendeskRefusal(reason, detail),
  middleware: [zendeskHeaders, zendeskAuth],
  fault: (order) => zendeskFault(order),
  volatile: {
    // Audits are the trail of every write, graded through the tickets and comments they record.
    audits: '*',
    tickets: ['updated_at'],
    users: ['updated_at'],
  },
});
