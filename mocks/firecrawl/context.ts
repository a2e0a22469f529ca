import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Collection } from '../core/store.js';
import type { Middleware } from '../kit/define.js';
import { ServiceError } from '../kit/errors.js';
import { webDb, type WebDb } from '../kit/web/search.js';
import type { FirecrawlKey } from './dataset.js';

/** Firecrawl's API host: job URLs and `next` links are absolute on it, as the real API writes them. */
export const API_BASE = 'https://api.firecrawl.dev';

/** Credits a team has spent in this world, in total and per key (the historical view). */
export interface UsageDoc { team: string; used: number; byKey: Record<string, number> }

export interface FirecrawlCtx {
  readonly ctx: ServiceContext;
  readonly web: WebDb;
  readonly keys: Collection<FirecrawlKey>;
  readonly usage: Collection<UsageDoc>;
  /** The caller's key (the auth middleware refuses requests without one). */
  readonly key: FirecrawlKey | null;
  /** Whether an Authorization header was sent at all (401 `Token missing` otherwise). */
  readonly presented: boolean;
}

/** `{success: false, error, code?, details?}` with the status Firecrawl uses for it. */
export function firecrawlError(status: number, message: string, code = '', details: Record<string, unknown> = {}, headers: [string, string][] = []): ServiceError {
  return new ServiceError(status, code, message, details, headers);
}

/** Firecrawl's 400 for a request that fails its schema: `Bad Request` with zod-like `details`. */
export function badRequest(details: { code: string; path: (string | number)[]; message: string }[]): ServiceError {
  return firecrawlError(400, 'Bad Request', 'BAD_REQUEST', { details });
}

/** The 400 for URLs that do not parse (`url`, or each of `urls`). */
export function invalidUrls(field: 'url' | 'urls', urls: readonly string[]): ServiceError {
  return badRequest(urls.map((u) => ({ code: 'invalid_string', path: [field], message: field === 'url' ? 'Invalid URL' : `Invalid URL: ${u}` })));
}

export function renderError(error: ServiceError): ServiceResponse {
  return jsonResponse(error.status, { success: false, ...(error.code ? { code: error.code } : {}), error: error.message, ...error.details }, [...error.headers]);
}

export function firecrawlContext(req: ServiceRequest, ctx: ServiceContext): FirecrawlCtx {
  const keys = ctx.store.collection<FirecrawlKey>('keys');
  const auth = req.header('authorization');
  const token = auth ? /^\s*Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] ?? null : null;
  return { ctx, web: webDb(ctx.store), keys, usage: ctx.store.collection('usage'), key: token === null ? null : keys.get(token) ?? null, presented: auth !== undefined };
}

/** The messages of Firecrawl's auth layer: no header at all, or a key it does not know. */
export const firecrawlAuth: Middleware<FirecrawlCtx> = (_req, c, next) => {
  if (!c.presented) throw firecrawlError(401, 'Unauthorized: Token missing');
  if (!c.key) throw firecrawlError(401, 'Unauthorized: Invalid token');
  return next();
};

export const INSUFFICIENT_CREDITS = 'Insufficient credits to perform this request. For more credits, you can upgrade your plan at https://firecrawl.dev/pricing or try changing the request limit to a lower value.';

export function caller(c: FirecrawlCtx): FirecrawlKey {
  return c.key!;
}

/** Credits the caller's team has left (its keys share one balance: the first key's `credits`). */
export function remainingCredits(c: FirecrawlCtx, key: FirecrawlKey = caller(c)): number {
  const budget = c.keys.values().find((k) => k.team === key.team)?.credits ?? key.credits;
  return Math.max(0, budget - (c.usage.get(key.team)?.used ?? 0));
}

/** Refuses with 402 before any work when the team cannot pay `n` credits. */
export function requireCredits(c: FirecrawlCtx, n: number): void {
  if (remainingCredits(c) < n) throw firecrawlError(402, INSUFFICIENT_CREDITS);
}

/** Bills `n` credits to the caller's team (and key, for the historical view). */
export function charge(c: FirecrawlCtx, n: number): number {
  const key = caller(c);
  const prior = c.usage.get(key.team) ?? { team: key.team, used: 0, byKey: {} };
  c.usage.put(key.team, { team: key.team, used: prior.used + n, byKey: { ...prior.byKey, [key.key]: (prior.byKey[key.key] ?? 0) + n } });
  return n;
}

/** A job, crawl or monitor belongs to the team that created it; another team's is not found. */
export function ownJob<T extends { team: string }>(c: FirecrawlCtx, doc: T | undefined, message: string): T {
  if (!doc || doc.team !== caller(c).team) throw firecrawlError(404, message);
  return doc;
}

/** ISO timestamp of the logical clock, with an offset in ms. */
export const iso = (ms: number) => new Date(ms).toISOString();
