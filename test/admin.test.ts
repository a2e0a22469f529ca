import test from 'ava';
import { createServer } from 'node:http';
import { createAdminHandler, withAdminToken } from '../mocks/core/admin.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { listen, listenService } from '../proxy/service-listener.js';
import { counterService } from './helpers/counter-service.js';
import { testHeader } from './helpers/journal.js';

async function start() {
  const world = new World({
    seed: 7, epochMs: Date.parse('2025-01-01T00:00:00Z'), tickMs: 1000, journal: new MemoryJournal(testHeader()),
    services: [{ id: 'counter', hostnames: ['counter.test'], definition: counterService, data: { items: ['first'] } }],
  });
  const admin = await listen(createServer(withAdminToken(TOKEN, createAdminHandler(world, { scenario: 'test/counter' }))), '127.0.0.1', 0);
  const service = await listenService(world, 'counter', 'counter.test', { port: 0, bodyLimit: 1024 });
  return { world, admin: admin.url, service: service.url, close: async () => { await admin.close(); await service.close(); } };
}

const TOKEN = 'test-admin-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };
/** `fetch` on the admin API with the token. */
function get(url: string, init: RequestInit = {}) {
  return fetch(url, { ...init, headers: AUTH });
}

test('health, state, journal lines with text and base64 bodies, reset', async (t) => {
  const w = await start();
  t.teardown(w.close);
  t.like(await (await fetch(`${w.admin}/_bench/health`)).json(), { ok: true, seq: 0, scenario: 'test/counter' });

  await fetch(`${w.service}/items`, { method: 'POST', body: JSON.stringify({ name: 'second' }) });
  await fetch(`${w.service}/items`, { method: 'POST', body: new Uint8Array([0xff, 0xfe, 0x00]) });
  const state = await (await get(`${w.admin}/_bench/state`)).json() as { counter: { items: Record<string, { name: string }> } };
  t.deepEqual(Object.values(state.counter.items).map((i) => i.name), ['first', 'second']);

  const journal = await get(`${w.admin}/_bench/journal`);
  t.is(journal.headers.get('content-type'), 'application/x-ndjson; charset=utf-8');
  const lines = (await journal.text()).trim().split('\n').map((line) => JSON.parse(line));
  t.is(lines.length, 2);
  t.like(lines[0], { seq: 1, kind: 'http', service: 'counter', host: 'counter.test', method: 'POST', target: '/items' });
  t.deepEqual(lines[0].request.body, { encoding: 'utf8', data: '{"name":"second"}', size: 17 });
  t.deepEqual(lines[1].request.body, { encoding: 'base64', data: '//4A', size: 3 });
  t.is(lines[1].response.status, 400);
  const ranged = (await (await get(`${w.admin}/_bench/journal?from=2&to=2`)).text()).trim().split('\n');
  t.is(ranged.length, 1);
  t.is((await get(`${w.admin}/_bench/journal?from=x`)).status, 400);

  t.like(await (await get(`${w.admin}/_bench/reset`, { method: 'POST' })).json(), { ok: true, seq: 3 });
  const after = await (await get(`${w.admin}/_bench/state`)).json() as { counter: { items: Record<string, { name: string }> } };
  t.deepEqual(Object.values(after.counter.items).map((i) => i.name), ['first']);
});

test('every admin route but health needs the token: none, a wrong one or another scheme is a 401 that says how', async (t) => {
  const w = await start();
  t.teardown(w.close);
  t.is((await fetch(`${w.admin}/_bench/health`)).status, 200, 'health is open');
  t.is((await fetch(`${w.admin}/_bench/health?x=1`)).status, 200);
  for (const [method, path] of [['GET', '/_bench/state'], ['GET', '/_bench/journal'], ['POST', '/_bench/reset'], ['GET', '/_bench/nope'],
    ['POST', '/_bench/health'], ['GET', '/_bench/health/../state'], ['GET', '//_bench/state']] as const) {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `bearer ${TOKEN}`, `Basic ${TOKEN}`, TOKEN, 'Bearer ']) {
      const res = await fetch(`${w.admin}${path}`, { method, headers: authorization === undefined ? {} : { authorization } });
      t.is(res.status, 401, `${method} ${path} with ${authorization}`);
      t.is(res.headers.get('www-authenticate'), 'Bearer realm="toolbench admin"');
      t.regex(((await res.json()) as { error: string }).error, /Authorization: Bearer TOKEN/);
    }
  }
  t.is(w.world.clock.current, 0, 'no refused reset reached the world');
  t.is((await get(`${w.admin}/_bench/state`)).status, 200);
});

test('unknown admin routes and wrong methods explain themselves', async (t) => {
  const w = await start();
  t.teardown(w.close);
  const missing = await get(`${w.admin}/_bench/nope`);
  t.is(missing.status, 404);
  t.like(await missing.json(), { routes: ['GET /_bench/health', 'GET /_bench/journal', 'GET /_bench/state', 'POST /_bench/reset'] });
  const wrong = await get(`${w.admin}/_bench/reset`);
  t.is(wrong.status, 405);
  t.like(await wrong.json(), { allowed: ['POST'] });
});

test('an oversized body gets the service\'s 413 without reaching the handler, and is journaled', async (t) => {
  const w = await start();
  t.teardown(w.close);
  const res = await fetch(`${w.service}/items`, { method: 'POST', body: 'x'.repeat(5000) });
  t.is(res.status, 413);
  t.deepEqual(await res.json(), { message: 'payload_too_large' });
  const [line] = (await (await get(`${w.admin}/_bench/journal`)).text()).trim().split('\n').map((l) => JSON.parse(l));
  t.like(line, { request: { oversize: true, body: { size: 0 } }, response: { status: 413 } });
  t.is((await fetch(`${w.service}/items`)).status, 200, 'the port keeps serving');
});

test('responses carry exactly the world\'s headers: Date from the logical clock, no chunking', async (t) => {
  const w = await start();
  t.teardown(w.close);
  const res = await fetch(`${w.service}/items`);
  t.is(res.headers.get('date'), 'Wed, 01 Jan 2025 00:00:01 GMT');
  t.is(res.headers.get('x-toolbench-seq'), '1');
  t.is(res.headers.get('transfer-encoding'), null);
  t.is(Number(res.headers.get('content-length')), (await res.arrayBuffer()).byteLength);
});
