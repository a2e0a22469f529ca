import type { DocumentStore } from '../core/store.js';
import type { RateLimits } from './dataset.js';
import type { GitObject } from './git/objects.js';

/**
 * The documents of the GitHub store. Keys are chosen for graders: repositories by lowercase
 * `owner/name`, issues and pulls by `owner/name#number`, refs by `owner/name:refs/heads/x`, git
 * objects by SHA. Timestamps are ISO seconds (`2025-01-01T00:00:00Z`).
 */
export type Permission = 'none' | 'read' | 'triage' | 'write' | 'maintain' | 'admin';

export interface AccountDoc {
  id: number;
  login: string;
  type: 'User' | 'Organization';
  name: string | null;
  email: string | null;
  company: string | null;
  blog: string;
  location: string | null;
  bio: string | null;
  twitter_username: string | null;
  hireable: boolean | null;
  site_admin: boolean;
  followers: number;
  following: number;
  created_at: string;
  updated_at: string;
  /** Organizations only. */
  description?: string | null;
  members?: { login: string; role: 'admin' | 'member' }[];
  default_repository_permission?: 'none' | 'read' | 'write' | 'admin';
  members_can_create_repositories?: boolean;
}

export interface TokenDoc {
  token: string;
  login: string;
  scopes: string[];
}

export interface RepoDoc {
  id: number;
  owner: string;
  name: string;
  full_name: string;
  description: string | null;
  homepage: string | null;
  private: boolean;
  default_branch: string;
  topics: string[];
  language: string | null;
  license: string | null;
  /** Keys (`owner/name`, lowercase) of the parent and of the root of the fork network. */
  parent: string | null;
  source: string | null;
  has_issues: boolean;
  has_wiki: boolean;
  has_projects: boolean;
  archived: boolean;
  allow_forking: boolean;
  stargazers_count: number;
  collaborators: { login: string; permission: Permission }[];
  created_at: string;
  updated_at: string;
  pushed_at: string;
  /** The last issue or pull request number handed out. */
  last_number: number;
}

export interface RefDoc {
  repo: string;
  ref: string;
  sha: string;
}

export interface IssueDoc {
  id: number;
  repo: string;
  number: number;
  title: string;
  body: string | null;
  user: string;
  labels: string[];
  assignees: string[];
  milestone: number | null;
  state: 'open' | 'closed';
  state_reason: 'completed' | 'not_planned' | 'reopened' | 'duplicate' | null;
  locked: boolean;
  /** This issue is the conversation of a pull request. */
  pull: boolean;
  comments: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  closed_by: string | null;
}

export interface CommentDoc {
  id: number;
  repo: string;
  issue: number;
  user: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface LabelDoc {
  id: number;
  repo: string;
  name: string;
  color: string;
  description: string | null;
  default: boolean;
}

export interface MilestoneDoc {
  id: number;
  repo: string;
  number: number;
  title: string;
  description: string | null;
  state: 'open' | 'closed';
  due_on: string | null;
  creator: string;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

export interface PullSide {
  /** Repository key; null when a fork was deleted. */
  repo: string | null;
  ref: string;
  /** The SHA when the pull request was last frozen (closed or merged); live refs win while open. */
  sha: string;
}

export interface PullDoc {
  id: number;
  repo: string;
  number: number;
  head: PullSide;
  base: PullSide;
  draft: boolean;
  merged: boolean;
  merged_at: string | null;
  merged_by: string | null;
  merge_commit_sha: string | null;
  maintainer_can_modify: boolean;
  requested_reviewers: string[];
}

export type ReviewState = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'PENDING' | 'DISMISSED';

export interface ReviewDoc {
  id: number;
  repo: string;
  pull: number;
  user: string;
  body: string;
  state: ReviewState;
  commit_id: string;
  submitted_at: string | null;
}

export interface ReviewCommentDoc {
  id: number;
  repo: string;
  pull: number;
  review_id: number;
  user: string;
  body: string;
  path: string;
  /** Line in the diff (1 = first line after the first hunk header), and line in the new file. */
  position: number | null;
  line: number | null;
  side: 'LEFT' | 'RIGHT';
  commit_id: string;
  diff_hunk: string;
  created_at: string;
  updated_at: string;
}

export interface StatusDoc {
  id: number;
  repo: string;
  sha: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  context: string;
  description: string | null;
  target_url: string | null;
  creator: string;
  created_at: string;
  updated_at: string;
}

/** Requests counted against a rate-limit window (`login:resource` or `anonymous:resource`). */
export interface RateDoc {
  used: number;
  /** Unix seconds when the window resets. */
  reset: number;
}

export interface SettingsDoc {
  rate_limits: RateLimits;
}

export function db(store: DocumentStore) {
  return {
    accounts: store.collection<AccountDoc>('accounts'),
    tokens: store.collection<TokenDoc>('tokens'),
    repos: store.collection<RepoDoc>('repos'),
    refs: store.collection<RefDoc>('refs'),
    objects: store.collection<GitObject>('objects'),
    issues: store.collection<IssueDoc>('issues'),
    comments: store.collection<CommentDoc>('comments'),
    labels: store.collection<LabelDoc>('labels'),
    milestones: store.collection<MilestoneDoc>('milestones'),
    pulls: store.collection<PullDoc>('pulls'),
    reviews: store.collection<ReviewDoc>('reviews'),
    reviewComments: store.collection<ReviewCommentDoc>('review_comments'),
    statuses: store.collection<StatusDoc>('statuses'),
    rates: store.collection<RateDoc>('rate_limits'),
    settings: store.collection<SettingsDoc>('settings'),
  };
}
export type Db = ReturnType<typeof db>;

/*
 * Indexes the store keeps as documents are written (mocks/core/store-index.ts), for the counts and
 * lists every repository, issue and branch answer shows: a scan of every document per render
 * made long trials quadratic. Each name goes with one function, here.
 */
const byParent = (r: RepoDoc) => r.parent;
const bySource = (r: RepoDoc) => r.source;
const byRepo = (d: { repo: string }) => d.repo;
const openByRepo = (i: IssueDoc) => (i.state === 'open' ? i.repo : null);
const byMilestoneState = (i: IssueDoc) => (i.milestone === null ? null : milestoneState(i.repo, i.milestone, i.state));
const byIssue = (c: CommentDoc) => issueKey(c.repo, c.issue);
const refOrder = (r: RefDoc) => refPrefix(r.repo, r.ref);

/** A repository's forks (`parent`), its network (`source`), by repository key. */
export const forksOf = (d: Db) => d.repos.groups('by-parent', byParent);
export const networkOf = (d: Db) => d.repos.groups('by-source', bySource);
/** Issues (pull requests too) by repository key; the open ones alone. */
export const issuesOf = (d: Db) => d.issues.groups('by-repo', byRepo);
export const openIssuesOf = (d: Db) => d.issues.groups('open-by-repo', openByRepo);
/** Issues by milestone and state, for a milestone's counts: `count(milestoneState(repo, number, 'open'))`. */
export const issuesByMilestone = (d: Db) => d.issues.groups('by-milestone-state', byMilestoneState);
export const milestoneState = (repo: string, milestone: number, state: string) => `${repo}:${milestone}:${state}`;
/** Comments by `issueKey`. */
export const commentsOf = (d: Db) => d.comments.groups('by-issue', byIssue);
export const pullsOf = (d: Db) => d.pulls.groups('by-repo', byRepo);
/** Refs by repository, then by name: `range(refPrefix(repo, 'refs/heads/'))` is a repository's branches in name order. */
export const refsByName = (d: Db) => d.refs.sorted('by-name', refOrder);
export const refPrefix = (repo: string, prefix = '') => `${repo}\u0000${prefix}`;

export const repoKey = (owner: string, name: string) => `${owner}/${name}`.toLowerCase();
export const issueKey = (repo: string, number: number) => `${repo}#${number}`;
export const refKey = (repo: string, ref: string) => `${repo}:${ref}`;
export const labelKey = (repo: string, name: string) => `${repo}:${name.toLowerCase()}`;
export const milestoneKey = (repo: string, number: number) => `${repo}:${number}`;
export const accountKey = (login: string) => login.toLowerCase();

/** Where numeric IDs of each kind start (GitHub's are large; ours look like them). */
export const ID_START = {
  account: 1_000_001,
  repo: 700_000_001,
  issue: 2_100_000_001,
  comment: 1_900_000_001,
  label: 6_000_000_001,
  milestone: 9_000_001,
  pull: 1_800_000_001,
  review: 2_400_000_001,
  review_comment: 1_500_000_001,
  status: 30_000_000_001,
} as const;
export type IdKind = keyof typeof ID_START;
