import { JsonFragment } from '../../core/json-fragment.js';
import type { Gh } from '../context.js';
import { issueKey, type PullDoc, type PullSide, type RepoDoc, type ReviewCommentDoc, type ReviewDoc } from '../model.js';
import { baseSha, headSha, isOpen, mergeOutcome, pullCommits, pullFiles } from '../pull-state.js';
import { WEB, nodeId, repoApi } from '../urls.js';
import { authorAssociation, issue as renderIssue, reactions } from './issues.js';
import { repository } from './repos.js';
import { GHOST, embeddedUser, userByLogin } from './users.js';

/** Pull requests (`pull-request-simple` for lists, `pull-request` for one), reviews, review comments. */
/**
 * Repositories rendered already in one answer (a list shows each pull request's head and base
 * repository, mostly the same one): rendered and serialised once (two thirds of a pull request
 * list's bytes), spliced into the answer wherever they appear. Only for renders after the
 * handler's last write.
 */
export type RepoRenders = Map<RepoDoc, JsonFragment<ReturnType<typeof repository>>>;

function side(gh: Gh, pull: PullDoc, which: 'head' | 'base', rendered: RepoRenders) {
  const data: PullSide = pull[which];
  const repo = data.repo === null ? undefined : gh.db.repos.get(data.repo);
  const owner = repo ? gh.db.accounts.get(repo.owner.toLowerCase()) : undefined;
  return {
    label: `${repo?.owner ?? 'ghost'}:${data.ref}`,
    ref: data.ref,
    sha: which === 'head' ? headSha(gh, pull) : baseSha(gh, pull),
    user: embeddedUser(gh, owner ?? GHOST),
    repo: repo ? renderedRepo(gh, repo, rendered) : null,
  };
}

function renderedRepo(gh: Gh, repo: RepoDoc, rendered: RepoRenders) {
  let found = rendered.get(repo);
  if (!found) {
    found = new JsonFragment(repository(gh, repo));
    rendered.set(repo, found);
  }
  return found;
}

export function pullSimple(gh: Gh, repo: RepoDoc, pull: PullDoc, rendered: RepoRenders = new Map()) {
  const issueDoc = gh.db.issues.get(issueKey(pull.repo, pull.number))!;
  const issue = renderIssue(gh, repo, issueDoc);
  const url = `${repoApi(repo.full_name)}/pulls/${pull.number}`;
  const html = `${WEB}/${repo.full_name}/pull/${pull.number}`;
  const head = side(gh, pull, 'head', rendered);
  const statuses = `${repoApi(repo.full_name)}/statuses/${head.sha}`;
  return {
    url,
    id: pull.id,
    node_id: nodeId(gh.ctx.ids, 'pull', pull.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issue.url,
    number: pull.number,
    state: issueDoc.state,
    locked: issueDoc.locked,
    title: issueDoc.title,
    user: issue.user,
    body: issueDoc.body,
    created_at: issueDoc.created_at,
    updated_at: issueDoc.updated_at,
    closed_at: issueDoc.closed_at,
    merged_at: pull.merged_at,
    merge_commit_sha: pull.merge_commit_sha,
    assignee: issue.assignee,
    assignees: issue.assignees,
    requested_reviewers: pull.requested_reviewers.map((login) => userByLogin(gh, login)),
    requested_teams: [],
    labels: issue.labels,
    milestone: issue.milestone,
    draft: pull.draft,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${repoApi(repo.full_name)}/pulls/comments{/number}`,
    comments_url: issue.comments_url,
    statuses_url: statuses,
    head,
    base: side(gh, pull, 'base', rendered),
    _links: {
      self: { href: url },
      html: { href: html },
      issue: { href: issue.url },
      comments: { href: issue.comments_url },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: `${repoApi(repo.full_name)}/pulls/comments{/number}` },
      commits: { href: `${url}/commits` },
      statuses: { href: statuses },
    },
    author_association: issue.author_association,
    auto_merge: null,
    active_lock_reason: null,
  };
}

/** Mergeability as GitHub reports it: computed for open pull requests, unknown once closed. */
function mergeability(gh: Gh, pull: PullDoc): { mergeable: boolean | null; rebaseable: boolean | null; mergeable_state: string } {
  if (!isOpen(gh, pull)) return { mergeable: null, rebaseable: null, mergeable_state: 'unknown' };
  const outcome = mergeOutcome(gh, pull);
  if (outcome.kind === 'conflict') return { mergeable: false, rebaseable: false, mergeable_state: 'dirty' };
  if (pull.draft) return { mergeable: true, rebaseable: true, mergeable_state: 'draft' };
  const key = pull.head.repo ?? pull.repo;
  const sha = headSha(gh, pull);
  const failing = gh.db.statuses.filter((s) => s.repo === key && s.sha === sha).reverse()
    .filter((s, i, all) => all.findIndex((t) => t.context === s.context) === i)
    .some((s) => s.state !== 'success');
  return { mergeable: true, rebaseable: true, mergeable_state: failing ? 'unstable' : 'clean' };
}

export function pullFull(gh: Gh, repo: RepoDoc, pull: PullDoc) {
  const issueDoc = gh.db.issues.get(issueKey(pull.repo, pull.number))!;
  const files = pullFiles(gh, pull);
  // Object.assign on the fresh render, not `{ ...pullSimple(), … }`: see render/repos.ts.
  return Object.assign(pullSimple(gh, repo, pull), { merged: pull.merged }, mergeability(gh, pull), {
    merged_by: pull.merged_by === null ? null : userByLogin(gh, pull.merged_by),
    comments: issueDoc.comments,
    review_comments: gh.db.reviewComments.filter((c) => c.repo === pull.repo && c.pull === pull.number).length,
    maintainer_can_modify: pull.maintainer_can_modify,
    commits: pullCommits(gh, pull).length,
    additions: files.reduce((n, f) => n + f.additions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0),
    changed_files: files.length,
  });
}

export function review(gh: Gh, repo: RepoDoc, doc: ReviewDoc) {
  const html = `${WEB}/${repo.full_name}/pull/${doc.pull}#pullrequestreview-${doc.id}`;
  const pullUrl = `${repoApi(repo.full_name)}/pulls/${doc.pull}`;
  return {
    id: doc.id,
    node_id: nodeId(gh.ctx.ids, 'review', doc.id),
    user: userByLogin(gh, doc.user),
    body: doc.body,
    state: doc.state,
    html_url: html,
    pull_request_url: pullUrl,
    author_association: authorAssociation(gh, repo, doc.user),
    _links: { html: { href: html }, pull_request: { href: pullUrl } },
    ...(doc.submitted_at === null ? {} : { submitted_at: doc.submitted_at }),
    commit_id: doc.commit_id,
  };
}

export function reviewComment(gh: Gh, repo: RepoDoc, doc: ReviewCommentDoc) {
  const url = `${repoApi(repo.full_name)}/pulls/comments/${doc.id}`;
  const html = `${WEB}/${repo.full_name}/pull/${doc.pull}#discussion_r${doc.id}`;
  const pullUrl = `${repoApi(repo.full_name)}/pulls/${doc.pull}`;
  return {
    url,
    pull_request_review_id: doc.review_id,
    id: doc.id,
    node_id: nodeId(gh.ctx.ids, 'review_comment', doc.id),
    diff_hunk: doc.diff_hunk,
    path: doc.path,
    position: doc.position,
    original_position: doc.position,
    commit_id: doc.commit_id,
    original_commit_id: doc.commit_id,
    user: userByLogin(gh, doc.user),
    body: doc.body,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    html_url: html,
    pull_request_url: pullUrl,
    author_association: authorAssociation(gh, repo, doc.user),
    _links: { self: { href: url }, html: { href: html }, pull_request: { href: pullUrl } },
    reactions: reactions(`${url}/reactions`),
    start_line: null,
    original_start_line: null,
    start_side: null,
    line: doc.line,
    original_line: doc.line,
    side: doc.side,
    subject_type: 'line',
  };
}
