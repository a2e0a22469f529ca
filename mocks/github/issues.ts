import type { z } from 'zod';
import type { ServiceRequest } from '../core/http.js';
import { canPush, newId, requireViewer, type Gh } from './context.js';
import { GitHubError, invalidType, validationFailed } from './errors.js';
import { ensureLabels, findIssue, issueRepo, readIssueFields, stateChange } from './issue-edits.js';
import { issueKey, issuesOf, type IssueDoc, type RepoDoc } from './model.js';
import { op } from './operation.js';
import { githubBody, githubQuery, has, optEnum, optString, queryEnum, queryTime } from './params.js';
import { issue } from './render/issues.js';
import { created, list, ok } from './respond.js';

/** Issues: list (with GitHub's filters and sorts), create, get, update. */
const listQuery = githubQuery({
  state: queryEnum(['open', 'closed', 'all'] as const, 'Issue'),
  sort: queryEnum(['created', 'updated', 'comments'] as const, 'Issue'),
  direction: queryEnum(['asc', 'desc'] as const, 'Issue'),
  since: queryTime(),
});

function filterIssues(gh: Gh, req: ServiceRequest, repo: RepoDoc, query: z.infer<typeof listQuery>): IssueDoc[] {
  const state = query.state ?? 'open';
  const sort = query.sort ?? 'created';
  const direction = query.direction ?? 'desc';
  const since = query.since;
  const labels = (req.query.get('labels') ?? '').split(',').map((l) => l.trim().toLowerCase()).filter((l) => l !== '');
  const milestone = req.query.get('milestone');
  const assignee = req.query.get('assignee');
  const creator = req.query.get('creator')?.toLowerCase();
  const mentioned = req.query.get('mentioned')?.toLowerCase();
  const key = repo.full_name.toLowerCase();
  const out = issuesOf(gh.db).docs(key).filter((i) => {
    if (state !== 'all' && i.state !== state) return false;
    if (since !== null && i.updated_at < since) return false;
    if (labels.length > 0 && !labels.every((l) => i.labels.some((name) => name.toLowerCase() === l))) return false;
    if (milestone !== null && milestone !== '') {
      if (milestone === '*' ? i.milestone === null : milestone === 'none' ? i.milestone !== null : i.milestone !== Number(milestone)) return false;
    }
    if (assignee !== null && assignee !== '') {
      if (assignee === '*' ? i.assignees.length === 0 : assignee === 'none' ? i.assignees.length > 0
        : !i.assignees.some((a) => a.toLowerCase() === assignee.toLowerCase())) return false;
    }
    if (creator && i.user.toLowerCase() !== creator) return false;
    if (mentioned && !(i.body ?? '').toLowerCase().includes(`@${mentioned}`)) return false;
    return true;
  });
  const value = (i: IssueDoc): string | number => sort === 'created' ? i.created_at : sort === 'updated' ? i.updated_at : i.comments;
  out.sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const order = x < y ? -1 : x > y ? 1 : a.number - b.number;
    return direction === 'asc' ? order : -order;
  });
  return out;
}

function titleOf(value: unknown, required: boolean): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw validationFailed({ resource: 'Issue', code: 'missing_field', field: 'title' });
    return undefined;
  }
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw invalidType('title', value, 'string');
  if (value.trim() === '') throw validationFailed({ resource: 'Issue', code: 'missing_field', field: 'title' });
  return value;
}

export const issueRoutes = [
  op('issues.listForRepo', 'GET', '/repos/:owner/:repo/issues', 'issues/issues#list-repository-issues', (req, { owner, repo: name }, gh, call) => {
    const repo = issueRepo(gh, owner, name);
    return list(gh, req, filterIssues(gh, req, repo, call.query), (i) => issue(gh, repo, i), { repo });
  }, { query: listQuery }),

  op('issues.create', 'POST', '/repos/:owner/:repo/issues', 'issues/issues#create-an-issue', (req, { owner, repo: name }, gh, call) => {
    const viewer = requireViewer(gh);
    const repo = issueRepo(gh, owner, name);
    const body = call.body;
    const title = titleOf(body.title, true)!;
    const text = optString(body, 'body') ?? null;
    const fields = readIssueFields(gh, repo, body);
    const key = repo.full_name.toLowerCase();
    const number = repo.last_number + 1;
    gh.db.repos.update(key, { last_number: number });
    const doc = gh.db.issues.put(issueKey(key, number), {
      id: newId(gh, 'issue'), repo: key, number, title, body: text, user: viewer.login,
      labels: ensureLabels(gh, repo, fields.labels ?? []), assignees: fields.assignees ?? [], milestone: fields.milestone ?? null,
      state: 'open', state_reason: null, locked: false, pull: false, comments: 0,
      created_at: gh.now, updated_at: gh.now, closed_at: null, closed_by: null,
    });
    const rendered = issue(gh, repo, doc);
    return created(rendered, [['Location', rendered.url]]);
  }, { body: githubBody({}) }),

  op('issues.get', 'GET', '/repos/:owner/:repo/issues/:issue_number', 'issues/issues#get-an-issue', (_req, { owner, repo: name, issue_number }, gh) => {
    const repo = issueRepo(gh, owner, name, { pullsToo: true });
    return ok(issue(gh, repo, findIssue(gh, repo, issue_number)));
  }),

  op('issues.update', 'PATCH', '/repos/:owner/:repo/issues/:issue_number', 'issues/issues#update-an-issue', (req, { owner, repo: name, issue_number }, gh, call) => {
    const viewer = requireViewer(gh);
    const repo = issueRepo(gh, owner, name, { pullsToo: true });
    const doc = findIssue(gh, repo, issue_number);
    const body = call.body;
    const push = canPush(gh, repo);
    if (!push && doc.user.toLowerCase() !== viewer.login.toLowerCase()) throw new GitHubError(403, 'Must have admin rights to Repository.');
    const title = has(body, 'title') ? titleOf(body.title, false) : undefined;
    const text = has(body, 'body') ? optString(body, 'body') ?? null : undefined;
    const state = optEnum(body, 'state', ['open', 'closed'] as const);
    const reason = optEnum(body, 'state_reason', ['completed', 'not_planned', 'reopened', 'duplicate'] as const);
    const fields = readIssueFields(gh, repo, body);
    if (state === 'open' && doc.state === 'closed' && doc.pull && gh.db.pulls.get(issueKey(doc.repo, doc.number))?.merged) {
      throw validationFailed({ resource: 'Issue', code: 'custom', field: 'state', message: 'state cannot be changed. The pull request cannot be reopened because it has been merged.' });
    }
    const patch: Partial<IssueDoc> = { updated_at: gh.now };
    if (title !== undefined) patch.title = title;
    if (text !== undefined) patch.body = text;
    if (fields.labels !== undefined) patch.labels = ensureLabels(gh, repo, fields.labels);
    if (fields.assignees !== undefined) patch.assignees = fields.assignees;
    if (fields.milestone !== undefined) patch.milestone = fields.milestone;
    if (state !== undefined || reason !== undefined) Object.assign(patch, stateChange(gh, doc, state ?? doc.state, reason, viewer.login));
    const updated = gh.db.issues.update(issueKey(doc.repo, doc.number), patch)!;
    return ok(issue(gh, repo, updated));
  }, { body: githubBody({}) }),
];
