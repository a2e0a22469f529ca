import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Collection } from '../core/store.js';
import { ServiceError } from '../kit/errors.js';
import type { Middleware } from '../kit/define.js';
import { uuidId } from '../kit/ids.js';
import { webDb, type WebDb } from '../kit/web/search.js';
import type { ExaKey } from './dataset.js';
import type { AgentRunDoc, ResearchDoc } from './tasks.js';

/** Spend per key in micro-dollars: integers, so a thousand requests add up without float drift. */
export interface SpendDoc { key: string; micros: number }

export interface ExaCtx {
  readonly ctx: ServiceContext;
  readonly web: WebDb;
  readonly keys: Collection<ExaKey>;
  readonly spend: Collection<SpendDoc>;
  readonly research: Collection<ResearchDoc>;
  readonly agentRuns: Collection<AgentRunDoc>;
  readonly key: ExaKey | null;
  /** Whether the request carried any key at all (401 words differ). */
  readonly presented: boolean;
}

/**
 * Exa's errors: `{"requestId", "error", "tag"}` (exa.ai/docs error codes); exa-js turns them into
 * an ExaError whose message is `error` (and `message`, when present).
 */
export function exaError(status: number, tag: string, message: string, headers: [string, string][] = []): ServiceError {
  return new ServiceError(status, tag, message, {}, headers);
}

/** A request id as Exa prints them: 32 hex digits, seeded. */
export function requestId(c: Pick<ExaCtx, 'ctx'>): string {
  return uuidId(c.ctx, 'request').replace(/-/g, '');
}

/** `x-api-key` (exa-js), else `Authorization: Bearer` (both are accepted by the API). */
function presentedKey(req: ServiceRequest): string | null {
  const header = req.header('x-api-key');
  if (header !== undefined && header.trim() !== '') return header.trim();
  const bearer = /^\s*Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '');
  return bearer ? bearer[1]! : null;
}

export function exaContext(req: ServiceRequest, ctx: ServiceContext): ExaCtx {
  const keys = ctx.store.collection<ExaKey>('keys');
  const presented = presentedKey(req);
  return { ctx, web: webDb(ctx.store), keys, spend: ctx.store.collection('spend'), research: ctx.store.collection('research'), agentRuns: ctx.store.collection('agentRuns'), key: presented === null ? null : keys.get(presented) ?? null, presented: presented !== null };
}

export const MICROS = 1_000_000;

export const exaAuth: Middleware<ExaCtx> = (_req, c, next) => {
  if (!c.key) throw exaError(401, 'INVALID_API_KEY', c.presented ? 'Invalid API key' : 'API key is missing. Pass it in the x-api-key header.');
  const spent = c.spend.get(c.key.key)?.micros ?? 0;
  if (spent >= Math.round(c.key.budgetDollars * MICROS)) throw exaError(402, 'NO_MORE_CREDITS', 'You have exhausted your credits. Top up at https://dashboard.exa.ai to continue.');
  return next();
};

/** Bills `micros` to the caller's key. */
export function bill(c: ExaCtx, micros: number): void {
  const prior = c.spend.get(c.key!.key)?.micros ?? 0;
  c.spend.put(c.key!.key, { key: c.key!.key, micros: prior + micros });
}
