import type { Gh } from './context.js';
import type { IssueData, PullData, RepoData } from './dataset.js';
import { at, datasetError, takeId } from './load-util.js';
import { accountKey, issueKey, labelKey, milestoneKey, type IssueDoc, type PullSide, type RepoDoc } from './model.js';
import { baseSha, headSha, pullFiles, positionOfLine, diffHunk } from './pull-state.js';
import { branchSha } from './repo-git.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * Issues and pull requests share one number sequence: explicit numbers are kept, the others are
 * handed out in order (issues, then pulls) skipping taken ones. Default times space items three
 * hours apart before the epoch, and comments ten minutes apart after their issue.
 */
export function loadIssuesAndPulls(gh: Gh, repo: RepoDoc, data: RepoData, where: string): void {
  const items: ({ kind: 'issue'; data: IssueData; where: string } | { kind: 'pull'; data: PullData; where: string })[] = [
    ...data.issues.map((d, i) => ({ kind: 'issue' as const, data: d, where: `${where}.issues[${i}]` })),
    ...data.pulls.map((d, i) => ({ kind: 'pull' as const, data: d, where: `${where}.pulls[${i}]` })),
  ];
  const taken = new Set<number>();
  for (const item of items) {
    if (item.data.number === undefined) continue;
    if (taken.has(item.data.number)) throw datasetError(`${item.where}.number`, `number ${item.data.number} is used twice`);
    taken.add(item.data.number);
  }
  let next = 1;
  const key = repo.full_name.toLowerCase();
  items.forEach((item, index) => {
    let number = item.data.number;
    if (number === undefined) {
      while (taken.has(next)) next++;
      number = next;
      taken.add(number);
    }
    const createdMs = item.data.created_at ? Date.parse(item.data.created_at) : gh.ctx.epochMs - (items.length - index) * 3 * HOUR;
    const extras: IssueExtras = item.kind === 'issue'
      ? { id: item.data.id, state_reason: item.data.state_reason, locked: item.data.locked, closed_by: item.data.closed_by }
      : {};
    const issue = issueDoc(gh, repo, item.data, number, createdMs, item.kind === 'pull', extras, item.where);
    gh.db.issues.put(issueKey(key, number), issue);
    if (item.kind === 'pull') loadPull(gh, repo, item.data, issue, item.where);
  });
  gh.db.repos.update(key, { last_number: Math.max(0, ...taken) });
}

function user(gh: Gh, login: string, where: string): string {
  const account = gh.db.accounts.get(accountKey(login));
  if (account?.type !== 'User') throw datasetError(where, `no user ${login}`);
  return account.login;
}

/** What only plain issues carry in the dataset. */
interface IssueExtras {
  id?: number | undefined;
  state_reason?: IssueData['state_reason'];
  locked?: boolean;
  closed_by?: string | undefined;
}

function issueDoc(gh: Gh, repo: RepoDoc, data: IssueData | PullData, number: number, createdMs: number, pull: boolean, issue: IssueExtras, where: string): IssueDoc {
  const key = repo.full_name.toLowerCase();
  const labels = data.labels.map((name) => {
    const existing = gh.db.labels.get(labelKey(key, name));
    if (existing) return existing.name;
    gh.db.labels.put(labelKey(key, name), { id: takeId(gh, 'label', undefined), repo: key, name, color: 'ededed', description: null, default: false });
    return name;
  });
  const milestone = data.milestone ?? null;
  if (milestone !== null && !gh.db.milestones.has(milestoneKey(key, milestone))) throw datasetError(`${where}.milestone`, `no milestone ${milestone}`);
  const created = at(data.created_at, createdMs);
  let updated = created;
  const comments = data.comments.map((c, j) => {
    const at_ = at(c.created_at, createdMs + (j + 1) * 10 * MINUTE);
    const doc = {
      id: takeId(gh, 'comment', c.id), repo: key, issue: number, user: user(gh, c.user, `${where}.comments[${j}].user`),
      body: c.body, created_at: at_, updated_at: at(c.updated_at, Date.parse(at_)),
    };
    if (doc.updated_at > updated) updated = doc.updated_at;
    return doc;
  });
  for (const comment of comments) gh.db.comments.put(comment.id, comment);
  const closed = data.state === 'closed';
  const closedAt = closed ? at(data.closed_at, Date.parse(updated) + HOUR) : null;
  if (closedAt && closedAt > updated) updated = closedAt;
  return {
    id: takeId(gh, 'issue', issue.id), repo: key, number, title: data.title, body: data.body ?? null,
    user: user(gh, data.user, `${where}.user`), labels, milestone,
    assignees: data.assignees.map((a, j) => user(gh, a, `${where}.assignees[${j}]`)),
    state: data.state,
    state_reason: closed ? (issue.state_reason ?? 'completed') : (issue.state_reason === 'reopened' ? 'reopened' : null),
    locked: issue.locked ?? false, pull, comments: comments.length, created_at: created, updated_at: at(data.updated_at, Date.parse(updated)),
    closed_at: closedAt, closed_by: closed ? user(gh, issue.closed_by ?? data.user, `${where}.closed_by`) : null,
  };
}

function side(gh: Gh, repo: RepoDoc, spec: string, where: string): PullSide {
  const colon = spec.indexOf(':');
  let target = repo;
  let ref = spec;
  if (colon !== -1) {
    const owner = spec.slice(0, colon).toLowerCase();
    ref = spec.slice(colon + 1);
    const network = repo.source ?? repo.full_name.toLowerCase();
    const found = gh.db.repos.find((r) => r.owner.toLowerCase() === owner && (r.full_name.toLowerCase() === network || r.source === network));
    if (!found) throw datasetError(where, `no repository of ${owner} in the fork network of ${repo.full_name}`);
    target = found;
  }
  const sha = branchSha(gh, target, ref);
  if (!sha) throw datasetError(where, `no branch ${ref} in ${target.full_name}`);
  return { repo: target.full_name.toLowerCase(), ref, sha };
}

function loadPull(gh: Gh, repo: RepoDoc, data: PullData, issue: IssueDoc, where: string): void {
  const key = repo.full_name.toLowerCase();
  const head = side(gh, repo, data.head, `${where}.head`);
  const base = side(gh, repo, data.base, `${where}.base`);
  if (base.repo !== key) throw datasetError(`${where}.base`, 'the base must be a branch of this repository');
  const pull = {
    id: takeId(gh, 'pull', data.id), repo: key, number: issue.number, head, base, draft: data.draft, merged: false,
    merged_at: null, merged_by: null, merge_commit_sha: null, maintainer_can_modify: false,
    requested_reviewers: data.requested_reviewers.map((r, j) => user(gh, r, `${where}.requested_reviewers[${j}]`)),
  };
  gh.db.pulls.put(issueKey(key, issue.number), pull);
  const commitId = headSha(gh, pull);
  if (commitId === baseSha(gh, pull)) throw datasetError(where, 'head and base point at the same commit');
  data.reviews.forEach((r, j) => {
    const id = takeId(gh, 'review', undefined);
    gh.db.reviews.put(id, {
      id, repo: key, pull: issue.number, user: user(gh, r.user, `${where}.reviews[${j}].user`), body: r.body, state: r.state,
      commit_id: commitId, submitted_at: at(r.submitted_at, Date.parse(issue.created_at) + (j + 1) * 30 * MINUTE),
    });
  });
  const files = data.review_comments.length > 0 ? pullFiles(gh, pull) : [];
  data.review_comments.forEach((c, j) => {
    const here = `${where}.review_comments[${j}]`;
    const patch = files.find((f) => f.filename === c.path)?.patch;
    if (!patch) throw datasetError(`${here}.path`, `${c.path} is not changed by the pull request`);
    const position = positionOfLine(patch, c.line, 'RIGHT');
    if (position === null) throw datasetError(`${here}.line`, `line ${c.line} of ${c.path} is not part of the diff`);
    const reviewId = takeId(gh, 'review', undefined);
    const login = user(gh, c.user, `${here}.user`);
    const createdAt = at(c.created_at, Date.parse(issue.created_at) + (j + 1) * 20 * MINUTE);
    gh.db.reviews.put(reviewId, { id: reviewId, repo: key, pull: issue.number, user: login, body: '', state: 'COMMENTED', commit_id: commitId, submitted_at: createdAt });
    const id = takeId(gh, 'review_comment', undefined);
    gh.db.reviewComments.put(id, {
      id, repo: key, pull: issue.number, review_id: reviewId, user: login, body: c.body, path: c.path, position, line: c.line,
      side: 'RIGHT', commit_id: commitId, diff_hunk: diffHunk(patch, position), created_at: createdAt, updated_at: createdAt,
    });
  });
}
