import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Middleware } from '../kit/define.js';
import { ciError, dbOf, type Db } from './model.js';

/** What a CircleCI handler gets: the store, the token's user, seeded IDs and the logical time. */
export interface CiCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  readonly login: string;
  readonly authenticated: boolean;
}

/** The API token goes in `Circle-Token` (v2, private) or as the user of basic auth (v1.1). */
export function ciContext(req: ServiceRequest, ctx: ServiceContext): CiCtx {
  const db = dbOf(ctx.store);
  let token = req.header('circle-token');
  const basic = /^Basic\s+(\S+)$/i.exec(req.header('authorization') ?? '');
  if (token === undefined && basic) token = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0];
  const found = token === undefined ? undefined : db.tokens.get(token);
  return { ctx, db, login: found?.login ?? '', authenticated: found !== undefined };
}

/** 401 before anything else, except the artifact and export downloads (signed URLs in real CircleCI). */
export const ciAuth: Middleware<CiCtx> = (_req, c, next, matched) => {
  if (!c.authenticated && matched?.operation?.auth !== false) throw ciError(401, 'You must log in first.');
  return next();
};
