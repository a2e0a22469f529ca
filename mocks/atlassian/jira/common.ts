import { emptyResponse, jsonResponse, type ServiceRequest, type ServiceResponse } from '../../core/http.js';
import { me, type AtlassianCtx } from '../context.js';
import { jiraError } from '../errors.js';
import { changes } from './fields.js';
import { jiraTime, type Adf, type IssueDoc } from './model.js';
import { comment as renderComment } from './render.js';

/** The issue a path names by key (any case) or numeric ID; Jira's 404 otherwise. */
export function issueOf(c: AtlassianCtx, idOrKey: string): IssueDoc {
  const found = c.jira.issues.get(idOrKey.toUpperCase()) ?? (/^\d+$/.test(idOrKey) ? c.jira.issues.find((i) => i.id === idOrKey) : undefined);
  if (!found) throw jiraError(404, ['Issue does not exist or you do not have permission to see it.']);
  return found;
}

/** Stores a changed issue and its changelog entry (when anything a history shows changed). */
export function saveIssue(c: AtlassianCtx, before: IssueDoc, after: IssueDoc): IssueDoc {
  const items = changes(c, before, after);
  if (items.length > 0) {
    const id = String(c.ctx.ids.next('jira-change', 10000));
    c.jira.changelog.put(id, { id, issue: after.key, author: me(c).accountId, created: jiraTime(c.ctx.nowMs), items });
  }
  return c.jira.issues.put(after.key, after);
}

export function addComment(c: AtlassianCtx, issue: IssueDoc, body: Adf): Record<string, unknown> {
  const id = String(c.ctx.ids.next('jira-comment', 10000));
  const now = jiraTime(c.ctx.nowMs);
  const author = me(c).accountId;
  const doc = c.jira.comments.put(id, { id, issue: issue.key, author, updateAuthor: author, body, created: now, updated: now });
  c.jira.issues.put(issue.key, { ...c.jira.issues.get(issue.key)!, updated: now });
  return renderComment(c.view, doc);
}

/** A non-negative integer query parameter, or Jira's 400. */
export function intParam(req: ServiceRequest, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = req.query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) throw jiraError(400, [`The value '${raw}' is invalid for the parameter '${name}'.`]);
  return Math.min(Math.max(Number(raw), 0), max);
}

/** Jira's offset page: `{startAt, maxResults, total, isLast, values}`. */
export function offsetPage(req: ServiceRequest, items: readonly unknown[], key = 'values', defaultMax = 50, maxMax = 100, extra: Record<string, unknown> = {}): ServiceResponse {
  const startAt = intParam(req, 'startAt', 0);
  const maxResults = intParam(req, 'maxResults', defaultMax, maxMax) || defaultMax;
  const slice = items.slice(startAt, startAt + maxResults);
  return jsonResponse(200, { ...extra, maxResults, startAt, total: items.length, isLast: startAt + slice.length >= items.length, [key]: slice });
}

export const created = (value: unknown): ServiceResponse => jsonResponse(201, value);
export const noContent = (): ServiceResponse => emptyResponse(204);
