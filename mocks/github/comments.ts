import { canPush, newId, requireViewer, type Gh } from './context.js';
import { GitHubError, notFound, notSupplied } from './errors.js';
import { findIssue, issueRepo } from './issue-edits.js';
import { commentsOf, issueKey, type CommentDoc, type RepoDoc } from './model.js';
import { op } from './operation.js';
import { bodyParam, githubBody, githubQuery, queryEnum, queryTime, reqString } from './params.js';
import { comment } from './render/issues.js';
import { created, list, noContent, ok } from './respond.js';

/** Issue comments: per issue (list, create) and per repository (list, get, edit, delete). */
function findComment(gh: Gh, repo: RepoDoc, id: string): CommentDoc {
  const doc = /^\d+$/.test(id) ? gh.db.comments.get(id) : undefined;
  if (!doc || doc.repo !== repo.full_name.toLowerCase()) throw notFound();
  return doc;
}

function mayEdit(gh: Gh, repo: RepoDoc, doc: CommentDoc): void {
  const viewer = requireViewer(gh);
  if (doc.user.toLowerCase() !== viewer.login.toLowerCase() && !canPush(gh, repo)) throw new GitHubError(403, 'Must have admin rights to Repository.');
}

function bodyText(body: Record<string, unknown>): string {
  const text = reqString(body, 'body');
  if (text.trim() === '') throw notSupplied('body');
  return text;
}

export const commentRoutes = [
  op('issues.listCommentsForRepo', 'GET', '/repos/:owner/:repo/issues/comments', 'issues/comments#list-issue-comments-for-a-repository', (req, { owner, repo: name }, gh, call) => {
    const repo = issueRepo(gh, owner, name, { pullsToo: true });
    const sort = call.query.sort ?? 'created';
    const direction = call.query.direction ?? 'asc';
    const since = call.query.since;
    const key = repo.full_name.toLowerCase();
    const found = gh.db.comments.filter((c) => c.repo === key && (since === null || c.updated_at >= since));
    const value = (c: CommentDoc) => (sort === 'created' ? c.created_at : c.updated_at);
    found.sort((a, b) => (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : a.id - b.id) * (direction === 'asc' ? 1 : -1));
    return list(gh, req, found, (c) => comment(gh, repo, c), { repo });
  }, {
    query: githubQuery({
      sort: queryEnum(['created', 'updated'] as const, 'IssueComment'),
      direction: queryEnum(['asc', 'desc'] as const, 'IssueComment'),
      since: queryTime(),
    }),
  }),

  op('issues.getComment', 'GET', '/repos/:owner/:repo/issues/comments/:comment_id', 'issues/comments#get-an-issue-comment', (_req, { owner, repo: name, comment_id }, gh) => {
    const repo = issueRepo(gh, owner, name, { pullsToo: true });
    return ok(comment(gh, repo, findComment(gh, repo, comment_id)));
  }),

  op('issues.updateComment', 'PATCH', '/repos/:owner/:repo/issues/comments/:comment_id', 'issues/comments#update-an-issue-comment', (req, { owner, repo: name, comment_id }, gh, call) => {
    const repo = issueRepo(gh, owner, name, { pullsToo: true });
    const doc = findComment(gh, repo, comment_id);
    mayEdit(gh, repo, doc);
    const text = bodyText(call.body);
    return ok(comment(gh, repo, gh.db.comments.update(doc.id, { body: text, updated_at: gh.now })!));
  }, { body: githubBody({ body: bodyParam.string({ required: true }) }) }),

  op('issues.deleteComment', 'DELETE', '/repos/:owner/:repo/issues/comments/:comment_id', 'issues/comments#delete-an-issue-comment', (_req, { owner, repo: name, comment_id }, gh) => {
    const repo = issueRepo(gh, owner, name, { pullsToo: true });
    const doc = findComment(gh, repo, comment_id);
    mayEdit(gh, repo, doc);
    gh.db.comments.delete(doc.id);
    const parent = gh.db.issues.get(issueKey(doc.repo, doc.issue));
    if (parent) gh.db.issues.update(issueKey(doc.repo, doc.issue), { comments: Math.max(0, parent.comments - 1) });
    return noContent();
  }),

  op('issues.listComments', 'GET', '/repos/:owner/:repo/issues/:issue_number/comments', 'issues/comments#list-issue-comments', (req, { owner, repo: name, issue_number }, gh, call) => {
    const repo = issueRepo(gh, owner, name, { pullsToo: true });
    const issue = findIssue(gh, repo, issue_number);
    const since = call.query.since;
    const found = commentsOf(gh.db).docs(issueKey(issue.repo, issue.number)).filter((c) => since === null || c.updated_at >= since);
    return list(gh, req, found, (c) => comment(gh, repo, c), { repo });
  }, { query: githubQuery({ since: queryTime() }) }),

  op('issues.createComment', 'POST', '/repos/:owner/:repo/issues/:issue_number/comments', 'issues/comments#create-an-issue-comment', (req, { owner, repo: name, issue_number }, gh, call) => {
    const viewer = requireViewer(gh);
    const repo = issueRepo(gh, owner, name, { pullsToo: true });
    const issue = findIssue(gh, repo, issue_number);
    const text = bodyText(call.body);
    if (issue.locked && !canPush(gh, repo)) throw new GitHubError(403, 'Unable to create comment because issue is locked.');
    const id = newId(gh, 'comment');
    const doc = gh.db.comments.put(id, { id, repo: issue.repo, issue: issue.number, user: viewer.login, body: text, created_at: gh.now, updated_at: gh.now });
    gh.db.issues.update(issueKey(issue.repo, issue.number), { comments: issue.comments + 1, updated_at: gh.now });
    const rendered = comment(gh, repo, doc);
    return created(rendered, [['Location', rendered.url]]);
  }, { body: githubBody({ body: bodyParam.string({ required: true }) }) }),
];
