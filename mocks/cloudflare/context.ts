import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Middleware } from '../kit/define.js';
import { authError, badIdentifier, cfError, dbOf, type AccountDoc, type Db, type ZoneDoc } from './model.js';

/** What a Cloudflare handler gets: the store's collections, who is calling, seeded IDs and the logical time. */
export interface CfCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  readonly auth: Auth;
}

type Auth =
  | { kind: 'ok'; accounts: string[]; readOnly: boolean }
  | { kind: 'missing' | 'malformed-bearer' | 'bad-token' | 'bad-key' };

/**
 * An API token as `Authorization: Bearer <token>`, or a Global API Key as `X-Auth-Email` +
 * `X-Auth-Key` (the two schemes the v4 API takes); a key may act in every account of the dataset.
 */
export function cfContext(req: ServiceRequest, ctx: ServiceContext): CfCtx {
  const db = dbOf(ctx.store);
  return { ctx, db, auth: authOf(req, db) };
}

function authOf(req: ServiceRequest, db: Db): Auth {
  const authorization = req.header('authorization');
  if (authorization !== undefined) {
    const match = /^Bearer ([A-Za-z0-9_-]+)$/.exec(authorization.trim());
    if (!match) return { kind: 'malformed-bearer' };
    const token = db.tokens.get(match[1]!);
    return token ? { kind: 'ok', accounts: token.accounts, readOnly: token.read_only } : { kind: 'bad-token' };
  }
  const email = req.header('x-auth-email');
  const key = req.header('x-auth-key');
  if (email === undefined && key === undefined) return { kind: 'missing' };
  const found = db.api_keys.find((k) => k.email === email && k.key === key);
  return found ? { kind: 'ok', accounts: db.accounts.values().map((a) => a.id), readOnly: false } : { kind: 'bad-key' };
}

/** Cloudflare's answers for a missing, malformed or unknown credential, and for a read-only token that writes. */
export const cfAuth: Middleware<CfCtx> = (req, c, next) => {
  switch (c.auth.kind) {
    case 'missing':
      throw cfError(400, [{ code: 9106, message: 'Missing X-Auth-Email header' }, { code: 9107, message: 'Missing X-Auth-Key header' }]);
    case 'malformed-bearer':
      throw cfError(400, [{ code: 6003, message: 'Invalid request headers', error_chain: [{ code: 6111, message: 'Invalid format for Authorization header' }] }]);
    case 'bad-token':
      throw cfError(401, [{ code: 1000, message: 'Invalid API Token' }]);
    case 'bad-key':
      throw cfError(403, [{ code: 9103, message: 'Unknown X-Auth-Key or X-Auth-Email' }]);
    case 'ok':
      // GraphQL is read-only whatever the HTTP method.
      if (c.auth.readOnly && req.method !== 'GET' && req.method !== 'HEAD' && req.path !== '/client/v4/graphql') throw authError();
      return next();
  }
};

/** The account in the path, when the caller may act in it; Cloudflare answers 403 otherwise. */
export function accountOf(c: CfCtx, id: string): AccountDoc {
  const account = c.db.accounts.get(id);
  if (!account || c.auth.kind !== 'ok' || !c.auth.accounts.includes(id)) throw authError();
  return account;
}

/** The zone in the path: an unknown id fails Cloudflare's routing (7003). */
export function zoneOf(c: CfCtx, id: string): ZoneDoc {
  const zone = c.db.zones.get(id);
  if (!zone) throw badIdentifier(`/zones/${id}`);
  if (c.auth.kind !== 'ok' || !c.auth.accounts.includes(zone.account_id)) throw authError();
  return zone;
}
