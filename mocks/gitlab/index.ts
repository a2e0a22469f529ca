import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { ciExtraOperations } from './ci-extras.js';
import { defineService } from '../kit/define.js';
import { rateWindow, type WindowState } from '../kit/rate-window.js';
import { glAuth, glContext, type GlCtx } from './context.js';
import { GitlabDatasetSchema, type GitlabDataset } from './dataset.js';
import { graphqlOperations } from './graphql.js';
import { issueOperations } from './issues.js';
import { loadGitlab } from './load.js';
import { mergeRequestOperations } from './merge-requests.js';
import { dbOf, glError, glParamError, glRouteNotFound, key, renderError } from './model.js';
import { noteOperations } from './notes.js';
import { pipelineOperations } from './pipelines.js';
import { planningOperations } from './planning.js';
import { projectOperations } from './projects.js';
import { repositoryOperations } from './repository.js';
import { searchOperations } from './search.js';
import { tailOperations } from './tail.js';

/**
 * GitLab (gitlab.com/api/v4, and /api/graphql): projects by id or URL-encoded path, issues,
 * merge requests with diffs, notes, discussions and approvals, pipelines and jobs with logs,
 * repositories (branches, files, commits, tags), labels, milestones, wikis, users and groups by
 * hand-written handlers; CI/CD variables, webhooks, releases, deployments and the other resources
 * the MCP server reaches as declared collections (tail.ts). docs/gitlab-mock.md.
 */

/** GitLab.com's authenticated API limit: 2,000 requests a minute per user. */
const LIMIT = 2000;

/** GitLab's RateLimit-* headers (RateLimit-Reset in Unix seconds, ResetTime as an HTTP date). */
const rateHeaders = (state: WindowState): [string, string][] => [
  ['RateLimit-Name', 'throttle_authenticated_api'], ['RateLimit-Limit', String(state.limit)], ['RateLimit-Observed', String(state.used)],
  ['RateLimit-Remaining', String(Math.max(0, state.limit - state.used))], ['RateLimit-Reset', String(state.reset)], ['RateLimit-ResetTime', new Date(state.reset * 1000).toUTCString()],
];

const rateLimit = rateWindow<GlCtx>({
  window: (_req, c) => (c.user ? { key: String(c.user.id), limit: LIMIT, seconds: 60, resource: 'api' } : null),
  store: (c) => c.ctx.store.collection<{ used: number; reset: number }>('rate_limits'),
  now: (c) => c.ctx.nowMs,
  exceeded: () => glError(429, 'Retry later'),
  headers: rateHeaders,
});

/** 429 is GitLab's throttle answer (`Retry later`, the RateLimit-* headers at zero, Retry-After); 5xx GitLab's `{"message": "500 Internal Server Error"}`. */
function glFault(order: FaultOrder, _req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') {
    const reset = Math.floor(ctx.nowMs / 1000) + order.retryAfter;
    return renderError(glError(429, 'Retry later', [
      ['RateLimit-Name', 'throttle_authenticated_api'], ['RateLimit-Limit', String(LIMIT)], ['RateLimit-Observed', String(LIMIT + 1)], ['RateLimit-Remaining', '0'],
      ['RateLimit-Reset', String(reset)], ['RateLimit-ResetTime', new Date(reset * 1000).toUTCString()], ['Retry-After', String(order.retryAfter)],
    ]));
  }
  if (order.kind === '503') return renderError(glError(503, '503 Service Unavailable', [['Retry-After', String(order.retryAfter)]]));
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' || order.kind === '502' ? 502 : 500;
  return renderError(glError(status, status === 500 ? '500 Internal Server Error' : status === 502 ? '502 Bad Gateway' : '504 Gateway Timeout'));
}

export const gitlabService = defineService<GitlabDataset, GlCtx>({
  id: 'gitlab',
  version: '1',
  dataset: GitlabDatasetSchema,
  load: loadGitlab,
  context: glContext,
  operations: [
    ...projectOperations, ...repositoryOperations, ...issueOperations, ...mergeRequestOperations, ...noteOperations,
    ...pipelineOperations, ...planningOperations, ...searchOperations, ...ciExtraOperations, ...tailOperations, ...graphqlOperations,
  ],
  errors: (error) => renderError(error),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': return glParamError(`${detail.issues?.[0]?.path.join('.') || detail.where || 'parameter'} is invalid`);
      case 'malformed_body': return glError(400, '400 Bad request - Invalid JSON');
      case 'unauthenticated': return glError(401, '401 Unauthorized');
      case 'method_not_allowed': return glError(405, '405 Method Not Allowed');
      case 'payload_too_large': return glError(413, '413 Request Entity Too Large');
      case 'internal_error': return glError(500, '500 Internal Server Error');
      case 'not_found': return glRouteNotFound();
    }
  },
  middleware: [glAuth, rateLimit],
  fault: glFault,
  volatile: {
    tokens: '*', rate_limits: '*',
    // Seeded ids and logical timestamps; graded through titles, iids, states and bodies.
    notes: ['id', 'discussion_id', 'created_at', 'updated_at'],
    commits: ['id', 'parent_ids', 'authored_date'],
    branches: ['commit'],
    merge_requests: ['updated_at', 'merged_at', 'closed_at', 'merge_commit_sha', 'squash_commit_sha', 'head_sha', 'base_sha'],
    issues: ['updated_at', 'closed_at'],
    pipelines: ['updated_at', 'sha'],
    jobs: ['created_at', 'finished_at', 'sha'],
    projects: ['last_activity_at'],
  },
  views: (store) => {
    // Every branch's files, by `path/with/namespace@branch:file`, for state expectations.
    const db = dbOf(store);
    const files: Record<string, unknown> = {};
    for (const branch of db.branches.values()) {
      const project = db.projects.get(branch.project_id);
      const commit = db.commits.get(key(branch.project_id, branch.commit));
      if (!project || !commit) continue;
      const repo = `${project.namespace_full_path}/${project.path}`;
      for (const [path, content] of Object.entries(commit.tree)) files[`${repo}@${branch.name}:${path}`] = { project: repo, branch: branch.name, path, content };
    }
    return { files };
  },
});
