import { newId, readableRepo, requireViewer, type Gh } from './context.js';
import { invalidType, unprocessableEntity } from './errors.js';
import type { FileDiff } from './git/diff.js';
import { getCommit } from './git/objects.js';
import type { PullDoc, ReviewCommentDoc, ReviewDoc, ReviewState } from './model.js';
import { op } from './operation.js';
import { bodyParam, githubBody, optEnum, optInt, optString, reqString, type Body } from './params.js';
import { diffHunk, headSha, lineOfPosition, positionOfLine, pullFiles } from './pull-state.js';
import { findPull } from './pulls.js';
import { review, reviewComment } from './render/pulls.js';
import { list, ok } from './respond.js';

/**
 * Reviews: list and create (APPROVE, REQUEST_CHANGES, COMMENT, or PENDING without an event), with
 * inline comments placed by diff `position` or by `line` and `side`; and the review comments.
 */
const STATE: Record<string, ReviewState> = { APPROVE: 'APPROVED', REQUEST_CHANGES: 'CHANGES_REQUESTED', COMMENT: 'COMMENTED' };

type Draft = Omit<ReviewCommentDoc, 'id' | 'review_id' | 'created_at' | 'updated_at'>;

function readComments(gh: Gh, pull: PullDoc, body: Body, commitId: string, user: string): Draft[] {
  const raw = body.comments ?? [];
  if (!Array.isArray(raw)) throw invalidType('comments', raw, 'array');
  let files: FileDiff[] | undefined;
  return raw.map((item): Draft => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw invalidType('comments/items', item, 'object');
    const entry = item as Body;
    const path = reqString(entry, 'path');
    const text = reqString(entry, 'body');
    const position = optInt(entry, 'position');
    const line = optInt(entry, 'line');
    const side = optEnum(entry, 'side', ['LEFT', 'RIGHT'] as const) ?? 'RIGHT';
    files ??= pullFiles(gh, pull);
    const patch = files.find((f) => f.filename === path)?.patch;
    if (patch === undefined) throw unprocessableEntity('Path could not be resolved');
    let at: number;
    let newLine: number | null;
    if (position !== undefined) {
      const found = lineOfPosition(patch, position);
      if (!found.valid) throw unprocessableEntity('Pull request review thread position is invalid');
      at = position;
      newLine = found.line;
    } else if (line !== undefined) {
      const found = positionOfLine(patch, line, side);
      if (found === null) throw unprocessableEntity('Pull request review thread line must be part of the diff');
      at = found;
      newLine = line;
    } else {
      throw unprocessableEntity('Pull request review thread position or line is required');
    }
    return {
      repo: pull.repo, pull: pull.number, user, body: text, path, position: at, line: newLine, side,
      commit_id: commitId, diff_hunk: diffHunk(patch, at),
    };
  });
}

export const reviewRoutes = [
  op('pulls.listReviews', 'GET', '/repos/:owner/:repo/pulls/:pull_number/reviews', 'pulls/reviews#list-reviews-for-a-pull-request', (req, { owner, repo: name, pull_number }, gh) => {
    const repo = readableRepo(gh, owner, name);
    const pull = findPull(gh, repo, pull_number);
    const viewer = gh.viewer?.login.toLowerCase();
    const found = gh.db.reviews.filter((r) => r.repo === pull.repo && r.pull === pull.number && (r.state !== 'PENDING' || r.user.toLowerCase() === viewer));
    return list(gh, req, found, (r) => review(gh, repo, r), { repo });
  }),

  op('pulls.createReview', 'POST', '/repos/:owner/:repo/pulls/:pull_number/reviews', 'pulls/reviews#create-a-review-for-a-pull-request', (req, { owner, repo: name, pull_number }, gh, call) => {
    const viewer = requireViewer(gh);
    const repo = readableRepo(gh, owner, name);
    const pull = findPull(gh, repo, pull_number);
    const body = call.body;
    const event = optEnum(body, 'event', ['APPROVE', 'REQUEST_CHANGES', 'COMMENT'] as const);
    const text = optString(body, 'body') ?? '';
    const commitId = (optString(body, 'commit_id') ?? headSha(gh, pull)).toLowerCase();
    const author = gh.db.issues.get(`${pull.repo}#${pull.number}`)!.user.toLowerCase();
    const own = author === viewer.login.toLowerCase();
    if (own && event === 'APPROVE') throw unprocessableEntity('Review Can not approve your own pull request');
    if (own && event === 'REQUEST_CHANGES') throw unprocessableEntity('Review Can not request changes on your own pull request');
    if (!getCommit(gh.db.objects, commitId)) throw unprocessableEntity('Commit could not be resolved');
    const drafts = readComments(gh, pull, body, commitId, viewer.login);
    if ((event === 'REQUEST_CHANGES' || event === 'COMMENT') && text.trim() === '' && drafts.length === 0) {
      throw unprocessableEntity(`Review Body is required when using ${event}`);
    }
    if (event === undefined && gh.db.reviews.find((r) => r.repo === pull.repo && r.pull === pull.number && r.state === 'PENDING' && r.user.toLowerCase() === viewer.login.toLowerCase())) {
      throw unprocessableEntity('User can only have one pending review per pull request');
    }
    const id = newId(gh, 'review');
    const doc: ReviewDoc = {
      id, repo: pull.repo, pull: pull.number, user: viewer.login, body: text, state: event ? STATE[event]! : 'PENDING',
      commit_id: commitId, submitted_at: event ? gh.now : null,
    };
    gh.db.reviews.put(id, doc);
    // A submitted review answers the review request: GitHub drops the reviewer from the pending requests.
    if (event && pull.requested_reviewers.some((r) => r.toLowerCase() === viewer.login.toLowerCase())) {
      gh.db.pulls.update(`${pull.repo}#${pull.number}`, { requested_reviewers: pull.requested_reviewers.filter((r) => r.toLowerCase() !== viewer.login.toLowerCase()) });
    }
    for (const draft of drafts) {
      const commentId = newId(gh, 'review_comment');
      gh.db.reviewComments.put(commentId, { ...draft, id: commentId, review_id: id, created_at: gh.now, updated_at: gh.now });
    }
    return ok(review(gh, repo, doc));
  }, { body: githubBody({ event: bodyParam.enum(['APPROVE', 'REQUEST_CHANGES', 'COMMENT']), body: bodyParam.string(), commit_id: bodyParam.string() }) }),

  op('pulls.listReviewComments', 'GET', '/repos/:owner/:repo/pulls/:pull_number/comments', 'pulls/comments#list-review-comments-on-a-pull-request', (req, { owner, repo: name, pull_number }, gh) => {
    const repo = readableRepo(gh, owner, name);
    const pull = findPull(gh, repo, pull_number);
    const viewer = gh.viewer?.login.toLowerCase();
    const visible = (c: ReviewCommentDoc) => {
      const parent = gh.db.reviews.get(c.review_id);
      return parent?.state !== 'PENDING' || parent.user.toLowerCase() === viewer;
    };
    const found = gh.db.reviewComments.filter((c) => c.repo === pull.repo && c.pull === pull.number && visible(c));
    return list(gh, req, found, (c) => reviewComment(gh, repo, c), { repo });
  }),
];
