import { createHash } from 'node:crypto';
import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Middleware } from '../kit/define.js';
import { atlasError, dbOf, type Db } from './model.js';

/** What an Atlas handler gets: the store's collections, who is calling, seeded ids and the logical time. */
export interface AtlasCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  /** A service account by its unexpired access token, or a programmatic API key by HTTP Digest; null otherwise. */
  readonly caller: { kind: 'service-account'; clientId: string } | { kind: 'api-key'; publicKey: string } | null;
  /** The Admin API version the `Accept` header asks for (`2025-03-12`), or null for none / plain JSON. */
  readonly version: string | null;
}

const VERSIONED = /application\/vnd\.atlas\.(\d{4}-\d{2}-\d{2})\+json/;
const REALM = 'MMS Public API';
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/**
 * Digest nonces are stateless: `<seq>.<seeded digest of seq>`, so any nonce this world issued
 * verifies again (a client reuses it with a growing `nc`), and none other does.
 */
const nonceFor = (ctx: ServiceContext, seq: number) => `${seq}.${ctx.ids.opaque('digest-nonce', seq, 32)}`;
const nonceOk = (ctx: ServiceContext, nonce: string) => {
  const seq = Number(nonce.split('.')[0]);
  return Number.isInteger(seq) && nonceFor(ctx, seq) === nonce;
};

function digestCaller(req: ServiceRequest, ctx: ServiceContext, db: Db): string | null {
  const header = req.header('authorization') ?? '';
  if (!/^Digest\s/i.test(header)) return null;
  const params = Object.fromEntries([...header.slice(7).matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)].map((m) => [m[1]!.toLowerCase(), m[2] ?? m[3] ?? '']));
  const key = db.apiKeys.get(params.username ?? '');
  if (!key || params.realm !== REALM || !nonceOk(ctx, params.nonce ?? '')) return null;
  const ha1 = md5(`${key.publicKey}:${REALM}:${key.privateKey}`);
  const ha2 = md5(`${req.method}:${params.uri ?? ''}`);
  const expected = params.qop ? md5(`${ha1}:${params.nonce}:${params.nc}:${params.cnonce}:${params.qop}:${ha2}`) : md5(`${ha1}:${params.nonce}:${ha2}`);
  return params.response === expected && params.uri === req.target ? key.publicKey : null;
}

export function atlasContext(req: ServiceRequest, ctx: ServiceContext): AtlasCtx {
  const db = dbOf(ctx.store);
  const bearer = /^Bearer\s+(.+)$/i.exec(req.header('authorization') ?? '')?.[1] ?? null;
  const issued = bearer === null ? undefined : db.tokens.get(bearer);
  const apiKey = bearer === null ? digestCaller(req, ctx, db) : null;
  const caller = issued && issued.expiresAtMs > ctx.nowMs ? { kind: 'service-account' as const, clientId: issued.clientId }
    : apiKey !== null ? { kind: 'api-key' as const, publicKey: apiKey } : null;
  return { ctx, db, caller, version: VERSIONED.exec(req.header('accept') ?? '')?.[1] ?? null };
}

/** Operations that take no credential: the token endpoint itself and the public knowledge base. */
const PUBLIC = new Set(['createAccessToken', 'revokeAccessToken', 'listKnowledgeSources', 'searchKnowledge']);

/** Atlas's 401 for a missing, unknown or expired credential, with the Digest challenge API keys answer. */
export const atlasAuth: Middleware<AtlasCtx> = (_req, c, next, matched) => {
  if (matched && PUBLIC.has(matched.name)) return next();
  if (c.caller === null) {
    const challenge = `Digest realm="${REALM}", domain="", nonce="${nonceFor(c.ctx, c.ctx.seq)}", algorithm=MD5, qop="auth", stale=false`;
    throw atlasError(401, 'UNAUTHORIZED', 'You are not authorized for this resource.', [], [['WWW-Authenticate', challenge]]);
  }
  return next();
};
