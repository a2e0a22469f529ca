import type { Operation } from '../kit/operation.js';
import { branchRoutes } from './branches.js';
import { commentRoutes } from './comments.js';
import { COMMIT_TAIL_OPERATIONS, commitRoutes } from './commits.js';
import { contentRoutes } from './contents.js';
import type { Gh } from './context.js';
import { forkRoutes } from './forks.js';
import { gitRoutes } from './git.js';
import { issueRoutes } from './issues.js';
import { labelRoutes } from './labels.js';
import { mergeRoutes } from './merge.js';
import { pullRoutes } from './pulls.js';
import { refRoutes } from './refs.js';
import { repoRoutes } from './repos.js';
import { reviewRoutes } from './reviews.js';
import { searchRoutes } from './search.js';
import { userRoutes } from './users.js';

/**
 * Every operation of the mock, named as Octokit names them (docs/github-mock.md lists them). Order
 * matters where patterns overlap: the first match wins, so `/issues/comments` comes before
 * `/issues/:issue_number`.
 */
export const operations: readonly Operation<Gh>[] = [
  ...userRoutes,
  ...repoRoutes,
  ...forkRoutes,
  ...refRoutes,
  ...gitRoutes,
  ...contentRoutes,
  ...branchRoutes,
  ...commitRoutes,
  ...commentRoutes,
  ...labelRoutes,
  ...issueRoutes,
  ...pullRoutes,
  ...mergeRoutes,
  ...reviewRoutes,
  ...searchRoutes,
];

/** Every name a GitHub request can have (an operation may name some requests apart, commits.ts). */
export const operationNames: readonly string[] = [...operations.map((o) => o.name), ...COMMIT_TAIL_OPERATIONS];
