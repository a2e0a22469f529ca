import type { GraphQLSchema } from 'graphql';
import { jsonResponse, type ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { operation, rest } from '../kit/operation.js';
import { ServiceError } from '../kit/errors.js';
import { executeGraphQL, graphqlOperation, schemaFromSDL } from '../kit/graphql.js';
import { LinearDatasetSchema, type LinearDataset } from './dataset.js';
import { executionErrorJson, graphqlErrorJson, LinearError, ratelimited, renderLinearError, unauthenticated } from './errors.js';
import { loadLinear } from './load.js';
import { oauthToken } from './oauth.js';
import { col, type Rec } from './model.js';
import { fieldResolver, typeResolver, type LinearContext } from './resolve.js';
import { genericMutation, genericQuery, mutations, queries } from './roots.js';
import { linearSDL } from './schema/sdl.js';
import { linearViews, linearVolatile } from './views.js';

export type { LinearDataset } from './dataset.js';

// The SDL derived from the pinned SDK (schema/derive.ts), built on the first Linear request
// rather than when the module loads: ~70 ms that every world's start paid (issue 14).
let built: GraphQLSchema | undefined;
const linearSchema = (): GraphQLSchema => (built ??= schemaFromSDL(linearSDL));
const resolve = fieldResolver({ Query: queries, Mutation: mutations }, (operation, field) => (operation === 'Query' ? genericQuery() : genericMutation(field)));

/** `Authorization: lin_api_…` (a personal API key) or `Bearer …` (an OAuth token). */
function credential(req: ServiceRequest): string | null {
  const value = req.header('authorization')?.trim();
  if (!value) return null;
  return value.replace(/^Bearer\s+/i, '') || null;
}

function context(req: ServiceRequest, ctx: ServiceContext): LinearContext {
  const token = credential(req);
  const viewer = token === null ? null : col(ctx.store, 'User').find((u) => (u.apiKeys as string[]).includes(token) && u.active !== false)
    ?? col(ctx.store, 'User').get(col(ctx.store, 'OAuthToken').get(token)?.userId as string) ?? null;
  return { store: ctx.store, make: { store: ctx.store, ids: ctx.ids, nowIso: new Date(ctx.nowMs).toISOString() }, viewer: viewer as Rec | null, schema: linearSchema(), nowMs: ctx.nowMs, seq: ctx.seq };
}

/**
 * Linear's GraphQL API (api.linear.app/graphql) as the pinned `@tacticlaunch/mcp-linear` and
 * `@linear/sdk` use it: every root field the server can send resolves over the store (see
 * docs/linear-mock.md). Operations are named by root field: `Query.issues`, `Mutation.issueCreate`.
 */
export const linearService = defineService<LinearDataset, LinearContext>({
  id: 'linear',
  version: '1',
  dataset: LinearDatasetSchema,
  load: loadLinear,
  context,
  operations: [
    graphqlOperation<LinearContext>('/graphql', (call, c) => {
      if (call.decoded.kind !== 'graphql') {
        throw new LinearError(400, { type: 'graphql error', code: 'BAD_USER_INPUT', statusCode: 400, userError: true, userPresentableMessage: 'Must provide query string.' }, 'Must provide query string.');
      }
      const outcome = executeGraphQL(linearSchema(), call.decoded.value, { contextValue: c, fieldResolver: resolve, typeResolver });
      if (outcome.kind === 'syntax') return jsonResponse(400, { errors: outcome.errors.map((e) => graphqlErrorJson(e, 'GRAPHQL_PARSE_FAILED')) });
      if (outcome.kind !== 'executed') return jsonResponse(400, { errors: outcome.errors.map((e) => graphqlErrorJson(e, 'GRAPHQL_VALIDATION_FAILED')) });
      const { data, errors } = outcome.result;
      // Execution never began (a variable of the wrong type, a missing required one): a request error.
      if (data === undefined) return jsonResponse(400, { errors: (errors ?? []).map((e) => graphqlErrorJson(e, 'BAD_USER_INPUT')) });
      return jsonResponse(200, errors && errors.length > 0 ? { errors: errors.map(executionErrorJson), data: data ?? null } : { data });
    }, { schema: linearSchema }),
    operation<LinearContext, '/oauth/token'>('oauth.token', rest('POST', '/oauth/token'), (call, c) => oauthToken(call.body, c)),
  ],
  middleware: [
    (_req, c, next, matched) => {
      // The OAuth token endpoint authenticates the application by its form body, not a bearer.
      if (c.viewer === null && matched?.name !== 'oauth.token') throw unauthenticated();
      return next();
    },
  ],
  errors: (error) => renderLinearError(error),
  refusal: (reason, detail) => {
    if (reason === 'not_found' || reason === 'method_not_allowed') return new ServiceError(404, 'not_found', 'Cannot find the requested resource; Linear\'s API is POST /graphql');
    if (reason === 'malformed_body') return new LinearError(400, { type: 'graphql error', code: 'BAD_REQUEST', statusCode: 400, userError: true, userPresentableMessage: 'Invalid JSON body.' }, `Invalid JSON body: ${detail.message ?? ''}`.trim());
    if (reason === 'unauthenticated') return unauthenticated();
    if (reason === 'payload_too_large') return new ServiceError(413, 'payload_too_large', 'Request entity too large');
    return new LinearError(500, { type: 'internal error', code: 'INTERNAL_SERVER_ERROR', statusCode: 500, userError: false, userPresentableMessage: 'An unexpected error occurred.' }, 'Internal server error');
  },
  fault: (order) => {
    if (order.kind === '429') return renderLinearError(ratelimited(order.retryAfter));
    const status = /^\d+$/.test(order.kind) ? Number(order.kind) : order.kind === 'timeout' ? 504 : 502;
    return renderLinearError(new LinearError(status, { type: 'internal error', code: 'INTERNAL_SERVER_ERROR', statusCode: status, userError: false, userPresentableMessage: 'An unexpected error occurred.' }, `Internal server error (${status})`, order.kind === '503' ? [['Retry-After', String(order.retryAfter)]] : []));
  },
  volatile: linearVolatile,
  views: linearViews,
});
