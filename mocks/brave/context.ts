import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Collection } from '../core/store.js';
import { apiKeyHeader, authenticate } from '../kit/auth.js';
import type { Middleware } from '../kit/define.js';
import { webDb, type WebDb } from '../kit/web/search.js';
import type { BraveSubscription } from './dataset.js';
import { braveError } from './model.js';

export interface UsageDoc { token: string; used: number; second: number; inSecond: number }

export interface BraveCtx {
  readonly ctx: ServiceContext;
  readonly web: WebDb;
  readonly subscriptions: Collection<BraveSubscription>;
  readonly usage: Collection<UsageDoc>;
  readonly sub: BraveSubscription | null;
}

/** Brave takes the subscription token in `X-Subscription-Token` (or `?token=` is not accepted: header only). */
export function braveContext(req: ServiceRequest, ctx: ServiceContext): BraveCtx {
  const subscriptions = ctx.store.collection<BraveSubscription>('subscriptions');
  const found = authenticate(req, [apiKeyHeader('X-Subscription-Token')], (secret) => subscriptions.get(secret));
  return { ctx, web: webDb(ctx.store), subscriptions, usage: ctx.store.collection('usage'), sub: found.kind === 'ok' ? found.principal : null };
}

const MONTH_S = 2_592_000;

/**
 * The token check, then the plan's two windows (per second and per month), as Brave reports them
 * on every answer: `X-RateLimit-Limit: 20, 20000000`, `-Policy`, `-Remaining`, `-Reset`.
 */
export const braveAuth: Middleware<BraveCtx> = (_req, c, next) => {
  const sub = c.sub;
  if (!sub) throw braveError(422, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.', { component: 'authentication' });
  const second = Math.floor(c.ctx.nowMs / 1000);
  const prior = c.usage.get(sub.token) ?? { token: sub.token, used: sub.used, second, inSecond: 0 };
  const inSecond = prior.second === second ? prior.inSecond + 1 : 1;
  const reset = MONTH_S - (second % MONTH_S);
  const headers = (remainingRate: number, remainingQuota: number): [string, string][] => [
    ['X-RateLimit-Limit', `${sub.rate_limit}, ${sub.quota}`],
    ['X-RateLimit-Policy', `${sub.rate_limit};w=1, ${sub.quota};w=${MONTH_S}`],
    ['X-RateLimit-Remaining', `${Math.max(0, remainingRate)}, ${Math.max(0, remainingQuota)}`],
    ['X-RateLimit-Reset', `1, ${reset}`],
  ];
  const meta = { plan: sub.plan, rate_limit: sub.rate_limit, rate_current: inSecond, quota_limit: sub.quota, quota_current: prior.used + 1, component: 'rate_limiter' };
  if (prior.used >= sub.quota) throw braveError(429, 'QUOTA_LIMITED', 'Request quota limit exceeded for plan.', meta, headers(0, 0));
  if (inSecond > sub.rate_limit) throw braveError(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.', meta, headers(0, sub.quota - prior.used));
  c.usage.put(sub.token, { token: sub.token, used: prior.used + 1, second, inSecond });
  const response = next();
  return { ...response, headers: [...response.headers, ...headers(sub.rate_limit - inSecond, sub.quota - prior.used - 1)] };
};

export const isPro = (sub: BraveSubscription | null): boolean => sub !== null && sub.plan.startsWith('Pro');
export const hasExtraSnippets = (sub: BraveSubscription | null): boolean => sub !== null && sub.plan !== 'Free';
