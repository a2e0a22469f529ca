import { emptyResponse, jsonResponse, type ServiceResponse } from '../core/http.js';
import { numericId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { accessLevel, groupOf, me, projectsUnder, userByName, visibleProject, writableProject, type GlCtx } from './context.js';
import { glError, glParamError, iso, key, notFound, paged, type IssueDoc, type ProjectDoc } from './model.js';
import { systemNote } from './notes.js';
import { argsOf, bool, ids, list, need, num, str, V4 } from './params.js';
import { renderIssue } from './render.js';

/** Issues: lists with GitLab's filters (project, group, global), create, edit, close, delete, links. */

const json = (value: unknown, status = 200): ServiceResponse => jsonResponse(status, value);

export function issueOf(c: GlCtx, project: ProjectDoc, iid: string | number): IssueDoc {
  const issue = c.db.issues.get(key(project.id, Number(iid)));
  if (!issue) throw notFound('Issue');
  return issue;
}

/** The filters of GET /issues, /projects/:id/issues and /groups/:id/issues. */
function filterIssues(c: GlCtx, issues: IssueDoc[], q: URLSearchParams): IssueDoc[] {
  const state = q.get('state') ?? 'all';
  const labels = (q.get('labels') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const notLabels = (q.get('not[labels]') ?? '').split(',').filter(Boolean);
  const search = q.get('search')?.toLowerCase();
  const milestone = q.get('milestone');
  const author = q.get('author_username') ?? (q.get('author_id') ? c.db.users.get(Number(q.get('author_id')))?.username : undefined);
  const assignee = q.get('assignee_username') ?? q.getAll('assignee_username[]')[0];
  const assigneeId = q.get('assignee_id');
  const iids = [...q.getAll('iids[]'), ...q.getAll('iids')].map(Number);
  const scope = q.get('scope');
  const type = q.get('issue_type');
  const out = issues.filter((i) => {
    if (state !== 'all' && i.state !== state) return false;
    if (labels.length > 0 && !(labels.length === 1 && labels[0]!.toLowerCase() === 'any' ? i.labels.length > 0 : labels.length === 1 && labels[0]!.toLowerCase() === 'none' ? i.labels.length === 0 : labels.every((l) => i.labels.includes(l)))) return false;
    if (notLabels.some((l) => i.labels.includes(l))) return false;
    if (search && !(i.title.toLowerCase().includes(search) || i.description.toLowerCase().includes(search))) return false;
    if (milestone) {
      const title = i.milestone_id === null ? null : c.db.milestones.get(i.milestone_id)?.title ?? null;
      if (milestone === 'None' ? title !== null : milestone === 'Any' ? title === null : title !== milestone) return false;
    }
    if (author && c.db.users.get(i.author_id)?.username !== author) return false;
    if (assignee && !i.assignee_ids.some((id) => c.db.users.get(id)?.username === assignee)) return false;
    if (assigneeId) {
      if (assigneeId === 'None' ? i.assignee_ids.length > 0 : assigneeId === 'Any' ? i.assignee_ids.length === 0 : !i.assignee_ids.includes(Number(assigneeId))) return false;
    }
    if (iids.length > 0 && !iids.includes(i.iid)) return false;
    if (scope === 'created_by_me' && i.author_id !== c.user?.id) return false;
    if (scope === 'assigned_to_me' && !i.assignee_ids.includes(c.user?.id ?? -1)) return false;
    if (type && i.issue_type !== type) return false;
    if (q.get('confidential') !== null && String(i.confidential) !== q.get('confidential')) return false;
    if (q.get('created_after') && i.created_at < q.get('created_after')!) return false;
    if (q.get('created_before') && i.created_at > q.get('created_before')!) return false;
    if (q.get('updated_after') && i.updated_at < q.get('updated_after')!) return false;
    if (q.get('updated_before') && i.updated_at > q.get('updated_before')!) return false;
    return true;
  });
  const orderBy = q.get('order_by') ?? 'created_at';
  const desc = (q.get('sort') ?? 'desc') === 'desc';
  const field = (i: IssueDoc) => (orderBy === 'updated_at' ? i.updated_at : orderBy === 'title' ? i.title : orderBy === 'due_date' ? i.due_date ?? '9999' : i.created_at);
  return out.sort((a, b) => {
    const x = field(a);
    const y = field(b);
    const cmp = x < y ? -1 : x > y ? 1 : a.id - b.id;
    return desc ? -cmp : cmp;
  });
}

function milestoneFor(c: GlCtx, project: ProjectDoc, id: number | undefined): number | null | undefined {
  if (id === undefined) return undefined;
  if (id === 0) return null;
  const m = c.db.milestones.get(id);
  if (!m || (m.project_id !== project.id && m.group_id === null)) throw glError(404, '404 Milestone Not Found');
  return id;
}

function labelsFor(c: GlCtx, project: ProjectDoc, names: string[]): string[] {
  // GitLab creates a label that does not exist yet when an issue names it.
  for (const name of names) {
    if (!c.db.labels.has(key(project.id, name))) {
      c.db.labels.put(key(project.id, name), { id: numericId(c.ctx, 'labels'), project_id: project.id, name, color: '#6699cc', description: null, priority: null });
    }
  }
  return [...new Set(names)];
}

function assigneesFor(c: GlCtx, args: Record<string, unknown>): number[] | undefined {
  const byId = ids(args, 'assignee_ids') ?? (num(args, 'assignee_id') !== undefined ? [num(args, 'assignee_id')!].filter((x) => x > 0) : undefined);
  if (byId) return byId.filter((id) => c.db.users.has(id));
  const names = list(args, 'assignee_usernames');
  return names?.map((n) => userByName(c, n)?.id).filter((x): x is number => x !== undefined);
}

export const issueOperations: Operation<GlCtx>[] = [
  operation<GlCtx, '/api/v4/issues'>('issues.listAll', rest('GET', `${V4}/issues`), (call, c) => {
    const q = new URLSearchParams(call.req.query);
    if (!q.get('scope')) q.set('scope', 'created_by_me');
    const issues = c.db.issues.filter((i) => { const p = c.db.projects.get(i.project_id)!; return accessLevel(c, p) > 0 || p.visibility !== 'private'; });
    return paged(filterIssues(c, issues, q.get('scope') === 'all' ? call.req.query : q), call.req, (i) => renderIssue(c, i));
  }),
  operation<GlCtx, '/api/v4/groups/:id/issues'>('issues.listGroup', rest('GET', `${V4}/groups/:id/issues`), (call, c) => {
    const group = groupOf(c, call.params.id);
    const projects = new Set(projectsUnder(c, group).map((p) => p.id));
    return paged(filterIssues(c, c.db.issues.filter((i) => projects.has(i.project_id)), call.req.query), call.req, (i) => renderIssue(c, i));
  }),
  operation<GlCtx, '/api/v4/projects/:id/issues'>('issues.list', rest('GET', `${V4}/projects/:id/issues`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return paged(filterIssues(c, c.db.issues.filter((i) => i.project_id === project.id), call.req.query), call.req, (i) => renderIssue(c, i));
  }),
  operation<GlCtx, '/api/v4/projects/:id/issues/:iid'>('issues.get', rest('GET', `${V4}/projects/:id/issues/:iid`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return json(renderIssue(c, issueOf(c, project, call.params.iid)));
  }),
  operation<GlCtx, '/api/v4/projects/:id/issues'>('issues.create', rest('POST', `${V4}/projects/:id/issues`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    if (accessLevel(c, project) < 10 && project.visibility === 'private') throw glError(403, '403 Forbidden');
    const args = argsOf(call);
    const title = need(args, 'title');
    const now = iso(c.ctx.nowMs);
    const iid = Math.max(0, ...c.db.issues.filter((i) => i.project_id === project.id).map((i) => i.iid)) + 1;
    const issue = c.db.issues.put(key(project.id, iid), {
      id: numericId(c.ctx, 'issues'), iid, project_id: project.id, title, description: str(args, 'description') ?? '', state: 'opened',
      author_id: me(c).id, assignee_ids: assigneesFor(c, args) ?? [], labels: labelsFor(c, project, list(args, 'labels') ?? []),
      milestone_id: milestoneFor(c, project, num(args, 'milestone_id')) ?? null, confidential: bool(args, 'confidential') ?? false,
      issue_type: str(args, 'issue_type') ?? 'issue', due_date: str(args, 'due_date') ?? null, weight: num(args, 'weight') ?? null,
      created_at: now, updated_at: now, closed_at: null, closed_by_id: null,
    });
    return json(renderIssue(c, issue), 201);
  }),
  operation<GlCtx, '/api/v4/projects/:id/issues/:iid'>('issues.update', rest('PUT', `${V4}/projects/:id/issues/:iid`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const issue = issueOf(c, project, call.params.iid);
    const user = me(c);
    if (accessLevel(c, project) < 15 && issue.author_id !== user.id) throw glError(403, '403 Forbidden');
    const args = argsOf(call);
    const patch: Partial<IssueDoc> = {};
    if (str(args, 'title') !== undefined) patch.title = str(args, 'title')!;
    if (str(args, 'description') !== undefined) patch.description = str(args, 'description')!;
    const assignees = assigneesFor(c, args);
    if (assignees) patch.assignee_ids = assignees;
    let labels = list(args, 'labels') ?? issue.labels;
    labels = [...labels, ...(list(args, 'add_labels') ?? [])].filter((l) => !(list(args, 'remove_labels') ?? []).includes(l));
    if (list(args, 'labels') || list(args, 'add_labels') || list(args, 'remove_labels')) patch.labels = labelsFor(c, project, labels);
    const milestone = milestoneFor(c, project, num(args, 'milestone_id'));
    if (milestone !== undefined) patch.milestone_id = milestone;
    if (bool(args, 'confidential') !== undefined) patch.confidential = bool(args, 'confidential')!;
    if (args.due_date !== undefined) patch.due_date = str(args, 'due_date') ?? null;
    if (num(args, 'weight') !== undefined) patch.weight = num(args, 'weight')!;
    if (str(args, 'issue_type') !== undefined) patch.issue_type = str(args, 'issue_type')!;
    const event = str(args, 'state_event');
    if (event === 'close' && issue.state === 'opened') Object.assign(patch, { state: 'closed', closed_at: iso(c.ctx.nowMs), closed_by_id: user.id });
    if (event === 'reopen' && issue.state === 'closed') Object.assign(patch, { state: 'opened', closed_at: null, closed_by_id: null });
    if (Object.keys(patch).length === 0 && event === undefined && args.discussion_locked === undefined) throw glParamError('assignee_id, assignee_ids, confidential, created_at, description, discussion_locked, due_date, labels, add_labels, remove_labels, milestone_id, state_event, title, issue_type, weight are missing, at least one parameter must be provided');
    const updated = c.db.issues.update(key(project.id, issue.iid), { ...patch, updated_at: iso(c.ctx.nowMs) })!;
    if (patch.labels) systemNote(c, project, 'Issue', issue.id, issue.iid, `changed labels to ${patch.labels.map((l) => `~"${l}"`).join(' ') || 'none'}`);
    if (patch.state === 'closed') systemNote(c, project, 'Issue', issue.id, issue.iid, 'closed');
    if (patch.state === 'opened') systemNote(c, project, 'Issue', issue.id, issue.iid, 'reopened');
    return json(renderIssue(c, updated));
  }),
  operation<GlCtx, '/api/v4/projects/:id/issues/:iid'>('issues.delete', rest('DELETE', `${V4}/projects/:id/issues/:iid`), (call, c) => {
    const project = writableProject(c, call.params.id, 50);
    const issue = issueOf(c, project, call.params.iid);
    c.db.issues.delete(key(project.id, issue.iid));
    return emptyResponse(204);
  }),

  operation<GlCtx, '/api/v4/projects/:id/issues/:iid/links'>('issueLinks.list', rest('GET', `${V4}/projects/:id/issues/:iid/links`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const issue = issueOf(c, project, call.params.iid);
    const links = linksOf(c).filter((l) => l.source === issue.id || l.target === issue.id);
    return json(links.map((l) => {
      const other = c.db.issues.find((i) => i.id === (l.source === issue.id ? l.target : l.source))!;
      // Object.assign on the fresh render, not `{ ...renderIssue(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
      return Object.assign(renderIssue(c, other), { issue_link_id: l.id, link_type: l.link_type, link_created_at: l.created_at, link_updated_at: l.created_at });
    }));
  }),
  operation<GlCtx, '/api/v4/projects/:id/issues/:iid/links/:link'>('issueLinks.get', rest('GET', `${V4}/projects/:id/issues/:iid/links/:link`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const issue = issueOf(c, project, call.params.iid);
    const link = linksOf(c).find((l) => l.id === Number(call.params.link) && (l.source === issue.id || l.target === issue.id));
    if (!link) throw glError(404, '404 Not found');
    return json(renderLink(c, link));
  }),
  operation<GlCtx, '/api/v4/projects/:id/issues/:iid/links'>('issueLinks.create', rest('POST', `${V4}/projects/:id/issues/:iid/links`), (call, c) => {
    const project = writableProject(c, call.params.id, 15);
    const issue = issueOf(c, project, call.params.iid);
    const args = argsOf(call);
    const target = issueOf(c, visibleProject(c, need(args, 'target_project_id')), need(args, 'target_issue_iid'));
    if (linksOf(c).some((l) => (l.source === issue.id && l.target === target.id) || (l.source === target.id && l.target === issue.id))) throw glError(409, 'Issue(s) already assigned');
    const id = numericId(c.ctx, 'issue_links');
    const link = c.ctx.store.collection<LinkDoc>('issue_links').put(id, { id, source: issue.id, target: target.id, link_type: str(args, 'link_type') ?? 'relates_to', created_at: iso(c.ctx.nowMs) });
    return json(renderLink(c, link), 201);
  }),
  operation<GlCtx, '/api/v4/projects/:id/issues/:iid/links/:link'>('issueLinks.delete', rest('DELETE', `${V4}/projects/:id/issues/:iid/links/:link`), (call, c) => {
    const project = writableProject(c, call.params.id, 15);
    const issue = issueOf(c, project, call.params.iid);
    const link = linksOf(c).find((l) => l.id === Number(call.params.link) && (l.source === issue.id || l.target === issue.id));
    if (!link) throw glError(404, '404 Not found');
    c.ctx.store.collection<LinkDoc>('issue_links').delete(link.id);
    return json(renderLink(c, link));
  }),
];

interface LinkDoc { id: number; source: number; target: number; link_type: string; created_at: string }
const linksOf = (c: GlCtx): LinkDoc[] => c.ctx.store.collection<LinkDoc>('issue_links').values();

function renderLink(c: GlCtx, link: LinkDoc): Record<string, unknown> {
  const source = c.db.issues.find((i) => i.id === link.source)!;
  const target = c.db.issues.find((i) => i.id === link.target)!;
  return { source_issue: renderIssue(c, source), target_issue: renderIssue(c, target), link_type: link.link_type };
}
