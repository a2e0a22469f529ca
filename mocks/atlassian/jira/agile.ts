import { z } from 'zod';
import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../../core/http.js';
import { operation, rest, type Operation } from '../../kit/operation.js';
import { me, type AtlassianCtx } from '../context.js';
import { jiraError } from '../errors.js';
import { intParam, issueOf, noContent, saveIssue } from './common.js';
import { JqlError, parseJql } from './jql.js';
import { jiraTime, type BoardDoc, type IssueDoc, type SprintDoc } from './model.js';
import { agileSprint, board, renderIssue, selectFields, statusByName } from './render.js';
import { evaluate } from './search.js';

/** Jira Software's agile API (/rest/agile/1.0): boards, sprints, the backlog, epics, ranking. */
const AGILE = '/rest/agile/1.0';

function boardOf(c: AtlassianCtx, id: string): BoardDoc {
  const b = /^\d+$/.test(id) ? c.jira.boards.get(Number(id)) : undefined;
  if (!b) throw jiraError(404, [`Board does not exist or you do not have permission to see it.`]);
  return b;
}

function sprintOf(c: AtlassianCtx, id: string): SprintDoc {
  const s = /^\d+$/.test(id) ? c.jira.sprints.get(Number(id)) : undefined;
  if (!s) throw jiraError(404, [`Sprint with id ${id} does not exist or you do not have permission to see it.`]);
  return s;
}

function epicOf(c: AtlassianCtx, ref: string): IssueDoc {
  const issue = issueOf(c, ref);
  if (issue.issuetype !== 'Epic') throw jiraError(400, [`Issue ${issue.key} is not an epic.`]);
  return issue;
}

/** Values page of the agile API: `{maxResults, startAt, total, isLast, values}`. */
function valuesPage(req: ServiceRequest, items: readonly unknown[], defaultMax = 50): ServiceResponse {
  const startAt = intParam(req, 'startAt', 0);
  const maxResults = intParam(req, 'maxResults', defaultMax, 50) || defaultMax;
  const values = items.slice(startAt, startAt + maxResults);
  return jsonResponse(200, { maxResults, startAt, total: items.length, isLast: startAt + values.length >= items.length, values });
}

/** An issue list of the agile API, narrowed by the request's `jql`, in rank order. */
function issuePage(c: AtlassianCtx, req: ServiceRequest, issues: IssueDoc[]): ServiceResponse {
  let list = [...issues].sort((a, b) => a.rank - b.rank);
  const jql = req.query.get('jql');
  if (jql) {
    try {
      const query = parseJql(jql);
      const keep = new Set(evaluate({ where: query.where, orderBy: [] }, { view: c.view, me: me(c).accountId, nowMs: c.ctx.nowMs }).map((i) => i.key));
      list = list.filter((i) => keep.has(i.key));
      if (query.orderBy.length) {
        const order = evaluate(query, { view: c.view, me: me(c).accountId, nowMs: c.ctx.nowMs }).map((i) => i.key);
        list.sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
      }
    } catch (error) {
      if (error instanceof JqlError) throw jiraError(400, [error.message]);
      throw error;
    }
  }
  const startAt = intParam(req, 'startAt', 0);
  const maxResults = intParam(req, 'maxResults', 50, 1000) || 50;
  const wanted = selectFields(req.query.get('fields'), '*navigable');
  return jsonResponse(200, { expand: 'schema,names', startAt, maxResults, total: list.length, issues: list.slice(startAt, startAt + maxResults).map((i) => renderIssue(c.view, i, wanted, req.query.get('expand') ?? '')) });
}

function moveToSprint(c: AtlassianCtx, keys: string[], sprint: number | null): void {
  if (keys.length > 50) throw jiraError(400, ['At most 50 issues can be moved in one operation.']);
  const issues = keys.map((k) => issueOf(c, k));
  for (const issue of issues) saveIssue(c, issue, { ...issue, sprint, updated: jiraTime(c.ctx.nowMs) });
}

function epicJson(c: AtlassianCtx, e: IssueDoc): Record<string, unknown> {
  return { id: Number(e.id), key: e.key, self: `${c.site.base_url}${AGILE}/epic/${e.id}`, name: e.summary, summary: e.summary, color: { key: `color_${(Number(e.id) % 9) + 1}` }, done: statusByName(c.view, e.status).category === 'done' };
}

const SprintBody = z.object({
  name: z.string().max(30).optional(), startDate: z.string().optional(), endDate: z.string().optional(), goal: z.string().optional(),
  state: z.enum(['future', 'active', 'closed']).optional(), originBoardId: z.number().int().optional(), completeDate: z.string().optional(),
}).passthrough();
const Issues = z.object({ issues: z.array(z.string()).min(1), rankBeforeIssue: z.string().optional(), rankAfterIssue: z.string().optional(), rankCustomFieldId: z.number().optional() }).passthrough();

function isoOrError(value: string | undefined, field: string): string | null {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw jiraError(400, [], { [field]: `Invalid date format for ${field}.` });
  return jiraTime(ms);
}

/** A sprint update (PUT replaces, POST changes only what it names): the state machine future → active → closed. */
function updateSprint(c: AtlassianCtx, s: SprintDoc, body: z.infer<typeof SprintBody>): SprintDoc {
  let next: SprintDoc = { ...s };
  if (body.name !== undefined) next.name = body.name;
  if (body.goal !== undefined) next.goal = body.goal;
  if (body.startDate !== undefined) next.startDate = isoOrError(body.startDate, 'startDate');
  if (body.endDate !== undefined) next.endDate = isoOrError(body.endDate, 'endDate');
  if (body.state !== undefined && body.state !== s.state) {
    if (s.state === 'closed') throw jiraError(400, ['A closed sprint cannot be reopened or changed.']);
    if (body.state === 'active') {
      if (s.state !== 'future') throw jiraError(400, ['Only a future sprint can be started.']);
      if (!next.startDate || !next.endDate) throw jiraError(400, [], { startDate: 'A sprint must have a start date and an end date to be started.' });
      if (c.jira.sprints.find((x) => x.board === s.board && x.state === 'active')) throw jiraError(400, ['This board already has an active sprint.']);
    }
    if (body.state === 'closed') {
      if (s.state !== 'active') throw jiraError(400, ['Only an active sprint can be completed.']);
      next.completeDate = jiraTime(c.ctx.nowMs);
      // Unfinished issues go back to the backlog; the sprint stays in their history.
      for (const issue of c.jira.issues.filter((i) => i.sprint === s.id && statusByName(c.view, i.status).category !== 'done')) {
        saveIssue(c, issue, { ...issue, sprint: null, closed_sprints: [...issue.closed_sprints, s.id] });
      }
    }
    next.state = body.state;
  } else if (s.state === 'closed' && (body.name !== undefined || body.startDate !== undefined || body.endDate !== undefined)) {
    throw jiraError(400, ['A closed sprint cannot be reopened or changed.']);
  }
  if (next.startDate && next.endDate && next.endDate < next.startDate) throw jiraError(400, [], { endDate: 'The end date must be after the start date.' });
  next = c.jira.sprints.put(s.id, next);
  return next;
}

export const agileOperations: Operation<AtlassianCtx>[] = [
  operation('board.list', rest('GET', `${AGILE}/board`), (call, c: AtlassianCtx) => {
    const q = call.req.query;
    const projectRef = q.get('projectKeyOrId');
    const list = c.jira.boards.values().filter((b) => (q.get('type') === null || q.get('type')!.split(',').includes(b.type)) && (q.get('name') === null || b.name.toLowerCase().includes(q.get('name')!.toLowerCase()))
      && (projectRef === null || b.project === projectRef.toUpperCase() || c.jira.projects.get(b.project)?.id === projectRef));
    return valuesPage(call.req, list.map((b) => board(c.view, b)));
  }),
  operation('board.get', rest('GET', `${AGILE}/board/:boardId`), (call, c: AtlassianCtx) => jsonResponse(200, board(c.view, boardOf(c, call.params.boardId)))),
  operation('board.configuration', rest('GET', `${AGILE}/board/:boardId/configuration`), (call, c: AtlassianCtx) => {
    const b = boardOf(c, call.params.boardId);
    const statuses = c.jira.statuses.values();
    const column = (name: string, cat: string) => ({ name, statuses: statuses.filter((s) => s.category === cat).map((s) => ({ id: s.id, self: `${c.site.base_url}/rest/api/3/status/${s.id}` })) });
    return jsonResponse(200, {
      id: b.id, name: b.name, type: b.type, self: `${c.site.base_url}${AGILE}/board/${b.id}/configuration`, location: { type: 'project', key: b.project, id: c.jira.projects.get(b.project)?.id },
      filter: { id: b.filter, self: `${c.site.base_url}/rest/api/3/filter/${b.filter}` }, subQuery: { query: 'resolution = EMPTY OR resolution changed after -2w' },
      columnConfig: { columns: [column('To Do', 'new'), column('In Progress', 'indeterminate'), column('Done', 'done')], constraintType: 'none' },
      estimation: { type: 'field', field: { fieldId: 'customfield_10016', displayName: 'Story point estimate' } }, ranking: { rankCustomFieldId: 10019 },
    });
  }),
  operation('board.sprints', rest('GET', `${AGILE}/board/:boardId/sprint`), (call, c: AtlassianCtx) => {
    const b = boardOf(c, call.params.boardId);
    if (b.type === 'kanban') throw jiraError(400, ['The board does not support sprints']);
    const states = call.req.query.get('state')?.split(',').map((s) => s.trim());
    return valuesPage(call.req, c.jira.sprints.filter((s) => s.board === b.id && (!states || states.includes(s.state))).map((s) => agileSprint(c.view, s)));
  }),
  operation('board.backlog', rest('GET', `${AGILE}/board/:boardId/backlog`), (call, c: AtlassianCtx) => {
    const b = boardOf(c, call.params.boardId);
    return issuePage(c, call.req, c.jira.issues.filter((i) => i.project === b.project && i.sprint === null && i.issuetype !== 'Epic' && statusByName(c.view, i.status).category !== 'done'));
  }),
  operation('board.issues', rest('GET', `${AGILE}/board/:boardId/issue`), (call, c: AtlassianCtx) => {
    const b = boardOf(c, call.params.boardId);
    return issuePage(c, call.req, c.jira.issues.filter((i) => i.project === b.project));
  }),
  operation('board.epics', rest('GET', `${AGILE}/board/:boardId/epic`), (call, c: AtlassianCtx) => {
    const b = boardOf(c, call.params.boardId);
    const done = call.req.query.get('done');
    const epics = c.jira.issues.filter((i) => i.project === b.project && i.issuetype === 'Epic').filter((e) => done === null || String(statusByName(c.view, e.status).category === 'done') === done);
    return valuesPage(call.req, epics.map((e) => epicJson(c, e)));
  }),

  operation('sprint.create', rest('POST', `${AGILE}/sprint`), (call, c: AtlassianCtx) => {
    const body = call.body as z.infer<typeof SprintBody>;
    if (!body.name) throw jiraError(400, [], { name: 'The sprint name is required.' });
    if (body.originBoardId === undefined) throw jiraError(400, [], { originBoardId: 'The board id is required.' });
    const b = boardOf(c, String(body.originBoardId));
    if (b.type !== 'scrum') throw jiraError(400, ['The board does not support sprints']);
    const id = c.ctx.ids.next('jira-sprint');
    const s = c.jira.sprints.put(id, { id, board: b.id, name: body.name, state: 'future', goal: body.goal ?? '', startDate: isoOrError(body.startDate, 'startDate'), endDate: isoOrError(body.endDate, 'endDate'), completeDate: null, createdDate: jiraTime(c.ctx.nowMs) });
    return jsonResponse(201, agileSprint(c.view, s));
  }, { input: { body: SprintBody } }),
  operation('sprint.get', rest('GET', `${AGILE}/sprint/:sprintId`), (call, c: AtlassianCtx) => jsonResponse(200, agileSprint(c.view, sprintOf(c, call.params.sprintId)))),
  operation('sprint.update', rest('PUT', `${AGILE}/sprint/:sprintId`), (call, c: AtlassianCtx) =>
    jsonResponse(200, agileSprint(c.view, updateSprint(c, sprintOf(c, call.params.sprintId), call.body as z.infer<typeof SprintBody>))), { input: { body: SprintBody } }),
  operation('sprint.partialUpdate', rest('POST', `${AGILE}/sprint/:sprintId`), (call, c: AtlassianCtx) =>
    jsonResponse(200, agileSprint(c.view, updateSprint(c, sprintOf(c, call.params.sprintId), call.body as z.infer<typeof SprintBody>))), { input: { body: SprintBody } }),
  operation('sprint.delete', rest('DELETE', `${AGILE}/sprint/:sprintId`), (call, c: AtlassianCtx) => {
    const s = sprintOf(c, call.params.sprintId);
    if (s.state === 'active') throw jiraError(400, ['An active sprint cannot be deleted.']);
    for (const issue of c.jira.issues.filter((i) => i.sprint === s.id)) saveIssue(c, issue, { ...issue, sprint: null });
    c.jira.sprints.delete(s.id);
    return noContent();
  }),
  operation('sprint.issues', rest('GET', `${AGILE}/sprint/:sprintId/issue`), (call, c: AtlassianCtx) => {
    const s = sprintOf(c, call.params.sprintId);
    return issuePage(c, call.req, c.jira.issues.filter((i) => i.sprint === s.id || i.closed_sprints.includes(s.id)));
  }),
  operation('sprint.moveIssues', rest('POST', `${AGILE}/sprint/:sprintId/issue`), (call, c: AtlassianCtx) => {
    const s = sprintOf(c, call.params.sprintId);
    if (s.state === 'closed') throw jiraError(400, ['Issues cannot be moved to a closed sprint.']);
    moveToSprint(c, (call.body as z.infer<typeof Issues>).issues, s.id);
    return noContent();
  }, { input: { body: Issues } }),
  operation('backlog.moveIssues', rest('POST', `${AGILE}/backlog/issue`), (call, c: AtlassianCtx) => {
    moveToSprint(c, (call.body as z.infer<typeof Issues>).issues, null);
    return noContent();
  }, { input: { body: Issues } }),
  operation('issue.rank', rest('PUT', `${AGILE}/issue/rank`), (call, c: AtlassianCtx) => {
    const body = call.body as z.infer<typeof Issues>;
    const target = body.rankBeforeIssue ?? body.rankAfterIssue;
    if (!target) throw jiraError(400, ['Either rankBeforeIssue or rankAfterIssue must be given.']);
    const moving = body.issues.map((k) => issueOf(c, k).key);
    const anchor = issueOf(c, target).key;
    if (moving.includes(anchor)) throw jiraError(400, ['An issue cannot be ranked relative to itself.']);
    const order = c.jira.issues.values().sort((a, b) => a.rank - b.rank).map((i) => i.key).filter((k) => !moving.includes(k));
    const at = order.indexOf(anchor) + (body.rankBeforeIssue ? 0 : 1);
    order.splice(at, 0, ...moving);
    order.forEach((key, i) => { const issue = c.jira.issues.get(key)!; if (issue.rank !== i + 1) c.jira.issues.put(key, { ...issue, rank: i + 1 }); });
    return noContent();
  }, { input: { body: Issues } }),

  operation('epic.get', rest('GET', `${AGILE}/epic/:epicIdOrKey`), (call, c: AtlassianCtx) => jsonResponse(200, epicJson(c, epicOf(c, call.params.epicIdOrKey)))),
  operation('epic.issues', rest('GET', `${AGILE}/epic/:epicIdOrKey/issue`), (call, c: AtlassianCtx) => {
    if (call.params.epicIdOrKey === 'none') return issuePage(c, call.req, c.jira.issues.filter((i) => i.parent === null && i.issuetype !== 'Epic' && i.issuetype !== 'Subtask'));
    const e = epicOf(c, call.params.epicIdOrKey);
    return issuePage(c, call.req, c.jira.issues.filter((i) => i.parent === e.key));
  }),
  operation('epic.moveIssues', rest('POST', `${AGILE}/epic/:epicIdOrKey/issue`), (call, c: AtlassianCtx) => {
    const keys = (call.body as z.infer<typeof Issues>).issues;
    const e = call.params.epicIdOrKey === 'none' ? null : epicOf(c, call.params.epicIdOrKey);
    for (const issue of keys.map((k) => issueOf(c, k))) {
      if (issue.issuetype === 'Epic' || issue.issuetype === 'Subtask') throw jiraError(400, [`Issue ${issue.key} cannot be added to an epic.`]);
      saveIssue(c, issue, { ...issue, parent: e ? e.key : null, updated: jiraTime(c.ctx.nowMs) });
    }
    return noContent();
  }, { input: { body: Issues } }),
];
