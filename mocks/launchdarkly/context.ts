import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { apiKeyHeader, authenticate } from '../kit/auth.js';
import type { Middleware } from '../kit/define.js';
import { dbOf, ldError, notFound, type Db, type ProjectDoc, type TokenDoc } from './model.js';

/** What a LaunchDarkly handler gets: the store's collections, the caller's token, seeded IDs and the logical time. */
export interface LdCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  readonly auth: { kind: 'ok'; token: TokenDoc } | { kind: 'bad' | 'anonymous' };
}

/** LaunchDarkly takes an access token as the whole `Authorization` header, without a scheme. */
export function ldContext(req: ServiceRequest, ctx: ServiceContext): LdCtx {
  const db = dbOf(ctx.store);
  const found = authenticate(req, [apiKeyHeader('Authorization')], (secret) => db.tokens.get(secret));
  return { ctx, db, auth: found.kind === 'ok' ? { kind: 'ok', token: found.principal } : { kind: found.kind } };
}

/** 401 without a known token; 403 for a reader token that writes (LaunchDarkly's built-in Reader role). */
export const ldAuth: Middleware<LdCtx> = (req, c, next) => {
  if (c.auth.kind !== 'ok') throw ldError(401, 'unauthorized', 'Invalid access token');
  if (req.method !== 'GET' && c.auth.token.role === 'reader') throw ldError(403, 'forbidden', 'Access to the requested resource was denied');
  return next();
};

export function projectOf(c: LdCtx, key: string): ProjectDoc {
  const project = c.db.projects.get(key);
  if (!project) throw notFound();
  return project;
}
