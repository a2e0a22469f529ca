import type { HeaderList } from '../core/http.js';
import type { Gh } from './context.js';
import { GitHubError, RATE_LIMIT_DOCS } from './errors.js';
import type { RateLimits } from './dataset.js';
import { RateLimitsSchema } from './dataset.js';

/**
 * Primary rate limits, counted in the store per user (or for all anonymous requests together)
 * and per resource: `core` (an hour's window) and `search` (a minute's). A window starts at the
 * first request after the previous one reset; `X-RateLimit-Reset` is its end in logical time.
 */
export type Resource = 'core' | 'search';

const WINDOW_SECONDS: Record<Resource, number> = { core: 3600, search: 60 };

export interface RateState {
  key: string;
  resource: Resource;
  limit: number;
  used: number;
  reset: number;
}

export function resourceFor(path: string): Resource | null {
  if (path === '/rate_limit') return null;
  return path.startsWith('/search/') ? 'search' : 'core';
}

function limits(gh: Gh): RateLimits {
  return gh.db.settings.get('github')?.rate_limits ?? RateLimitsSchema.parse({});
}

export function rateState(gh: Gh, resource: Resource): RateState {
  const who = gh.viewer ? gh.viewer.login.toLowerCase() : 'anonymous';
  const key = `${who}:${resource}`;
  const all = limits(gh);
  const limit = gh.viewer ? all[resource] : all[resource === 'core' ? 'anonymous_core' : 'anonymous_search'];
  const nowSeconds = Math.floor(gh.ctx.nowMs / 1000);
  const doc = gh.db.rates.get(key);
  if (!doc || nowSeconds >= doc.reset) return { key, resource, limit, used: 0, reset: nowSeconds + WINDOW_SECONDS[resource] };
  return { key, resource, limit, used: doc.used, reset: doc.reset };
}

/** Counts one request; returns the state the response headers report. */
export function count(gh: Gh, state: RateState): RateState {
  const used = Math.min(state.used + 1, state.limit);
  gh.db.rates.put(state.key, { used, reset: state.reset });
  return { ...state, used };
}

export function rateHeaders(state: RateState): HeaderList {
  return [
    ['X-RateLimit-Limit', String(state.limit)],
    ['X-RateLimit-Remaining', String(state.limit - state.used)],
    ['X-RateLimit-Reset', String(state.reset)],
    ['X-RateLimit-Used', String(state.used)],
    ['X-RateLimit-Resource', state.resource],
  ];
}

export function rateLimited(gh: Gh): GitHubError {
  const who = gh.viewer ? `user ID ${gh.viewer.id}` : 'this client';
  return new GitHubError(403, `API rate limit exceeded for ${who}.`, { docs: RATE_LIMIT_DOCS });
}

/** `GET /rate_limit`: every resource's window, without counting against any. */
export function rateLimitOverview(gh: Gh) {
  const show = (resource: Resource) => {
    const state = rateState(gh, resource);
    return { limit: state.limit, used: state.used, remaining: state.limit - state.used, reset: state.reset };
  };
  const core = show('core');
  const search = show('search');
  return { resources: { core, search, code_search: search, graphql: core, integration_manifest: core }, rate: core };
}
