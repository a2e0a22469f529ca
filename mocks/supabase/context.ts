import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { authenticate, bearer } from '../kit/auth.js';
import type { Middleware } from '../kit/define.js';
import { dbOf, sbError, type Db, type ProjectDoc, type TokenDoc } from './model.js';

/** What a Supabase handler gets: the store's collections, the caller's access token, seeded IDs and the logical time. */
export interface SbCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  readonly token: TokenDoc | null;
}

/** Personal access tokens come as `Authorization: Bearer sbp_…`. */
export function sbContext(req: ServiceRequest, ctx: ServiceContext): SbCtx {
  const db = dbOf(ctx.store);
  const found = authenticate(req, [bearer()], (secret) => db.tokens.get(secret));
  return { ctx, db, token: found.kind === 'ok' ? found.principal : null };
}

/** 401 `{message: "Unauthorized"}` without a known token, as the Management API answers. */
export const sbAuth: Middleware<SbCtx> = (_req, c, next) => {
  if (!c.token) throw sbError(401, 'Unauthorized');
  return next();
};

export function canSee(c: SbCtx, organization: string): boolean {
  return c.token?.organizations == null || c.token.organizations.includes(organization);
}

/** The project (or preview branch project) by ref; a ref the token cannot see is the same 404 as one that does not exist. */
export function projectOf(c: SbCtx, ref: string): ProjectDoc {
  const project = c.db.projects.get(ref);
  if (!project || !canSee(c, project.organization_slug) || project.status === 'REMOVED') throw sbError(404, 'Project not found');
  return project;
}
