import type { z } from 'zod';
import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { PathParams } from '../core/router.js';
import type { DecodedBody } from './bodies.js';

/**
 * An operation: a named request the service understands (`issues.create`, `chat.postMessage`,
 * `refunds.create`, `DescribeInstances`), how requests are recognised (a matcher), the schemas of
 * its path, query and body parameters, and a small synchronous handler. The name is what the
 * journal, fault rules, audit, grading and coverage speak of.
 */
export interface Operation<C> {
  readonly name: string;
  readonly matcher: Matcher;
  /** zod schemas; a failure is the service's own validation error (`KitServiceSpec.invalid`). */
  readonly input?: OperationInput;
  /** Whether the operation needs an authenticated caller (default: the service's `auth.required`). */
  readonly auth?: boolean;
  /**
   * Decode and validate the body and query when the handler first reads `call.body`,
   * `call.query` or `call.decoded`, not before it runs: the service's own order of checks stands
   * (GitHub answers an unknown repository's 404 before a malformed body's 400). Default false.
   */
  readonly lazy?: boolean;
  handle(call: Call<any, any, any>, context: C): ServiceResponse;
  /**
   * For an operation that stands for several names (a GraphQL endpoint: `Query.issues`,
   * `Mutation.issueCreate`), the name of this request; default `name`.
   */
  nameOf?(req: ServiceRequest, decoded: () => DecodedBody): string | null;
  /**
   * Every name `nameOf` can return (what `scenario validate` checks call matchers against).
   * Without it an operation with `nameOf` leaves its service's names open: unchecked.
   */
  names?(): readonly string[];
}

export interface OperationInput {
  readonly path?: z.ZodTypeAny;
  readonly query?: z.ZodTypeAny;
  readonly body?: z.ZodTypeAny;
}

/** What a handler receives: the raw request, the parsed parameters, and the decoded body. */
export interface Call<P = Record<string, string>, Q = Record<string, string | string[]>, B = unknown> {
  readonly req: ServiceRequest;
  readonly operation: string;
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  readonly decoded: DecodedBody;
}

/** How an operation recognises its requests; `match` returns the path parameters, or null. */
export type Matcher =
  | { readonly kind: 'rest'; readonly method: string; readonly pattern: string }
  | { readonly kind: 'action'; readonly action: string; readonly path: string }
  | { readonly kind: 'graphql'; readonly method: string; readonly path: string };

/** `rest('GET', '/repos/:owner/:repo/issues')`: method and path pattern (`:name` one segment, final `*rest` the rest). */
export function rest<P extends string>(method: string, pattern: P): Matcher & { kind: 'rest'; pattern: P } {
  return { kind: 'rest', method: method.toUpperCase(), pattern };
}

/**
 * An AWS-style action: `Action=DescribeInstances` in the query or form body (query protocols),
 * or `X-Amz-Target: DynamoDB_20120810.GetItem` (JSON 1.x protocols; the part after the dot).
 */
export function action(name: string, path = '/'): Matcher {
  return { kind: 'action', action: name, path };
}

/** A GraphQL endpoint: one HTTP route whose operations are named by root field (`nameOf`). */
export function graphqlRoute(path: string, method = 'POST'): Matcher {
  return { kind: 'graphql', method, path };
}

/** Typed helper: an operation whose handler sees path parameters named by its pattern. */
export function operation<C, P extends string, Q = Record<string, string | string[]>, B = unknown>(
  name: string,
  matcher: Matcher & { kind: 'rest'; pattern: P },
  handle: (call: Call<PathParams<P>, Q, B>, context: C) => ServiceResponse,
  options: { input?: OperationInput; auth?: boolean; lazy?: boolean } = {},
): Operation<C> {
  return { name, matcher, handle, ...options };
}
