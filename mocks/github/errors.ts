import { githubDetails, type GitHubErrorItem } from '../kit/envelopes/github.js';
import { ServiceError } from '../kit/errors.js';

/**
 * GitHub's error bodies. A handler throws a GitHubError before it writes anything; the service
 * renders it with the operation's `documentation_url` (or the generic one) and GitHub's key order:
 * `{"message", "errors"?, "documentation_url", "status"}`, with `status` a string as GitHub sends it.
 */
export const GENERIC_DOCS = 'https://docs.github.com/rest';
export const RATE_LIMIT_DOCS = 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api';

/** One item of a 422's `errors`: an object, or a plain string as some endpoints send. */
export type ErrorItem = GitHubErrorItem;

/** A ServiceError in GitHub's envelope (mocks/kit/envelopes/github.ts renders it). */
export class GitHubError extends ServiceError {
  override name = 'GitHubError';
  constructor(status: number, message: string, options: { errors?: ErrorItem[]; docs?: string } = {}) {
    super(status, 'github', message, githubDetails(options));
  }
}

export const notFound = (message = 'Not Found') => new GitHubError(404, message);

/** The world's refusals: 413 for an oversized body, 500 when a handler threw. */
export const worldRefusal = (reason: 'payload_too_large' | 'internal_error') => (reason === 'payload_too_large'
  ? new GitHubError(413, 'Payload too large', { docs: GENERIC_DOCS })
  : new GitHubError(500, 'Server Error', { docs: GENERIC_DOCS }));

export const badCredentials = () => new GitHubError(401, 'Bad credentials', { docs: GENERIC_DOCS });

export const requiresAuthentication = () => new GitHubError(401, 'Requires authentication');

export const problemsParsingJson = () => new GitHubError(400, 'Problems parsing JSON');

export const bodyNotObject = () => new GitHubError(400, 'Body should be a JSON object');

/** 422 "Validation Failed" with GitHub's `errors` items. */
export const validationFailed = (...errors: ErrorItem[]) => new GitHubError(422, 'Validation Failed', { errors });

/** 422 from GitHub's JSON-schema layer: `Invalid request.\n\n"sha" wasn't supplied.` */
export const notSupplied = (field: string) => new GitHubError(422, `Invalid request.\n\n"${field}" wasn't supplied.`);

export const invalidType = (field: string, value: unknown, type: string) =>
  new GitHubError(422, `Invalid request.\n\nFor 'properties/${field}', ${JSON.stringify(value)} is not ${article(type)} ${type}.`);

export const invalidValue = (field: string, value: unknown, allowed: readonly string[]) =>
  new GitHubError(422, `Invalid request.\n\nFor 'properties/${field}', ${JSON.stringify(value)} is not a member of enum ${JSON.stringify(allowed)}.`);

/** 422 with a bare message (`Reference already exists`, `Object does not exist`). */
export const unprocessable = (message: string) => new GitHubError(422, message);

/** 422 "Unprocessable Entity" with string errors, as the reviews endpoints send. */
export const unprocessableEntity = (...errors: string[]) => new GitHubError(422, 'Unprocessable Entity', { errors });

export const conflict = (message: string) => new GitHubError(409, message);

export const forbidden = (message: string) => new GitHubError(403, message);

export const emptyRepository = () => new GitHubError(409, 'Git Repository is empty.');

function article(type: string): string {
  return /^[aeiou]/.test(type) ? 'an' : 'a';
}
