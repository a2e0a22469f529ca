import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Middleware } from '../kit/define.js';
import { dbOf, EsError, type ApiKeyDoc, type Db } from './model.js';

/** What an Elasticsearch handler gets: the store's collections, the caller's API key, the Accept header it answers in. */
export interface EsCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  readonly accept: string | undefined;
  readonly key: ApiKeyDoc | null;
  /** Why there is no key: no credentials, or ones that do not authenticate. */
  readonly problem: 'missing' | 'invalid' | null;
}

export function esContext(req: ServiceRequest, ctx: ServiceContext): EsCtx {
  const db = dbOf(ctx.store);
  const authorization = req.header('authorization');
  const accept = req.header('accept');
  if (authorization === undefined) return { ctx, db, accept, key: null, problem: 'missing' };
  const m = /^ApiKey\s+(\S+)$/i.exec(authorization.trim());
  const key = m ? db.api_keys.get(m[1]!) ?? null : null;
  return { ctx, db, accept, key, problem: key ? null : 'invalid' };
}

const CHALLENGES = ['Basic realm="security", charset="UTF-8"', 'Bearer realm="security"', 'ApiKey'];

/** Elasticsearch's security layer: 401 with its challenges before anything else; 403 for a read-only key that writes. */
export const esAuth: Middleware<EsCtx> = (req, c, next, matched) => {
  if (c.key === null) {
    const reason = c.problem === 'missing'
      ? `missing authentication credentials for REST request [${req.target}]`
      : 'unable to authenticate with provided credentials and anonymous access is not allowed for this request';
    throw new EsError(401, { type: 'security_exception', reason, header: { 'WWW-Authenticate': CHALLENGES } }, {}, undefined, CHALLENGES.map((v) => ['WWW-Authenticate', v]));
  }
  const write = matched !== null && WRITES.has(matched.name);
  if (write && c.key.role === 'read') {
    const action = ACTIONS[matched!.name] ?? 'indices:data/write/bulk';
    throw new EsError(403, { type: 'security_exception', reason: `action [${action}] is unauthorized for API key id [${c.key.id}] of user [elastic-cloud-user], this action is granted by the index privileges [${action.startsWith('indices:admin') ? 'manage,all' : 'index,write,all'}]` });
  }
  return next();
};

const ACTIONS: Record<string, string> = {
  'index': 'indices:data/write/index',
  'create': 'indices:data/write/index',
  'update': 'indices:data/write/update',
  'delete': 'indices:data/write/delete',
  'bulk': 'indices:data/write/bulk',
  'indices.create': 'indices:admin/create',
  'indices.delete': 'indices:admin/delete',
};
const WRITES = new Set(Object.keys(ACTIONS));
