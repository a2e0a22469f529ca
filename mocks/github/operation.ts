import { ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { z } from 'zod';
import type { PathParams } from '../core/router.js';
import { documented } from '../kit/envelopes/github.js';
import { ServiceError } from '../kit/errors.js';
import { rest, type Call, type Operation } from '../kit/operation.js';
import type { Gh } from './context.js';
import { GENERIC_DOCS, GitHubError, requiresAuthentication } from './errors.js';

/**
 * One REST operation: its name (the operationId of GitHub's OpenAPI description, as Octokit
 * spells it: `issues/list-for-repo` → `issues.listForRepo`), method, path pattern, its
 * documentation page (which GitHub puts in every error body) and the handler. Writes and
 * `auth: true` reads need a token (401 "Requires authentication" otherwise). A GitHubError thrown
 * by the handler is rendered with the operation's page unless it names its own; handlers throw
 * before they write, so an error never leaves half a change behind. Inputs are read lazily, so
 * GitHub's order of checks stands: the repository's 404 before a malformed body's 400.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const DOCS = 'https://docs.github.com/rest/';

/** The documentation page of each operation, by name (for the kit's refusals: bad JSON, bad input). */
const docsByName = new Map<string, string>();

export function docsOf(name: string | undefined): string {
  return (name !== undefined ? docsByName.get(name) : undefined) ?? GENERIC_DOCS;
}

/** A handler: the request (the alias resolved), its path parameters, who asks, and the kit's call (`call.query`). */
export type GitHubHandler<P, Q, B> = (req: ServiceRequest, params: P, gh: Gh, call: Call<P, Q, B>) => ServiceResponse;

export function op<P extends string, Q = Record<string, string | string[]>, B = unknown>(
  name: string, method: Method, pattern: P, docs: string, handler: GitHubHandler<PathParams<P>, Q, B>,
  options: {
    auth?: boolean;
    query?: z.ZodType<Q, z.ZodTypeDef, unknown>;
    body?: z.ZodType<B, z.ZodTypeDef, unknown>;
    nameOf?: (req: ServiceRequest) => string;
    /** Every name `nameOf` returns. */
    names?: readonly string[];
  } = {},
): Operation<Gh> {
  const docsUrl = DOCS + docs;
  docsByName.set(name, docsUrl);
  const needsAuth = options.auth ?? method !== 'GET';
  return {
    name,
    matcher: rest(method, pattern),
    lazy: true,
    ...(options.query || options.body ? { input: { ...(options.query ? { query: options.query } : {}), ...(options.body ? { body: options.body } : {}) } } : {}),
    ...(options.nameOf ? { nameOf: options.nameOf } : {}),
    ...(options.names ? { names: () => options.names! } : {}),
    handle(call: Call<PathParams<P>, Q, B>, gh: Gh): ServiceResponse {
      try {
        const { req, params } = unaliased(call, gh);
        if (needsAuth && !gh.viewer) throw requiresAuthentication();
        return handler(req, params, gh, call);
      } catch (error) {
        throw error instanceof ServiceError ? documented(error, docsUrl) : error;
      }
    },
  };
}

/**
 * `/repositories/:id/…` (what GitHub's Link headers use) is `/repos/:owner/:name/…`. Naming a
 * request must not read the store (the world names it before the handler runs), so `rewrite`
 * maps the alias to an operation by its shape alone, `/repos/-/-/…`, remembering the request it
 * came from; the handler then finds the repository by ID and sees the request it always saw.
 */
class AliasedRequest extends ServiceRequest {
  // The request it came from, on the shaped one itself: a WeakMap from the shaped request to
  // the original (whose kit state refers back to the shaped one) kept both alive until V8's
  // next full GC.
  constructor(method: string, target: string, headers: ServiceRequest['headers'], body: Uint8Array, readonly original: ServiceRequest) {
    super(method, target, headers, body);
  }
}
const REPOSITORY_ID = /^\/repositories\/(\d+)(\/.*)?$/;

export function rewriteRepositoryAlias(req: ServiceRequest): ServiceRequest {
  const match = REPOSITORY_ID.exec(req.path);
  if (!match) return req;
  const query = req.target.slice(req.path.length);
  return new AliasedRequest(req.method, `/repos/-/-${match[2] ?? ''}${query}`, req.headers, req.body, req);
}

function unaliased<P, Q, B>(call: Call<P, Q, B>, gh: Gh): { req: ServiceRequest; params: P } {
  if (!(call.req instanceof AliasedRequest)) return { req: call.req, params: call.params };
  const original = call.req.original;
  const match = REPOSITORY_ID.exec(original.path)!;
  const repo = gh.db.repos.find((r) => r.id === Number(match[1]));
  // An unknown ID was never rewritten: no route took it, GitHub's generic 404.
  if (!repo) throw new GitHubError(404, 'Not Found', { docs: GENERIC_DOCS });
  const query = original.target.slice(original.path.length);
  const req = new ServiceRequest(original.method, `/repos/${repo.full_name}${match[2] ?? ''}${query}`, original.headers, original.body);
  const [owner, name] = repo.full_name.split('/');
  return { req, params: { ...call.params, owner, repo: name } as P };
}
