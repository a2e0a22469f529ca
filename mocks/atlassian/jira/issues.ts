import { z } from 'zod';
import { jsonResponse } from '../../core/http.js';
import { operation, rest, type Operation } from '../../kit/operation.js';
import { me, type AtlassianCtx } from '../context.js';
import { jiraError } from '../errors.js';
import { addComment, created, issueOf, noContent, offsetPage, saveIssue } from './common.js';
import { applyFields, isAdf } from './fields.js';
import { ISSUE_TYPES, jiraTime, parseDuration, type IssueDoc } from './model.js';
import { comment, issueRef, renderIssue, selectFields, statusByName, transition, user, worklog } from './render.js';

const Obj = z.record(z.unknown());
const IssueBody = z.object({ fields: Obj.default({}), update: Obj.default({}), transition: z.object({ id: z.string() }).passthrough().optional(), properties: z.array(z.unknown()).optional(), historyMetadata: z.unknown().optional() }).passthrough();
const CommentBody = z.object({ body: z.unknown(), visibility: z.unknown().optional(), properties: z.unknown().optional() }).passthrough();
const WorklogBody = z.object({ timeSpent: z.string().optional(), timeSpentSeconds: z.number().int().positive().optional(), started: z.string().optional(), comment: z.unknown().optional() }).passthrough();

type Body = z.infer<typeof IssueBody>;
const PAST = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{3})?([+-]\d{4}|Z)$/;

/** Jira's `started`: `2025-09-14T09:00:00.000+0000`. */
function startedMs(text: string): number | null {
  const m = PAST.exec(text);
  if (!m) return null;
  const zone = m[3] === 'Z' ? 'Z' : `${m[3]!.slice(0, 3)}:${m[3]!.slice(3)}`;
  const ms = Date.parse(`${m[1]}${m[2] ?? ''}${zone}`);
  return Number.isNaN(ms) ? null : ms;
}

export const issueOperations: Operation<AtlassianCtx>[] = [
  operation('issue.create', rest('POST', '/rest/api/3/issue'), (call, c: AtlassianCtx) => {
    const body = call.body as Body;
    const f = body.fields;
    const errors: Record<string, string> = {};
    const pref = (f.project ?? {}) as { key?: string; id?: string };
    const project = typeof pref.key === 'string' ? c.jira.projects.get(pref.key.toUpperCase()) : typeof pref.id === 'string' ? c.jira.projects.find((p) => p.id === pref.id) : undefined;
    if (!project) errors.project = 'Specify a valid project ID or key';
    const tref = (f.issuetype ?? {}) as { name?: string; id?: string };
    const type = ISSUE_TYPES.find((t) => t.id === tref.id || (typeof tref.name === 'string' && t.name.toLowerCase() === tref.name.toLowerCase()));
    if (!type) errors.issuetype = 'Specify an issue type';
    if (typeof f.summary !== 'string' || f.summary.trim() === '') errors.summary = 'You must specify a summary of the issue.';
    if (type?.subtask && !f.parent) errors.parent = 'Given parent work item does not belong to appropriate hierarchy.';
    if (Object.keys(errors).length) throw jiraError(400, [], errors);
    const p = project!;
    const number = p.last_number + 1;
    const key = `${p.key}-${number}`;
    const now = jiraTime(c.ctx.nowMs);
    const initial = c.jira.statuses.find((s) => s.category === 'new') ?? c.jira.statuses.values()[0]!;
    const caller = me(c).accountId;
    const blank: IssueDoc = {
      id: String(c.ctx.ids.next('jira-issue', 10000)), key, project: p.key, issuetype: type!.name, summary: '', description: null, status: initial.name,
      resolution: null, resolutiondate: null, priority: 'Medium', assignee: null, reporter: caller, creator: caller, labels: [], components: [], fixVersions: [],
      parent: null, duedate: null, environment: null, created: now, updated: now, sprint: null, closed_sprints: [], story_points: null,
      rank: c.jira.issues.values().reduce((m, i) => Math.max(m, i.rank), 0) + 1, watchers: [caller], voters: [], original_estimate: null,
    };
    const { project: _p, issuetype: _t, ...rest } = f;
    const applied = applyFields(c, blank, rest, body.update, 'create');
    c.jira.projects.put(p.key, { ...p, last_number: number });
    const issue = c.jira.issues.put(key, { ...applied.issue, created: now, updated: now });
    for (const b of applied.comments) addComment(c, issue, b);
    return created({ id: issue.id, key: issue.key, self: `${c.site.base_url}/rest/api/3/issue/${issue.id}` });
  }, { input: { body: IssueBody } }),

  operation('issue.get', rest('GET', '/rest/api/3/issue/:issueIdOrKey'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    return jsonResponse(200, renderIssue(c.view, issue, selectFields(call.req.query.get('fields'), '*all'), call.req.query.get('expand') ?? ''));
  }),

  operation('issue.edit', rest('PUT', '/rest/api/3/issue/:issueIdOrKey'), (call, c: AtlassianCtx) => {
    const body = call.body as Body;
    const before = issueOf(c, call.params.issueIdOrKey);
    const applied = applyFields(c, before, body.fields, body.update, 'edit');
    const issue = saveIssue(c, before, applied.issue);
    for (const b of applied.comments) addComment(c, issue, b);
    if (call.req.query.get('returnIssue') === 'true') return jsonResponse(200, renderIssue(c.view, c.jira.issues.get(issue.key)!, selectFields(null, '*all')));
    return noContent();
  }, { input: { body: IssueBody } }),

  operation('issue.delete', rest('DELETE', '/rest/api/3/issue/:issueIdOrKey'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const subtasks = c.jira.issues.filter((i) => i.parent === issue.key && i.issuetype === 'Subtask');
    if (subtasks.length > 0 && call.req.query.get('deleteSubtasks') !== 'true') throw jiraError(400, [`The issue has subtasks. Set deleteSubtasks=true to delete them as well.`]);
    for (const gone of [...subtasks, issue]) {
      c.jira.issues.delete(gone.key);
      for (const x of c.jira.comments.filter((cm) => cm.issue === gone.key)) c.jira.comments.delete(x.id);
      for (const x of c.jira.worklogs.filter((w) => w.issue === gone.key)) c.jira.worklogs.delete(x.id);
      for (const x of c.jira.links.filter((l) => l.inward === gone.key || l.outward === gone.key)) c.jira.links.delete(x.id);
    }
    return noContent();
  }),

  operation('issue.assign', rest('PUT', '/rest/api/3/issue/:issueIdOrKey/assignee'), (call, c: AtlassianCtx) => {
    const before = issueOf(c, call.params.issueIdOrKey);
    const body = (call.body ?? {}) as { accountId?: string | null };
    const applied = applyFields(c, before, { assignee: body.accountId === null || body.accountId === undefined ? null : { accountId: body.accountId } }, {}, 'edit');
    saveIssue(c, before, applied.issue);
    return noContent();
  }, { input: { body: z.object({ accountId: z.string().nullable().optional() }).passthrough() } }),

  operation('issue.transitions.list', rest('GET', '/rest/api/3/issue/:issueIdOrKey/transitions'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const wantFields = (call.req.query.get('expand') ?? '').includes('transitions.fields');
    const id = call.req.query.get('transitionId');
    // Object.assign on the fresh render, not `{ ...transition(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
    const list = c.jira.transitions.values().filter((t) => t.to !== issue.status && (id === null || t.id === id)).map((t) => Object.assign(
      transition(c.view, t.id),
      wantFields ? { fields: statusByName(c.view, t.to).category === 'done' ? { resolution: { required: false, schema: { type: 'resolution', system: 'resolution' }, name: 'Resolution', key: 'resolution', operations: ['set'], allowedValues: [] } } : {} } : {},
    ));
    return jsonResponse(200, { expand: 'transitions', transitions: list });
  }),

  operation('issue.transition', rest('POST', '/rest/api/3/issue/:issueIdOrKey/transitions'), (call, c: AtlassianCtx) => {
    const body = call.body as Body;
    const before = issueOf(c, call.params.issueIdOrKey);
    const t = body.transition ? c.jira.transitions.get(body.transition.id) : undefined;
    if (!body.transition) throw jiraError(400, ['Missing \'transition\' identifier']);
    if (!t) throw jiraError(400, [`Transition id '${body.transition.id}' is not valid for this issue.`]);
    const target = statusByName(c.view, t.to);
    const { resolution, ...fields } = body.fields;
    const applied = applyFields(c, { ...before, status: t.to }, fields, body.update, 'transition');
    let next = applied.issue;
    const now = jiraTime(c.ctx.nowMs);
    if (target.category === 'done') {
      const r = applyFields(c, next, { resolution: resolution ?? { name: 'Done' } }, {}, 'transition').issue.resolution;
      next = { ...next, resolution: r, resolutiondate: before.resolutiondate && before.resolution ? before.resolutiondate : now };
    } else {
      next = { ...next, resolution: null, resolutiondate: null };
    }
    const issue = saveIssue(c, before, next);
    for (const b of applied.comments) addComment(c, issue, b);
    return noContent();
  }, { input: { body: IssueBody } }),

  operation('issue.comments.list', rest('GET', '/rest/api/3/issue/:issueIdOrKey/comment'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    let list = c.jira.comments.filter((x) => x.issue === issue.key);
    if ((call.req.query.get('orderBy') ?? '').startsWith('-')) list = [...list].reverse();
    return offsetPage(call.req, list.map((x) => comment(c.view, x)), 'comments', 5000, 5000);
  }),

  operation('issue.comments.add', rest('POST', '/rest/api/3/issue/:issueIdOrKey/comment'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const body = call.body as z.infer<typeof CommentBody>;
    if (!isAdf(body.body)) throw jiraError(400, [], { comment: 'Comment body is not valid! Expected an Atlassian Document.' });
    return created(addComment(c, issue, body.body));
  }, { input: { body: CommentBody } }),

  operation('issue.comments.get', rest('GET', '/rest/api/3/issue/:issueIdOrKey/comment/:id'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const found = c.jira.comments.get(call.params.id);
    if (!found || found.issue !== issue.key) throw jiraError(404, ['Can not find a comment for the id: ' + call.params.id + '.']);
    return jsonResponse(200, comment(c.view, found));
  }),

  operation('issue.comments.update', rest('PUT', '/rest/api/3/issue/:issueIdOrKey/comment/:id'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const found = c.jira.comments.get(call.params.id);
    if (!found || found.issue !== issue.key) throw jiraError(404, ['Can not find a comment for the id: ' + call.params.id + '.']);
    const body = call.body as z.infer<typeof CommentBody>;
    if (!isAdf(body.body)) throw jiraError(400, [], { comment: 'Comment body is not valid! Expected an Atlassian Document.' });
    if (found.author !== me(c).accountId) throw jiraError(403, ['You do not have the permission to edit this comment.']);
    const doc = c.jira.comments.put(found.id, { ...found, body: body.body, updated: jiraTime(c.ctx.nowMs), updateAuthor: me(c).accountId });
    return jsonResponse(200, comment(c.view, doc));
  }, { input: { body: CommentBody } }),

  operation('issue.comments.delete', rest('DELETE', '/rest/api/3/issue/:issueIdOrKey/comment/:id'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const found = c.jira.comments.get(call.params.id);
    if (!found || found.issue !== issue.key) throw jiraError(404, ['Can not find a comment for the id: ' + call.params.id + '.']);
    c.jira.comments.delete(found.id);
    return noContent();
  }),

  operation('issue.worklogs.list', rest('GET', '/rest/api/3/issue/:issueIdOrKey/worklog'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const list = c.jira.worklogs.filter((w) => w.issue === issue.key).map((w) => worklog(c.view, w));
    return offsetPage(call.req, list, 'worklogs', 5000, 5000);
  }),

  operation('issue.worklogs.add', rest('POST', '/rest/api/3/issue/:issueIdOrKey/worklog'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const body = call.body as z.infer<typeof WorklogBody>;
    const seconds = body.timeSpentSeconds ?? (body.timeSpent ? parseDuration(body.timeSpent) : null);
    if (seconds === null || seconds <= 0) throw jiraError(400, [], { timeLogged: body.timeSpent === undefined && body.timeSpentSeconds === undefined ? 'You must indicate the time spent working.' : 'Invalid time duration entered.' });
    if (body.comment !== undefined && !isAdf(body.comment)) throw jiraError(400, [], { comment: 'Comment must be an Atlassian Document.' });
    const started = body.started === undefined ? c.ctx.nowMs : startedMs(body.started);
    if (started === null) throw jiraError(400, [], { started: 'Invalid date format. Please enter the date in the format "yyyy-MM-dd\'T\'HH:mm:ss.SSSZ".' });
    const id = String(c.ctx.ids.next('jira-worklog', 10000));
    const now = jiraTime(c.ctx.nowMs);
    const author = me(c).accountId;
    const doc = c.jira.worklogs.put(id, {
      id, issue: issue.key, issueId: issue.id, author, updateAuthor: author, comment: (body.comment as never) ?? null, started: jiraTime(started),
      timeSpentSeconds: seconds, created: now, updated: now, updated_ms: c.ctx.nowMs,
    });
    c.jira.issues.put(issue.key, { ...issue, updated: now });
    return created(worklog(c.view, doc));
  }, { input: { body: WorklogBody } }),

  operation('issue.worklogs.delete', rest('DELETE', '/rest/api/3/issue/:issueIdOrKey/worklog/:id'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const found = c.jira.worklogs.get(call.params.id);
    if (!found || found.issue !== issue.key) throw jiraError(404, [`Cannot find worklog with id: '${call.params.id}'.`]);
    c.jira.worklogs.delete(found.id);
    c.jira.deleted_worklogs.put(found.id, { id: found.id, deleted_ms: c.ctx.nowMs });
    return noContent();
  }),

  operation('issue.watchers.get', rest('GET', '/rest/api/3/issue/:issueIdOrKey/watchers'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    return jsonResponse(200, { self: `${c.site.base_url}/rest/api/3/issue/${issue.key}/watchers`, isWatching: issue.watchers.includes(me(c).accountId), watchCount: issue.watchers.length, watchers: issue.watchers.map((w) => user(c.view, w)) });
  }),

  operation('issue.watchers.add', rest('POST', '/rest/api/3/issue/:issueIdOrKey/watchers'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const accountId = typeof call.body === 'string' && call.body !== '' ? call.body : me(c).accountId;
    const u = c.tenant.users.get(accountId);
    if (!u) throw jiraError(404, [`The user with account ID '${accountId}' does not exist.`]);
    if (!issue.watchers.includes(u.accountId)) c.jira.issues.put(issue.key, { ...issue, watchers: [...issue.watchers, u.accountId] });
    return noContent();
  }),

  operation('issue.watchers.remove', rest('DELETE', '/rest/api/3/issue/:issueIdOrKey/watchers'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const accountId = call.req.query.get('accountId') ?? me(c).accountId;
    if (!c.tenant.users.has(accountId)) throw jiraError(404, [`The user with account ID '${accountId}' does not exist.`]);
    c.jira.issues.put(issue.key, { ...issue, watchers: issue.watchers.filter((w) => w !== accountId) });
    return noContent();
  }),

  operation('issue.votes.get', rest('GET', '/rest/api/3/issue/:issueIdOrKey/votes'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    return jsonResponse(200, { self: `${c.site.base_url}/rest/api/3/issue/${issue.key}/votes`, votes: issue.voters.length, hasVoted: issue.voters.includes(me(c).accountId), voters: issue.voters.map((v) => user(c.view, v)) });
  }),

  operation('issue.votes.add', rest('POST', '/rest/api/3/issue/:issueIdOrKey/votes'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const caller = me(c).accountId;
    if (issue.reporter === caller) throw jiraError(404, ['You cannot vote for an issue you have reported.']);
    if (!issue.voters.includes(caller)) c.jira.issues.put(issue.key, { ...issue, voters: [...issue.voters, caller] });
    return noContent();
  }),

  operation('issue.votes.remove', rest('DELETE', '/rest/api/3/issue/:issueIdOrKey/votes'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const caller = me(c).accountId;
    if (!issue.voters.includes(caller)) throw jiraError(404, ['Cannot remove a vote for an issue that the user has not already voted for.']);
    c.jira.issues.put(issue.key, { ...issue, voters: issue.voters.filter((v) => v !== caller) });
    return noContent();
  }),

  operation('issue.changelog', rest('GET', '/rest/api/3/issue/:issueIdOrKey/changelog'), (call, c: AtlassianCtx) => {
    const issue = issueOf(c, call.params.issueIdOrKey);
    const list = c.jira.changelog.filter((x) => x.issue === issue.key).map((x) => ({ id: x.id, author: user(c.view, x.author), created: x.created, items: x.items }));
    return offsetPage(call.req, list, 'values', 100, 100, { self: `${c.site.base_url}/rest/api/3/issue/${issue.key}/changelog` });
  }),

  operation('issue.editmeta', rest('GET', '/rest/api/3/issue/:issueIdOrKey/editmeta'), (call, c: AtlassianCtx) => {
    issueOf(c, call.params.issueIdOrKey);
    return jsonResponse(200, { fields: fieldMeta(c, ['summary', 'description', 'assignee', 'priority', 'labels', 'components', 'fixVersions', 'duedate', 'parent', 'issuetype']) });
  }),

  operation('issueLink.create', rest('POST', '/rest/api/3/issueLink'), (call, c: AtlassianCtx) => {
    const body = call.body as { type: { name?: string; id?: string }; inwardIssue: { key?: string; id?: string }; outwardIssue: { key?: string; id?: string }; comment?: { body?: unknown } };
    const type = c.jira.link_types.find((t) => t.name === body.type.name || t.id === body.type.id);
    if (!type) throw jiraError(404, [`No issue link type with name '${body.type.name ?? body.type.id}' found.`]);
    const inward = issueOf(c, body.inwardIssue.key ?? body.inwardIssue.id ?? '');
    const outward = issueOf(c, body.outwardIssue.key ?? body.outwardIssue.id ?? '');
    if (inward.key === outward.key) throw jiraError(400, ['You cannot link an issue to itself.']);
    if (!c.jira.links.find((l) => l.type === type.name && l.inward === inward.key && l.outward === outward.key)) {
      const id = String(c.ctx.ids.next('jira-link', 10000));
      c.jira.links.put(id, { id, type: type.name, inward: inward.key, outward: outward.key });
    }
    if (body.comment?.body !== undefined) {
      if (!isAdf(body.comment.body)) throw jiraError(400, [], { comment: 'Comment body is not valid! Expected an Atlassian Document.' });
      addComment(c, inward, body.comment.body);
    }
    return created(undefined);
  }, { input: { body: z.object({ type: z.object({ name: z.string().optional(), id: z.string().optional() }).passthrough(), inwardIssue: z.object({ key: z.string().optional(), id: z.string().optional() }).passthrough(), outwardIssue: z.object({ key: z.string().optional(), id: z.string().optional() }).passthrough(), comment: z.object({ body: z.unknown() }).passthrough().optional() }).passthrough() } }),

  operation('issueLink.get', rest('GET', '/rest/api/3/issueLink/:linkId'), (call, c: AtlassianCtx) => {
    const link = c.jira.links.get(call.params.linkId);
    if (!link) throw jiraError(404, [`No issue link with id '${call.params.linkId}' exists.`]);
    const type = c.jira.link_types.find((t) => t.name === link.type)!;
    const ref = (key: string) => { const i = c.jira.issues.get(key); return i ? issueRef(c.view, i) : { key }; };
    return jsonResponse(200, { id: link.id, self: `${c.site.base_url}/rest/api/3/issueLink/${link.id}`, type: { ...type, self: `${c.site.base_url}/rest/api/3/issueLinkType/${type.id}` }, inwardIssue: ref(link.inward), outwardIssue: ref(link.outward) });
  }),

  operation('issueLink.delete', rest('DELETE', '/rest/api/3/issueLink/:linkId'), (call, c: AtlassianCtx) => {
    if (!c.jira.links.delete(call.params.linkId)) throw jiraError(404, [`No issue link with id '${call.params.linkId}' exists.`]);
    return noContent();
  }),

  operation('issueLinkType.list', rest('GET', '/rest/api/3/issueLinkType'), (_call, c: AtlassianCtx) =>
    jsonResponse(200, { issueLinkTypes: c.jira.link_types.values().map((t) => ({ ...t, self: `${c.site.base_url}/rest/api/3/issueLinkType/${t.id}` })) })),

  operation('issue.createmeta.types', rest('GET', '/rest/api/3/issue/createmeta/:projectIdOrKey/issuetypes'), (call, c: AtlassianCtx) => {
    const p = projectOf(c, call.params.projectIdOrKey);
    const types = ISSUE_TYPES.map((t) => ({ self: `${c.site.base_url}/rest/api/3/issuetype/${t.id}`, id: t.id, description: t.description, iconUrl: `${c.site.base_url}/images/icons/issuetypes/${t.name.toLowerCase()}.svg`, name: t.name, subtask: t.subtask, hierarchyLevel: t.hierarchyLevel }));
    return offsetPage(call.req, types, 'issueTypes', 50, 200, { projectKey: p.key }) ;
  }),

  operation('issue.createmeta.fields', rest('GET', '/rest/api/3/issue/createmeta/:projectIdOrKey/issuetypes/:issueTypeId'), (call, c: AtlassianCtx) => {
    projectOf(c, call.params.projectIdOrKey);
    if (!ISSUE_TYPES.some((t) => t.id === call.params.issueTypeId)) throw jiraError(404, [`Issue type with id '${call.params.issueTypeId}' does not exist.`]);
    const meta = fieldMeta(c, ['summary', 'description', 'assignee', 'reporter', 'priority', 'labels', 'components', 'fixVersions', 'duedate', 'parent', 'issuetype', 'project']);
    return offsetPage(call.req, Object.entries(meta).map(([key, m]) => ({ ...m, fieldId: key })), 'fields', 50, 200);
  }),
];

export function projectOf(c: AtlassianCtx, idOrKey: string) {
  const p = c.jira.projects.get(idOrKey.toUpperCase()) ?? c.jira.projects.find((x) => x.id === idOrKey);
  if (!p) throw jiraError(404, [`No project could be found with key '${idOrKey}'.`]);
  return p;
}

function fieldMeta(c: AtlassianCtx, names: string[]): Record<string, Record<string, unknown>> {
  const type: Record<string, { type: string; items?: string; system: string }> = {
    summary: { type: 'string', system: 'summary' }, description: { type: 'string', system: 'description' }, assignee: { type: 'user', system: 'assignee' },
    reporter: { type: 'user', system: 'reporter' }, priority: { type: 'priority', system: 'priority' }, labels: { type: 'array', items: 'string', system: 'labels' },
    components: { type: 'array', items: 'component', system: 'components' }, fixVersions: { type: 'array', items: 'version', system: 'fixVersions' },
    duedate: { type: 'date', system: 'duedate' }, parent: { type: 'issuelink', system: 'parent' }, issuetype: { type: 'issuetype', system: 'issuetype' }, project: { type: 'project', system: 'project' },
  };
  return Object.fromEntries(names.map((n) => [n, {
    required: n === 'summary' || n === 'issuetype' || n === 'project', schema: type[n], name: n[0]!.toUpperCase() + n.slice(1), key: n,
    hasDefaultValue: n === 'priority', operations: n === 'labels' || n === 'components' || n === 'fixVersions' ? ['add', 'set', 'remove'] : ['set'],
    ...(n === 'priority' ? { allowedValues: ['Highest', 'High', 'Medium', 'Low', 'Lowest'].map((name, i) => ({ self: `${c.site.base_url}/rest/api/3/priority/${i + 1}`, name, id: String(i + 1) })) } : {}),
  }]));
}
