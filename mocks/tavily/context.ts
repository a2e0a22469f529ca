import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Collection } from '../core/store.js';
import { ServiceError } from '../kit/errors.js';
import type { Middleware } from '../kit/define.js';
import { decodeBody } from '../kit/bodies.js';
import { webDb, type WebDb } from '../kit/web/search.js';
import type { TavilyKey } from './dataset.js';

export interface CreditDoc { key: string; used: number }
export interface ResearchDoc { request_id: string; key: string; input: string; model: string; created_ms: number; content: string; sources: { title: string; url: string; favicon: string }[] }

export interface TavilyCtx {
  readonly ctx: ServiceContext;
  readonly web: WebDb;
  readonly keys: Collection<TavilyKey>;
  readonly credits: Collection<CreditDoc>;
  readonly research: Collection<ResearchDoc>;
  readonly key: TavilyKey | null;
}

/** Tavily's errors: `{"detail": {"error": "…"}}`. */
export function tavilyError(status: number, message: string, headers: [string, string][] = []): ServiceError {
  return new ServiceError(status, String(status), message, {}, headers);
}

/** The key from `Authorization: Bearer tvly-…`, else the body's `api_key` (the older style tavily-mcp still sends). */
function presentedKey(req: ServiceRequest): string | null {
  const auth = req.header('authorization');
  const bearer = auth ? /^\s*Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  if (bearer) return bearer[1]!;
  if (req.method !== 'POST') return null;
  try {
    const decoded = decodeBody(req.headers, req.body, { graphql: false });
    const value = (decoded.value as { api_key?: unknown } | null)?.api_key;
    return typeof value === 'string' && value !== '' ? value : null;
  } catch {
    return null;
  }
}

export function tavilyContext(req: ServiceRequest, ctx: ServiceContext): TavilyCtx {
  const keys = ctx.store.collection<TavilyKey>('keys');
  const presented = presentedKey(req);
  return { ctx, web: webDb(ctx.store), keys, credits: ctx.store.collection('credits'), research: ctx.store.collection('research'), key: presented === null ? null : keys.get(presented) ?? null };
}

export const tavilyAuth: Middleware<TavilyCtx> = (_req, c, next) => {
  if (!c.key) throw tavilyError(401, 'Unauthorized: missing or invalid API key.');
  const used = c.credits.get(c.key.key)?.used ?? 0;
  if (used >= c.key.credits) throw tavilyError(432, "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com");
  return next();
};

/** Charges `n` credits to the caller (basic search 1, advanced 2, extract 1 per 5 URLs, …). */
export function charge(c: TavilyCtx, n: number): number {
  const prior = c.credits.get(c.key!.key)?.used ?? 0;
  c.credits.put(c.key!.key, { key: c.key!.key, used: prior + n });
  return n;
}
