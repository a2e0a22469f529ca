import test from 'ava';
import { LogicalClock, httpDate, isoSeconds } from '../mocks/core/clock.js';
import { SeededIds } from '../mocks/core/ids.js';
import { get, route, Router } from '../mocks/core/router.js';
import { DocumentStore } from '../mocks/core/store.js';
import { jsonResponse } from '../mocks/core/http.js';

test('logical clock: seq from 1, fixed tick from the epoch', (t) => {
  const clock = new LogicalClock(Date.parse('2025-01-01T00:00:00Z'), 1000);
  t.is(clock.current, 0);
  t.deepEqual(clock.next(), { seq: 1, nowMs: Date.parse('2025-01-01T00:00:01Z') });
  t.deepEqual(clock.next(), { seq: 2, nowMs: Date.parse('2025-01-01T00:00:02Z') });
  t.is(httpDate(Date.parse('2025-01-01T00:00:02Z')), 'Wed, 01 Jan 2025 00:00:02 GMT');
  t.is(isoSeconds(Date.parse('2025-01-01T00:00:02.500Z')), '2025-01-01T00:00:02Z');
  t.is(isoSeconds(-62198755200000), '-000001-01-01T00:00:00Z', 'extended years keep their sign and six digits');
  t.is(isoSeconds(253402300800999), '+010000-01-01T00:00:00Z');
  t.throws(() => new LogicalClock(Number.NaN));
  t.throws(() => new LogicalClock(0, 0));
});

test('seeded ids: counters per kind, opaque ids depend on the seed', (t) => {
  const a = new SeededIds(1, 'github');
  t.is(a.next('issue'), 1);
  t.is(a.next('issue'), 2);
  t.is(a.next('pull', 100), 100);
  a.reserve('issue', 40);
  t.is(a.next('issue'), 41);
  a.reserve('issue', 5);
  t.is(a.next('issue'), 42);
  const b = new SeededIds(1, 'github');
  const c = new SeededIds(2, 'github');
  t.is(a.opaque('issue', 1), b.opaque('issue', 1));
  t.not(a.opaque('issue', 1), c.opaque('issue', 1));
  t.not(a.opaque('issue', 1), a.opaque('pull', 1));
  t.is(a.opaque('issue', 1).length, 40);
  t.regex(a.opaqueBase64('issue', 1), /^[A-Za-z0-9_-]{16}$/);
  const saved = a.snapshot();
  a.next('issue');
  a.restore(saved);
  t.is(a.next('issue'), 43);
});

test('store: insertion order, frozen documents, snapshot/restore keeps order exactly', (t) => {
  const store = new DocumentStore();
  const items = store.collection<{ n: number }>('items');
  for (const key of ['10', '2', 'b', 'a']) items.put(key, { n: Number(key) || 0 });
  t.deepEqual(items.entries().map(([k]) => k), ['10', '2', 'b', 'a']);
  t.throws(() => { (items.get('2') as { n: number }).n = 5; });
  items.update('2', { n: 22 });
  t.deepEqual(items.entries().map(([k]) => k), ['10', '2', 'b', 'a'], 'an update keeps its place');
  const snapshot = store.snapshot();
  items.delete('10');
  items.put('z', { n: 0 });
  store.restore(snapshot);
  const restored = store.collection<{ n: number }>('items');
  t.deepEqual(restored.entries().map(([k]) => k), ['10', '2', 'b', 'a']);
  t.is(restored.get('2')?.n, 22);
  t.deepEqual(store.dump(), { items: { 10: { n: 10 }, 2: { n: 22 }, b: { n: 0 }, a: { n: 0 } } });
});

test('store: a transaction that throws leaves every collection as it was, order included', (t) => {
  const store = new DocumentStore();
  const items = store.collection<{ n: number }>('items');
  items.put('a', { n: 1 });
  items.put('b', { n: 2 });
  t.throws(() => store.transaction(() => {
    items.delete('a');
    items.put('a', { n: 9 });
    store.collection('other').put('x', { n: 0 });
    throw new Error('fail');
  }), { message: 'fail' });
  t.deepEqual(items.entries(), [['a', { n: 1 }], ['b', { n: 2 }]]);
  t.is(store.collection('other').size, 0);
  t.is(store.transaction(() => items.put('c', { n: 3 }).n), 3);
  t.is(items.size, 3);
});

test('router: params, tail params, decoding, method-not-allowed', (t) => {
  const ok = (name: string) => () => jsonResponse(200, name);
  const router = new Router<null>([
    get('/repos/:owner/:repo', ok('repo')),
    get('/repos/:owner/:repo/contents/*path', ok('contents')),
    get('/users/:name', ok('user')),
  ]);
  const repo = router.match('GET', '/repos/acme/web');
  t.like(repo, { kind: 'found', params: { owner: 'acme', repo: 'web' } });
  t.like(router.match('GET', '/repos/acme/web/contents/src/a%20b.ts'), { kind: 'found', params: { path: 'src/a b.ts' } });
  t.like(router.match('GET', '/repos/acme/web/contents'), { kind: 'found', params: { path: '' } }, 'a tail may be empty (GitHub lists the root)');
  t.like(router.match('GET', '/repos/acme'), { kind: 'not-found' });
  t.like(router.match('GET', '/repos/acme/web/contents/'), { kind: 'found', params: { path: '' } });
  t.like(router.match('HEAD', '/users/x'), { kind: 'found' });
  t.deepEqual(router.match('DELETE', '/users/x'), { kind: 'method-not-allowed', allowed: ['GET'] });
  t.like(router.match('GET', '/users/%E0%A4%A'), { kind: 'not-found' }, 'malformed escapes do not match');
  t.like(router.match('GET', '/users//'), { kind: 'not-found' });
});

test('router: routes found through their first segment keep declared order with parameter-first and rest routes', (t) => {
  const ok = (name: string) => () => jsonResponse(200, name);
  const router = new Router<null>([
    get('/:tenant/status', ok('tenant status')),
    get('/v1/status', ok('v1 status')),
    route('POST', '/v1/:thing', ok('v1 post')),
    get('/', ok('root')),
    get('/*rest', ok('catch-all')),
  ]);
  const name = (m: ReturnType<typeof router.match>) => (m.kind === 'found' ? (m.route.pattern) : m.kind);
  t.is(name(router.match('GET', '/v1/status')), '/:tenant/status', 'a parameter-first route declared earlier still wins');
  t.is(name(router.match('GET', '/v1/other')), '/*rest');
  t.is(name(router.match('POST', '/v1/other')), '/v1/:thing');
  t.is(name(router.match('GET', '/')), '/');
  t.is(name(router.match('GET', '/elsewhere/x')), '/*rest');
  t.is(name(router.match('GET', '')), '/*rest');
  t.deepEqual(new Router<null>([route('POST', '/v1/:thing', ok('p')), get('/:a/:b', ok('g'))]).match('PUT', '/v1/x'), { kind: 'method-not-allowed', allowed: ['POST', 'GET'] });
});
