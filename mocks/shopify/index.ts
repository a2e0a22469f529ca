import { GraphQLError, validate, type GraphQLSchema } from 'graphql';
import { jsonResponse, ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { executeGraphQL, graphqlOperation, parseDocument, schemaFromSDL } from '../kit/graphql.js';
import type { GraphQLBody } from '../kit/bodies.js';
import { bucketAt, queryCost, SINGLE_QUERY_MAX, spend, throttleStatus, type CostBlock } from './cost.js';
import { ShopifyDatasetSchema, type ShopifyDataset } from './dataset.js';
import { DOCS_RATE_LIMITS, graphqlErrorJson, renderShopifyError, serverError, ShopifyGraphQLError, ShopifyHttpError, unauthorized } from './errors.js';
import { loadShopify } from './load.js';
import { tokens } from './model.js';
import { mutationRoot } from './mutations.js';
import { queryRoot } from './queries.js';
import { shopifySDL } from './schema.js';
import type { ShopifyContext } from './views.js';

export type { ShopifyDataset } from './dataset.js';

let built: GraphQLSchema | undefined;
const shopifySchema = (): GraphQLSchema => (built ??= schemaFromSDL(shopifySDL));

/** The one GraphQL path every version answers on, after `rewrite`. */
const GRAPHQL_PATH = '/admin/api/graphql.json';
/** `/admin/api/2026-01/graphql.json`: a quarterly release or `unstable`. */
const VERSIONED = /^\/admin\/api\/(\d{4}-(?:01|04|07|10)|unstable)\/graphql\.json$/;

interface RequestContext extends ShopifyContext {
  readonly token: string | null;
  readonly seq: number;
}

function context(req: ServiceRequest, ctx: ServiceContext): RequestContext {
  const header = req.header('x-shopify-access-token')?.trim();
  const token = header && tokens(ctx.store).has(header) ? header : null;
  return { store: ctx.store, ids: ctx.ids, nowMs: ctx.nowMs, nowIso: new Date(ctx.nowMs).toISOString().replace('.000Z', 'Z'), token, seq: ctx.seq };
}

const costExtensions = (cost: CostBlock) => ({ cost });

/** graphql-js's wording of an unknown field, in Shopify's (graphql-ruby's). */
function validationErrorJson(error: GraphQLError): Record<string, unknown> {
  const field = /^Cannot query field "(\w+)" on type "(\w+)"\./.exec(error.message);
  const message = field ? `Field '${field[1]!}' doesn't exist on type '${field[2]!}'` : error.message;
  const extensions = field ? { code: 'undefinedField', typeName: field[2], fieldName: field[1] } : { code: 'GRAPHQL_VALIDATION_FAILED' };
  return { message, ...(error.locations ? { locations: error.locations } : {}), extensions };
}

const throttled = (requested: number, available: number) => jsonResponse(200, {
  errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: DOCS_RATE_LIMITS } }],
  extensions: costExtensions({ requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus(available) }),
});

const maxCostExceeded = (requested: number, available: number) => jsonResponse(200, {
  errors: [{
    message: `Query cost is ${requested}, which exceeds the single query max cost limit (${SINGLE_QUERY_MAX}).\n\nSee ${DOCS_RATE_LIMITS} for more information on how the\ncost of a query is calculated.\n\nTo query larger amounts of data with fewer limits, bulk operations should be used instead.\nSee https://shopify.dev/tutorials/perform-bulk-operations-with-admin-api for usage details.\n`,
    extensions: { code: 'MAX_COST_EXCEEDED', cost: requested, maxCost: SINGLE_QUERY_MAX, documentation: DOCS_RATE_LIMITS },
  }],
  extensions: costExtensions({ requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus(available) }),
});

const syntaxErrorJson = (e: GraphQLError) => ({ message: e.message, ...(e.locations ? { locations: e.locations } : {}) });

/** Parse, validate, cost, throttle (before anything runs), execute, and answer with Shopify's cost block. */
function graphql(body: GraphQLBody, c: RequestContext): ServiceResponse {
  const schema = shopifySchema();
  const token = c.token!;
  const document = parseDocument(body.query);
  if (document instanceof GraphQLError) return jsonResponse(200, { errors: [syntaxErrorJson(document)] });
  const available = bucketAt(c.store, token, c.nowMs);
  const requested = queryCost(schema, document, body.operationName, body.variables) ?? 0;
  if (requested > SINGLE_QUERY_MAX || requested > available) {
    // Refused for its cost, unless it is not a valid request at all.
    const invalid = validate(schema, document);
    if (invalid.length > 0) return jsonResponse(200, { errors: invalid.map(validationErrorJson) });
    if (requested > SINGLE_QUERY_MAX) return maxCostExceeded(requested, available);
    return throttled(requested, available);
  }
  // Object.assign on the fresh root, not `{ ...queryRoot(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  const outcome = executeGraphQL(schema, body, { contextValue: c, rootValue: Object.assign(queryRoot(c), mutationRoot(c)) });
  if (outcome.kind === 'invalid') return jsonResponse(200, { errors: outcome.errors.map(validationErrorJson) });
  if (outcome.kind !== 'executed') return jsonResponse(200, { errors: outcome.errors.map(syntaxErrorJson) });
  const { data, errors } = outcome.result;
  // A variable of the wrong type or a missing one: nothing ran.
  if (data === undefined) return jsonResponse(200, { errors: (errors ?? []).map((e) => graphqlErrorJson(e, 'INVALID_VARIABLE')) });
  for (const e of errors ?? []) {
    // A resolver bug is the mock's, not the API's: let the world report it and roll back.
    const original = e.originalError;
    if (original && !(original instanceof ShopifyGraphQLError) && !(original instanceof GraphQLError)) throw original;
  }
  const actual = queryCost(schema, document, body.operationName, body.variables, data) ?? 0;
  spend(c.store, token, c.nowMs, available - actual);
  const extensions = costExtensions({ requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: throttleStatus(available - actual) });
  return jsonResponse(200, errors && errors.length > 0 ? { errors: errors.map((e) => graphqlErrorJson(e)), data, extensions } : { data, extensions });
}

/**
 * Shopify's GraphQL Admin API at `{shop}.myshopify.com/admin/api/<version>/graphql.json`, as the
 * pinned shopify-mcp and @shopify/admin-api-client use it (docs/shopify-mock.md). Requests are
 * named by root field (`Query.orders`, `Mutation.orderUpdate`), cost points from a per-token bucket
 * on the logical clock, and are throttled as Shopify throttles them.
 *
 * Writes happen inside mutations before execution ends, and queries never write (the answer
 * follows from the document); the cost bucket is written only once the query's cost is known.
 */
export const shopifyService = defineService<ShopifyDataset, RequestContext>({
  id: 'shopify',
  version: '1',
  dataset: ShopifyDatasetSchema,
  load: loadShopify,
  context,
  rewrite: (req) => (VERSIONED.test(req.path) ? new ServiceRequest(req.method, GRAPHQL_PATH + req.target.slice(req.path.length), req.headers, req.body) : req),
  operations: [
    graphqlOperation<RequestContext>(GRAPHQL_PATH, (call, c) => {
      if (call.decoded.kind !== 'graphql') return jsonResponse(400, { errors: { query: 'Required parameter missing or invalid' } });
      return graphql(call.decoded.value, c);
    }, { schema: shopifySchema }),
  ],
  middleware: [
    (req, c, next) => {
      if (c.token === null) throw unauthorized();
      const version = /^\/admin\/api\/([^/]+)\//.exec(req.path)?.[1];
      const response = next();
      return version ? { ...response, headers: [...response.headers, ['X-Shopify-API-Version', version]] } : response;
    },
  ],
  errors: (error) => renderShopifyError(error),
  refusal: (reason) => {
    if (reason === 'not_found' || reason === 'method_not_allowed') return new ShopifyHttpError(404, 'Not Found');
    if (reason === 'malformed_body') return new ShopifyHttpError(400, 'Bad Request');
    if (reason === 'unauthenticated') return unauthorized();
    if (reason === 'payload_too_large') return new ShopifyHttpError(413, 'Payload Too Large');
    if (reason === 'invalid_params') return new ShopifyHttpError(400, 'Bad Request');
    return new ShopifyHttpError(500, 'Internal Server Error');
  },
  fault: (order, req, ctx) => {
    if (order.kind === '429') {
      // Shopify throttles GraphQL with HTTP 200 and a THROTTLED error: the bucket holds too few
      // points for the query, short by what `retry_after` seconds of restore would bring.
      let requested = 10;
      try {
        const body = JSON.parse(req.text()) as { query?: string; operationName?: string; variables?: Record<string, unknown> };
        const document = typeof body.query === 'string' ? parseDocument(body.query) : null;
        if (document && !(document instanceof GraphQLError)) requested = queryCost(shopifySchema(), document, body.operationName ?? null, body.variables ?? {}) ?? requested;
      } catch { /* not JSON: the default cost */ }
      return throttled(requested, Math.max(0, requested - 100 * order.retryAfter));
    }
    const status = /^\d+$/.test(order.kind) ? Number(order.kind) : order.kind === 'timeout' ? 504 : 502;
    const requestId = `${ctx.ids.opaque('request-id', ctx.seq, 8)}-${ctx.ids.opaque('request-id', ctx.seq, 40).slice(8, 12)}`;
    return serverError(status, requestId, order.kind === '503' ? [['Retry-After', String(order.retryAfter)]] : []);
  },
  volatile: {
    throttle: '*',
    products: ['updatedAt'],
    variants: ['updatedAt', 'inventoryItemId'],
    customers: ['updatedAt'],
    orders: ['updatedAt'],
  },
});
