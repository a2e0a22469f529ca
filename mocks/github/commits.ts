import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import { documented } from '../kit/envelopes/github.js';
import { newId, readableRepo, requireViewer, writableRepo, type Gh } from './context.js';
import { GitHubError, notFound, unprocessable, validationFailed } from './errors.js';
import { diffTrees } from './git/diff.js';
import { log } from './git/history.js';
import { getCommit, lookupPath, type CommitObject } from './git/objects.js';
import type { RepoDoc, StatusDoc } from './model.js';
import { op } from './operation.js';
import { bodyParam, githubBody, githubQuery, optEnum, optString, queryTime } from './params.js';
import { accountByEmail, restCommit } from './render/git.js';
import { minimalRepo } from './render/repos.js';
import { simpleUser, userByLogin } from './render/users.js';
import { requireNotEmpty, resolveCommitish } from './repo-git.js';
import { created, list, ok } from './respond.js';
import { nodeId, repoApi } from './urls.js';

/** Commits (list, one with its files) and commit statuses (create, list, combined). */
function touches(gh: Gh, commit: CommitObject, path: string): boolean {
  const mine = lookupPath(gh.db.objects, commit.tree, path)?.sha;
  const parent = commit.parents[0] ? getCommit(gh.db.objects, commit.parents[0]) : undefined;
  const theirs = parent ? lookupPath(gh.db.objects, parent.tree, path)?.sha : undefined;
  return mine !== theirs;
}

function listCommits(gh: Gh, req: ServiceRequest, repo: RepoDoc, query: { since: string | null; until: string | null }) {
  requireNotEmpty(gh, repo);
  const start = req.query.get('sha') || repo.default_branch;
  const tip = resolveCommitish(gh, repo, start);
  if (!tip) throw notFound(`No commit found for SHA: ${start}`);
  const path = (req.query.get('path') ?? '').split('/').filter((p) => p !== '').join('/');
  const author = req.query.get('author')?.toLowerCase();
  const committer = req.query.get('committer')?.toLowerCase();
  const { since, until } = query;
  const matchPerson = (who: string | undefined, email: string) => {
    if (!who) return true;
    const account = accountByEmail(gh, email);
    return email.toLowerCase() === who || account?.login.toLowerCase() === who;
  };
  const commits = log(gh.db.objects, [tip]).filter((c) =>
    (path === '' || touches(gh, c, path))
    && matchPerson(author, c.author.email) && matchPerson(committer, c.committer.email)
    && (since === null || c.committer.date >= since) && (until === null || c.committer.date <= until));
  return list(gh, req, commits, (c) => restCommit(gh, repo, c), { repo });
}

function status(gh: Gh, repo: RepoDoc, doc: StatusDoc) {
  const creator = userByLogin(gh, doc.creator);
  return {
    url: `${repoApi(repo.full_name)}/statuses/${doc.sha}`,
    avatar_url: creator.value.avatar_url,
    id: doc.id,
    node_id: nodeId(gh.ctx.ids, 'status', doc.id),
    state: doc.state,
    description: doc.description,
    target_url: doc.target_url,
    context: doc.context,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    creator,
  };
}

function statusesFor(gh: Gh, repo: RepoDoc, sha: string): StatusDoc[] {
  const key = repo.full_name.toLowerCase();
  return gh.db.statuses.filter((s) => s.repo === key && s.sha === sha).reverse();
}

/** The combined status: the latest status per context; failure beats pending beats success. */
export function combinedStatus(gh: Gh, repo: RepoDoc, sha: string) {
  const latest = new Map<string, StatusDoc>();
  for (const s of statusesFor(gh, repo, sha)) if (!latest.has(s.context)) latest.set(s.context, s);
  const statuses = [...latest.values()].reverse();
  const state = statuses.some((s) => s.state === 'error' || s.state === 'failure') ? 'failure'
    : statuses.length === 0 || statuses.some((s) => s.state === 'pending') ? 'pending' : 'success';
  return {
    state,
    statuses: statuses.map((s) => {
      const { creator: _creator, ...rest } = status(gh, repo, s);
      return rest;
    }),
    sha,
    total_count: statuses.length,
    repository: minimalRepo(gh, repo),
    commit_url: `${repoApi(repo.full_name)}/commits/${sha}`,
    url: `${repoApi(repo.full_name)}/commits/${sha}/status`,
  };
}

const STATUS_DOCS = {
  status: 'https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference',
  statuses: 'https://docs.github.com/rest/commits/statuses#list-commit-statuses-for-a-reference',
};

function statusRoute(gh: Gh, req: ServiceRequest, repo: RepoDoc, ref: string, which: 'status' | 'statuses'): ServiceResponse {
  try {
    requireNotEmpty(gh, repo);
    const sha = resolveCommitish(gh, repo, ref);
    if (!sha) throw notFound(`No commit found for SHA: ${ref}`);
    return which === 'status' ? ok(combinedStatus(gh, repo, sha)) : list(gh, req, statusesFor(gh, repo, sha), (s) => status(gh, repo, s), { repo });
  } catch (error) {
    if (error instanceof GitHubError) throw documented(error, STATUS_DOCS[which]);
    throw error;
  }
}

/** The tails the route reads have their own operations in GitHub's description. */
export const COMMIT_TAIL_OPERATIONS = ['repos.getCombinedStatusForRef', 'repos.listCommitStatusesForRef'] as const;

function commitOperation(req: ServiceRequest): string {
  let rest: string;
  try {
    rest = decodeURIComponent(req.path.split('/').slice(5).join('/'));
  } catch {
    return 'repos.getCommit';
  }
  const tail = /^.+\/(status|statuses)$/.exec(rest)?.[1];
  return tail === 'status' ? 'repos.getCombinedStatusForRef' : tail === 'statuses' ? 'repos.listCommitStatusesForRef' : 'repos.getCommit';
}

export const commitRoutes = [
  op('repos.listCommits', 'GET', '/repos/:owner/:repo/commits', 'commits/commits#list-commits', (req, { owner, repo: name }, gh, call) =>
    listCommits(gh, req, readableRepo(gh, owner, name), call.query), { query: githubQuery({ since: queryTime(), until: queryTime() }) }),

  // `{ref}` may contain slashes (`feature/x`), so one route reads the `/status` and `/statuses` tails.
  op('repos.getCommit', 'GET', '/repos/:owner/:repo/commits/*rest', 'commits/commits#get-a-commit', (req, { owner, repo: name, rest }, gh) => {
    const repo = readableRepo(gh, owner, name);
    const tail = /^(.+)\/(status|statuses)$/.exec(rest);
    if (tail) return statusRoute(gh, req, repo, tail[1]!, tail[2] as 'status' | 'statuses');
    requireNotEmpty(gh, repo);
    const sha = resolveCommitish(gh, repo, rest);
    const commit = sha ? getCommit(gh.db.objects, sha) : undefined;
    if (!commit) throw unprocessable(`No commit found for SHA: ${rest}`);
    const parent = commit.parents[0] ? getCommit(gh.db.objects, commit.parents[0]) : undefined;
    return ok(restCommit(gh, repo, commit, diffTrees(gh.db.objects, parent?.tree ?? null, commit.tree)));
  }, { nameOf: commitOperation, names: ['repos.getCommit', 'repos.getCombinedStatusForRef', 'repos.listCommitStatusesForRef'] }),

  op('repos.createCommitStatus', 'POST', '/repos/:owner/:repo/statuses/:sha', 'commits/statuses#create-a-commit-status', (req, { owner, repo: name, sha }, gh, call) => {
    const viewer = requireViewer(gh);
    const repo = writableRepo(gh, owner, name);
    const body = call.body;
    const state = optEnum(body, 'state', ['error', 'failure', 'pending', 'success'] as const);
    if (state === undefined) throw validationFailed({ resource: 'Status', code: 'missing_field', field: 'state' });
    const commit = /^[0-9a-f]{40}$/i.test(sha) ? getCommit(gh.db.objects, sha.toLowerCase()) : undefined;
    if (!commit) throw unprocessable(`No commit found for SHA: ${sha}`);
    const id = newId(gh, 'status');
    const doc = gh.db.statuses.put(id, {
      id, repo: repo.full_name.toLowerCase(), sha: commit.sha, state, context: optString(body, 'context') ?? 'default',
      description: optString(body, 'description') ?? null, target_url: optString(body, 'target_url') ?? null,
      creator: viewer.login, created_at: gh.now, updated_at: gh.now,
    });
    const rendered = status(gh, repo, doc);
    return created({ ...rendered, creator: simpleUser(gh, viewer) }, [['Location', rendered.url]]);
  }, { body: githubBody({ state: bodyParam.enum(['error', 'failure', 'pending', 'success']) }) }),
];
