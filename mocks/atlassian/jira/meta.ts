import { z } from 'zod';
import { jsonResponse } from '../../core/http.js';
import { operation, rest, type Operation } from '../../kit/operation.js';
import { me, type AtlassianCtx } from '../context.js';
import { jiraError } from '../errors.js';
import { renderUser } from '../model.js';
import { created, intParam, issueOf, offsetPage } from './common.js';
import { projectOf } from './issues.js';
import { ISSUE_TYPES, PRIORITIES, RESOLUTIONS, SPRINT_FIELD, STORY_POINTS_FIELD, type FilterDoc } from './model.js';
import { component, issueType, project, status, version, worklog } from './render.js';

/** The caller, projects and their parts, users, the site's metadata, worklog feeds, filters. */
const SYSTEM_FIELDS = ['summary', 'description', 'status', 'priority', 'issuetype', 'assignee', 'reporter', 'creator', 'labels', 'components', 'fixVersions', 'versions', 'parent', 'project', 'resolution', 'resolutiondate', 'created', 'updated', 'duedate', 'environment', 'comment', 'worklog', 'issuelinks', 'attachment', 'subtasks', 'watches', 'votes', 'timetracking'];

function renderFilter(c: AtlassianCtx, f: FilterDoc): Record<string, unknown> {
  return {
    self: `${c.site.base_url}/rest/api/3/filter/${f.id}`, id: f.id, name: f.name, description: f.description, owner: renderUser(c.site, c.tenant.users.get(f.owner)!, 'short'),
    jql: f.jql, viewUrl: `${c.site.base_url}/issues/?filter=${f.id}`, searchUrl: `${c.site.base_url}/rest/api/3/search?jql=${encodeURIComponent(f.jql)}`,
    favourite: f.favourite, favouritedCount: f.favourite ? 1 : 0, sharePermissions: [], editPermissions: [],
  };
}

function filterOf(c: AtlassianCtx, id: string): FilterDoc {
  const f = c.jira.filters.get(id);
  if (!f) throw jiraError(400, [`The selected filter is not available to you, perhaps it has been deleted or had its permissions changed.`]);
  return f;
}

const FilterBody = z.object({ name: z.string().optional(), jql: z.string().optional(), description: z.string().optional(), favourite: z.boolean().optional() }).passthrough();

export const metaOperations: Operation<AtlassianCtx>[] = [
  // Object.assign on the fresh render, not `{ ...renderUser(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  operation('myself.get', rest('GET', '/rest/api/3/myself'), (_call, c: AtlassianCtx) =>
    jsonResponse(200, Object.assign(renderUser(c.site, me(c)), { groups: { size: 1, items: [] }, applicationRoles: { size: 1, items: [] }, expand: 'groups,applicationRoles' }))),

  operation('serverInfo', rest('GET', '/rest/api/3/serverInfo'), (_call, c: AtlassianCtx) =>
    jsonResponse(200, { baseUrl: c.site.base_url, version: '1001.0.0-SNAPSHOT', versionNumbers: [1001, 0, 0], deploymentType: 'Cloud', buildNumber: 100290, buildDate: '2025-09-01T00:00:00.000+0000', serverTitle: 'Jira', defaultLocale: { locale: 'en_US' }, serverTimeZone: 'Etc/UTC' })),

  operation('project.search', rest('GET', '/rest/api/3/project/search'), (call, c: AtlassianCtx) => {
    const q = (call.req.query.get('query') ?? '').toLowerCase();
    const list = c.jira.projects.values().filter((p) => q === '' || p.key.toLowerCase().includes(q) || p.name.toLowerCase().includes(q)).map((p) => Object.assign(project(c.view, p), { expand: 'description,lead,issueTypes,url,projectKeys,permissions,insight', isPrivate: false, properties: {} }));
    const startAt = intParam(call.req, 'startAt', 0);
    const maxResults = intParam(call.req, 'maxResults', 50, 100) || 50;
    const values = list.slice(startAt, startAt + maxResults);
    const isLast = startAt + values.length >= list.length;
    return jsonResponse(200, {
      self: `${c.site.base_url}/rest/api/3/project/search?maxResults=${maxResults}&startAt=${startAt}`,
      ...(isLast ? {} : { nextPage: `${c.site.base_url}/rest/api/3/project/search?maxResults=${maxResults}&startAt=${startAt + maxResults}` }),
      maxResults, startAt, total: list.length, isLast, values,
    });
  }),

  operation('project.list', rest('GET', '/rest/api/3/project'), (_call, c: AtlassianCtx) => jsonResponse(200, c.jira.projects.values().map((p) => project(c.view, p)))),

  operation('project.get', rest('GET', '/rest/api/3/project/:projectIdOrKey'), (call, c: AtlassianCtx) =>
    jsonResponse(200, { expand: 'description,lead,issueTypes,url,projectKeys,permissions,insight', ...project(c.view, projectOf(c, call.params.projectIdOrKey), 'full') })),

  operation('project.statuses', rest('GET', '/rest/api/3/project/:projectIdOrKey/statuses'), (call, c: AtlassianCtx) => {
    projectOf(c, call.params.projectIdOrKey);
    const statuses = c.jira.statuses.values().map((s) => status(c.view, s));
    return jsonResponse(200, ISSUE_TYPES.map((t) => ({ self: `${c.site.base_url}/rest/api/3/issuetype/${t.id}`, id: t.id, name: t.name, subtask: t.subtask, statuses })));
  }),

  operation('project.components', rest('GET', '/rest/api/3/project/:projectIdOrKey/components'), (call, c: AtlassianCtx) => {
    const p = projectOf(c, call.params.projectIdOrKey);
    return jsonResponse(200, p.components.map((x) => component(c.view, p, x.id)));
  }),

  operation('project.versions', rest('GET', '/rest/api/3/project/:projectIdOrKey/versions'), (call, c: AtlassianCtx) => {
    const p = projectOf(c, call.params.projectIdOrKey);
    return jsonResponse(200, p.versions.map((x) => version(c.view, p, x.id)));
  }),

  operation('issuetype.list', rest('GET', '/rest/api/3/issuetype'), (_call, c: AtlassianCtx) => jsonResponse(200, ISSUE_TYPES.map((t) => issueType(c.view, t.name)))),
  operation('priority.list', rest('GET', '/rest/api/3/priority'), (_call, c: AtlassianCtx) =>
    jsonResponse(200, PRIORITIES.map((p) => ({ self: `${c.site.base_url}/rest/api/3/priority/${p.id}`, statusColor: p.statusColor, description: p.description, iconUrl: `${c.site.base_url}/images/icons/priorities/${p.name.toLowerCase()}.svg`, name: p.name, id: p.id })))),
  operation('resolution.list', rest('GET', '/rest/api/3/resolution'), (_call, c: AtlassianCtx) =>
    jsonResponse(200, RESOLUTIONS.map((r) => ({ self: `${c.site.base_url}/rest/api/3/resolution/${r.id}`, ...r })))),
  operation('status.list', rest('GET', '/rest/api/3/status'), (_call, c: AtlassianCtx) => jsonResponse(200, c.jira.statuses.values().map((s) => status(c.view, s)))),

  operation('field.list', rest('GET', '/rest/api/3/field'), () => jsonResponse(200, [
    ...SYSTEM_FIELDS.map((id) => ({ id, key: id, name: id[0]!.toUpperCase() + id.slice(1), custom: false, orderable: true, navigable: true, searchable: true, clauseNames: [id], schema: { type: 'string', system: id } })),
    { id: SPRINT_FIELD, key: SPRINT_FIELD, name: 'Sprint', custom: true, orderable: true, navigable: true, searchable: true, clauseNames: ['cf[10020]', 'Sprint'], schema: { type: 'array', items: 'json', custom: 'com.pyxis.greenhopper.jira:gh-sprint', customId: 10020 } },
    { id: STORY_POINTS_FIELD, key: STORY_POINTS_FIELD, name: 'Story point estimate', custom: true, orderable: true, navigable: true, searchable: true, clauseNames: ['cf[10016]', 'Story point estimate'], schema: { type: 'number', custom: 'com.pyxis.greenhopper.jira:jsw-story-points', customId: 10016 } },
  ])),

  operation('label.list', rest('GET', '/rest/api/3/label'), (call, c: AtlassianCtx) => {
    const labels = [...new Set(c.jira.issues.values().flatMap((i) => i.labels))].sort();
    return offsetPage(call.req, labels, 'values', 1000, 1000);
  }),

  operation('user.search', rest('GET', '/rest/api/3/user/search'), (call, c: AtlassianCtx) => {
    const q = (call.req.query.get('query') ?? '').toLowerCase();
    const id = call.req.query.get('accountId');
    if (q === '' && id === null) throw jiraError(400, ["One of 'query' or 'accountId' parameters must be provided."]);
    const list = c.tenant.users.values().filter((u) => (id === null || u.accountId === id) && (q === '' || u.displayName.toLowerCase().split(/\s+/).some((w) => w.startsWith(q)) || u.displayName.toLowerCase().startsWith(q) || u.emailAddress.toLowerCase().startsWith(q)));
    const start = intParam(call.req, 'startAt', 0);
    return jsonResponse(200, list.slice(start, start + (intParam(call.req, 'maxResults', 50, 1000) || 50)).map((u) => renderUser(c.site, u)));
  }),

  operation('user.assignable.search', rest('GET', '/rest/api/3/user/assignable/search'), (call, c: AtlassianCtx) => {
    const q = (call.req.query.get('query') ?? '').toLowerCase();
    const projectKey = call.req.query.get('project');
    const issueKey = call.req.query.get('issueKey');
    if (projectKey === null && issueKey === null) throw jiraError(400, ['The project or issue key must be specified.']);
    if (projectKey !== null) projectOf(c, projectKey);
    if (issueKey !== null) issueOf(c, issueKey);
    const list = c.tenant.users.values().filter((u) => u.active && u.accountType === 'atlassian' && (q === '' || u.displayName.toLowerCase().split(/\s+/).some((w) => w.startsWith(q)) || u.emailAddress.toLowerCase().startsWith(q)));
    return jsonResponse(200, list.slice(0, intParam(call.req, 'maxResults', 50, 1000) || 50).map((u) => renderUser(c.site, u)));
  }),

  operation('user.get', rest('GET', '/rest/api/3/user'), (call, c: AtlassianCtx) => {
    const id = call.req.query.get('accountId');
    if (id === null) throw jiraError(400, ['The accountId parameter is required.']);
    const u = c.tenant.users.get(id);
    if (!u) throw jiraError(404, [`Specified user does not exist or you do not have required permissions`]);
    return jsonResponse(200, renderUser(c.site, u));
  }),

  operation('worklog.updated', rest('GET', '/rest/api/3/worklog/updated'), (call, c: AtlassianCtx) => {
    const since = intParam(call.req, 'since', 0);
    const list = c.jira.worklogs.filter((w) => w.updated_ms > since).sort((a, b) => a.updated_ms - b.updated_ms || Number(a.id) - Number(b.id)).slice(0, 1000);
    const until = list.length ? list[list.length - 1]!.updated_ms : since;
    return jsonResponse(200, { values: list.map((w) => ({ worklogId: Number(w.id), updatedTime: w.updated_ms, properties: [] })), since, until, self: `${c.site.base_url}/rest/api/3/worklog/updated?since=${since}`, lastPage: true });
  }),

  operation('worklog.deleted', rest('GET', '/rest/api/3/worklog/deleted'), (call, c: AtlassianCtx) => {
    const since = intParam(call.req, 'since', 0);
    const list = c.jira.deleted_worklogs.filter((w) => w.deleted_ms > since).sort((a, b) => a.deleted_ms - b.deleted_ms);
    const until = list.length ? list[list.length - 1]!.deleted_ms : since;
    return jsonResponse(200, { values: list.map((w) => ({ worklogId: Number(w.id), updatedTime: w.deleted_ms, properties: [] })), since, until, self: `${c.site.base_url}/rest/api/3/worklog/deleted?since=${since}`, lastPage: true });
  }),

  operation('worklog.list', rest('POST', '/rest/api/3/worklog/list'), (call, c: AtlassianCtx) => {
    const ids = (call.body as { ids: number[] }).ids;
    if (ids.length > 1000) throw jiraError(400, ['The number of worklog IDs must not exceed 1000.']);
    return jsonResponse(200, ids.map((id) => c.jira.worklogs.get(id)).filter((w) => w !== undefined).map((w) => worklog(c.view, w!)));
  }, { input: { body: z.object({ ids: z.array(z.number().int()) }).passthrough() } }),

  operation('filter.search', rest('GET', '/rest/api/3/filter/search'), (call, c: AtlassianCtx) => {
    const name = (call.req.query.get('filterName') ?? '').toLowerCase();
    const owner = call.req.query.get('accountId') ?? call.req.query.get('owner');
    const list = c.jira.filters.filter((f) => f.name.toLowerCase().includes(name) && (owner === null || f.owner === owner));
    return offsetPage(call.req, list.map((f) => renderFilter(c, f)), 'values', 50, 100, { self: `${c.site.base_url}/rest/api/3/filter/search` });
  }),
  operation('filter.my', rest('GET', '/rest/api/3/filter/my'), (_call, c: AtlassianCtx) =>
    jsonResponse(200, c.jira.filters.filter((f) => f.owner === me(c).accountId).map((f) => renderFilter(c, f)))),
  operation('filter.favourite', rest('GET', '/rest/api/3/filter/favourite'), (_call, c: AtlassianCtx) =>
    jsonResponse(200, c.jira.filters.filter((f) => f.favourite).map((f) => renderFilter(c, f)))),
  operation('filter.get', rest('GET', '/rest/api/3/filter/:id'), (call, c: AtlassianCtx) => jsonResponse(200, renderFilter(c, filterOf(c, call.params.id)))),

  operation('filter.create', rest('POST', '/rest/api/3/filter'), (call, c: AtlassianCtx) => {
    const body = call.body as z.infer<typeof FilterBody>;
    if (!body.name) throw jiraError(400, [], { filterName: 'You must specify a name to save this filter as.' });
    if (c.jira.filters.find((f) => f.owner === me(c).accountId && f.name === body.name)) throw jiraError(400, [], { filterName: 'Filter with same name already exists.' });
    const id = String(c.ctx.ids.next('jira-filter', 10000));
    const f = c.jira.filters.put(id, { id, name: body.name, jql: body.jql ?? '', owner: me(c).accountId, description: body.description ?? '', favourite: body.favourite ?? false });
    return jsonResponse(200, renderFilter(c, f));
  }, { input: { body: FilterBody } }),

  operation('filter.update', rest('PUT', '/rest/api/3/filter/:id'), (call, c: AtlassianCtx) => {
    const f = filterOf(c, call.params.id);
    if (f.owner !== me(c).accountId) throw jiraError(400, ['You cannot edit a filter you do not own.']);
    const body = call.body as z.infer<typeof FilterBody>;
    const next = c.jira.filters.put(f.id, { ...f, ...(body.name !== undefined ? { name: body.name } : {}), ...(body.jql !== undefined ? { jql: body.jql } : {}), ...(body.description !== undefined ? { description: body.description } : {}), ...(body.favourite !== undefined ? { favourite: body.favourite } : {}) });
    return jsonResponse(200, renderFilter(c, next));
  }, { input: { body: FilterBody } }),

  operation('bulk.issues.fields', rest('POST', '/rest/api/3/bulk/issues/fields'), (call, c: AtlassianCtx) => {
    const body = call.body as { issueIdsOrKeys: string[]; editedFieldsInput: Record<string, unknown> };
    return created({ taskId: bulk(c, 'edit', body.issueIdsOrKeys, (issue) => {
      const f = body.editedFieldsInput as { labels?: { add?: string[]; remove?: string[]; set?: string[] }; assignee?: { accountId: string }; priority?: { id: string } };
      let labels = issue.labels;
      if (f.labels?.set) labels = f.labels.set;
      for (const l of f.labels?.add ?? []) if (!labels.includes(l)) labels = [...labels, l];
      if (f.labels?.remove) labels = labels.filter((l) => !f.labels!.remove!.includes(l));
      const assignee = f.assignee ? (c.tenant.users.has(f.assignee.accountId) ? f.assignee.accountId : null) : issue.assignee;
      const priority = f.priority ? PRIORITIES.find((p) => p.id === f.priority!.id)?.name ?? issue.priority : issue.priority;
      c.jira.issues.put(issue.key, { ...issue, labels, assignee, priority });
    }) });
  }, { input: { body: z.object({ issueIdsOrKeys: z.array(z.string()).min(1), editedFieldsInput: z.record(z.unknown()) }).passthrough() } }),

  operation('bulk.issues.watch', rest('POST', '/rest/api/3/bulk/issues/watch'), (call, c: AtlassianCtx) => {
    const body = call.body as { issueIdsOrKeys: string[] };
    const caller = me(c).accountId;
    return created({ taskId: bulk(c, 'watch', body.issueIdsOrKeys, (issue) => { if (!issue.watchers.includes(caller)) c.jira.issues.put(issue.key, { ...issue, watchers: [...issue.watchers, caller] }); }) });
  }, { input: { body: z.object({ issueIdsOrKeys: z.array(z.string()).min(1) }).passthrough() } }),

  operation('bulk.issues.unwatch', rest('POST', '/rest/api/3/bulk/issues/unwatch'), (call, c: AtlassianCtx) => {
    const body = call.body as { issueIdsOrKeys: string[] };
    const caller = me(c).accountId;
    return created({ taskId: bulk(c, 'unwatch', body.issueIdsOrKeys, (issue) => c.jira.issues.put(issue.key, { ...issue, watchers: issue.watchers.filter((w) => w !== caller) })) });
  }, { input: { body: z.object({ issueIdsOrKeys: z.array(z.string()).min(1) }).passthrough() } }),

  operation('bulk.queue.get', rest('GET', '/rest/api/3/bulk/queue/:taskId'), (call, c: AtlassianCtx) => {
    const t = c.jira.bulk_tasks.get(call.params.taskId);
    if (!t) throw jiraError(404, [`Task with id ${call.params.taskId} not found.`]);
    return jsonResponse(200, {
      taskId: t.taskId, status: t.status, progressPercent: 100, submittedBy: { accountId: t.submittedBy }, created: new Date(t.created).toISOString(),
      started: new Date(t.created).toISOString(), updated: new Date(t.created).toISOString(), totalIssueCount: t.successfulIssues.length + Object.keys(t.failedIssues).length,
      successfulIssues: t.successfulIssues, failedIssues: t.failedIssues, failedIssuesCount: Object.keys(t.failedIssues).length, invalidOrInaccessibleIssueCount: 0, processedAccessibleIssues: t.successfulIssues,
    });
  }),
];

/** Runs a bulk operation at once (this world has no background work) and keeps its task for the queue. */
function bulk(c: AtlassianCtx, kind: string, refs: string[], apply: (issue: ReturnType<typeof issueOf>) => void): string {
  const ok: string[] = [];
  const failed: Record<string, unknown> = {};
  for (const ref of refs) {
    try {
      const issue = issueOf(c, ref);
      apply(issue);
      ok.push(issue.id);
    } catch {
      failed[ref] = { errors: ['Issue does not exist or you do not have permission to see it.'] };
    }
  }
  const taskId = String(c.ctx.ids.next('jira-bulk-task', 10000));
  c.jira.bulk_tasks.put(taskId, { taskId, status: 'COMPLETE', submittedBy: me(c).accountId, created: c.ctx.nowMs, successfulIssues: ok, failedIssues: failed, kind });
  return taskId;
}
