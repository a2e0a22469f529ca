import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { ServiceError } from '../kit/errors.js';
import { fieldError, nextId, notFound, type SentryCtx } from './context.js';
import type { ProjectDoc, TeamDoc } from './model.js';
import { page, REGION_URL, renderKey, renderOrg, renderProject, renderRelease, renderTeam, renderUser } from './render.js';

/**
 * The caller, the organization and its structure: /auth/, /users/me/regions/, organizations,
 * teams, projects (create, update, add a team), client keys (DSNs) and releases.
 */

const ORIGIN = 'https://sentry.io/api/0';

/** The organization of `:org` (its slug or id), or Sentry's 404. */
export function orgOr404(c: SentryCtx, slug: string): void {
  if (slug !== c.org.slug && slug !== c.org.id) throw notFound();
}

export function projectOr404(c: SentryCtx, org: string, slugOrId: string): ProjectDoc {
  orgOr404(c, org);
  const project = c.db.projects.find((p) => p.slug === slugOrId || p.id === slugOrId);
  if (!project) throw notFound();
  return project;
}

function teamOr404(c: SentryCtx, org: string, slug: string): TeamDoc {
  orgOr404(c, org);
  const team = c.db.teams.find((t) => t.slug === slug || t.id === slug);
  if (!team) throw notFound();
  return team;
}

/** Sentry's slugify: lower case, runs of other characters to one hyphen, at most 50. */
export function slugify(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50);
}

/** `query` of the org lists: every word must occur in the name or the slug. */
function matches(query: string | null, ...fields: string[]): boolean {
  if (!query) return true;
  const text = fields.join(' ').toLowerCase();
  return query.toLowerCase().split(/\s+/).filter(Boolean).every((word) => text.includes(word.replace(/^(slug|name):/, '')));
}

const TeamBody = z.object({ name: z.string().min(1).max(64).optional(), slug: z.string().regex(/^[a-z0-9_-]+$/).max(50).optional() }).passthrough();
type TeamBody = z.infer<typeof TeamBody>;
const ProjectBody = z.object({ name: z.string().min(1).max(50), slug: z.string().regex(/^[a-z0-9_-]+$/).max(50).optional(), platform: z.string().optional() }).passthrough();
type ProjectBody = z.infer<typeof ProjectBody>;
const ProjectUpdate = z.object({ name: z.string().min(1).max(200).optional(), slug: z.string().regex(/^[a-z0-9_-]+$/, 'Enter a valid slug consisting of lowercase letters, numbers, underscores or hyphens.').max(50).optional(), platform: z.string().optional() }).passthrough();
type ProjectUpdate = z.infer<typeof ProjectUpdate>;
const KeyBody = z.object({ name: z.string().max(64).optional() }).passthrough();
type KeyBody = z.infer<typeof KeyBody>;

/** A new client key, as project creation and POST keys/ make it. */
function createKey(c: SentryCtx, project: ProjectDoc, name: string) {
  const id = uuidId(c.ctx, 'key').replace(/-/g, '');
  const key = { id, project: project.slug, name, public: id, secret: uuidId(c.ctx, 'key-secret').replace(/-/g, ''), isActive: true, dateCreated: c.now };
  c.db.keys.put(id, key);
  return key;
}

export const orgOperations: Operation<SentryCtx>[] = [
  operation<SentryCtx, '/api/0/auth/'>('auth.get', rest('GET', '/api/0/auth/'), (_call, c) => jsonResponse(200, renderUser(c.caller!, c.org.dateCreated))),
  operation<SentryCtx, '/api/0/users/me/regions/'>('users.regions', rest('GET', '/api/0/users/me/regions/'), () => jsonResponse(200, { regions: [{ name: 'us', url: REGION_URL }] })),

  operation<SentryCtx, '/api/0/organizations/'>('organizations.list', rest('GET', '/api/0/organizations/'), (call, c) => {
    const orgs = matches(call.req.query.get('query'), c.org.slug, c.org.name) ? [renderOrg(c.org)] : [];
    const { items, headers } = page(call.req, orgs, ORIGIN);
    return jsonResponse(200, items, headers);
  }),
  operation<SentryCtx, '/api/0/organizations/:org/'>('organizations.get', rest('GET', '/api/0/organizations/:org/'), (call, c) => {
    orgOr404(c, call.params.org);
    // Object.assign on the fresh render, not `{ ...renderOrg(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
    return jsonResponse(200, Object.assign(renderOrg(c.org), { teams: c.db.teams.values().map((t) => renderTeam(c, t)), projects: c.db.projects.values().map((p) => ({ id: p.id, slug: p.slug, name: p.name, platform: p.platform })) }));
  }),

  operation<SentryCtx, '/api/0/organizations/:org/teams/'>('teams.list', rest('GET', '/api/0/organizations/:org/teams/'), (call, c) => {
    orgOr404(c, call.params.org);
    const teams = c.db.teams.values().filter((t) => matches(call.req.query.get('query'), t.slug, t.name)).sort((a, b) => a.slug.localeCompare(b.slug));
    const { items, headers } = page(call.req, teams.map((t) => renderTeam(c, t)), ORIGIN);
    return jsonResponse(200, items, headers);
  }),
  operation<SentryCtx, '/api/0/organizations/:org/teams/', Record<string, string>, TeamBody>('teams.create', rest('POST', '/api/0/organizations/:org/teams/'), (call, c) => {
    orgOr404(c, call.params.org);
    const slug = call.body.slug ?? slugify(call.body.name ?? '');
    if (!slug) throw fieldError('slug', 'Name or slug is required');
    if (c.db.teams.find((t) => t.slug === slug)) throw new ServiceError(409, 'conflict', 'A team with this slug already exists.');
    const id = nextId(c, 'teams');
    const team: TeamDoc = { id, slug, name: call.body.name ?? slug, dateCreated: c.now, members: c.caller ? [c.caller.email] : [] };
    c.db.teams.put(id, team);
    return jsonResponse(201, renderTeam(c, team));
  }, { input: { body: TeamBody } }),

  operation<SentryCtx, '/api/0/organizations/:org/projects/'>('projects.list', rest('GET', '/api/0/organizations/:org/projects/'), (call, c) => {
    orgOr404(c, call.params.org);
    const projects = c.db.projects.values().filter((p) => matches(call.req.query.get('query'), p.slug, p.name)).sort((a, b) => a.slug.localeCompare(b.slug));
    const { items, headers } = page(call.req, projects.map((p) => renderProject(c, p)), ORIGIN);
    return jsonResponse(200, items, headers);
  }),
  operation<SentryCtx, '/api/0/projects/:org/:project/'>('projects.get', rest('GET', '/api/0/projects/:org/:project/'), (call, c) => {
    const project = projectOr404(c, call.params.org, call.params.project);
    return jsonResponse(200, Object.assign(renderProject(c, project), { organization: renderOrg(c.org) }));
  }),
  operation<SentryCtx, '/api/0/projects/:org/:project/', Record<string, string>, ProjectUpdate>('projects.update', rest('PUT', '/api/0/projects/:org/:project/'), (call, c) => {
    const project = projectOr404(c, call.params.org, call.params.project);
    const slug = call.body.slug;
    if (slug !== undefined && slug !== project.slug && c.db.projects.find((p) => p.slug === slug)) throw fieldError('slug', `Another project (${slug}) is already using that slug`);
    const next: ProjectDoc = { ...project, name: call.body.name ?? project.name, slug: slug ?? project.slug, platform: call.body.platform ?? project.platform };
    c.db.projects.put(project.id, next);
    if (next.slug !== project.slug) renameProject(c, project.slug, next.slug);
    return jsonResponse(200, Object.assign(renderProject(c, next), { organization: renderOrg(c.org) }));
  }, { input: { body: ProjectUpdate } }),
  operation<SentryCtx, '/api/0/teams/:org/:team/projects/', Record<string, string>, ProjectBody>('projects.create', rest('POST', '/api/0/teams/:org/:team/projects/'), (call, c) => {
    const team = teamOr404(c, call.params.org, call.params.team);
    const slug = call.body.slug ?? slugify(call.body.name);
    if (c.db.projects.find((p) => p.slug === slug)) throw new ServiceError(409, 'conflict', 'A project with this slug already exists.');
    const id = nextId(c, 'projects');
    const project: ProjectDoc = { id, slug, name: call.body.name, platform: call.body.platform ?? null, teams: [team.slug], dateCreated: c.now };
    c.db.projects.put(id, project);
    createKey(c, project, 'Default');
    return jsonResponse(201, renderProject(c, project));
  }, { input: { body: ProjectBody } }),
  operation<SentryCtx, '/api/0/projects/:org/:project/teams/:team/'>('projects.teams.add', rest('POST', '/api/0/projects/:org/:project/teams/:team/'), (call, c) => {
    const project = projectOr404(c, call.params.org, call.params.project);
    const team = teamOr404(c, call.params.org, call.params.team);
    const next = project.teams.includes(team.slug) ? project : c.db.projects.put(project.id, { ...project, teams: [...project.teams, team.slug] });
    return jsonResponse(201, renderProject(c, next));
  }),
  operation<SentryCtx, '/api/0/projects/:org/:project/teams/:team/'>('projects.teams.remove', rest('DELETE', '/api/0/projects/:org/:project/teams/:team/'), (call, c) => {
    const project = projectOr404(c, call.params.org, call.params.project);
    const team = teamOr404(c, call.params.org, call.params.team);
    return jsonResponse(200, renderProject(c, c.db.projects.put(project.id, { ...project, teams: project.teams.filter((t) => t !== team.slug) })));
  }),

  operation<SentryCtx, '/api/0/projects/:org/:project/keys/'>('projects.keys.list', rest('GET', '/api/0/projects/:org/:project/keys/'), (call, c) => {
    const project = projectOr404(c, call.params.org, call.params.project);
    const { items, headers } = page(call.req, c.db.keys.values().filter((k) => k.project === project.slug).map((k) => renderKey(c, k)), ORIGIN);
    return jsonResponse(200, items, headers);
  }),
  operation<SentryCtx, '/api/0/projects/:org/:project/keys/', Record<string, string>, KeyBody>('projects.keys.create', rest('POST', '/api/0/projects/:org/:project/keys/'), (call, c) => {
    const project = projectOr404(c, call.params.org, call.params.project);
    return jsonResponse(201, renderKey(c, createKey(c, project, call.body.name ?? 'Default')));
  }, { input: { body: KeyBody } }),

  operation<SentryCtx, '/api/0/organizations/:org/releases/'>('releases.list', rest('GET', '/api/0/organizations/:org/releases/'), (call, c) => {
    orgOr404(c, call.params.org);
    const wanted = call.req.query.getAll('project');
    const projects = wanted.length ? c.db.projects.filter((p) => wanted.includes(p.id)).map((p) => p.slug) : null;
    return releases(c, call.req, projects);
  }),
  operation<SentryCtx, '/api/0/projects/:org/:project/releases/'>('projects.releases.list', rest('GET', '/api/0/projects/:org/:project/releases/'), (call, c) => {
    const project = projectOr404(c, call.params.org, call.params.project);
    return releases(c, call.req, [project.slug]);
  }),
  operation<SentryCtx, '/api/0/organizations/:org/releases/:version/'>('releases.get', rest('GET', '/api/0/organizations/:org/releases/:version/'), (call, c) => {
    orgOr404(c, call.params.org);
    const release = c.db.releases.get(decodeURIComponent(call.params.version));
    if (!release) throw notFound();
    return jsonResponse(200, renderRelease(c, release));
  }),
];

/** Newest first; `query` matches a version prefix or substring, as Sentry's release search does. */
function releases(c: SentryCtx, req: Parameters<typeof page>[0], projects: string[] | null) {
  const query = req.query.get('query')?.toLowerCase() ?? '';
  const list = c.db.releases.values()
    .filter((r) => projects === null || r.projects.some((p) => projects.includes(p)))
    .filter((r) => r.version.toLowerCase().includes(query))
    .sort((a, b) => b.dateCreated.localeCompare(a.dateCreated) || b.id - a.id);
  const { items, headers } = page(req, list.map((r) => renderRelease(c, r)), ORIGIN);
  return jsonResponse(200, items, headers);
}

/** A project's slug changed: its issues, events, keys and releases follow. */
function renameProject(c: SentryCtx, from: string, to: string): void {
  for (const issue of c.db.issues.filter((i) => i.project === from)) c.db.issues.put(issue.id, { ...issue, project: to });
  for (const event of c.db.events.filter((e) => e.project === from)) c.db.events.put(event.id, { ...event, project: to });
  for (const key of c.db.keys.filter((k) => k.project === from)) c.db.keys.put(key.id, { ...key, project: to });
  for (const release of c.db.releases.filter((r) => r.projects.includes(from))) c.db.releases.put(release.version, { ...release, projects: release.projects.map((p) => (p === from ? to : p)) });
}

