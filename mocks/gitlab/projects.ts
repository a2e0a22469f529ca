import { jsonResponse, type ServiceResponse } from '../core/http.js';
import { numericId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { accessLevel, fullPath, groupOf, me, projectsUnder, userById, userByName, visibleProject, writableProject, type GlCtx } from './context.js';
import { glError, iso, key, keysetPaged, notFound, paged, type GroupDoc, type ProjectDoc } from './model.js';
import { argsOf, bool, list, need, str, V4 } from './params.js';
import { renderProject, renderUser, renderUserFull } from './render.js';

/** Projects, users, groups, namespaces and members. */

const json = (value: unknown, status = 200): ServiceResponse => jsonResponse(status, value);

function visible(c: GlCtx, p: ProjectDoc): boolean {
  return p.visibility !== 'private' || accessLevel(c, p) > 0;
}

function projectList(c: GlCtx, projects: ProjectDoc[], q: URLSearchParams): ProjectDoc[] {
  const search = q.get('search')?.toLowerCase();
  const owned = q.get('owned') === 'true';
  const membership = q.get('membership') === 'true';
  const archived = q.get('archived');
  const visibility = q.get('visibility');
  const topic = q.get('topic');
  const out = projects.filter((p) => visible(c, p)
    && (!search || p.name.toLowerCase().includes(search) || p.path.toLowerCase().includes(search) || (q.get('search_namespaces') === 'true' && fullPath(p).toLowerCase().includes(search)))
    && (!owned || accessLevel(c, p) >= 50) && (!membership || accessLevel(c, p) > 0)
    && (archived === null || String(p.archived) === archived) && (!visibility || p.visibility === visibility)
    && (!topic || p.topics.includes(topic)));
  const orderBy = q.get('order_by') ?? 'created_at';
  const desc = (q.get('sort') ?? 'desc') === 'desc';
  const field = (p: ProjectDoc): string | number => (orderBy === 'id' ? p.id : orderBy === 'name' ? p.name : orderBy === 'path' ? p.path : orderBy === 'last_activity_at' ? p.last_activity_at : `${p.created_at}:${String(p.id).padStart(9, '0')}`);
  return out.sort((a, b) => {
    const x = field(a);
    const y = field(b);
    const cmp = x < y ? -1 : x > y ? 1 : a.id - b.id;
    return desc ? -cmp : cmp;
  });
}

function listProjects(call: { req: { path: string; query: URLSearchParams } }, c: GlCtx, projects: ProjectDoc[]): ServiceResponse {
  const q = call.req.query;
  const render = (p: ProjectDoc) => (q.get('simple') === 'true' ? simple(c, p) : renderProject(c, p));
  if (q.get('pagination') === 'keyset') {
    if ((q.get('order_by') ?? 'id') !== 'id') throw glError(405, 'Keyset pagination is not supported for this ordering');
    return keysetPaged(projectList(c, projects, q), call.req, render);
  }
  return paged(projectList(c, projects, q), call.req, render);
}

function simple(c: GlCtx, p: ProjectDoc): Record<string, unknown> {
  const full = renderProject(c, p);
  const keys = ['id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at', 'default_branch', 'tag_list', 'topics', 'ssh_url_to_repo', 'http_url_to_repo', 'web_url', 'readme_url', 'forks_count', 'avatar_url', 'star_count', 'last_activity_at', 'namespace'];
  return Object.fromEntries(keys.map((k) => [k, full[k]]));
}

function renderGroup(c: GlCtx, g: GroupDoc, withProjects = false): Record<string, unknown> {
  return {
    id: g.id, web_url: `https://gitlab.com/groups/${g.full_path}`, name: g.name, path: g.path, description: g.description, visibility: g.visibility,
    share_with_group_lock: false, require_two_factor_authentication: false, two_factor_grace_period: 48, project_creation_level: 'developer',
    auto_devops_enabled: null, subgroup_creation_level: 'maintainer', emails_disabled: false, emails_enabled: true, mentions_disabled: null,
    lfs_enabled: true, default_branch: null, default_branch_protection: 2, avatar_url: null, request_access_enabled: true,
    full_name: g.full_path.split('/').map((part) => c.db.groups.find((x) => x.path === part)?.name ?? part).join(' / '), full_path: g.full_path,
    created_at: g.created_at, parent_id: g.parent_id, organization_id: 1, shared_runners_setting: 'enabled', ldap_cn: null, ldap_access: null, marked_for_deletion_on: null,
    ...(withProjects ? { shared_with_groups: [], runners_token: undefined, projects: groupProjects(c, g, false).map((p) => renderProject(c, p)), shared_projects: [] } : {}),
  };
}

function descendants(c: GlCtx, g: GroupDoc): GroupDoc[] {
  return c.db.groups.filter((x) => x.full_path.startsWith(`${g.full_path}/`));
}

const groupProjects = projectsUnder;

function groupVisible(c: GlCtx, g: GroupDoc): boolean {
  if (g.visibility !== 'private') return true;
  const user = c.user;
  if (!user) return false;
  let cursor: GroupDoc | undefined = g;
  while (cursor) {
    if (cursor.members.some((m) => m.user_id === user.id)) return true;
    cursor = cursor.parent_id === null ? undefined : c.db.groups.get(cursor.parent_id);
  }
  return descendants(c, g).some((d) => d.members.some((m) => m.user_id === user.id)) || groupProjects(c, g, true).some((p) => accessLevel(c, p) > 0);
}

function visibleGroup(c: GlCtx, ref: string): GroupDoc {
  const g = groupOf(c, ref);
  if (!groupVisible(c, g)) throw notFound('Group');
  return g;
}

function renderMember(c: GlCtx, userId: number, level: number): Record<string, unknown> {
  const user = c.db.users.get(userId);
  // Object.assign onto a new object (renderUser may answer null), not `{ ...renderUser(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  return Object.assign({}, renderUser(user), { access_level: level, created_at: user?.created_at, expires_at: null, membership_state: 'active' });
}

export const projectOperations: Operation<GlCtx>[] = [
  operation<GlCtx, '/api/v4/user'>('user.get', rest('GET', `${V4}/user`), (_call, c) => json(renderUserFull(me(c), true))),
  operation<GlCtx, '/api/v4/users'>('users.list', rest('GET', `${V4}/users`), (call, c) => {
    const q = call.req.query;
    const username = q.get('username')?.toLowerCase();
    const search = q.get('search')?.toLowerCase();
    const users = c.db.users.filter((u) => (!username || u.username.toLowerCase() === username) && (!search || u.username.toLowerCase().includes(search) || u.name.toLowerCase().includes(search) || u.email.toLowerCase() === search)
      && (q.get('active') !== 'true' || u.state === 'active') && (q.get('blocked') !== 'true' || u.state === 'blocked')).sort((a, b) => a.id - b.id);
    return paged(users, call.req, (u) => renderUser(u));
  }),
  operation<GlCtx, '/api/v4/users/:user'>('users.get', rest('GET', `${V4}/users/:user`), (call, c) => {
    const user = /^\d+$/.test(call.params.user) ? c.db.users.get(Number(call.params.user)) : userByName(c, call.params.user);
    if (!user) throw notFound('User');
    return json(renderUserFull(user));
  }),

  operation<GlCtx, '/api/v4/projects'>('projects.list', rest('GET', `${V4}/projects`), (call, c) => listProjects(call, c, c.db.projects.values())),
  operation<GlCtx, '/api/v4/projects/:id'>('projects.get', rest('GET', `${V4}/projects/:id`), (call, c) => json(renderProject(c, visibleProject(c, call.params.id)))),
  operation<GlCtx, '/api/v4/projects'>('projects.create', rest('POST', `${V4}/projects`), (call, c) => {
    const args = argsOf(call);
    const user = me(c);
    const name = str(args, 'name') ?? str(args, 'path');
    if (!name) throw glError(400, { name: ["can't be blank"], path: ["can't be blank"] });
    const path = str(args, 'path') ?? name.toLowerCase().replace(/[^a-z0-9_.-]+/g, '-');
    const namespaceRef = str(args, 'namespace_id');
    const group = namespaceRef === undefined ? undefined : groupOf(c, namespaceRef);
    const nsPath = group?.full_path ?? user.username;
    if (c.db.projects.find((p) => p.namespace_full_path === nsPath && (p.path === path || p.name === name))) throw glError(400, { name: ['has already been taken'], path: ['has already been taken'] });
    const id = numericId(c.ctx, 'projects');
    const now = iso(c.ctx.nowMs);
    const project = c.db.projects.put(id, {
      id, name, path, namespace_id: group?.id ?? user.id, namespace_kind: group ? 'group' : 'user', namespace_full_path: nsPath,
      description: str(args, 'description') ?? '', default_branch: str(args, 'default_branch') ?? 'main', visibility: str(args, 'visibility') ?? 'private',
      archived: false, topics: list(args, 'topics') ?? [], only_allow_merge_if_pipeline_succeeds: bool(args, 'only_allow_merge_if_pipeline_succeeds') ?? false,
      created_at: now, last_activity_at: now, creator_id: user.id, members: [{ user_id: user.id, access_level: 50 }], forked_from: null,
    });
    if (bool(args, 'initialize_with_readme')) {
      const sha = `${id.toString(16).padStart(8, '0')}${'0'.repeat(32)}`;
      c.db.commits.put(key(id, sha), { project_id: id, id: sha, parent_ids: [], title: 'Initial commit', message: 'Initial commit', author_id: user.id, authored_date: now, tree: { 'README.md': `# ${name}\n` } });
      c.db.branches.put(key(id, project.default_branch), { project_id: id, name: project.default_branch, commit: sha, protected: true });
    }
    return json(renderProject(c, project), 201);
  }),
  operation<GlCtx, '/api/v4/projects/:id'>('projects.update', rest('PUT', `${V4}/projects/:id`), (call, c) => {
    const project = writableProject(c, call.params.id, 40);
    const args = argsOf(call);
    const branch = str(args, 'default_branch');
    if (branch !== undefined && !c.db.branches.has(key(project.id, branch))) throw glError(400, { base: [`Could not change HEAD: branch '${branch}' does not exist`] });
    const patch: Partial<ProjectDoc> = {};
    for (const field of ['name', 'path', 'description', 'default_branch', 'visibility'] as const) if (str(args, field) !== undefined) patch[field] = str(args, field)!;
    if (bool(args, 'archived') !== undefined) patch.archived = bool(args, 'archived')!;
    if (list(args, 'topics')) patch.topics = list(args, 'topics')!;
    if (bool(args, 'only_allow_merge_if_pipeline_succeeds') !== undefined) patch.only_allow_merge_if_pipeline_succeeds = bool(args, 'only_allow_merge_if_pipeline_succeeds')!;
    return json(renderProject(c, c.db.projects.update(project.id, { ...patch, last_activity_at: iso(c.ctx.nowMs) })!));
  }),
  operation<GlCtx, '/api/v4/projects/:id/fork'>('projects.fork', rest('POST', `${V4}/projects/:id/fork`), (call, c) => {
    const source = visibleProject(c, call.params.id);
    const args = argsOf(call);
    const user = me(c);
    const nsRef = str(args, 'namespace_path') ?? str(args, 'namespace_id') ?? str(args, 'namespace');
    const group = nsRef === undefined ? undefined : groupOf(c, nsRef);
    const nsPath = group?.full_path ?? user.username;
    const path = str(args, 'path') ?? source.path;
    if (c.db.projects.find((p) => p.namespace_full_path === nsPath && p.path === path)) throw glError(409, { name: ['has already been taken'], path: ['has already been taken'] });
    const id = numericId(c.ctx, 'projects');
    const now = iso(c.ctx.nowMs);
    const fork = c.db.projects.put(id, {
      ...source, id, name: str(args, 'name') ?? source.name, path, namespace_id: group?.id ?? user.id, namespace_kind: group ? 'group' : 'user',
      namespace_full_path: nsPath, created_at: now, last_activity_at: now, creator_id: user.id, members: [{ user_id: user.id, access_level: 50 }], forked_from: source.id,
    });
    for (const b of c.db.branches.filter((x) => x.project_id === source.id)) c.db.branches.put(key(id, b.name), { ...b, project_id: id });
    for (const commit of c.db.commits.filter((x) => x.project_id === source.id)) c.db.commits.put(key(id, commit.id), { ...commit, project_id: id });
    return json(renderProject(c, fork), 201);
  }),
  operation<GlCtx, '/api/v4/projects/:id/members'>('projectMembers.list', rest('GET', `${V4}/projects/:id/members`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return paged(project.members, call.req, (m) => renderMember(c, m.user_id, m.access_level));
  }),
  operation<GlCtx, '/api/v4/projects/:id/members/all'>('projectMembers.all', rest('GET', `${V4}/projects/:id/members/all`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const levels = new Map<number, number>();
    for (const m of project.members) levels.set(m.user_id, m.access_level);
    let group = project.namespace_kind === 'group' ? c.db.groups.get(project.namespace_id) : undefined;
    while (group) {
      for (const m of group.members) levels.set(m.user_id, Math.max(levels.get(m.user_id) ?? 0, m.access_level));
      group = group.parent_id === null ? undefined : c.db.groups.get(group.parent_id);
    }
    return paged([...levels].sort((a, b) => a[0] - b[0]), call.req, ([id, level]) => renderMember(c, id, level));
  }),

  operation<GlCtx, '/api/v4/groups'>('groups.list', rest('GET', `${V4}/groups`), (call, c) => {
    const q = call.req.query;
    const search = q.get('search')?.toLowerCase();
    const groups = c.db.groups.filter((g) => groupVisible(c, g) && (!search || g.name.toLowerCase().includes(search) || g.path.toLowerCase().includes(search))
      && (q.get('top_level_only') !== 'true' || g.parent_id === null) && (q.get('owned') !== 'true' || g.members.some((m) => m.user_id === c.user?.id && m.access_level >= 50)))
      .sort((a, b) => a.name.localeCompare(b.name));
    return paged(groups, call.req, (g) => renderGroup(c, g));
  }),
  operation<GlCtx, '/api/v4/groups'>('groups.create', rest('POST', `${V4}/groups`), (call, c) => {
    const args = argsOf(call);
    const name = need(args, 'name');
    const path = need(args, 'path');
    const parentRef = str(args, 'parent_id');
    const parent = parentRef === undefined ? undefined : groupOf(c, parentRef);
    const full = parent ? `${parent.full_path}/${path}` : path;
    if (c.db.groups.find((g) => g.full_path === full)) throw glError(400, 'Failed to save group {:path=>["has already been taken"]}');
    const id = numericId(c.ctx, 'groups');
    const group = c.db.groups.put(id, { id, name, path, full_path: full, parent_id: parent?.id ?? null, description: str(args, 'description') ?? '', visibility: str(args, 'visibility') ?? 'private', created_at: iso(c.ctx.nowMs), members: [{ user_id: me(c).id, access_level: 50 }] });
    return json(renderGroup(c, group), 201);
  }),
  operation<GlCtx, '/api/v4/groups/:id'>('groups.get', rest('GET', `${V4}/groups/:id`), (call, c) => json(renderGroup(c, visibleGroup(c, call.params.id), call.req.query.get('with_projects') !== 'false'))),
  operation<GlCtx, '/api/v4/groups/:id/subgroups'>('groups.subgroups', rest('GET', `${V4}/groups/:id/subgroups`), (call, c) => {
    const g = visibleGroup(c, call.params.id);
    return paged(c.db.groups.filter((x) => x.parent_id === g.id && groupVisible(c, x)), call.req, (x) => renderGroup(c, x));
  }),
  operation<GlCtx, '/api/v4/groups/:id/projects'>('groups.projects', rest('GET', `${V4}/groups/:id/projects`), (call, c) => {
    const g = visibleGroup(c, call.params.id);
    return listProjects(call, c, groupProjects(c, g, call.req.query.get('include_subgroups') === 'true'));
  }),
  operation<GlCtx, '/api/v4/groups/:id/members'>('groupMembers.list', rest('GET', `${V4}/groups/:id/members`), (call, c) => {
    const g = visibleGroup(c, call.params.id);
    return paged(g.members, call.req, (m) => renderMember(c, m.user_id, m.access_level));
  }),
  operation<GlCtx, '/api/v4/groups/:id/members/all'>('groupMembers.all', rest('GET', `${V4}/groups/:id/members/all`), (call, c) => {
    const g = visibleGroup(c, call.params.id);
    const levels = new Map<number, number>();
    let cursor: GroupDoc | undefined = g;
    while (cursor) {
      for (const m of cursor.members) levels.set(m.user_id, Math.max(levels.get(m.user_id) ?? 0, m.access_level));
      cursor = cursor.parent_id === null ? undefined : c.db.groups.get(cursor.parent_id);
    }
    return paged([...levels].sort((a, b) => a[0] - b[0]), call.req, ([id, level]) => renderMember(c, id, level));
  }),

  operation<GlCtx, '/api/v4/namespaces'>('namespaces.list', rest('GET', `${V4}/namespaces`), (call, c) => {
    const search = call.req.query.get('search')?.toLowerCase();
    const user = me(c);
    const all = [namespaceOfUser(c, user.id), ...c.db.groups.filter((g) => groupVisible(c, g)).map((g) => namespaceOfGroup(c, g))];
    return paged(all.filter((n) => !search || String(n.full_path).toLowerCase().includes(search)), call.req);
  }),
  operation<GlCtx, '/api/v4/namespaces/:id/exists'>('namespaces.exists', rest('GET', `${V4}/namespaces/:id/exists`), (call, c) => {
    const taken = c.db.groups.find((g) => g.full_path === call.params.id) ?? userByName(c, call.params.id);
    return json({ exists: taken !== undefined, suggests: taken ? [`${call.params.id}1`] : [] });
  }),
  operation<GlCtx, '/api/v4/namespaces/:id'>('namespaces.get', rest('GET', `${V4}/namespaces/:id`), (call, c) => {
    const ref = call.params.id;
    const group = /^\d+$/.test(ref) ? c.db.groups.get(Number(ref)) : c.db.groups.find((g) => g.full_path === ref);
    if (group && groupVisible(c, group)) return json(namespaceOfGroup(c, group));
    const user = /^\d+$/.test(ref) ? c.db.users.get(Number(ref)) : userByName(c, ref);
    if (user && user.id === c.user?.id) return json(namespaceOfUser(c, user.id));
    throw notFound('Namespace');
  }),
];

function namespaceOfGroup(c: GlCtx, g: GroupDoc): Record<string, unknown> {
  return { id: g.id, name: g.name, path: g.path, kind: 'group', full_path: g.full_path, parent_id: g.parent_id, avatar_url: null, web_url: `https://gitlab.com/groups/${g.full_path}`, members_count_with_descendants: g.members.length, root_repository_size: 0, projects_count: groupProjects(c, g, false).length };
}

function namespaceOfUser(c: GlCtx, id: number): Record<string, unknown> {
  const u = userById(c, id);
  return { id: u.id, name: u.name, path: u.username, kind: 'user', full_path: u.username, parent_id: null, avatar_url: null, web_url: `https://gitlab.com/${u.username}`, billable_members_count: 1, plan: 'free', trial: false };
}

