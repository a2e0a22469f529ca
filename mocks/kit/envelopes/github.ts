import { jsonResponse, type ServiceResponse } from '../../core/http.js';
import { ServiceError, type ErrorStyle } from '../errors.js';

/**
 * GitHub's error envelope (also Gitea's and GitHub Enterprise's): `{"message", "errors"?,
 * "documentation_url", "status"}` in that key order, `status` a string as GitHub sends it.
 * `errors` items are objects (`{resource, field, code}`) or plain strings, as endpoints send them.
 * The documentation URL is the error's own (`details.documentation_url`), else `defaultDocs`.
 */
export type GitHubErrorItem = { resource: string; field?: string; code: string; message?: string; value?: unknown } | string;

export function githubStyleError(status: number, message: string, options: { errors?: GitHubErrorItem[]; docs?: string } = {}): ServiceError {
  return new ServiceError(status, 'github', message, githubDetails(options));
}

/** The `details` of a GitHub-style ServiceError. */
export function githubDetails(options: { errors?: GitHubErrorItem[]; docs?: string }): Record<string, unknown> {
  return { ...(options.errors ? { errors: options.errors } : {}), ...(options.docs !== undefined ? { documentation_url: options.docs } : {}) };
}

export function githubErrorBody(error: ServiceError, defaultDocs: string): Record<string, unknown> {
  const out: Record<string, unknown> = { message: error.message };
  if (error.details.errors !== undefined) out.errors = error.details.errors;
  out.documentation_url = error.details.documentation_url ?? defaultDocs;
  out.status = String(error.status);
  return out;
}

/** The error style: the envelope as JSON, with the error's own headers (`Retry-After`). */
export function githubErrors<C>(defaultDocs: string): ErrorStyle<C> {
  return (error): ServiceResponse => jsonResponse(error.status, githubErrorBody(error, defaultDocs), [...error.headers]);
}

/** The same error with a documentation URL, unless it has its own (an operation's page). */
export function documented(error: ServiceError, docs: string): ServiceError {
  if (error.details.documentation_url !== undefined) return error;
  return new ServiceError(error.status, error.code, error.message, { ...error.details, documentation_url: docs }, error.headers);
}
