import test from 'ava';
import { z } from 'zod';
import { jsonResponse } from '../mocks/core/http.js';
import { defineService } from '../mocks/kit/define.js';
import { ServiceError } from '../mocks/kit/errors.js';
import { etag } from '../mocks/kit/etag.js';
import { operation, rest } from '../mocks/kit/operation.js';
import { countRequest, ietfRateLimitHeaders, rateWindow, windowState, xRateLimitHeaders, type WindowStore } from '../mocks/kit/rate-window.js';
import type { Collection } from '../mocks/core/store.js';
import { kitWorld } from './helpers/kit-world.js';

function memoryStore(): WindowStore & { docs: Map<string, { used: number; reset: number }> } {
  const docs = new Map<string, { used: number; reset: number }>();
  return { docs, get: (key) => docs.get(key), put: (key, value) => docs.set(key, value) };
}

test('a window opens at the first request, counts up to its limit, and reopens once its time is over', (t) => {
  const store = memoryStore();
  const window = { key: 'k1:core', limit: 2, seconds: 60, resource: 'core' };
  let state = windowState(store, window, 10_500);
  t.deepEqual(state, { ...window, used: 0, reset: 70 }, 'reset is the window\'s end in whole seconds');
  state = countRequest(store, state);
  state = countRequest(store, windowState(store, window, 20_000));
  t.is(state.used, 2);
  t.is(countRequest(store, state).used, 2, 'never past the limit');
  t.deepEqual(windowState(store, window, 69_999), { ...window, used: 2, reset: 70 });
  t.deepEqual(windowState(store, window, 70_000), { ...window, used: 0, reset: 130 }, 'a new window at its end');
  t.deepEqual(store.docs.get('k1:core'), { used: 2, reset: 70 }, 'reading never writes');
});

test('headers: X-RateLimit-* (GitHub\'s and many others\') and the IETF draft\'s seconds-to-reset', (t) => {
  const state = { key: 'k', limit: 60, seconds: 3600, resource: 'core', used: 3, reset: 1_000 };
  t.deepEqual(xRateLimitHeaders(state), [
    ['X-RateLimit-Limit', '60'], ['X-RateLimit-Remaining', '57'], ['X-RateLimit-Reset', '1000'], ['X-RateLimit-Used', '3'], ['X-RateLimit-Resource', 'core'],
  ]);
  t.deepEqual(ietfRateLimitHeaders(state, 400_500), [['RateLimit-Limit', '60'], ['RateLimit-Remaining', '57'], ['RateLimit-Reset', '600']]);
});

// A service limited per API key (3 requests a minute), `/free` uncounted, ETags inside the window (a 304 is free).
type Ctx = { key: string; windows: Collection<{ used: number; reset: number }>; nowMs: number };
const service = defineService<Record<string, never>, Ctx>({
  id: 'limited', version: '1', dataset: z.object({}).strict(), load: () => {},
  context: (req, ctx) => ({ key: req.header('x-api-key') ?? 'anonymous', windows: ctx.store.collection('windows'), nowMs: ctx.nowMs }),
  operations: [
    operation('things.list', rest('GET', '/things'), () => jsonResponse(200, ['a'])),
    operation('free.get', rest('GET', '/free'), () => jsonResponse(200, 'free')),
  ],
  errors: (error) => jsonResponse(error.status, { message: error.message }, [...error.headers]),
  refusal: (reason) => new ServiceError(404, reason, reason),
  middleware: [
    rateWindow<Ctx>({
      window: (_req, c) => ({ key: c.key, limit: 3, seconds: 60, resource: 'core' }),
      store: (c) => c.windows,
      now: (c) => c.nowMs,
      exceeded: (state) => new ServiceError(429, 'rate_limited', `limit ${state.limit} reached`, {}, [['Retry-After', '60']]),
      counts: (req) => req.path !== '/free',
      counted: (response) => response.status !== 304,
      headers: (state, c) => ietfRateLimitHeaders(state, c.nowMs),
    }),
    etag(),
  ],
});

test('the middleware counts per key, refuses a used-up window uncounted, and lets 304s and free paths through', (t) => {
  const { send } = kitWorld(service, {}, { tickMs: 5_000 });
  const first = send('GET', '/things', [['X-Api-Key', 'k1']]);
  t.is(first.status, 200);
  t.is(first.header('ratelimit-remaining'), '2');
  const tag = first.header('etag')!;
  t.is(send('GET', '/things', [['X-Api-Key', 'k1'], ['If-None-Match', tag]]).header('ratelimit-remaining'), '2', 'a 304 is not counted');
  t.is(send('GET', '/free', [['X-Api-Key', 'k1']]).header('ratelimit-remaining'), '2', 'shown, not counted');
  t.is(send('GET', '/things', [['X-Api-Key', 'k2']]).header('ratelimit-remaining'), '2', 'another key, another window');
  send('GET', '/things', [['X-Api-Key', 'k1']]);
  t.is(send('GET', '/things', [['X-Api-Key', 'k1']]).header('ratelimit-remaining'), '0');
  const refused = send('GET', '/things', [['X-Api-Key', 'k1']]);
  t.is(refused.status, 429);
  t.deepEqual(refused.json, { message: 'limit 3 reached' });
  t.deepEqual(refused.headers.map(([name]) => name), ['Content-Type', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
    'the refusal carries the error\'s headers and the window\'s');
  t.is(refused.header('ratelimit-reset'), '30', 'the window opened 30 logical seconds ago (5 s a request)');
  // Requests 8 to 12 fall in the same window (refusals are not counted); the 13th, 60 s after the first, opens a new one.
  const statuses = [8, 9, 10, 11, 12, 13].map(() => send('GET', '/things', [['X-Api-Key', 'k1']]));
  t.deepEqual(statuses.map((r) => r.status), [429, 429, 429, 429, 429, 200]);
  t.is(statuses.at(-1)!.header('ratelimit-remaining'), '2', 'a new window: this request is its first');
});
