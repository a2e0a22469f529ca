import { renderUser, type SiteDoc, type TenantDb } from '../model.js';
import {
  formatDuration, ISSUE_TYPES, PRIORITIES, RESOLUTIONS, SPRINT_FIELD, STORY_POINTS_FIELD,
  type AttachmentDoc, type BoardDoc, type CommentDoc, type IssueDoc, type JiraDb, type ProjectDoc, type SprintDoc, type StatusDoc, type WorklogDoc,
} from './model.js';

/** What rendering needs: the site (for `self` links), the people, Jira's collections. */
export interface View { site: SiteDoc; tenant: TenantDb; db: JiraDb }

const API = '/rest/api/3';
const CATEGORY = {
  new: { id: 2, key: 'new', colorName: 'blue-gray', name: 'To Do' },
  indeterminate: { id: 4, key: 'indeterminate', colorName: 'yellow', name: 'In Progress' },
  done: { id: 3, key: 'done', colorName: 'green', name: 'Done' },
} as const;

export function user(v: View, accountId: string | null): Record<string, unknown> | null {
  if (accountId === null) return null;
  const found = v.tenant.users.get(accountId);
  return found ? renderUser(v.site, found, 'short') : { accountId, displayName: 'Former user', active: false, accountType: 'atlassian' };
}

export function status(v: View, s: StatusDoc): Record<string, unknown> {
  const c = CATEGORY[s.category];
  return {
    self: `${v.site.base_url}${API}/status/${s.id}`, description: s.description, iconUrl: `${v.site.base_url}/images/icons/statuses/generic.png`, name: s.name, id: s.id,
    statusCategory: { self: `${v.site.base_url}${API}/statuscategory/${c.id}`, ...c },
  };
}

export function statusByName(v: View, name: string): StatusDoc {
  return v.db.statuses.find((s) => s.name === name) ?? { id: '0', name, category: 'new', description: '' };
}

export function issueType(v: View, name: string): Record<string, unknown> {
  const t = ISSUE_TYPES.find((x) => x.name === name) ?? ISSUE_TYPES[2];
  return { self: `${v.site.base_url}${API}/issuetype/${t.id}`, id: t.id, description: t.description, iconUrl: `${v.site.base_url}/rest/api/2/universal_avatar/view/type/issuetype/avatar/${10300 + Number(t.id) - 10000}?size=medium`, name: t.name, subtask: t.subtask, avatarId: 10300 + Number(t.id) - 10000, hierarchyLevel: t.hierarchyLevel };
}

export function priority(v: View, name: string): Record<string, unknown> {
  const p = PRIORITIES.find((x) => x.name === name) ?? PRIORITIES[2];
  return { self: `${v.site.base_url}${API}/priority/${p.id}`, iconUrl: `${v.site.base_url}/images/icons/priorities/${p.name.toLowerCase()}.svg`, name: p.name, id: p.id };
}

export function resolution(v: View, name: string | null): Record<string, unknown> | null {
  if (name === null) return null;
  const r = RESOLUTIONS.find((x) => x.name === name) ?? RESOLUTIONS[0];
  return { self: `${v.site.base_url}${API}/resolution/${r.id}`, id: r.id, description: r.description, name: r.name };
}

export function project(v: View, p: ProjectDoc, detail: 'short' | 'full' = 'short'): Record<string, unknown> {
  const out: Record<string, unknown> = {
    self: `${v.site.base_url}${API}/project/${p.id}`, id: p.id, key: p.key, name: p.name, projectTypeKey: p.projectTypeKey, simplified: false,
    avatarUrls: { '48x48': `${v.site.base_url}/rest/api/3/universal_avatar/view/type/project/avatar/10400` },
  };
  if (detail === 'full') {
    Object.assign(out, {
      description: p.description, lead: user(v, p.lead), assigneeType: 'UNASSIGNED', style: 'classic', isPrivate: false, properties: {},
      components: p.components.map((c) => component(v, p, c.id)), versions: p.versions.map((x) => version(v, p, x.id)),
      issueTypes: ISSUE_TYPES.map((t) => issueType(v, t.name)), roles: {},
    });
  }
  return out;
}

export function component(v: View, p: ProjectDoc, id: string): Record<string, unknown> {
  const c = p.components.find((x) => x.id === id)!;
  return { self: `${v.site.base_url}${API}/component/${c.id}`, id: c.id, name: c.name, description: c.description, ...(c.lead ? { lead: user(v, c.lead) } : {}), assigneeType: 'PROJECT_DEFAULT', project: p.key, projectId: Number(p.id) };
}

export function version(v: View, p: ProjectDoc, id: string): Record<string, unknown> {
  const x = p.versions.find((y) => y.id === id)!;
  return {
    self: `${v.site.base_url}${API}/version/${x.id}`, id: x.id, name: x.name, description: x.description, archived: x.archived, released: x.released,
    ...(x.startDate ? { startDate: x.startDate } : {}), ...(x.releaseDate ? { releaseDate: x.releaseDate } : {}), projectId: Number(p.id),
  };
}

export function sprint(s: SprintDoc): Record<string, unknown> {
  return { id: s.id, name: s.name, state: s.state, boardId: s.board, goal: s.goal, ...(s.startDate ? { startDate: s.startDate } : {}), ...(s.endDate ? { endDate: s.endDate } : {}), ...(s.completeDate ? { completeDate: s.completeDate } : {}) };
}

export function agileSprint(v: View, s: SprintDoc): Record<string, unknown> {
  return {
    id: s.id, self: `${v.site.base_url}/rest/agile/1.0/sprint/${s.id}`, state: s.state, name: s.name,
    ...(s.startDate ? { startDate: s.startDate } : {}), ...(s.endDate ? { endDate: s.endDate } : {}), ...(s.completeDate ? { completeDate: s.completeDate } : {}),
    createdDate: s.createdDate, originBoardId: s.board, goal: s.goal,
  };
}

export function board(v: View, b: BoardDoc): Record<string, unknown> {
  const p = v.db.projects.get(b.project);
  return {
    id: b.id, self: `${v.site.base_url}/rest/agile/1.0/board/${b.id}`, name: b.name, type: b.type,
    location: p ? { projectId: Number(p.id), displayName: `${p.name} (${p.key})`, projectName: p.name, projectKey: p.key, projectTypeKey: p.projectTypeKey, avatarURI: `/rest/api/2/universal_avatar/view/type/project/avatar/10400?size=small`, name: `${p.name} (${p.key})` } : {},
    isPrivate: false,
  };
}

export function comment(v: View, c: CommentDoc): Record<string, unknown> {
  const issue = v.db.issues.get(c.issue);
  return {
    self: `${v.site.base_url}${API}/issue/${issue?.id ?? c.issue}/comment/${c.id}`, id: c.id, author: user(v, c.author), body: c.body,
    updateAuthor: user(v, c.updateAuthor), created: c.created, updated: c.updated, jsdPublic: true,
  };
}

export function worklog(v: View, w: WorklogDoc): Record<string, unknown> {
  return {
    self: `${v.site.base_url}${API}/issue/${w.issueId}/worklog/${w.id}`, author: user(v, w.author), updateAuthor: user(v, w.updateAuthor),
    ...(w.comment ? { comment: w.comment } : {}), created: w.created, updated: w.updated, started: w.started,
    timeSpent: formatDuration(w.timeSpentSeconds), timeSpentSeconds: w.timeSpentSeconds, id: w.id, issueId: w.issueId,
  };
}

export function attachment(v: View, a: AttachmentDoc): Record<string, unknown> {
  return {
    self: `${v.site.base_url}${API}/attachment/${a.id}`, id: a.id, filename: a.filename, author: user(v, a.author), created: a.created, size: a.size, mimeType: a.mimeType,
    content: `${v.site.base_url}${API}/attachment/content/${a.id}`,
    ...(a.mimeType.startsWith('image/') ? { thumbnail: `${v.site.base_url}${API}/attachment/thumbnail/${a.id}` } : {}),
  };
}

/** An issue as a short reference (links, parents, subtasks): id, key, self and four fields. */
export function issueRef(v: View, issue: IssueDoc): Record<string, unknown> {
  return {
    id: issue.id, key: issue.key, self: `${v.site.base_url}${API}/issue/${issue.id}`,
    fields: { summary: issue.summary, status: status(v, statusByName(v, issue.status)), priority: priority(v, issue.priority), issuetype: issueType(v, issue.issuetype) },
  };
}

/** Every field of an issue, as Jira names them. */
function allFields(v: View, issue: IssueDoc): Record<string, unknown> {
  const p = v.db.projects.get(issue.project)!;
  const comments = v.db.comments.filter((c) => c.issue === issue.key);
  const worklogs = v.db.worklogs.filter((w) => w.issue === issue.key);
  const spent = worklogs.reduce((n, w) => n + w.timeSpentSeconds, 0);
  const parent = issue.parent ? v.db.issues.get(issue.parent) : undefined;
  const sprints = [...issue.closed_sprints, ...(issue.sprint === null ? [] : [issue.sprint])].map((id) => v.db.sprints.get(id)).filter((s): s is SprintDoc => s !== undefined);
  const s = statusByName(v, issue.status);
  return {
    statuscategorychangedate: issue.updated,
    issuetype: issueType(v, issue.issuetype),
    timespent: spent || null,
    project: project(v, p),
    fixVersions: issue.fixVersions.map((name) => p.versions.find((x) => x.name === name)).filter((x) => x).map((x) => version(v, p, x!.id)),
    aggregatetimespent: spent || null,
    resolution: resolution(v, issue.resolution),
    resolutiondate: issue.resolutiondate,
    workratio: issue.original_estimate ? Math.round((spent * 100) / issue.original_estimate) : -1,
    watches: { self: `${v.site.base_url}${API}/issue/${issue.key}/watchers`, watchCount: issue.watchers.length, isWatching: false },
    lastViewed: null,
    created: issue.created,
    priority: priority(v, issue.priority),
    labels: issue.labels,
    timeestimate: issue.original_estimate === null ? null : Math.max(0, issue.original_estimate - spent),
    aggregatetimeoriginalestimate: issue.original_estimate,
    versions: [],
    issuelinks: v.db.links.filter((l) => l.inward === issue.key || l.outward === issue.key).map((l) => {
      const type = v.db.link_types.find((t) => t.name === l.type)!;
      const other = v.db.issues.get(l.inward === issue.key ? l.outward : l.inward);
      const side = l.inward === issue.key ? 'outwardIssue' : 'inwardIssue';
      return { id: l.id, self: `${v.site.base_url}${API}/issueLink/${l.id}`, type: { id: type.id, name: type.name, inward: type.inward, outward: type.outward, self: `${v.site.base_url}${API}/issueLinkType/${type.id}` }, ...(other ? { [side]: issueRef(v, other) } : {}) };
    }),
    assignee: user(v, issue.assignee),
    updated: issue.updated,
    status: status(v, s),
    components: issue.components.map((name) => p.components.find((c) => c.name === name)).filter((c) => c).map((c) => component(v, p, c!.id)),
    timeoriginalestimate: issue.original_estimate,
    description: issue.description,
    timetracking: issue.original_estimate === null && spent === 0 ? {} : {
      ...(issue.original_estimate !== null ? { originalEstimate: formatDuration(issue.original_estimate), originalEstimateSeconds: issue.original_estimate } : {}),
      ...(spent ? { timeSpent: formatDuration(spent), timeSpentSeconds: spent } : {}),
    },
    [SPRINT_FIELD]: sprints.length ? sprints.map(sprint) : null,
    [STORY_POINTS_FIELD]: issue.story_points,
    attachment: v.db.attachments.filter((a) => a.issue === issue.key).map((a) => attachment(v, a)),
    aggregatetimeestimate: issue.original_estimate === null ? null : Math.max(0, issue.original_estimate - spent),
    summary: issue.summary,
    creator: user(v, issue.creator),
    subtasks: v.db.issues.filter((x) => x.parent === issue.key && x.issuetype === 'Subtask').map((x) => issueRef(v, x)),
    reporter: user(v, issue.reporter),
    aggregateprogress: { progress: spent, total: Math.max(spent, issue.original_estimate ?? 0) },
    environment: issue.environment,
    duedate: issue.duedate,
    progress: { progress: spent, total: Math.max(spent, issue.original_estimate ?? 0) },
    votes: { self: `${v.site.base_url}${API}/issue/${issue.key}/votes`, votes: issue.voters.length, hasVoted: false },
    comment: { comments: comments.map((c) => comment(v, c)), self: `${v.site.base_url}${API}/issue/${issue.id}/comment`, maxResults: comments.length, total: comments.length, startAt: 0 },
    worklog: { startAt: 0, maxResults: 20, total: worklogs.length, worklogs: worklogs.slice(0, 20).map((w) => worklog(v, w)) },
    ...(parent ? { parent: issueRef(v, parent) } : {}),
  };
}

/** Fields Jira leaves out of "navigable" lists (search's default without `*all`). */
const NOT_NAVIGABLE = new Set(['comment', 'worklog', 'attachment', 'timetracking', 'lastViewed']);

/**
 * The `fields` parameter as Jira reads it: names, `*all`, `*navigable`, `-name` to drop one;
 * unknown names are ignored. `fallback` applies when the parameter is absent.
 */
export function selectFields(param: string | null | undefined, fallback: string): (name: string) => boolean {
  const list = (param === null || param === undefined || param === '' ? fallback : param).split(',').map((f) => f.trim()).filter(Boolean);
  const include = new Set(list.filter((f) => !f.startsWith('-')));
  const exclude = new Set(list.filter((f) => f.startsWith('-')).map((f) => f.slice(1)));
  return (name) => !exclude.has(name) && (include.has(name) || include.has('*all') || (include.has('*navigable') && !NOT_NAVIGABLE.has(name)));
}

/** An issue with the chosen fields (`fields` as `selectFields` reads it) and the `expand` options asked for. */
export function renderIssue(v: View, issue: IssueDoc, wanted: (name: string) => boolean, expand = ''): Record<string, unknown> {
  const fields = Object.fromEntries(Object.entries(allFields(v, issue)).filter(([name]) => wanted(name)));
  const out: Record<string, unknown> = {
    expand: 'renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations,customfield_10010.requestTypePractice',
    id: issue.id, self: `${v.site.base_url}${API}/issue/${issue.id}`, key: issue.key, fields,
  };
  const asked = new Set(expand.split(',').map((e) => e.trim()));
  if (asked.has('names')) out.names = Object.fromEntries(Object.keys(fields).map((f) => [f, f === SPRINT_FIELD ? 'Sprint' : f === STORY_POINTS_FIELD ? 'Story point estimate' : f[0]!.toUpperCase() + f.slice(1)]));
  if (asked.has('renderedFields')) out.renderedFields = { description: issue.description ? `<p>${escapeHtml(adfPlain(issue.description))}</p>` : null };
  if (asked.has('changelog')) {
    const histories = v.db.changelog.filter((c) => c.issue === issue.key).map((c) => ({ id: c.id, author: user(v, c.author), created: c.created, items: c.items }));
    out.changelog = { startAt: 0, maxResults: histories.length, total: histories.length, histories };
  }
  if (asked.has('transitions')) out.transitions = v.db.transitions.values().map((t) => transition(v, t.id));
  return out;
}

export function transition(v: View, id: string): Record<string, unknown> {
  const t = v.db.transitions.get(id)!;
  return { id: t.id, name: t.name, to: status(v, statusByName(v, t.to)), hasScreen: false, isGlobal: true, isInitial: false, isAvailable: true, isConditional: false, isLooped: false };
}

function adfPlain(doc: unknown): string {
  const walk = (n: unknown): string => (n && typeof n === 'object' ? (typeof (n as { text?: unknown }).text === 'string' ? (n as { text: string }).text : ((n as { content?: unknown[] }).content ?? []).map(walk).join(' ')) : '');
  return walk(doc).trim();
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
