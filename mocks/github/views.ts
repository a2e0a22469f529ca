import type { DocumentStore, StoreDump } from '../core/store.js';
import { blobBytes, flattenTree, getBlob, getCommit, type Mode } from './git/objects.js';
import {
  db, issueKey, type AccountDoc, type CommentDoc, type IssueDoc, type MilestoneDoc, type PullDoc, type RepoDoc, type ReviewCommentDoc, type ReviewDoc, type StatusDoc,
} from './model.js';

/**
 * What graders see of GitHub beyond the raw store: derived collections that are awkward to read
 * from git objects and split documents, and the fields a state diff must leave out.
 *
 * - `files`, key `owner/repo@branch:path`: every file on every branch of every repository, with its
 *   blob SHA and its text (null when the bytes are not UTF-8 text).
 * - `branches`, key `owner/repo@branch`: each branch's head commit (SHA, message, author).
 * - `pull_requests`, key `owner/repo#N`: a pull request's conversation (title, state, labels: the
 *   issue half) and its git side (refs, live SHAs, merged: the pull half) in one document.
 *
 * Keys use the repository key of the store (lowercase `owner/name`). Views are pure functions of
 * the store: no clock, no randomness.
 */
export interface FileView {
  repo: string;
  branch: string;
  path: string;
  /** The blob's SHA (what `git hash-object` prints). */
  sha: string;
  mode: Mode;
  /** UTF-8 text, or null for binary content (a NUL byte or invalid UTF-8). */
  content: string | null;
  size: number;
}

export interface BranchView {
  repo: string;
  branch: string;
  /** The head commit. */
  sha: string;
  message: string;
  /** The head commit's author name. */
  author: string;
  /** This is the repository's default branch. */
  default: boolean;
}

export interface PullRequestView {
  repo: string;
  number: number;
  title: string;
  body: string | null;
  user: string;
  state: 'open' | 'closed';
  merged: boolean;
  merged_by: string | null;
  draft: boolean;
  labels: string[];
  assignees: string[];
  requested_reviewers: string[];
  /** Branch names; `head_repo` is the repository key of the head (a fork's, or null when deleted). */
  head: string;
  head_repo: string | null;
  base: string;
  /** Live while open (the branches' heads), frozen once closed. */
  head_sha: string;
  base_sha: string;
  merge_commit_sha: string | null;
}

const HEADS = 'refs/heads/';
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A blob's bytes as text, or null when they are not text. */
export function blobText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

export function fileViewKey(repo: string, branch: string, path: string): string {
  return `${repo}@${branch}:${path}`;
}

export function branchViewKey(repo: string, branch: string): string {
  return `${repo}@${branch}`;
}

/** The derived collections (see the module comment). */
export function githubViews(store: DocumentStore): StoreDump {
  const d = db(store);
  const files: Record<string, FileView> = {};
  const branches: Record<string, BranchView> = {};
  // Branches share trees and blobs: flatten each tree and decode each blob once.
  const trees = new Map<string, [string, { mode: Mode; sha: string }][]>();
  const blobs = new Map<string, { content: string | null; size: number }>();
  const refs = d.refs.filter((r) => r.ref.startsWith(HEADS));
  refs.sort((a, b) => (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  for (const ref of refs) {
    const commit = getCommit(d.objects, ref.sha);
    if (!commit) continue;
    const repo = d.repos.get(ref.repo);
    const branch = ref.ref.slice(HEADS.length);
    branches[branchViewKey(ref.repo, branch)] = {
      repo: ref.repo, branch, sha: commit.sha, message: commit.message, author: commit.author.name,
      default: repo?.default_branch === branch,
    };
    let entries = trees.get(commit.tree);
    if (!entries) {
      entries = [...flattenTree(d.objects, commit.tree)].filter(([, e]) => e.type === 'blob').map(([path, e]) => [path, { mode: e.mode, sha: e.sha }]);
      trees.set(commit.tree, entries);
    }
    for (const [path, entry] of entries) {
      let blob = blobs.get(entry.sha);
      if (!blob) {
        const object = getBlob(d.objects, entry.sha);
        blob = object ? { content: blobText(blobBytes(object)), size: object.size } : { content: null, size: 0 };
        blobs.set(entry.sha, blob);
      }
      files[fileViewKey(ref.repo, branch, path)] = { repo: ref.repo, branch, path, sha: entry.sha, mode: entry.mode, ...blob };
    }
  }

  const pullRequests: Record<string, PullRequestView> = {};
  for (const [key, pull] of d.pulls.entries()) {
    const issue = d.issues.get(issueKey(pull.repo, pull.number));
    if (!issue) continue;
    const open = issue.state === 'open';
    const live = (side: PullDoc['head']) => (open && side.repo !== null ? d.refs.get(`${side.repo}:${HEADS}${side.ref}`)?.sha : undefined) ?? side.sha;
    pullRequests[key] = {
      repo: pull.repo, number: pull.number, title: issue.title, body: issue.body, user: issue.user, state: issue.state,
      merged: pull.merged, merged_by: pull.merged_by, draft: pull.draft, labels: [...issue.labels], assignees: [...issue.assignees],
      requested_reviewers: [...pull.requested_reviewers], head: pull.head.ref, head_repo: pull.head.repo, base: pull.base.ref,
      head_sha: live(pull.head), base_sha: live(pull.base), merge_commit_sha: pull.merge_commit_sha,
    };
  }
  return { files, branches, pull_requests: pullRequests };
}

type Fields<T> = readonly (keyof T & string)[];

/**
 * Fields a state diff leaves out: timestamps, counters and SHAs that move as a side effect of an
 * intended change. Whole collections (`'*'`) are bookkeeping (rate limits), content-addressed
 * storage (git objects: what they mean shows in `files` and `branches`), raw refs (their branch
 * heads are the `branches` view, whose creation and deletion the diff sees) and views that repeat
 * other collections (`pull_requests` is `issues` plus `pulls`).
 *
 * A file's `sha` and `size` follow its `content`, which the diff compares (the MCP server writes
 * only text, so a binary file can change only to text, which `content` shows).
 *
 * Only top-level fields can be left out; `pulls.head` and `pulls.base` go whole because their SHAs
 * are frozen when a pull request closes (their refs show in `pull_requests`, for expectations).
 */
export const githubVolatile = {
  accounts: ['updated_at'] satisfies Fields<AccountDoc>,
  repos: ['updated_at', 'pushed_at', 'last_number'] satisfies Fields<RepoDoc>,
  issues: ['updated_at', 'closed_at', 'comments'] satisfies Fields<IssueDoc>,
  comments: ['updated_at'] satisfies Fields<CommentDoc>,
  milestones: ['updated_at', 'closed_at'] satisfies Fields<MilestoneDoc>,
  pulls: ['head', 'base', 'merged_at', 'merge_commit_sha'] satisfies Fields<PullDoc>,
  reviews: ['submitted_at'] satisfies Fields<ReviewDoc>,
  review_comments: ['updated_at'] satisfies Fields<ReviewCommentDoc>,
  statuses: ['updated_at'] satisfies Fields<StatusDoc>,
  files: ['sha', 'size'] satisfies Fields<FileView>,
  branches: ['sha', 'message', 'author'] satisfies Fields<BranchView>,
  objects: '*',
  refs: '*',
  rate_limits: '*',
  pull_requests: '*',
} as const satisfies Record<string, '*' | readonly string[]>;
