import { operation, rest, type Operation } from '../kit/operation.js';
import { accessLevel, groupOf, projectsUnder, visibleProject, type GlCtx } from './context.js';
import { resolveRef } from './git.js';
import { glParamError, paged, type ProjectDoc } from './model.js';
import { V4 } from './params.js';
import { renderIssue, renderProject, renderUser } from './render.js';

/**
 * Search (`/search`, `/groups/:id/search`, `/projects/:id/search`): `scope` projects, issues,
 * merge_requests, milestones, users and blobs (code on the default branch or `ref`, one result per
 * matching line with its neighbours, as GitLab's basic search answers).
 */

function blobs(c: GlCtx, projects: ProjectDoc[], term: string, ref: string | null): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const needle = term.toLowerCase();
  for (const p of projects) {
    const commit = resolveRef(c, p, ref);
    if (!commit) continue;
    for (const [path, content] of Object.entries(commit.tree).sort(([a], [b]) => a.localeCompare(b))) {
      const lines = content.split('\n');
      const hit = lines.findIndex((l) => l.toLowerCase().includes(needle));
      const byName = path.toLowerCase().includes(needle);
      if (hit === -1 && !byName) continue;
      const start = Math.max(0, hit - 2);
      out.push({ basename: path.replace(/\.[^.]*$/, ''), data: hit === -1 ? lines.slice(0, 3).join('\n') : lines.slice(start, hit + 3).join('\n'), path, filename: path, id: null, ref: ref ?? p.default_branch, startline: hit === -1 ? 1 : start + 1, project_id: p.id });
    }
  }
  return out;
}

function search(c: GlCtx, projects: ProjectDoc[], q: URLSearchParams): unknown[] {
  const scope = q.get('scope');
  const term = q.get('search');
  if (!scope) throw glParamError('scope is missing');
  if (!term) throw glParamError('search is missing');
  const t = term.toLowerCase();
  const ids = new Set(projects.map((p) => p.id));
  switch (scope) {
    case 'projects': return projects.filter((p) => p.name.toLowerCase().includes(t) || p.path.toLowerCase().includes(t) || p.description.toLowerCase().includes(t)).map((p) => renderProject(c, p));
    case 'issues': return c.db.issues.filter((i) => ids.has(i.project_id) && (i.title.toLowerCase().includes(t) || i.description.toLowerCase().includes(t)) && (!q.get('state') || i.state === q.get('state'))).sort((a, b) => b.id - a.id).map((i) => renderIssue(c, i));
    case 'merge_requests': return c.db.merge_requests.filter((m) => ids.has(m.project_id) && (m.title.toLowerCase().includes(t) || m.description.toLowerCase().includes(t))).sort((a, b) => b.id - a.id).map((m) => ({ id: m.id, iid: m.iid, project_id: m.project_id, title: m.title, description: m.description, state: m.state, source_branch: m.source_branch, target_branch: m.target_branch, labels: m.labels, web_url: `https://gitlab.com/-/merge_requests/${m.id}` }));
    case 'milestones': return c.db.milestones.filter((m) => m.project_id !== null && ids.has(m.project_id) && m.title.toLowerCase().includes(t)).map((m) => ({ id: m.id, iid: m.iid, project_id: m.project_id, title: m.title, description: m.description, state: m.state }));
    case 'users': return c.db.users.filter((u) => u.username.toLowerCase().includes(t) || u.name.toLowerCase().includes(t)).map((u) => renderUser(u));
    case 'blobs': return blobs(c, projects, term, q.get('ref'));
    case 'commits': return [];
    case 'wiki_blobs': return c.db.wiki.filter((w) => w.project_id !== null && ids.has(w.project_id) && w.content.toLowerCase().includes(t)).map((w) => ({ basename: w.slug, data: w.content.slice(0, 200), path: `${w.slug}.md`, filename: `${w.slug}.md`, id: null, ref: 'main', startline: 1, project_id: w.project_id }));
    default: throw glParamError('scope does not have a valid value');
  }
}

export const searchOperations: Operation<GlCtx>[] = [
  operation<GlCtx, '/api/v4/search'>('search.global', rest('GET', `${V4}/search`), (call, c) => paged(search(c, c.db.projects.filter((p) => p.visibility !== 'private' || accessLevel(c, p) > 0), call.req.query), call.req)),
  operation<GlCtx, '/api/v4/groups/:id/search'>('search.group', rest('GET', `${V4}/groups/:id/search`), (call, c) => {
    const g = groupOf(c, call.params.id);
    const projects = projectsUnder(c, g).filter((p) => p.visibility !== 'private' || accessLevel(c, p) > 0);
    return paged(search(c, projects, call.req.query), call.req);
  }),
  operation<GlCtx, '/api/v4/projects/:id/search'>('search.project', rest('GET', `${V4}/projects/:id/search`), (call, c) => paged(search(c, [visibleProject(c, call.params.id)], call.req.query), call.req)),
];
