import type { ServiceDefinition } from '../core/service.js';
import { GitHubDatasetSchema, type GitHubDataset } from './dataset.js';
import { renderFault } from './faults.js';
import { loadDataset } from './load.js';
import { routes } from './routes.js';
import { handleRequest, rejectRequest } from './service.js';
import { githubViews, githubVolatile } from './views.js';

export type { GitHubDataset } from './dataset.js';

/**
 * The GitHub REST API (api.github.com) as the pinned `@modelcontextprotocol/server-github` and
 * `@octokit/rest` use it: repositories, git data, contents, branches, commits and statuses,
 * issues, comments, labels, pull requests, reviews, merges, forks, search and users.
 * See docs/github-mock.md for the dataset format and the list of endpoints; views.ts for what
 * graders see (`files`, `branches`, `pull_requests`) and the fields state diffs leave out.
 */
export const githubService: ServiceDefinition<GitHubDataset> = {
  id: 'github',
  version: '1',
  dataset: GitHubDatasetSchema,
  load: loadDataset,
  handle: handleRequest,
  reject: rejectRequest,
  fault: renderFault,
  routes,
  volatile: githubVolatile,
  views: githubViews,
};
