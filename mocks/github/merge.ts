import { atLeast, permission, readableRepo, requireViewer, writableRepo, type Gh } from './context.js';
import { GitHubError, conflict, unprocessable } from './errors.js';
import { ancestors } from './git/history.js';
import { mergeCommits } from './git/merge.js';
import { applyChanges, flattenTree, getCommit, putCommit, type CommitObject, type PathChange, type Person } from './git/objects.js';
import { accountKey, issueKey, type IssueDoc, type PullDoc, type RepoDoc } from './model.js';
import { op } from './operation.js';
import { bodyParam, githubBody, optEnum, optString } from './params.js';
import { baseSha, freezePull, headSha, isOpen, pullCommits } from './pull-state.js';
import { findPull } from './pulls.js';
import { noreplyEmail } from './render/git.js';
import { setRef, viewerPerson } from './repo-git.js';
import { accepted, ok } from './respond.js';
import { WEB } from './urls.js';

/** Merging a pull request (merge, squash or rebase) and updating its branch from the base. */
const WEB_FLOW = (date: string): Person => ({ name: 'GitHub', email: 'noreply@github.com', date });

const notMergeable = (message = 'Pull Request is not mergeable') => new GitHubError(405, message);

/** The changes a commit made relative to its first parent. */
function commitChanges(gh: Gh, commit: CommitObject): Map<string, PathChange> {
  const parent = commit.parents[0] ? getCommit(gh.db.objects, commit.parents[0]) : undefined;
  const before = parent ? flattenTree(gh.db.objects, parent.tree) : new Map();
  const after = flattenTree(gh.db.objects, commit.tree);
  const changes = new Map<string, PathChange>();
  for (const [path, entry] of after) if (before.get(path)?.sha !== entry.sha || before.get(path)?.mode !== entry.mode) changes.set(path, entry);
  for (const path of before.keys()) if (!after.has(path)) changes.set(path, null);
  return changes;
}

function authorOf(gh: Gh, login: string, date: string): Person {
  const account = gh.db.accounts.get(accountKey(login));
  return account ? { name: account.name ?? account.login, email: account.email ?? noreplyEmail(account), date } : WEB_FLOW(date);
}

/** Issues of the same repository that `Fixes #12`-style keywords in the pull request close. */
function closingReferences(gh: Gh, repo: RepoDoc, issue: IssueDoc): IssueDoc[] {
  const text = `${issue.title}\n${issue.body ?? ''}`;
  const numbers = [...text.matchAll(/\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b/gi)].map((m) => Number(m[1]));
  const key = repo.full_name.toLowerCase();
  return [...new Set(numbers)].flatMap((n) => {
    const doc = gh.db.issues.get(issueKey(key, n));
    return doc && !doc.pull && doc.state === 'open' ? [doc] : [];
  });
}

function mergePull(gh: Gh, repo: RepoDoc, pull: PullDoc, body: Record<string, unknown>) {
  const viewer = requireViewer(gh);
  const method = optEnum(body, 'merge_method', ['merge', 'squash', 'rebase'] as const) ?? 'merge';
  const title = optString(body, 'commit_title');
  const message = optString(body, 'commit_message');
  const expected = optString(body, 'sha');
  const issue = gh.db.issues.get(issueKey(pull.repo, pull.number))!;
  if (!isOpen(gh, pull)) throw notMergeable();
  if (pull.draft) throw notMergeable('Pull Request is still a draft');
  const head = headSha(gh, pull);
  const base = baseSha(gh, pull);
  if (expected !== undefined && expected !== head) throw conflict('Head branch was modified. Review and try the merge again.');
  const outcome = mergeCommits(gh.db.objects, base, head);
  if (outcome.kind === 'conflict' || outcome.kind === 'up-to-date') throw notMergeable();
  const now = gh.now;
  const headRepoOwner = (pull.head.repo ? gh.db.repos.get(pull.head.repo)?.owner : undefined) ?? 'ghost';
  let sha: string;
  if (method === 'merge') {
    const subject = title ?? `Merge pull request #${pull.number} from ${headRepoOwner}/${pull.head.ref}`;
    sha = putCommit(gh.db.objects, {
      tree: outcome.tree, parents: [base, head], author: viewerPerson(gh, viewer), committer: WEB_FLOW(now),
      message: `${subject}\n\n${message ?? issue.title}`,
    }).sha;
  } else if (method === 'squash') {
    const commits = pullCommits(gh, pull);
    const subject = title ?? `${issue.title} (#${pull.number})`;
    const detail = message ?? commits.map((c) => `* ${c.message}`).join('\n\n');
    sha = putCommit(gh.db.objects, {
      tree: outcome.tree, parents: [base], author: authorOf(gh, issue.user, now), committer: WEB_FLOW(now),
      message: detail === '' ? subject : `${subject}\n\n${detail}`,
    }).sha;
  } else {
    sha = base;
    for (const commit of pullCommits(gh, pull)) {
      const tree = applyChanges(gh.db.objects, getCommit(gh.db.objects, sha)!.tree, commitChanges(gh, commit));
      sha = putCommit(gh.db.objects, { tree, parents: [sha], author: commit.author, committer: WEB_FLOW(now), message: commit.message }).sha;
    }
  }
  freezePull(gh, pull);
  setRef(gh, repo, `refs/heads/${pull.base.ref}`, sha);
  gh.db.pulls.update(issueKey(pull.repo, pull.number), { merged: true, merged_at: now, merged_by: viewer.login, merge_commit_sha: sha });
  gh.db.issues.update(issueKey(pull.repo, pull.number), { state: 'closed', closed_at: now, closed_by: viewer.login, updated_at: now });
  if (pull.base.ref === repo.default_branch) {
    for (const closes of closingReferences(gh, repo, issue)) {
      gh.db.issues.update(issueKey(closes.repo, closes.number), { state: 'closed', state_reason: 'completed', closed_at: now, closed_by: viewer.login, updated_at: now });
    }
  }
  return ok({ sha, merged: true, message: 'Pull Request successfully merged' });
}

export const mergeRoutes = [
  op('pulls.merge', 'PUT', '/repos/:owner/:repo/pulls/:pull_number/merge', 'pulls/pulls#merge-a-pull-request', (req, { owner, repo: name, pull_number }, gh, call) => {
    const repo = writableRepo(gh, owner, name);
    const pull = findPull(gh, repo, pull_number);
    return mergePull(gh, repo, pull, call.body);
  }, { body: githubBody({
      merge_method: bodyParam.enum(['merge', 'squash', 'rebase']), commit_title: bodyParam.string(), commit_message: bodyParam.string(), sha: bodyParam.string(),
    }) }),

  op('pulls.updateBranch', 'PUT', '/repos/:owner/:repo/pulls/:pull_number/update-branch', 'pulls/pulls#update-a-pull-request-branch', (req, { owner, repo: name, pull_number }, gh, call) => {
    const viewer = requireViewer(gh);
    const repo = readableRepo(gh, owner, name);
    const pull = findPull(gh, repo, pull_number);
    const body = call.body;
    const expected = optString(body, 'expected_head_sha');
    const headRepo = pull.head.repo ? gh.db.repos.get(pull.head.repo) : undefined;
    if (!headRepo || !(atLeast(permission(gh, headRepo), 'write') || (pull.maintainer_can_modify && atLeast(permission(gh, repo), 'write')))) {
      throw new GitHubError(403, 'You do not have permission to update this pull request branch.');
    }
    if (!isOpen(gh, pull)) throw unprocessable('Cannot update a closed pull request.');
    const head = headSha(gh, pull);
    const base = baseSha(gh, pull);
    if (expected !== undefined && expected !== head) throw unprocessable("expected head sha didn't match current head ref.");
    if (ancestors(gh.db.objects, head).has(base)) throw unprocessable('There are no new commits on the base branch.');
    const outcome = mergeCommits(gh.db.objects, head, base);
    if (outcome.kind === 'conflict') throw unprocessable('merge conflict between base and head');
    if (outcome.kind === 'up-to-date') throw unprocessable('There are no new commits on the base branch.');
    const commit = putCommit(gh.db.objects, {
      tree: outcome.tree, parents: [head, base], author: viewerPerson(gh, viewer), committer: WEB_FLOW(gh.now),
      message: `Merge branch '${pull.base.ref}' into ${pull.head.ref}`,
    });
    setRef(gh, headRepo, `refs/heads/${pull.head.ref}`, commit.sha);
    return accepted({ message: 'Updating pull request branch.', url: `${WEB}/${repo.full_name}/pull/${pull.number}` });
  }, { body: githubBody({ expected_head_sha: bodyParam.string() }) }),
];
