import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Middleware } from '../kit/define.js';
import { dbOf, pdError, refOf, invalid, type Db, type Doc, type Ref, type TokenDoc } from './model.js';

/** What a PagerDuty handler gets: the collections, the caller's token, seeded IDs and the logical time. */
export interface PdCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  readonly token: TokenDoc | null;
  readonly req: ServiceRequest;
}

/** `Authorization: Token token=<key>` (REST API keys) or `Bearer <oauth token>`. */
function presented(req: ServiceRequest): string | null {
  const header = req.headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  if (!header) return null;
  const token = /^Token token=(.+)$/i.exec(header.trim()) ?? /^Bearer (.+)$/i.exec(header.trim());
  return token ? token[1]!.trim() : null;
}

export function pdContext(req: ServiceRequest, ctx: ServiceContext): PdCtx {
  const db = dbOf(ctx.store);
  const secret = presented(req);
  return { ctx, db, token: secret ? db.tokens.get(secret) ?? null : null, req };
}

export const pdAuth: Middleware<PdCtx> = (_req, c, next) => {
  if (!c.token) throw pdError(401, 2006, 'Unauthorized');
  return next();
};

/**
 * Who performs a write: a user token's own user; with an account token, the user the `From`
 * header names by email (PagerDuty refuses the write without one).
 */
export function actor(c: PdCtx): Ref {
  if (c.token?.user_id) {
    const user = c.db.users.get(c.token.user_id);
    if (user) return refOf('user', user)!;
  }
  const from = c.req.headers.find(([name]) => name.toLowerCase() === 'from')?.[1]?.trim();
  if (!from) throw invalid('You must specify a user\'s email address in the "From" header to perform this action');
  const user = c.db.users.find((u: Doc) => String(u.email).toLowerCase() === from.toLowerCase());
  if (!user) throw invalid('Requester User Not Found');
  return refOf('user', user)!;
}

export function required<T>(doc: T | undefined): T {
  if (!doc) throw pdError(404, 2100, 'Not Found');
  return doc;
}
