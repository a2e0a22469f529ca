import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { authenticate, bearer } from '../kit/auth.js';
import type { Middleware } from '../kit/define.js';
import { dbOf, doError, type Db, type TokenDoc } from './model.js';

/** What a DigitalOcean handler gets: the store's collections, the caller's token, seeded ids and the logical time. */
export interface DoCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  readonly auth: { kind: 'ok'; token: TokenDoc } | { kind: 'bad' | 'anonymous' };
}

export function doContext(req: ServiceRequest, ctx: ServiceContext): DoCtx {
  const db = dbOf(ctx.store);
  const found = authenticate(req, [bearer()], (secret) => db.tokens.get(secret));
  return { ctx, db, auth: found.kind === 'ok' ? { kind: 'ok', token: found.principal } : { kind: found.kind } };
}

/** 401 `Unauthorized` without a known token; 403 for a read-scoped token that writes, as the API answers them. */
export const doAuth: Middleware<DoCtx> = (req, c, next, matched) => {
  // The docs site is public; a presigned upload URL is its own credential.
  if (matched?.name.startsWith('docs.') || matched?.name.startsWith('presigned.')) return next();
  if (c.auth.kind !== 'ok') throw doError(401, 'Unauthorized', 'Unable to authenticate you');
  if (req.method !== 'GET' && req.method !== 'HEAD' && c.auth.token.scope === 'read') throw doError(403, 'Forbidden', 'You do not have access for the attempted action.');
  return next();
};
