import { jsonResponse, type ServiceResponse } from '../core/http.js';
import { route, type Handler, type PathParams, type Route } from '../core/router.js';
import type { Gh } from './context.js';
import { GitHubError, requiresAuthentication } from './errors.js';

/**
 * One REST operation: method, path pattern, its documentation page (which GitHub puts in every
 * error body) and the handler. Writes and `auth: true` reads need a token (401 "Requires
 * authentication" otherwise). A GitHubError thrown by the handler becomes GitHub's error body;
 * handlers throw before they write, so an error never leaves half a change behind.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const DOCS = 'https://docs.github.com/rest/';

export function op<P extends string>(method: Method, pattern: P, docs: string, handler: Handler<Gh, PathParams<P>>, options: { auth?: boolean } = {}): Route<Gh> {
  const docsUrl = DOCS + docs;
  const needsAuth = options.auth ?? method !== 'GET';
  return route<Gh, P>(method, pattern, (req, params, gh) => {
    try {
      if (needsAuth && !gh.viewer) throw requiresAuthentication();
      return handler(req, params, gh);
    } catch (error) {
      if (error instanceof GitHubError) return errorResponse(error, docsUrl);
      throw error;
    }
  });
}

export function errorResponse(error: GitHubError, docs: string): ServiceResponse {
  return jsonResponse(error.status, error.body(docs));
}
