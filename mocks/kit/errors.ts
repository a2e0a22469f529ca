import type { ServiceResponse } from '../core/http.js';

/**
 * An error a handler (or the kit) throws to answer with the service's own error: the kit catches
 * it and renders it in the service's envelope (`ErrorStyle`). `code` is the service's own error
 * code where it has one (`channel_not_found`, `resource_missing`), `details` anything else the
 * envelope carries (GitHub's `errors` list, Stripe's `param`). Throw before you write: the kit
 * renders the error inside the request's transaction, so writes made before the throw persist.
 */
export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    /** Extra response headers (`Retry-After`, `WWW-Authenticate`). */
    readonly headers: readonly [string, string][] = [],
  ) {
    super(message);
  }
}

/** Why the kit itself refused a request, before or instead of a handler. */
export type KitRefusal =
  /** No operation matches the method and path (or GraphQL field, or action). */
  | 'not_found'
  /** The path exists for other methods. */
  | 'method_not_allowed'
  /** The body does not parse as its content type says (malformed JSON, bad form encoding). */
  | 'malformed_body'
  /** A path, query or body parameter fails the operation's schema. */
  | 'invalid_params'
  /** No credential, or one the dataset does not know. */
  | 'unauthenticated'
  /** The body exceeded the listener's limit (the world's `reject`). */
  | 'payload_too_large'
  /** A handler threw something other than a ServiceError (a mock bug; the world's `reject`). */
  | 'internal_error';

/**
 * How a service renders its errors: GitHub's `{message, documentation_url}`, Slack's HTTP 200
 * `{ok: false, error}`, Stripe's `{error: {type, code, message, param}}`, problem+json. `context`
 * is the service's per-request context (null when the kit refuses before one exists).
 */
export type ErrorStyle<C> = (error: ServiceError, context: C | null) => ServiceResponse;
