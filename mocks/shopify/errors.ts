import type { GraphQLError } from 'graphql';
import { jsonResponse, type ServiceResponse } from '../core/http.js';
import { ServiceError } from '../kit/errors.js';

/**
 * Shopify's error bodies. Outside GraphQL (auth, unknown path, a body that is not JSON) the Admin
 * API answers `{"errors": "<text>"}` with the HTTP status; inside GraphQL it answers HTTP 200
 * with `{"errors": [{message, locations?, path?, extensions: {code, …}}]}` beside `data`, and a
 * cost block under the top-level `extensions` (cost.ts). `THROTTLED` and `MAX_COST_EXCEEDED`
 * are GraphQL errors too, without data.
 */
export const DOCS_RATE_LIMITS = 'https://shopify.dev/api/usage/rate-limits';

/** An error a resolver raises: rendered in `errors[]` with its extensions, `data` null at its path. */
export class ShopifyGraphQLError extends Error {
  constructor(message: string, readonly extensions: Record<string, unknown>) {
    super(message);
  }
}

export const invalidGid = (value: string) => new ShopifyGraphQLError(`Invalid global id '${value}'`, { code: 'argumentLiteralsIncompatible', typeName: 'CoercionError' });

/** A connection asked for without a page size, or a size Shopify refuses. */
export const connectionError = (message: string) => new ShopifyGraphQLError(message, { code: 'BAD_REQUEST' });

/** An error outside GraphQL, rendered as `{"errors": message}`. */
export class ShopifyHttpError extends ServiceError {
  constructor(status: number, message: string, headers: readonly [string, string][] = []) {
    super(status, 'shopify', message, undefined, headers);
  }
}

export const unauthorized = () => new ShopifyHttpError(401, '[API] Invalid API key or access token (unrecognized login or wrong password)');

export function renderShopifyError(error: ServiceError): ServiceResponse {
  return jsonResponse(error.status, { errors: error.message }, [...error.headers]);
}

/** A GraphQL error in Shopify's shape: message, locations, path, extensions (code first). */
export function graphqlErrorJson(error: GraphQLError, fallbackCode?: string): Record<string, unknown> {
  const original = error.originalError;
  const extensions = original instanceof ShopifyGraphQLError ? original.extensions
    : fallbackCode !== undefined ? { code: fallbackCode }
    : original ? { code: 'INTERNAL_SERVER_ERROR' } : undefined;
  return {
    message: error.message,
    ...(error.locations ? { locations: error.locations } : {}),
    ...(error.path ? { path: error.path } : {}),
    ...(extensions ? { extensions } : {}),
  };
}

/** Shopify's answer for a 5xx: a GraphQL error list with a request id, in the HTTP status. */
export function serverError(status: number, requestId: string, headers: readonly [string, string][] = []): ServiceResponse {
  const message = status === 503 ? 'Service Unavailable' : status === 504 ? 'Gateway Timeout' : status === 502 ? 'Bad Gateway' : 'Internal error. Looks like something went wrong on our end.';
  return jsonResponse(status, { errors: [{ message: `${message}\nRequest ID: ${requestId} (include this in support requests).`, extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } }] }, [['X-Request-Id', requestId], ...headers]);
}
