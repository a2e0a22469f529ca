import { jiraError } from '../errors.js';
import { findUser } from '../model.js';
import type { AtlassianCtx } from '../context.js';
import {
  ISSUE_TYPES, jiraTime, parseDuration, PRIORITIES, RESOLUTIONS, SPRINT_FIELD, STORY_POINTS_FIELD, type Adf, type IssueDoc,
} from './model.js';

/**
 * Jira's `fields` and `update` of a create, edit or transition, applied to an issue: each field
 * checked as Jira checks it, errors collected per field (`{"errors": {"priority": "…"}}`).
 */
type Ref = { id?: unknown; name?: unknown; key?: unknown; accountId?: unknown };

const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isAdf(v: unknown): v is Adf {
  return obj(v) && v.type === 'doc' && v.version === 1 && Array.isArray(v.content);
}

export interface Applied { issue: IssueDoc; comments: Adf[] }

export function applyFields(c: AtlassianCtx, issue: IssueDoc, fields: Record<string, unknown>, update: Record<string, unknown>, mode: 'create' | 'edit' | 'transition'): Applied {
  const errors: Record<string, string> = {};
  const next: IssueDoc = { ...issue, labels: [...issue.labels], components: [...issue.components], fixVersions: [...issue.fixVersions] };
  const project = c.jira.projects.get(issue.project)!;
  const comments: Adf[] = [];

  const person = (field: string, v: unknown, nullable: boolean): string | null | undefined => {
    if (v === null) { if (nullable) return null; errors[field] = `${field} is required.`; return undefined; }
    const ref = obj(v) ? (v as Ref) : {};
    const id = typeof ref.accountId === 'string' ? ref.accountId : typeof ref.id === 'string' ? ref.id : undefined;
    if (id === '-1' && field === 'assignee') return project.lead;
    const u = id === undefined ? undefined : c.tenant.users.get(id) ?? findUser(c.tenant, id);
    if (!u) { errors[field] = field === 'assignee' ? `Specify a valid value for assignee` : `Specify a valid value for ${field}`; return undefined; }
    if (!u.active) { errors[field] = `User '${u.displayName}' cannot be assigned issues.`; return undefined; }
    return u.accountId;
  };
  const named = <T extends { id: string; name: string }>(field: string, v: unknown, list: readonly T[]): T | undefined => {
    const ref = obj(v) ? (v as Ref) : {};
    const found = list.find((x) => (typeof ref.id === 'string' && x.id === ref.id) || (typeof ref.name === 'string' && x.name.toLowerCase() === ref.name.toLowerCase()));
    if (!found) errors[field] = `Specify a valid '${field === 'issuetype' ? 'id' : 'id'}' or 'name' for ${field === 'issuetype' ? 'Issue Type' : field}`;
    return found;
  };
  const rich = (field: string, v: unknown): Adf | null | undefined => {
    if (v === null) return null;
    if (isAdf(v)) return v;
    errors[field] = 'Operation value must be an Atlassian Document (see the Atlassian Document Format)';
    return undefined;
  };
  const refList = (field: string, list: readonly { id: string; name: string }[], v: unknown): string[] | undefined => {
    if (!Array.isArray(v)) { errors[field] = `data was not an array`; return undefined; }
    const out: string[] = [];
    for (const item of v) {
      const ref = obj(item) ? (item as Ref) : {};
      const found = list.find((x) => (typeof ref.id === 'string' && x.id === ref.id) || (typeof ref.name === 'string' && x.name === ref.name));
      if (!found) { errors[field] = `${field === 'components' ? 'Component' : 'Version'} name '${String(ref.name ?? ref.id)}' is not valid`; return undefined; }
      out.push(found.name);
    }
    return out;
  };
  const labelList = (v: unknown): string[] | undefined => {
    if (!Array.isArray(v) || v.some((l) => typeof l !== 'string' || /\s/.test(l) || l === '')) { errors.labels = 'The label must not contain spaces.'; return undefined; }
    return [...new Set(v as string[])];
  };

  const set = (field: string, v: unknown): void => {
    switch (field) {
      case 'project': case 'issuetype':
        if (mode === 'create') return;
        if (field === 'issuetype') { const t = named(field, v, ISSUE_TYPES); if (t) next.issuetype = t.name; return; }
        errors[field] = `Field '${field}' cannot be set. It is not on the appropriate screen, or unknown.`;
        return;
      case 'summary':
        if (typeof v !== 'string' || v.trim() === '') { errors.summary = 'You must specify a summary of the issue.'; return; }
        if (v.length > 255) { errors.summary = 'Summary must be less than 255 characters.'; return; }
        next.summary = v; return;
      case 'description': { const d = rich(field, v); if (d !== undefined) next.description = d; return; }
      case 'environment': { const d = rich(field, v); if (d !== undefined) next.environment = d; return; }
      case 'assignee': { const a = person(field, v, true); if (a !== undefined) next.assignee = a; return; }
      case 'reporter': { const a = person(field, v, false); if (a) next.reporter = a; return; }
      case 'priority': { const p = named(field, v, PRIORITIES); if (p) next.priority = p.name; return; }
      case 'resolution': {
        if (v === null) { next.resolution = null; return; }
        const r = named(field, v, RESOLUTIONS); if (r) next.resolution = r.name; return;
      }
      case 'labels': { const l = labelList(v); if (l) next.labels = l; return; }
      case 'components': { const l = refList(field, project.components, v); if (l) next.components = l; return; }
      case 'fixVersions': { const l = refList(field, project.versions, v); if (l) next.fixVersions = l; return; }
      case 'versions': { refList(field, project.versions, v); return; }
      case 'duedate':
        if (v === null) { next.duedate = null; return; }
        if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) { errors.duedate = `Error parsing date string: ${String(v)}`; return; }
        next.duedate = v; return;
      case 'parent': {
        const ref = obj(v) ? (v as Ref) : {};
        const parent = typeof ref.key === 'string' ? c.jira.issues.get(ref.key) : typeof ref.id === 'string' ? c.jira.issues.find((i) => i.id === ref.id) : undefined;
        if (!parent) { errors.parent = `Could not find issue by id or key.`; return; }
        if (parent.key === issue.key) { errors.parent = 'An issue cannot be its own parent.'; return; }
        next.parent = parent.key; return;
      }
      case 'timetracking': {
        const t = obj(v) ? v : {};
        if (typeof t.originalEstimate === 'string') {
          const s = parseDuration(t.originalEstimate);
          if (s === null) { errors.timetracking = 'The original estimate specified is not valid.'; return; }
          next.original_estimate = s;
        }
        return;
      }
      case STORY_POINTS_FIELD:
        if (v !== null && typeof v !== 'number') { errors[field] = 'Number value expected as the Story point estimate.'; return; }
        next.story_points = v as number | null; return;
      case SPRINT_FIELD: {
        if (v === null) { next.sprint = null; return; }
        const sprint = typeof v === 'number' ? c.jira.sprints.get(v) : undefined;
        if (!sprint) { errors[field] = 'Sprint with id ' + String(v) + ' does not exist.'; return; }
        if (sprint.state === 'closed') { errors[field] = 'Issue can be assigned only active or future sprints.'; return; }
        next.sprint = sprint.id; return;
      }
      default:
        errors[field] = `Field '${field}' cannot be set. It is not on the appropriate screen, or unknown.`;
    }
  };

  for (const [field, value] of Object.entries(fields)) set(field, value);
  for (const [field, ops] of Object.entries(update)) {
    if (!Array.isArray(ops)) { errors[field] = 'data was not an array'; continue; }
    for (const op of ops) {
      if (!obj(op)) { errors[field] = 'Operation must be an object'; continue; }
      const [verb, value] = Object.entries(op)[0] ?? [];
      if (field === 'comment') {
        if (verb !== 'add' || !obj(value) || !isAdf(value.body)) { errors.comment = 'Comment body must be an Atlassian Document'; continue; }
        comments.push(value.body);
        continue;
      }
      if (verb === 'set') { set(field, value); continue; }
      if (field === 'labels' && (verb === 'add' || verb === 'remove')) {
        if (typeof value !== 'string' || /\s/.test(value) || value === '') { errors.labels = 'The label must not contain spaces.'; continue; }
        next.labels = verb === 'add' ? (next.labels.includes(value) ? next.labels : [...next.labels, value]) : next.labels.filter((l) => l !== value);
        continue;
      }
      if ((field === 'components' || field === 'fixVersions' || field === 'versions') && (verb === 'add' || verb === 'remove')) {
        const list = field === 'components' ? project.components : project.versions;
        const names = refList(field, list, [value]);
        if (!names || field === 'versions') continue;
        const cur = next[field];
        next[field] = verb === 'add' ? (cur.includes(names[0]!) ? cur : [...cur, names[0]!]) : cur.filter((x) => x !== names[0]);
        continue;
      }
      errors[field] = `Field '${field}' does not support the operation '${String(verb)}'.`;
    }
  }
  if (Object.keys(errors).length > 0) throw jiraError(400, [], errors);
  next.updated = jiraTime(c.ctx.nowMs);
  return { issue: next, comments };
}

/** The changelog items between two versions of an issue, as Jira records them. */
export function changes(c: AtlassianCtx, before: IssueDoc, after: IssueDoc): { field: string; fieldtype: string; from: string | null; fromString: string | null; to: string | null; toString: string | null }[] {
  const items: ReturnType<typeof changes> = [];
  const name = (id: string | null) => (id === null ? null : c.tenant.users.get(id)?.displayName ?? id);
  const add = (field: string, from: string | null, fromString: string | null, to: string | null, toString: string | null) => items.push({ field, fieldtype: 'jira', from, fromString, to, toString });
  if (before.status !== after.status) {
    const s = (n: string) => c.jira.statuses.find((x) => x.name === n)?.id ?? null;
    add('status', s(before.status), before.status, s(after.status), after.status);
  }
  if (before.assignee !== after.assignee) add('assignee', before.assignee, name(before.assignee), after.assignee, name(after.assignee));
  if (before.summary !== after.summary) add('summary', null, before.summary, null, after.summary);
  if (before.priority !== after.priority) add('priority', null, before.priority, null, after.priority);
  if (before.resolution !== after.resolution) add('resolution', null, before.resolution, null, after.resolution);
  if (before.labels.join(' ') !== after.labels.join(' ')) add('labels', null, before.labels.join(' ') || null, null, after.labels.join(' ') || null);
  if (before.sprint !== after.sprint) add('Sprint', before.sprint === null ? null : String(before.sprint), null, after.sprint === null ? null : String(after.sprint), null);
  if (before.duedate !== after.duedate) add('duedate', before.duedate, before.duedate, after.duedate, after.duedate);
  if (JSON.stringify(before.description) !== JSON.stringify(after.description)) add('description', null, null, null, null);
  if (before.parent !== after.parent) add('IssueParentAssociation', null, before.parent, null, after.parent);
  return items;
}
