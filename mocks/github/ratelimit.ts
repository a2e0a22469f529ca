import type { ServiceRequest } from '../core/http.js';
import { rateWindow, windowState, type RateWindow, type WindowState } from '../kit/rate-window.js';
import type { Gh } from './context.js';
import type { RateLimits } from './dataset.js';
import { RateLimitsSchema } from './dataset.js';
import { GitHubError, RATE_LIMIT_DOCS } from './errors.js';

/**
 * Primary rate limits (mocks/kit/rate-window.ts), counted in the store per user (or for all
 * anonymous requests together) and per resource: `core` (an hour's window) and `search` (a
 * minute's). `/rate_limit` shows the core window without counting; a 304 and a refusal by the
 * limit itself are not counted; bad credentials are answered before the limit, and counted.
 */
export type Resource = 'core' | 'search';

const WINDOW_SECONDS: Record<Resource, number> = { core: 3600, search: 60 };

export function resourceFor(path: string): Resource | null {
  if (path === '/rate_limit') return null;
  return path.startsWith('/search/') ? 'search' : 'core';
}

function limits(gh: Gh): RateLimits {
  return gh.db.settings.get('github')?.rate_limits ?? RateLimitsSchema.parse({});
}

export function rateWindowOf(gh: Gh, resource: Resource): RateWindow {
  const who = gh.viewer ? gh.viewer.login.toLowerCase() : 'anonymous';
  const all = limits(gh);
  const limit = gh.viewer ? all[resource] : all[resource === 'core' ? 'anonymous_core' : 'anonymous_search'];
  return { key: `${who}:${resource}`, limit, seconds: WINDOW_SECONDS[resource], resource };
}

export function rateState(gh: Gh, resource: Resource): WindowState {
  return windowState(gh.db.rates, rateWindowOf(gh, resource), gh.ctx.nowMs);
}

export function rateLimited(gh: Gh): GitHubError {
  const who = gh.viewer ? `user ID ${gh.viewer.id}` : 'this client';
  return new GitHubError(403, `API rate limit exceeded for ${who}.`, { docs: RATE_LIMIT_DOCS });
}

/** The middleware: every request has a window (`/rate_limit` shows core's, uncounted); preflights never get here. */
export const rateLimits = rateWindow<Gh>({
  window: (req: ServiceRequest, gh) => rateWindowOf(gh, resourceFor(req.path) ?? 'core'),
  store: (gh) => gh.db.rates,
  now: (gh) => gh.ctx.nowMs,
  exceeded: (_state, gh) => rateLimited(gh),
  counts: (req) => resourceFor(req.path) !== null,
  counted: (response) => response.status !== 304,
  enforce: (_req, gh) => !gh.badCredentials,
});

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
