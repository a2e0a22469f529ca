import { z } from 'zod';
import type { ServiceRequest } from '../core/http.js';
import { jsonResponse } from '../core/http.js';
import { ServiceError } from '../kit/errors.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { fieldError, iso, nextId, notFound, type SentryCtx } from './context.js';
import type { ActivityDoc, EventDoc, IssueDoc } from './model.js';
import { orgOr404, projectOr404 } from './orgs.js';
import { actor, assignee, page, renderIssue, renderRelease } from './render.js';
import { matchTerms, parseQuery, periodMs } from './search.js';

/**
 * Issues (groups): the issue stream with Sentry's search syntax (search.ts), details, updates
 * (status, assignment, ignore options) with their activity, notes, tag values, and the issue's
 * events. Seer (autofix), replays and external issue links are answered as for an organization
 * without them.
 */

const ORIGIN = 'https://sentry.io/api/0';

/** By numeric id or short id (`BACKEND-42`), as the organization's issue endpoints take both. */
export function issueOr404(c: SentryCtx, org: string, idOrShort: string): IssueDoc {
  orgOr404(c, org);
  const issue = c.db.issues.get(idOrShort) ?? c.db.issues.find((i) => i.shortId.toLowerCase() === idOrShort.toLowerCase());
  if (!issue) throw notFound();
  return issue;
}

export function eventsOf(c: SentryCtx, issue: IssueDoc): EventDoc[] {
  return c.db.events.filter((e) => e.issue === issue.id).sort((a, b) => b.dateCreated.localeCompare(a.dateCreated) || a.id.localeCompare(b.id));
}

/** An issue's values for a search key (undefined: unknown key). */
function issueField(c: SentryCtx, issue: IssueDoc, key: string): string | string[] | null | undefined {
  const events = c.db.events.filter((e) => e.issue === issue.id);
  switch (key) {
    case 'is': {
      const is = [issue.status, issue.assignedTo === null ? 'unassigned' : 'assigned'];
      if (issue.status === 'ignored') is.push('archived');
      if (issue.substatus) is.push(issue.substatus);
      return is;
    }
    case 'assigned': case 'assigned_or_suggested': {
      if (issue.assignedTo === null) return null;
      const mine = c.caller !== null && issue.assignedTo === c.caller.email;
      return issue.assignedTo.startsWith('team:') ? [`#${issue.assignedTo.slice(5)}`] : [issue.assignedTo, ...(mine ? ['me'] : [])];
    }
    case 'level': return issue.level;
    case 'project': return issue.project;
    case 'issue': return issue.shortId;
    case 'issue.id': return issue.id;
    case 'title': case 'message': return issue.title;
    case 'culprit': case 'transaction': return issue.culprit;
    case 'error.type': return issue.type;
    case 'error.value': return issue.value;
    case 'firstRelease': case 'first_release': return issue.firstRelease;
    case 'release': return [...new Set([...(issue.firstRelease ? [issue.firstRelease] : []), ...events.map((e) => e.release).filter((r): r is string => r !== null)])];
    case 'environment': return [...new Set(events.map((e) => e.environment))];
    case 'user.email': return events.map((e) => e.user.email).filter((v): v is string => v !== null);
    case 'user.id': return events.map((e) => e.user.id).filter((v): v is string => v !== null);
    case 'stack.filename': return events.flatMap((e) => e.frames.map((f) => f.filename));
    default: {
      const values = events.map((e) => e.tags[key]).filter((v): v is string => v !== undefined);
      return values.length ? values : undefined;
    }
  }
}

const SORTS: Record<string, (a: IssueDoc, b: IssueDoc) => number> = {
  date: (a, b) => b.lastSeen.localeCompare(a.lastSeen),
  new: (a, b) => b.firstSeen.localeCompare(a.firstSeen),
  freq: (a, b) => b.count - a.count,
  user: (a, b) => b.userCount - a.userCount,
};

/** The issue stream: the query (default `is:unresolved`), seen within statsPeriod, sorted, paged. */
function issueStream(c: SentryCtx, req: ServiceRequest, project: string | null) {
  const q = req.query;
  const sort = q.get('sort') ?? 'date';
  const order = SORTS[sort === 'trends' || sort === 'inbox' ? 'date' : sort];
  if (!order) throw new ServiceError(400, 'invalid', `Invalid sort: ${sort}`);
  const terms = parseQuery(q.has('query') ? q.get('query')! : 'is:unresolved');
  const period = periodMs(q.get('statsPeriod') ?? '14d');
  if (q.get('statsPeriod') && period === null) throw new ServiceError(400, 'invalid', `Invalid statsPeriod: ${q.get('statsPeriod')}`);
  const since = period === null ? '' : iso(c.ctx.nowMs - period);
  const projectIds = q.getAll('project').filter((p) => p !== '-1');
  const issues = c.db.issues.values()
    .filter((i) => project === null || i.project === project)
    .filter((i) => projectIds.length === 0 || projectIds.includes(c.db.projects.find((p) => p.slug === i.project)?.id ?? ''))
    .filter((i) => i.lastSeen >= since)
    .filter((i) => matchTerms(terms, (key) => issueField(c, i, key), `${i.title} ${i.culprit ?? ''} ${i.value} ${i.shortId}`))
    .sort((a, b) => order(a, b) || Number(b.id) - Number(a.id));
  const { items, headers } = page(req, issues.map((i) => renderIssue(c, i)), ORIGIN, 25);
  return jsonResponse(200, items, [...headers, ['X-Hits', String(issues.length)], ['X-Max-Hits', '1000']]);
}

function renderActivity(c: SentryCtx, a: ActivityDoc): Record<string, unknown> {
  const member = a.user === null ? undefined : c.db.members.find((m) => m.email === a.user);
  return { id: a.id, user: member ? actor(member) : null, sentry_app: null, type: a.type, data: a.data, dateCreated: a.dateCreated };
}

function activitiesOf(c: SentryCtx, issue: IssueDoc): ActivityDoc[] {
  return c.db.activities.filter((a) => a.issue === issue.id).sort((a, b) => b.dateCreated.localeCompare(a.dateCreated) || Number(b.id) - Number(a.id));
}

function addActivity(c: SentryCtx, issue: IssueDoc, type: string, data: Record<string, unknown>): ActivityDoc {
  const id = nextId(c, 'activities');
  return c.db.activities.put(id, { id, issue: issue.id, type, user: c.caller?.email ?? null, data, dateCreated: c.now });
}

function tagValues(c: SentryCtx, issue: IssueDoc, key: string) {
  const values = new Map<string, { count: number; first: string; last: string }>();
  for (const e of eventsOf(c, issue)) {
    const value = key === 'environment' ? e.environment : key === 'release' ? e.release : key === 'user' ? (e.user.email ? `email:${e.user.email}` : e.user.id ? `id:${e.user.id}` : null) : e.tags[key];
    if (value === null || value === undefined) continue;
    const seen = values.get(value) ?? { count: 0, first: e.dateCreated, last: e.dateCreated };
    values.set(value, { count: seen.count + 1, first: e.dateCreated < seen.first ? e.dateCreated : seen.first, last: e.dateCreated > seen.last ? e.dateCreated : seen.last });
  }
  return values;
}

function tagName(key: string): string {
  return key.split(/[._]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

function eventTags(e: EventDoc): { key: string; value: string }[] {
  const tags: Record<string, string> = { environment: e.environment, level: 'error', ...(e.release ? { release: e.release } : {}), ...(e.user.email ? { user: `email:${e.user.email}` } : {}), ...e.tags };
  return Object.keys(tags).sort().map((key) => ({ key, value: tags[key]! }));
}

/** An event as an issue's event list answers it. */
function renderEventSummary(c: SentryCtx, issue: IssueDoc, e: EventDoc): Record<string, unknown> {
  const project = c.db.projects.find((p) => p.slug === e.project)!;
  return {
    id: e.id, eventID: e.id, groupID: issue.id, projectID: project.id, title: issue.title, message: e.message ?? `${issue.type}: ${issue.value}`,
    platform: project.platform, dateCreated: e.dateCreated, 'event.type': 'error', culprit: issue.culprit, location: e.frames.at(-1)?.filename ?? null,
    user: e.user.id || e.user.email ? { id: e.user.id, email: e.user.email, username: null, ip_address: null, name: null, display_name: e.user.email ?? e.user.id } : null,
    tags: eventTags(e), crashFile: null, size: 2048,
  };
}

/** A full event, with its exception entry (one exception, its frames oldest first). */
function renderEvent(c: SentryCtx, issue: IssueDoc, e: EventDoc, all: EventDoc[]): Record<string, unknown> {
  const project = c.db.projects.find((p) => p.slug === e.project)!;
  const at = all.findIndex((x) => x.id === e.id);
  const release = e.release ? c.db.releases.get(e.release) : undefined;
  // Object.assign on the fresh render, not `{ ...renderEventSummary(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  return Object.assign(renderEventSummary(c, issue, e), { type: 'error', dist: null,
    entries: [{
      type: 'exception', data: {
        values: [{ type: issue.type, value: issue.value, mechanism: { type: 'generic', handled: false }, module: null, threadId: null,
          stacktrace: { frames: e.frames.map((f) => ({ filename: f.filename, absPath: f.filename, module: null, package: null, platform: null, instructionAddr: null, symbolAddr: null, function: f.function, rawFunction: null, symbol: null, context: [], lineNo: f.lineNo, colNo: null, inApp: f.inApp, trust: null, errors: null, lock: null, sourceLink: null, vars: null })), framesOmitted: null, registers: null, hasSystemFrames: e.frames.some((f) => !f.inApp) } }],
        hasSystemFrames: e.frames.some((f) => !f.inApp), excOmitted: null,
      },
    }],
    contexts: { runtime: { name: 'node', version: 'v20.11.1', type: 'runtime' }, os: { name: 'Linux', type: 'os' } },
    context: {}, packages: {}, sdk: { name: 'sentry.javascript.node', version: '8.40.0' }, metadata: { type: issue.type, value: issue.value },
    errors: [], occurrence: null, _meta: {}, dateReceived: e.dateCreated, fingerprints: [issue.id.padStart(32, '0')], groupingConfig: { id: 'newstyle:2023-01-11', enhancements: 'eJybzDRxc15qeXFJZU6qlZGBkbGugaGuoeEEAHJMCAM' },
    release: release ? renderRelease(c, release) : null, userReport: null, sdkUpdates: [], resolvedWith: [],
    nextEventID: at > 0 ? all[at - 1]!.id : null, previousEventID: at >= 0 && at < all.length - 1 ? all[at + 1]!.id : null,
    projectSlug: project.slug,
  });
}

/** GET issue details: the stream's fields and the activity, releases, tags and participants. */
function renderIssueDetails(c: SentryCtx, issue: IssueDoc): Record<string, unknown> {
  const first = issue.firstRelease ? c.db.releases.get(issue.firstRelease) : undefined;
  const lastVersion = eventsOf(c, issue).find((e) => e.release !== null)?.release;
  const last = lastVersion ? c.db.releases.get(lastVersion) : undefined;
  const keys = [...new Set(eventsOf(c, issue).flatMap((e) => eventTags(e).map((t) => t.key)))].sort();
  return Object.assign(renderIssue(c, issue), { activity: activitiesOf(c, issue).map((a) => renderActivity(c, a)), seenBy: [], pluginActions: [], pluginIssues: [], pluginContexts: [],
    userReportCount: 0, participants: [], stats: { '24h': [], '30d': [] },
    firstRelease: first ? renderRelease(c, first) : null, lastRelease: last ? renderRelease(c, last) : null,
    tags: keys.map((key) => ({ key, name: tagName(key), totalValues: [...tagValues(c, issue, key).values()].reduce((n, v) => n + v.count, 0) })),
  });
}

const IssueUpdate = z.object({
  status: z.enum(['resolved', 'unresolved', 'ignored', 'resolvedInNextRelease']).optional(),
  substatus: z.enum(['archived_until_escalating', 'archived_until_condition_met', 'archived_forever', 'escalating', 'ongoing', 'regressed', 'new']).nullable().optional(),
  assignedTo: z.string().nullable().optional(),
  ignoreDuration: z.number().int().positive().optional(),
  ignoreCount: z.number().int().positive().optional(),
  ignoreWindow: z.number().int().positive().optional(),
  ignoreUserCount: z.number().int().positive().optional(),
  ignoreUserWindow: z.number().int().positive().optional(),
  hasSeen: z.boolean().optional(),
  isBookmarked: z.boolean().optional(),
  isSubscribed: z.boolean().optional(),
}).passthrough();
type IssueUpdate = z.infer<typeof IssueUpdate>;

/** `assignedTo` as the API takes it: `user:<id>`, `team:<id or slug>`, a member's email or username, `me`; '' unassigns. */
function resolveAssignee(c: SentryCtx, value: string): string | null {
  if (value === '') return null;
  const user = /^user:(\d+)$/.exec(value)?.[1];
  const team = /^team:(.+)$/.exec(value)?.[1];
  if (team !== undefined) {
    const t = c.db.teams.find((x) => x.id === team || x.slug === team);
    if (!t) throw fieldError('assignedTo', 'Unknown actor input');
    return `team:${t.slug}`;
  }
  const member = value === 'me' ? c.caller : c.db.members.find((m) => (user !== undefined ? m.id === user : m.email === value || m.username === value || m.id === value));
  if (!member) throw fieldError('assignedTo', 'Unknown actor input');
  return member.email;
}

function updateIssue(c: SentryCtx, issue: IssueDoc, body: IssueUpdate): IssueDoc {
  let next: IssueDoc = { ...issue };
  if (body.assignedTo !== undefined) {
    const to = body.assignedTo === null ? null : resolveAssignee(c, body.assignedTo);
    if (to !== issue.assignedTo) {
      next.assignedTo = to;
      if (to === null) addActivity(c, issue, 'unassigned', {});
      else {
        const a = assignee(c, to)!;
        addActivity(c, issue, 'assigned', { assignee: String(a.id), assigneeEmail: to.startsWith('team:') ? null : to, assigneeType: a.type });
      }
    }
  }
  if (body.status !== undefined) {
    const status = body.status === 'resolvedInNextRelease' ? 'resolved' : body.status;
    const details: Record<string, unknown> = {};
    if (status === 'ignored') {
      if (body.ignoreDuration) details.ignoreUntil = iso(c.ctx.nowMs + body.ignoreDuration * 60_000);
      if (body.ignoreCount) { details.ignoreCount = body.ignoreCount; details.ignoreWindow = body.ignoreWindow ?? null; }
      if (body.ignoreUserCount) { details.ignoreUserCount = body.ignoreUserCount; details.ignoreUserWindow = body.ignoreUserWindow ?? null; }
    }
    if (body.status === 'resolvedInNextRelease') details.inNextRelease = true;
    const substatus = status === 'unresolved' ? 'ongoing' : status === 'ignored'
      ? body.substatus ?? (Object.keys(details).length ? 'archived_until_condition_met' : 'archived_forever') : null;
    if (status !== issue.status || JSON.stringify(details) !== JSON.stringify(issue.statusDetails)) {
      addActivity(c, issue, status === 'resolved' ? (body.status === 'resolvedInNextRelease' ? 'set_resolved_in_release' : 'set_resolved') : status === 'ignored' ? 'set_ignored' : 'set_unresolved', status === 'ignored' ? details : {});
    }
    next = { ...next, status, substatus, statusDetails: details };
  }
  return c.db.issues.put(issue.id, next);
}

/** The events dataset (`/organizations/{org}/events/`): rows of the fields asked for, aggregated when a field is a function. */
function discover(c: SentryCtx, req: ServiceRequest) {
  const q = req.query;
  const fields = q.getAll('field');
  if (fields.length === 0) throw new ServiceError(400, 'invalid', 'No columns selected');
  const dataset = q.get('dataset') ?? 'discover';
  const period = periodMs(q.get('statsPeriod') ?? '14d');
  const since = period === null ? '' : iso(c.ctx.nowMs - period);
  const projectIds = q.getAll('project').filter((p) => p !== '-1');
  const terms = parseQuery(q.get('query') ?? '');
  const events = dataset === 'errors' || dataset === 'discover'
    ? c.db.events.values().filter((e) => e.dateCreated >= since)
      .filter((e) => projectIds.length === 0 || projectIds.includes(c.db.projects.find((p) => p.slug === e.project)?.id ?? ''))
    : [];
  const value = (e: EventDoc, field: string): string | number | null => {
    const issue = c.db.issues.get(e.issue)!;
    switch (field) {
      case 'id': return e.id;
      case 'issue': return issue.shortId;
      case 'issue.id': return Number(issue.id);
      case 'title': return issue.title;
      case 'message': return e.message ?? `${issue.type}: ${issue.value}`;
      case 'project': return e.project;
      case 'project.id': return Number(c.db.projects.find((p) => p.slug === e.project)?.id ?? 0);
      case 'timestamp': return e.dateCreated.replace(/\.\d+Z$/, '+00:00');
      case 'culprit': case 'transaction': return issue.culprit;
      case 'level': return issue.level;
      case 'error.type': return issue.type;
      case 'error.value': return issue.value;
      case 'environment': return e.environment;
      case 'release': return e.release;
      case 'user.email': return e.user.email;
      case 'user.id': return e.user.id;
      default: return e.tags[field] ?? null;
    }
  };
  const matching = events.filter((e) => matchTerms(terms, (key) => { const v = value(e, key); return v === null ? null : String(v); }, `${value(e, 'title')} ${value(e, 'message')}`));
  const aggregates = fields.filter((f) => f.includes('('));
  const groups = fields.filter((f) => !f.includes('('));
  let rows: Record<string, unknown>[];
  if (aggregates.length === 0) rows = matching.map((e) => Object.fromEntries(fields.map((f) => [f, value(e, f)])));
  else {
    const byKey = new Map<string, EventDoc[]>();
    for (const e of matching) {
      const key = JSON.stringify(groups.map((g) => value(e, g)));
      byKey.set(key, [...(byKey.get(key) ?? []), e]);
    }
    rows = [...byKey.values()].map((group) => Object.fromEntries(fields.map((f) => [f, f.includes('(') ? aggregate(f, group) : value(group[0]!, f)])));
  }
  const sort = q.get('sort');
  if (sort) {
    const key = sort.replace(/^-/, '');
    const dir = sort.startsWith('-') ? -1 : 1;
    rows.sort((a, b) => dir * compare(a[key], b[key]));
  }
  const { items, headers } = page(req, rows, ORIGIN, 50);
  const type = (f: string) => (f.startsWith('count') ? 'integer' : f === 'timestamp' || f.startsWith('last_seen') || f.startsWith('first_seen') ? 'date' : f === 'issue.id' || f === 'project.id' ? 'integer' : 'string');
  return jsonResponse(200, { data: items, meta: { fields: Object.fromEntries(fields.map((f) => [f, type(f)])), units: Object.fromEntries(fields.map((f) => [f, null])), isMetricsData: false, tips: {}, datasetReason: 'unchanged', dataset } }, headers);
}

function aggregate(field: string, events: EventDoc[]): string | number {
  const times = events.map((e) => e.dateCreated).sort();
  if (field === 'count()') return events.length;
  if (field === 'count_unique(user)') return new Set(events.map((e) => e.user.email ?? e.user.id).filter((v) => v !== null)).size;
  if (field === 'last_seen()') return times.at(-1)!.replace(/\.\d+Z$/, '+00:00');
  if (field === 'first_seen()') return times[0]!.replace(/\.\d+Z$/, '+00:00');
  throw new ServiceError(400, 'invalid', `${field} is not a valid function`);
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a ?? '').localeCompare(String(b ?? ''));
}

const NoteBody = z.object({ text: z.string().min(1, 'This field may not be blank.') }).passthrough();
type NoteBody = z.infer<typeof NoteBody>;

export const issueOperations: Operation<SentryCtx>[] = [
  operation<SentryCtx, '/api/0/organizations/:org/issues/'>('issues.list', rest('GET', '/api/0/organizations/:org/issues/'), (call, c) => {
    orgOr404(c, call.params.org);
    return issueStream(c, call.req, null);
  }),
  operation<SentryCtx, '/api/0/projects/:org/:project/issues/'>('projects.issues.list', rest('GET', '/api/0/projects/:org/:project/issues/'), (call, c) => {
    const project = projectOr404(c, call.params.org, call.params.project);
    return issueStream(c, call.req, project.slug);
  }),
  operation<SentryCtx, '/api/0/organizations/:org/issues/:issue/'>('issues.get', rest('GET', '/api/0/organizations/:org/issues/:issue/'), (call, c) => jsonResponse(200, renderIssueDetails(c, issueOr404(c, call.params.org, call.params.issue)))),
  operation<SentryCtx, '/api/0/organizations/:org/issues/:issue/', Record<string, string>, IssueUpdate>('issues.update', rest('PUT', '/api/0/organizations/:org/issues/:issue/'), (call, c) => {
    const issue = issueOr404(c, call.params.org, call.params.issue);
    return jsonResponse(200, renderIssueDetails(c, updateIssue(c, issue, call.body)));
  }, { input: { body: IssueUpdate } }),
  operation<SentryCtx, '/api/0/organizations/:org/issues/:issue/activities/'>('issues.activities', rest('GET', '/api/0/organizations/:org/issues/:issue/activities/'), (call, c) => {
    const issue = issueOr404(c, call.params.org, call.params.issue);
    return jsonResponse(200, { activity: activitiesOf(c, issue).map((a) => renderActivity(c, a)) });
  }),
  operation<SentryCtx, '/api/0/organizations/:org/issues/:issue/notes/'>('issues.notes.list', rest('GET', '/api/0/organizations/:org/issues/:issue/notes/'), (call, c) => {
    const issue = issueOr404(c, call.params.org, call.params.issue);
    const { items, headers } = page(call.req, activitiesOf(c, issue).filter((a) => a.type === 'note').map((a) => renderActivity(c, a)), ORIGIN);
    return jsonResponse(200, items, headers);
  }),
  operation<SentryCtx, '/api/0/organizations/:org/issues/:issue/notes/', Record<string, string>, NoteBody>('issues.notes.create', rest('POST', '/api/0/organizations/:org/issues/:issue/notes/'), (call, c) => {
    const issue = issueOr404(c, call.params.org, call.params.issue);
    return jsonResponse(201, renderActivity(c, addActivity(c, issue, 'note', { text: call.body.text })));
  }, { input: { body: NoteBody } }),
  operation<SentryCtx, '/api/0/organizations/:org/issues/:issue/tags/:key/'>('issues.tags.get', rest('GET', '/api/0/organizations/:org/issues/:issue/tags/:key/'), (call, c) => {
    const issue = issueOr404(c, call.params.org, call.params.issue);
    const values = tagValues(c, issue, call.params.key);
    if (values.size === 0) throw new ServiceError(404, 'not_found', 'Tag key not found');
    const total = [...values.values()].reduce((n, v) => n + v.count, 0);
    const top = [...values.entries()].sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0])).slice(0, 9)
      .map(([value, v]) => ({ key: call.params.key, name: value, value, count: v.count, lastSeen: v.last, firstSeen: v.first }));
    return jsonResponse(200, { key: call.params.key, name: tagName(call.params.key), uniqueValues: values.size, totalValues: total, topValues: top });
  }),
  operation<SentryCtx, '/api/0/organizations/:org/issues/:issue/events/'>('issues.events.list', rest('GET', '/api/0/organizations/:org/issues/:issue/events/'), (call, c) => {
    const issue = issueOr404(c, call.params.org, call.params.issue);
    const terms = parseQuery(call.req.query.get('query') ?? '');
    const all = eventsOf(c, issue);
    const events = all.filter((e) => matchTerms(terms, (key) => (key === 'environment' ? e.environment : key === 'release' ? e.release : key === 'user.email' ? e.user.email : e.tags[key]), e.message ?? issue.title));
    if (call.req.query.get('sort') === 'timestamp') events.reverse();
    const full = call.req.query.get('full') === 'true' || call.req.query.get('full') === '1';
    const { items, headers } = page(call.req, events.map((e) => (full ? renderEvent(c, issue, e, all) : renderEventSummary(c, issue, e))), ORIGIN);
    return jsonResponse(200, items, headers);
  }),
  operation<SentryCtx, '/api/0/organizations/:org/issues/:issue/events/:event/'>('issues.events.get', rest('GET', '/api/0/organizations/:org/issues/:issue/events/:event/'), (call, c) => {
    const issue = issueOr404(c, call.params.org, call.params.issue);
    const all = eventsOf(c, issue);
    const which = call.params.event;
    const event = which === 'latest' || which === 'recommended' ? all[0] : which === 'oldest' ? all.at(-1) : all.find((e) => e.id === which);
    if (!event) throw new ServiceError(404, 'not_found', 'Event not found');
    return jsonResponse(200, renderEvent(c, issue, event, all));
  }),
  operation<SentryCtx, '/api/0/organizations/:org/issues/:issue/external-issues/'>('issues.external_issues', rest('GET', '/api/0/organizations/:org/issues/:issue/external-issues/'), (call, c) => {
    issueOr404(c, call.params.org, call.params.issue);
    return jsonResponse(200, []);
  }),
  // Seer: the organization has not enabled it (no run exists, and none can start).
  operation<SentryCtx, '/api/0/organizations/:org/issues/:issue/autofix/'>('issues.autofix.get', rest('GET', '/api/0/organizations/:org/issues/:issue/autofix/'), (call, c) => {
    issueOr404(c, call.params.org, call.params.issue);
    return jsonResponse(200, { autofix: null });
  }),
  operation<SentryCtx, '/api/0/organizations/:org/issues/:issue/autofix/'>('issues.autofix.start', rest('POST', '/api/0/organizations/:org/issues/:issue/autofix/'), (call, c) => {
    issueOr404(c, call.params.org, call.params.issue);
    throw new ServiceError(403, 'forbidden', 'Seer is not enabled for this organization.');
  }),
  operation<SentryCtx, '/api/0/organizations/:org/events/'>('events.list', rest('GET', '/api/0/organizations/:org/events/'), (call, c) => {
    orgOr404(c, call.params.org);
    return discover(c, call.req);
  }),
  operation<SentryCtx, '/api/0/organizations/:org/tags/'>('tags.list', rest('GET', '/api/0/organizations/:org/tags/'), (call, c) => {
    orgOr404(c, call.params.org);
    const counts = new Map<string, Set<string>>();
    for (const e of c.db.events.values()) for (const t of eventTags(e)) counts.set(t.key, (counts.get(t.key) ?? new Set()).add(t.value));
    return jsonResponse(200, [...counts.keys()].sort().map((key) => ({ key, name: tagName(key), totalValues: counts.get(key)!.size })));
  }),
  operation<SentryCtx, '/api/0/projects/:org/:project/events/:event/attachments/'>('events.attachments.list', rest('GET', '/api/0/projects/:org/:project/events/:event/attachments/'), (call, c) => {
    const project = projectOr404(c, call.params.org, call.params.project);
    if (!c.db.events.find((e) => e.id === call.params.event && e.project === project.slug)) throw new ServiceError(404, 'not_found', 'Event not found');
    return jsonResponse(200, []);
  }),
  operation<SentryCtx, '/api/0/projects/:org/:project/events/:event/attachments/:attachment/'>('events.attachments.get', rest('GET', '/api/0/projects/:org/:project/events/:event/attachments/:attachment/'), (call, c) => {
    projectOr404(c, call.params.org, call.params.project);
    throw notFound();
  }),
  // Profiles: none are recorded in this world (no project has profiling).
  operation<SentryCtx, '/api/0/projects/:org/:project/profiling/profiles/:profile/'>('profiling.profiles.get', rest('GET', '/api/0/projects/:org/:project/profiling/profiles/:profile/'), (call, c) => {
    projectOr404(c, call.params.org, call.params.project);
    throw new ServiceError(404, 'not_found', 'Profile not found');
  }),
  operation<SentryCtx, '/api/0/organizations/:org/profiling/chunks/'>('profiling.chunks', rest('GET', '/api/0/organizations/:org/profiling/chunks/'), (call, c) => {
    orgOr404(c, call.params.org);
    return jsonResponse(200, { chunks: [] });
  }),
  // Session replays: none are recorded in this world.
  operation<SentryCtx, '/api/0/organizations/:org/replays/'>('replays.list', rest('GET', '/api/0/organizations/:org/replays/'), (call, c) => {
    orgOr404(c, call.params.org);
    return jsonResponse(200, { data: [] });
  }),
  operation<SentryCtx, '/api/0/organizations/:org/replays/:replay/'>('replays.get', rest('GET', '/api/0/organizations/:org/replays/:replay/'), (call, c) => {
    orgOr404(c, call.params.org);
    throw new ServiceError(404, 'not_found', 'Replay not found');
  }),
  operation<SentryCtx, '/api/0/organizations/:org/replay-count/'>('replays.count', rest('GET', '/api/0/organizations/:org/replay-count/'), (call, c) => {
    orgOr404(c, call.params.org);
    return jsonResponse(200, {});
  }),
];
