import { emptyResponse, jsonResponse, type ServiceResponse } from '../core/http.js';
import { numericId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { groupOf, visibleProject, writableProject, type GlCtx } from './context.js';
import { glError, iso, key, notFound, paged, type MilestoneDoc, type WikiDoc } from './model.js';
import { argsOf, need, num, str, V4 } from './params.js';
import { renderIssue, renderLabel, renderMilestone } from './render.js';

/** Labels, milestones (project and group) and wiki pages (project and group). */

const json = (value: unknown, status = 200): ServiceResponse => jsonResponse(status, value);
const P = `${V4}/projects/:id` as const;
const G = `${V4}/groups/:id` as const;

function labelOf(c: GlCtx, projectId: number, ref: string) {
  const label = c.db.labels.get(key(projectId, ref)) ?? (/^\d+$/.test(ref) ? c.db.labels.find((l) => l.project_id === projectId && l.id === Number(ref)) : undefined);
  if (!label) throw notFound('Label');
  return label;
}

type Owner = { project_id: number | null; group_id: number | null };

function milestones(c: GlCtx, owner: Owner, q: URLSearchParams): MilestoneDoc[] {
  const iids = [...q.getAll('iids[]'), ...q.getAll('iids')].map(Number);
  return c.db.milestones.filter((m) => (owner.project_id !== null ? m.project_id === owner.project_id : m.group_id === owner.group_id)
    && (!q.get('state') || m.state === q.get('state')) && (!q.get('title') || m.title === q.get('title'))
    && (!q.get('search') || m.title.toLowerCase().includes(q.get('search')!.toLowerCase())) && (iids.length === 0 || iids.includes(m.iid)))
    .sort((a, b) => (b.due_date ?? '').localeCompare(a.due_date ?? '') || b.id - a.id);
}

function milestoneIn(c: GlCtx, owner: Owner, id: string): MilestoneDoc {
  const m = c.db.milestones.get(Number(id));
  if (!m || (owner.project_id !== null ? m.project_id !== owner.project_id : m.group_id !== owner.group_id)) throw notFound('Milestone');
  return m;
}

function milestoneOps(scope: 'project' | 'group'): Operation<GlCtx>[] {
  const base = scope === 'project' ? P : G;
  const name = scope === 'project' ? 'milestones' : 'groupMilestones';
  const ownerOf = (c: GlCtx, id: string, write = false): Owner => {
    if (scope === 'group') return { project_id: null, group_id: groupOf(c, id).id };
    return { project_id: (write ? writableProject(c, id, 30) : visibleProject(c, id)).id, group_id: null };
  };
  return [
    operation<GlCtx, `${typeof base}/milestones`>(`${name}.list`, rest('GET', `${base}/milestones`), (call, c) => paged(milestones(c, ownerOf(c, call.params.id), call.req.query), call.req, renderMilestone)),
    operation<GlCtx, `${typeof base}/milestones/:milestone`>(`${name}.get`, rest('GET', `${base}/milestones/:milestone`), (call, c) => json(renderMilestone(milestoneIn(c, ownerOf(c, call.params.id), call.params.milestone)))),
    operation<GlCtx, `${typeof base}/milestones`>(`${name}.create`, rest('POST', `${base}/milestones`), (call, c) => {
      const owner = ownerOf(c, call.params.id, true);
      const args = argsOf(call);
      const title = need(args, 'title');
      if (c.db.milestones.find((m) => m.project_id === owner.project_id && m.group_id === owner.group_id && m.title === title)) throw glError(400, 'Milestone already exists');
      const id = numericId(c.ctx, 'milestones');
      const now = iso(c.ctx.nowMs);
      const iid = Math.max(0, ...c.db.milestones.filter((m) => m.project_id === owner.project_id && m.group_id === owner.group_id).map((m) => m.iid)) + 1;
      return json(renderMilestone(c.db.milestones.put(id, { id, iid, ...owner, title, description: str(args, 'description') ?? '', state: 'active', due_date: str(args, 'due_date') ?? null, start_date: str(args, 'start_date') ?? null, created_at: now, updated_at: now })), 201);
    }),
    operation<GlCtx, `${typeof base}/milestones/:milestone`>(`${name}.update`, rest('PUT', `${base}/milestones/:milestone`), (call, c) => {
      const m = milestoneIn(c, ownerOf(c, call.params.id, true), call.params.milestone);
      const args = argsOf(call);
      const patch: Partial<MilestoneDoc> = {};
      for (const f of ['title', 'description', 'due_date', 'start_date'] as const) if (str(args, f) !== undefined) patch[f] = str(args, f)!;
      const event = str(args, 'state_event');
      if (event === 'close') patch.state = 'closed';
      if (event === 'activate') patch.state = 'active';
      return json(renderMilestone(c.db.milestones.update(m.id, { ...patch, updated_at: iso(c.ctx.nowMs) })!));
    }),
    operation<GlCtx, `${typeof base}/milestones/:milestone`>(`${name}.delete`, rest('DELETE', `${base}/milestones/:milestone`), (call, c) => {
      const m = milestoneIn(c, ownerOf(c, call.params.id, true), call.params.milestone);
      c.db.milestones.delete(m.id);
      for (const issue of c.db.issues.filter((i) => i.milestone_id === m.id)) c.db.issues.update(key(issue.project_id, issue.iid), { milestone_id: null });
      return emptyResponse(204);
    }),
    operation<GlCtx, `${typeof base}/milestones/:milestone/issues`>(`${name}.issues`, rest('GET', `${base}/milestones/:milestone/issues`), (call, c) => {
      const m = milestoneIn(c, ownerOf(c, call.params.id), call.params.milestone);
      return paged(c.db.issues.filter((i) => i.milestone_id === m.id).sort((a, b) => a.id - b.id), call.req, (i) => renderIssue(c, i));
    }),
    operation<GlCtx, `${typeof base}/milestones/:milestone/merge_requests`>(`${name}.mergeRequests`, rest('GET', `${base}/milestones/:milestone/merge_requests`), (call, c) => {
      const m = milestoneIn(c, ownerOf(c, call.params.id), call.params.milestone);
      return paged(c.db.merge_requests.filter((x) => x.milestone_id === m.id).sort((a, b) => a.id - b.id), call.req, (x) => ({ id: x.id, iid: x.iid, project_id: x.project_id, title: x.title, state: x.state, source_branch: x.source_branch, target_branch: x.target_branch, labels: x.labels }));
    }),
    operation<GlCtx, `${typeof base}/milestones/:milestone/burndown_events`>(`${name}.burndownEvents`, rest('GET', `${base}/milestones/:milestone/burndown_events`), (call, c) => {
      const m = milestoneIn(c, ownerOf(c, call.params.id), call.params.milestone);
      const events = c.db.issues.filter((i) => i.milestone_id === m.id).flatMap((i) => [
        { created_at: i.created_at, weight: i.weight, action: 'created' },
        ...(i.closed_at ? [{ created_at: i.closed_at, weight: i.weight, action: 'closed' }] : []),
      ]).sort((a, b) => a.created_at.localeCompare(b.created_at));
      return paged(events, call.req);
    }),
    ...(scope === 'project' ? [operation<GlCtx, `${typeof P}/milestones/:milestone/promote`>('milestones.promote', rest('POST', `${P}/milestones/:milestone/promote`), (call, c) => {
      const project = writableProject(c, call.params.id, 40);
      const m = milestoneIn(c, { project_id: project.id, group_id: null }, call.params.milestone);
      if (project.namespace_kind !== 'group') throw glError(403, 'Only project milestones in a group can be promoted');
      return json(renderMilestone(c.db.milestones.update(m.id, { project_id: null, group_id: project.namespace_id, updated_at: iso(c.ctx.nowMs) })!));
    })] : []),
  ];
}

function wikiOps(scope: 'project' | 'group'): Operation<GlCtx>[] {
  const base = scope === 'project' ? P : G;
  const name = scope === 'project' ? 'wikis' : 'groupWikis';
  const ownerOf = (c: GlCtx, id: string, write = false): { project_id: number | null; group_id: number | null; prefix: string } => {
    if (scope === 'group') { const g = groupOf(c, id); return { project_id: null, group_id: g.id, prefix: `g${g.id}` }; }
    const p = write ? writableProject(c, id) : visibleProject(c, id);
    return { project_id: p.id, group_id: null, prefix: String(p.id) };
  };
  const pageOf = (c: GlCtx, prefix: string, slug: string): WikiDoc => {
    const page = c.db.wiki.get(`${prefix}:${slug}`);
    if (!page) throw notFound('Wiki Page');
    return page;
  };
  const render = (w: WikiDoc, content: boolean) => ({ format: w.format, slug: w.slug, title: w.title, ...(content ? { content: w.content, encoding: 'UTF-8' } : {}) });
  const slugOf = (title: string) => title.trim().replace(/\s+/g, '-');
  return [
    operation<GlCtx, `${typeof base}/wikis`>(`${name}.list`, rest('GET', `${base}/wikis`), (call, c) => {
      const owner = ownerOf(c, call.params.id);
      const pages = c.db.wiki.entries().filter(([k]) => k.startsWith(`${owner.prefix}:`)).map(([, w]) => w).sort((a, b) => a.slug.localeCompare(b.slug));
      return json(pages.map((w) => render(w, call.req.query.get('with_content') === 'true' || call.req.query.get('with_content') === '1')));
    }),
    operation<GlCtx, `${typeof base}/wikis/:slug`>(`${name}.get`, rest('GET', `${base}/wikis/:slug`), (call, c) => json(render(pageOf(c, ownerOf(c, call.params.id).prefix, call.params.slug), true))),
    operation<GlCtx, `${typeof base}/wikis`>(`${name}.create`, rest('POST', `${base}/wikis`), (call, c) => {
      const owner = ownerOf(c, call.params.id, true);
      const args = argsOf(call);
      const title = need(args, 'title');
      const slug = slugOf(title);
      if (c.db.wiki.has(`${owner.prefix}:${slug}`)) throw glError(400, 'Duplicate page: A page with that title already exists');
      return json(render(c.db.wiki.put(`${owner.prefix}:${slug}`, { project_id: owner.project_id, group_id: owner.group_id, slug, title, content: need(args, 'content'), format: str(args, 'format') ?? 'markdown' }), true), 201);
    }),
    operation<GlCtx, `${typeof base}/wikis/:slug`>(`${name}.update`, rest('PUT', `${base}/wikis/:slug`), (call, c) => {
      const owner = ownerOf(c, call.params.id, true);
      const page = pageOf(c, owner.prefix, call.params.slug);
      const args = argsOf(call);
      const title = str(args, 'title') ?? page.title;
      const slug = str(args, 'title') !== undefined ? slugOf(title) : page.slug;
      c.db.wiki.delete(`${owner.prefix}:${page.slug}`);
      return json(render(c.db.wiki.put(`${owner.prefix}:${slug}`, { ...page, slug, title, content: str(args, 'content') ?? page.content, format: str(args, 'format') ?? page.format }), true));
    }),
    operation<GlCtx, `${typeof base}/wikis/:slug`>(`${name}.delete`, rest('DELETE', `${base}/wikis/:slug`), (call, c) => {
      const owner = ownerOf(c, call.params.id, true);
      const page = pageOf(c, owner.prefix, call.params.slug);
      c.db.wiki.delete(`${owner.prefix}:${page.slug}`);
      return emptyResponse(204);
    }),
  ];
}

export const planningOperations: Operation<GlCtx>[] = [
  operation<GlCtx, `${typeof P}/labels`>('labels.list', rest('GET', `${P}/labels`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const search = call.req.query.get('search')?.toLowerCase();
    return paged(c.db.labels.filter((l) => l.project_id === project.id && (!search || l.name.toLowerCase().includes(search))).sort((a, b) => a.name.localeCompare(b.name)), call.req, (l) => renderLabel(c, l));
  }),
  operation<GlCtx, `${typeof P}/labels/:label`>('labels.get', rest('GET', `${P}/labels/:label`), (call, c) => json(renderLabel(c, labelOf(c, visibleProject(c, call.params.id).id, call.params.label)))),
  operation<GlCtx, `${typeof P}/labels`>('labels.create', rest('POST', `${P}/labels`), (call, c) => {
    const project = writableProject(c, call.params.id, 30);
    const args = argsOf(call);
    const name = need(args, 'name');
    const color = need(args, 'color');
    if (c.db.labels.has(key(project.id, name))) throw glError(409, 'Label already exists');
    const label = c.db.labels.put(key(project.id, name), { id: numericId(c.ctx, 'labels'), project_id: project.id, name, color, description: str(args, 'description') ?? null, priority: num(args, 'priority') ?? null });
    return json(renderLabel(c, label), 201);
  }),
  operation<GlCtx, `${typeof P}/labels/:label`>('labels.update', rest('PUT', `${P}/labels/:label`), (call, c) => {
    const project = writableProject(c, call.params.id, 30);
    const label = labelOf(c, project.id, call.params.label);
    const args = argsOf(call);
    const newName = str(args, 'new_name') ?? label.name;
    if (newName !== label.name && c.db.labels.has(key(project.id, newName))) throw glError(409, 'Label already exists');
    c.db.labels.delete(key(project.id, label.name));
    const updated = c.db.labels.put(key(project.id, newName), { ...label, name: newName, color: str(args, 'color') ?? label.color, description: args.description !== undefined ? str(args, 'description') ?? null : label.description, priority: num(args, 'priority') ?? label.priority });
    if (newName !== label.name) {
      for (const i of c.db.issues.filter((x) => x.project_id === project.id && x.labels.includes(label.name))) c.db.issues.update(key(project.id, i.iid), { labels: i.labels.map((l) => (l === label.name ? newName : l)) });
    }
    return json(renderLabel(c, updated));
  }),
  operation<GlCtx, `${typeof P}/labels/:label`>('labels.delete', rest('DELETE', `${P}/labels/:label`), (call, c) => {
    const project = writableProject(c, call.params.id, 30);
    const label = labelOf(c, project.id, call.params.label);
    c.db.labels.delete(key(project.id, label.name));
    for (const i of c.db.issues.filter((x) => x.project_id === project.id && x.labels.includes(label.name))) c.db.issues.update(key(project.id, i.iid), { labels: i.labels.filter((l) => l !== label.name) });
    return emptyResponse(204);
  }),
  ...milestoneOps('project'),
  ...milestoneOps('group'),
  ...wikiOps('project'),
  ...wikiOps('group'),
];
