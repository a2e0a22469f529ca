import type { ServiceDefinition } from '../core/service.js';
import { authGate } from '../kit/auth.js';
import { defineService } from '../kit/define.js';
import { documented } from '../kit/envelopes/github.js';
import { etag } from '../kit/etag.js';
import { authenticate, makeGh, type Gh } from './context.js';
import { GitHubDatasetSchema, type GitHubDataset } from './dataset.js';
import { GENERIC_DOCS, GitHubError, badCredentials, problemsParsingJson, requiresAuthentication, worldRefusal } from './errors.js';
import { renderFault } from './faults.js';
import { loadDataset } from './load.js';
import { db } from './model.js';
import { docsOf, rewriteRepositoryAlias } from './operation.js';
import { operations } from './operations.js';
import { inputError } from './params.js';
import { rateLimits } from './ratelimit.js';
import { cacheHeaders, errorResponse, githubHeaders, rejectRequest } from './service.js';
import { githubViews, githubVolatile } from './views.js';

export type { GitHubDataset } from './dataset.js';

/**
 * The GitHub REST API (api.github.com) as the pinned `@modelcontextprotocol/server-github` and
 * `@octokit/rest` use it: repositories, git data, contents, branches, commits and statuses,
 * issues, comments, labels, pull requests, reviews, merges, forks, search and users.
 * See docs/github-mock.md for the dataset format and the operations; views.ts for what graders
 * see (`files`, `branches`, `pull_requests`) and the fields state diffs leave out.
 *
 * One request, start to finish (middleware, outermost first): GitHub's headers (and CORS
 * preflights), the rate window (bad credentials are answered before the limit, and counted; a
 * 304 is not), bad credentials (an unknown token is 401 even for public reads), ETags and 304s,
 * then the operation (unknown paths and unsupported methods are GitHub's 404, never a 405).
 */
const kit = defineService<GitHubDataset, Gh>({
  id: 'github',
  version: '1',
  dataset: GitHubDatasetSchema,
  load: loadDataset,
  context: (req, ctx) => makeGh(ctx, req, authenticate(req, db(ctx.store))),
  operations,
  errors: errorResponse,
  refusal(reason, detail) {
    switch (reason) {
      case 'not_found':
      case 'method_not_allowed':
        return new GitHubError(404, 'Not Found', { docs: GENERIC_DOCS });
      case 'malformed_body':
        return documented(problemsParsingJson(), docsOf(detail.operation));
      case 'invalid_params':
        return documented(inputError(detail.issues ?? []) ?? new GitHubError(422, 'Validation Failed'), docsOf(detail.operation));
      case 'unauthenticated':
        return badCredentials();
      case 'payload_too_large':
      case 'internal_error':
        return worldRefusal(reason);
    }
  },
  middleware: [
    githubHeaders,
    rateLimits,
    authGate<Gh>({
      authenticated: (gh) => (gh.badCredentials ? 'bad' : gh.viewer ? 'ok' : 'anonymous'),
      bad: () => badCredentials(),
      missing: () => requiresAuthentication(),
      // Operations check their own need for a token, after the repository alias (operation.ts).
      required: () => false,
    }),
    etag<Gh>({ headers: cacheHeaders }),
  ],
  // Every body is JSON to GitHub, whatever its Content-Type (malformed: "Problems parsing JSON").
  decode: (req) => {
    const value = req.json();
    return value === undefined ? { kind: 'empty', value: undefined } : { kind: 'json', value };
  },
  rewrite: rewriteRepositoryAlias,
  fault: renderFault,
  volatile: githubVolatile,
  views: githubViews,
});

/** The kit's definition, but the world's refusals (413, 500) are dressed in GitHub's headers too. */
export const githubService: ServiceDefinition<GitHubDataset> & Pick<typeof kit, 'kit'> = { ...kit, reject: rejectRequest };
