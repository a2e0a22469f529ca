import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Middleware } from '../kit/define.js';
import { atlasError, dbOf, type Db, type TokenDoc } from './model.js';

/** What an Atlas handler gets: the store's collections, the caller's access token, seeded ids and the logical time. */
export interface AtlasCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  /** The bearer token's record when it was issued here and has not expired; null otherwise. */
  readonly token: TokenDoc | null;
  /** The Admin API version the `Accept` header asks for (`2025-03-12`), or null for none / plain JSON. */
  readonly version: string | null;
}

const VERSIONED = /application\/vnd\.atlas\.(\d{4}-\d{2}-\d{2})\+json/;

export function atlasContext(req: ServiceRequest, ctx: ServiceContext): AtlasCtx {
  const db = dbOf(ctx.store);
  const bearer = /^Bearer\s+(.+)$/i.exec(req.header('authorization') ?? '')?.[1] ?? null;
  const issued = bearer === null ? undefined : db.tokens.get(bearer);
  const token = issued && issued.expiresAtMs > ctx.nowMs ? issued : null;
  return { ctx, db, token, version: VERSIONED.exec(req.header('accept') ?? '')?.[1] ?? null };
}

/** Operations that take no access token: the token endpoint itself and the public knowledge base. */
const PUBLIC = new Set(['createAccessToken', 'revokeAccessToken', 'listKnowledgeSources', 'searchKnowledge']);

/** Atlas's 401 for a missing, unknown or expired access token. */
export const atlasAuth: Middleware<AtlasCtx> = (_req, c, next, matched) => {
  if (matched && PUBLIC.has(matched.name)) return next();
  if (c.token === null) throw atlasError(401, 'UNAUTHORIZED', 'You are not authorized for this resource.', [], [['WWW-Authenticate', 'Bearer realm="cloud.mongodb.com"']]);
  return next();
};
