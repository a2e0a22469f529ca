import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Middleware } from '../kit/define.js';
import { dbOf, glError, notFound, type Db, type GroupDoc, type ProjectDoc, type UserDoc } from './model.js';

/** What a GitLab handler gets: the store, the token's user, seeded IDs and the logical time. */
export interface GlCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  /** The caller; null without a valid token. */
  readonly user: UserDoc | null;
}

/**
 * A personal access token goes as `PRIVATE-TOKEN` (gitbeaker, curl examples), as
 * `Authorization: Bearer` (the MCP server, OAuth tokens) or as `JOB-TOKEN`.
 */
export function glContext(req: ServiceRequest, ctx: ServiceContext): GlCtx {
  const db = dbOf(ctx.store);
  const token = req.header('private-token') ?? req.header('job-token') ?? /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '')?.[1] ?? req.query.get('private_token') ?? undefined;
  const found = token === undefined ? undefined : db.tokens.get(token);
  return { ctx, db, user: found ? db.users.get(found.user_id) ?? null : null };
}

/** GitLab answers a request without a valid token `401 Unauthorized` before anything else. */
export const glAuth: Middleware<GlCtx> = (_req, c, next) => {
  if (c.user === null) throw glError(401, '401 Unauthorized');
  return next();
};

export function me(c: GlCtx): UserDoc {
  if (c.user === null) throw glError(401, '401 Unauthorized');
  return c.user;
}

/** A project by numeric id or full path (`acme/web`, already percent-decoded by the router). */
export function projectOf(c: GlCtx, ref: string): ProjectDoc {
  const project = /^\d+$/.test(ref) ? c.db.projects.get(Number(ref)) : c.db.projects.find((p) => fullPath(p).toLowerCase() === ref.toLowerCase());
  if (!project) throw notFound('Project');
  return project;
}

export function groupOf(c: GlCtx, ref: string): GroupDoc {
  const group = /^\d+$/.test(ref) ? c.db.groups.get(Number(ref)) : c.db.groups.find((g) => g.full_path.toLowerCase() === ref.toLowerCase());
  if (!group) throw notFound('Group');
  return group;
}

export const fullPath = (p: ProjectDoc): string => `${p.namespace_full_path}/${p.path}`;

export function userById(c: GlCtx, id: number): UserDoc {
  const user = c.db.users.get(id);
  if (!user) throw notFound('User');
  return user;
}

export function userByName(c: GlCtx, username: string): UserDoc | undefined {
  return c.db.users.find((u) => u.username.toLowerCase() === username.toLowerCase());
}

/** The highest access level the caller has on a project (its own, or its group's and ancestors'). */
export function accessLevel(c: GlCtx, project: ProjectDoc): number {
  const user = c.user;
  if (!user) return 0;
  let level = project.members.find((m) => m.user_id === user.id)?.access_level ?? 0;
  if (project.namespace_kind === 'user' && project.namespace_id === user.id) level = 50;
  let group = project.namespace_kind === 'group' ? c.db.groups.get(project.namespace_id) : undefined;
  while (group) {
    level = Math.max(level, group.members.find((m) => m.user_id === user.id)?.access_level ?? 0);
    group = group.parent_id === null ? undefined : c.db.groups.get(group.parent_id);
  }
  return level;
}

/** Private projects the caller is no member of are a 404, as GitLab hides them. */
export function visibleProject(c: GlCtx, ref: string): ProjectDoc {
  const project = projectOf(c, ref);
  if (project.visibility === 'private' && accessLevel(c, project) === 0) throw notFound('Project');
  return project;
}

/** Writes need Developer (30) or more; less is GitLab's `403 Forbidden`. */
export function writableProject(c: GlCtx, ref: string, level = 30): ProjectDoc {
  const project = visibleProject(c, ref);
  if (accessLevel(c, project) < level) throw glError(403, '403 Forbidden');
  return project;
}

/** The projects of a group (and of its subgroups, by default). */
export function projectsUnder(c: GlCtx, group: GroupDoc, subgroups = true): ProjectDoc[] {
  return c.db.projects.filter((p) => p.namespace_kind === 'group' && (p.namespace_id === group.id || (subgroups && (c.db.groups.get(p.namespace_id)?.full_path ?? '').startsWith(`${group.full_path}/`))));
}
