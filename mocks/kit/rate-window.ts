import type { HeaderList, ServiceRequest, ServiceResponse } from '../core/http.js';
import type { Matched, Middleware } from './define.js';
import { ServiceError } from './errors.js';

/**
 * Fixed rate-limit windows in logical time, counted in the store: a window opens at the first
 * request after the previous one closed and lasts `seconds`; each counted request uses one of
 * `limit`. Keys are the service's (`alice:core`, `anonymous:search`, an API key). Pure functions
 * of the store and the request's logical time, so replays count the same.
 */
export interface RateWindow {
  /** What is counted together: the caller and the resource. */
  readonly key: string;
  readonly limit: number;
  readonly seconds: number;
  /** The resource's name for headers (`core`, `search`). */
  readonly resource: string;
}

export interface WindowState extends RateWindow {
  readonly used: number;
  /** The window's end, whole seconds since the Unix epoch. */
  readonly reset: number;
}

/** Where windows are kept (a store collection of `{used, reset}` by key). */
export interface WindowStore {
  get(key: string): { used: number; reset: number } | undefined;
  put(key: string, value: { used: number; reset: number }): unknown;
}

/** The window a request at `nowMs` falls in, without counting it. */
export function windowState(store: WindowStore, window: RateWindow, nowMs: number): WindowState {
  const nowSeconds = Math.floor(nowMs / 1000);
  const doc = store.get(window.key);
  // Object.assign, not `{ ...window, used, reset }`: Node 20's V8 adds fields after a leading
  // spread of a fresh object through a slow path (~1 µs each; docs/benchmarks.md, eighth pass).
  if (!doc || nowSeconds >= doc.reset) return Object.assign({}, window, { used: 0, reset: nowSeconds + window.seconds });
  return Object.assign({}, window, { used: doc.used, reset: doc.reset });
}

/** Counts one request (never past the limit); returns the state the answer reports. */
export function countRequest(store: WindowStore, state: WindowState): WindowState {
  const used = Math.min(state.used + 1, state.limit);
  store.put(state.key, { used, reset: state.reset });
  return { ...state, used };
}

/** GitHub's (and many APIs') `X-RateLimit-*` headers: limit, remaining, reset (epoch seconds), used, resource. */
export function xRateLimitHeaders(state: WindowState): HeaderList {
  return [
    ['X-RateLimit-Limit', String(state.limit)],
    ['X-RateLimit-Remaining', String(state.limit - state.used)],
    ['X-RateLimit-Reset', String(state.reset)],
    ['X-RateLimit-Used', String(state.used)],
    ['X-RateLimit-Resource', state.resource],
  ];
}

/** The IETF draft's `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds left). */
export function ietfRateLimitHeaders(state: WindowState, nowMs: number): HeaderList {
  return [
    ['RateLimit-Limit', String(state.limit)],
    ['RateLimit-Remaining', String(state.limit - state.used)],
    ['RateLimit-Reset', String(Math.max(0, state.reset - Math.floor(nowMs / 1000)))],
  ];
}

/**
 * The rate-window middleware: finds the request's window (`window`; null: no window, no
 * headers), refuses with `exceeded` once the window is used up (uncounted), else runs the
 * request and counts it unless `counted` says not (a 304, a free endpoint), and adds
 * `headers(state)` to every answer it saw. `enforce` false lets a request through a used-up
 * window to an earlier refusal (GitHub answers bad credentials before the limit).
 */
export function rateWindow<C>(options: {
  window(req: ServiceRequest, context: C, matched: Matched | null): RateWindow | null;
  store(context: C): WindowStore;
  now(context: C): number;
  exceeded(state: WindowState, context: C): ServiceError;
  /** Whether this request counts at all (default: yes). */
  counts?(req: ServiceRequest, context: C): boolean;
  /** Whether this answer counts (default: yes). */
  counted?(response: ServiceResponse): boolean;
  enforce?(req: ServiceRequest, context: C): boolean;
  headers?(state: WindowState, context: C): HeaderList;
}): Middleware<C> {
  const headersOf = options.headers ?? ((state: WindowState) => xRateLimitHeaders(state));
  return (req, context, next, matched) => {
    const window = options.window(req, context, matched);
    if (window === null) return next();
    const store = options.store(context);
    let state = windowState(store, window, options.now(context));
    const counts = options.counts?.(req, context) ?? true;
    if (counts && state.used >= state.limit && (options.enforce?.(req, context) ?? true)) {
      const error = options.exceeded(state, context);
      throw new ServiceError(error.status, error.code, error.message, error.details, [...error.headers, ...headersOf(state, context)]);
    }
    const response = next();
    if (counts && (options.counted?.(response) ?? true)) state = countRequest(store, state);
    return { ...response, headers: [...response.headers, ...headersOf(state, context)] };
  };
}
