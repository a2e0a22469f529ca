import type { z } from 'zod';
import type { ServiceRequest } from '../core/http.js';
import { atLeast, canPush, newId, permission, readableRepo, requireViewer, type Gh } from './context.js';
import { GitHubError, notFound, validationFailed } from './errors.js';
import { commitsBetween } from './git/history.js';
import { stateChange } from './issue-edits.js';
import { issueKey, pullsOf, type PullDoc, type PullSide, type RepoDoc } from './model.js';
import { op } from './operation.js';
import { bodyParam, githubBody, githubQuery, has, optBool, optEnum, optString, queryEnum } from './params.js';
import { headSha, pullCommits, pullFiles } from './pull-state.js';
import { diffEntry, restCommit } from './render/git.js';
import { pullFull, pullSimple, type RepoRenders } from './render/pulls.js';
import { branchSha } from './repo-git.js';
import { created, list, noContent, ok } from './respond.js';

/** Pull requests: list, create, get, update, files, commits and "is it merged". */
export function findPull(gh: Gh, repo: RepoDoc, number: string): PullDoc {
  const pull = /^\d+$/.test(number) ? gh.db.pulls.get(issueKey(repo.full_name.toLowerCase(), Number(number))) : undefined;
  if (!pull) throw notFound();
  return pull;
}

/** `branch` or `owner:branch`; the owner's repository in the same fork network. */
function parseHead(gh: Gh, repo: RepoDoc, spec: string): { repo: RepoDoc; ref: string } | null {
  const colon = spec.indexOf(':');
  if (colon === -1) return { repo, ref: spec };
  const owner = spec.slice(0, colon).toLowerCase();
  const ref = spec.slice(colon + 1);
  if (owner === repo.owner.toLowerCase()) return { repo, ref };
  const network = repo.source ?? repo.full_name.toLowerCase();
  const fork = gh.db.repos.find((r) => r.owner.toLowerCase() === owner && (r.source === network || r.full_name.toLowerCase() === network));
  if (!fork || !atLeast(permission(gh, fork), 'read')) return null;
  return { repo: fork, ref };
}

const missing = (field: string) => validationFailed({ resource: 'PullRequest', code: 'missing_field', field });
const invalid = (field: string) => validationFailed({ resource: 'PullRequest', field, code: 'invalid' });
const custom = (message: string) => validationFailed({ resource: 'PullRequest', code: 'custom', message });

const listQuery = githubQuery({
  state: queryEnum(['open', 'closed', 'all'] as const, 'PullRequest'),
  sort: queryEnum(['created', 'updated', 'popularity', 'long-running'] as const, 'PullRequest'),
  direction: queryEnum(['asc', 'desc'] as const, 'PullRequest'),
});

function filterPulls(gh: Gh, req: ServiceRequest, repo: RepoDoc, query: z.infer<typeof listQuery>): PullDoc[] {
  const state = query.state ?? 'open';
  const sort = query.sort ?? 'created';
  const direction = query.direction ?? (sort === 'created' ? 'desc' : 'asc');
  const head = req.query.get('head');
  const base = req.query.get('base');
  const key = repo.full_name.toLowerCase();
  const rows = pullsOf(gh.db).docs(key).map((pull) => ({ pull, issue: gh.db.issues.get(issueKey(key, pull.number))! }))
    .filter(({ pull, issue }) => {
      if (state !== 'all' && issue.state !== state) return false;
      if (base && pull.base.ref !== base) return false;
      if (head) {
        const [owner, ref] = head.includes(':') ? [head.slice(0, head.indexOf(':')), head.slice(head.indexOf(':') + 1)] : [head, undefined];
        const headOwner = pull.head.repo?.split('/')[0];
        if (headOwner !== owner.toLowerCase() || (ref !== undefined && pull.head.ref !== ref)) return false;
      }
      return true;
    });
  const value = ({ issue }: (typeof rows)[number]): string | number =>
    sort === 'created' ? issue.created_at : sort === 'updated' ? issue.updated_at : sort === 'popularity' ? issue.comments : issue.created_at;
  rows.sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const order = x < y ? -1 : x > y ? 1 : a.pull.number - b.pull.number;
    return direction === 'asc' ? order : -order;
  });
  return rows.map((r) => r.pull);
}

export const pullRoutes = [
  op('pulls.list', 'GET', '/repos/:owner/:repo/pulls', 'pulls/pulls#list-pull-requests', (req, { owner, repo: name }, gh, call) => {
    const repo = readableRepo(gh, owner, name);
    const rendered: RepoRenders = new Map();
    return list(gh, req, filterPulls(gh, req, repo, call.query), (p) => pullSimple(gh, repo, p, rendered), { repo });
  }, { query: listQuery }),

  op('pulls.create', 'POST', '/repos/:owner/:repo/pulls', 'pulls/pulls#create-a-pull-request', (req, { owner, repo: name }, gh, call) => {
    const viewer = requireViewer(gh);
    const repo = readableRepo(gh, owner, name);
    const body = call.body;
    const title = optString(body, 'title');
    const text = optString(body, 'body') ?? null;
    const headSpec = optString(body, 'head');
    const baseRef = optString(body, 'base');
    const draft = optBool(body, 'draft') ?? false;
    const maintainerCanModify = optBool(body, 'maintainer_can_modify') ?? true;
    if (headSpec === undefined || headSpec === '') throw missing('head');
    if (baseRef === undefined || baseRef === '') throw missing('base');
    if (title === undefined || title.trim() === '') throw missing('title');
    const head = parseHead(gh, repo, headSpec);
    const headTip = head ? branchSha(gh, head.repo, head.ref) : undefined;
    const baseTip = branchSha(gh, repo, baseRef);
    if (!head || !headTip) throw invalid('head');
    if (!baseTip) throw invalid('base');
    const headKey = head.repo.full_name.toLowerCase();
    const label = `${head.repo.owner}:${head.ref}`;
    if (commitsBetween(gh.db.objects, baseTip, headTip).length === 0) throw custom(`No commits between ${baseRef} and ${head.repo === repo ? head.ref : label}`);
    const key = repo.full_name.toLowerCase();
    const duplicate = gh.db.pulls.find((p) => p.repo === key && p.head.repo === headKey && p.head.ref === head.ref && p.base.ref === baseRef
      && gh.db.issues.get(issueKey(key, p.number))?.state === 'open');
    if (duplicate) throw custom(`A pull request already exists for ${label}.`);
    const number = repo.last_number + 1;
    gh.db.repos.update(key, { last_number: number });
    gh.db.issues.put(issueKey(key, number), {
      id: newId(gh, 'issue'), repo: key, number, title, body: text, user: viewer.login, labels: [], assignees: [], milestone: null,
      state: 'open', state_reason: null, locked: false, pull: true, comments: 0, created_at: gh.now, updated_at: gh.now,
      closed_at: null, closed_by: null,
    });
    const headSide: PullSide = { repo: headKey, ref: head.ref, sha: headTip };
    const pull = gh.db.pulls.put(issueKey(key, number), {
      id: newId(gh, 'pull'), repo: key, number, head: headSide, base: { repo: key, ref: baseRef, sha: baseTip }, draft,
      merged: false, merged_at: null, merged_by: null, merge_commit_sha: null,
      maintainer_can_modify: head.repo === repo ? false : maintainerCanModify, requested_reviewers: [],
    });
    const rendered = pullFull(gh, repo, pull);
    return created(rendered, [['Location', rendered.url]]);
  }, { body: githubBody({
      title: bodyParam.string(), body: bodyParam.string(), head: bodyParam.string(), base: bodyParam.string(),
      draft: bodyParam.boolean(), maintainer_can_modify: bodyParam.boolean(),
    }) }),

  op('pulls.get', 'GET', '/repos/:owner/:repo/pulls/:pull_number', 'pulls/pulls#get-a-pull-request', (_req, { owner, repo: name, pull_number }, gh) => {
    const repo = readableRepo(gh, owner, name);
    return ok(pullFull(gh, repo, findPull(gh, repo, pull_number)));
  }),

  op('pulls.update', 'PATCH', '/repos/:owner/:repo/pulls/:pull_number', 'pulls/pulls#update-a-pull-request', (req, { owner, repo: name, pull_number }, gh, call) => {
    const viewer = requireViewer(gh);
    const repo = readableRepo(gh, owner, name);
    const pull = findPull(gh, repo, pull_number);
    const issueDoc = gh.db.issues.get(issueKey(pull.repo, pull.number))!;
    if (!canPush(gh, repo) && issueDoc.user.toLowerCase() !== viewer.login.toLowerCase()) throw new GitHubError(403, 'Must have admin rights to Repository.');
    const body = call.body;
    const title = optString(body, 'title');
    const text = has(body, 'body') ? optString(body, 'body') ?? null : undefined;
    const state = optEnum(body, 'state', ['open', 'closed'] as const);
    const base = optString(body, 'base');
    const maintainerCanModify = optBool(body, 'maintainer_can_modify');
    if (title !== undefined && title.trim() === '') throw missing('title');
    if (base !== undefined && !branchSha(gh, repo, base)) throw invalid('base');
    if (state === 'open' && issueDoc.state === 'closed' && pull.merged) throw custom('state cannot be changed. The pull request cannot be reopened because it has been merged.');
    if (base !== undefined) gh.db.pulls.update(issueKey(pull.repo, pull.number), { base: { ...pull.base, ref: base } });
    if (maintainerCanModify !== undefined) gh.db.pulls.update(issueKey(pull.repo, pull.number), { maintainer_can_modify: maintainerCanModify });
    const patch = {
      updated_at: gh.now,
      ...(title === undefined ? {} : { title }),
      ...(text === undefined ? {} : { body: text }),
      ...(state === undefined ? {} : stateChange(gh, issueDoc, state, undefined, viewer.login)),
    };
    gh.db.issues.update(issueKey(pull.repo, pull.number), patch);
    return ok(pullFull(gh, repo, gh.db.pulls.get(issueKey(pull.repo, pull.number))!));
  }, { body: githubBody({
      title: bodyParam.string(), body: bodyParam.string(), state: bodyParam.enum(['open', 'closed']), base: bodyParam.string(),
      maintainer_can_modify: bodyParam.boolean(),
    }) }),

  op('pulls.listFiles', 'GET', '/repos/:owner/:repo/pulls/:pull_number/files', 'pulls/pulls#list-pull-requests-files', (req, { owner, repo: name, pull_number }, gh) => {
    const repo = readableRepo(gh, owner, name);
    const pull = findPull(gh, repo, pull_number);
    const headRepo = (pull.head.repo ? gh.db.repos.get(pull.head.repo) : undefined) ?? repo;
    const sha = headSha(gh, pull);
    return list(gh, req, pullFiles(gh, pull), (f) => diffEntry(headRepo, sha, f), { repo, cap: 3000 });
  }),

  op('pulls.listCommits', 'GET', '/repos/:owner/:repo/pulls/:pull_number/commits', 'pulls/pulls#list-commits-on-a-pull-request', (req, { owner, repo: name, pull_number }, gh) => {
    const repo = readableRepo(gh, owner, name);
    const pull = findPull(gh, repo, pull_number);
    return list(gh, req, pullCommits(gh, pull), (c) => restCommit(gh, repo, c), { repo, cap: 250 });
  }),

  op('pulls.checkIfMerged', 'GET', '/repos/:owner/:repo/pulls/:pull_number/merge', 'pulls/pulls#check-if-a-pull-request-has-been-merged', (_req, { owner, repo: name, pull_number }, gh) => {
    const repo = readableRepo(gh, owner, name);
    if (!findPull(gh, repo, pull_number).merged) throw notFound();
    return noContent();
  }),
];
