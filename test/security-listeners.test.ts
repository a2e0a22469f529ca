import test from 'ava';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openWorld } from '../scenarios/world.js';
import { serveProxyForWorld } from '../proxy/for-world.js';
import { serveWorld } from '../proxy/serve.js';
import { listen, listenService } from '../proxy/service-listener.js';
import { createServer } from 'node:http';
import { beyondLoopback, guardedEnv, readEgressLog } from './helpers/egress-log.js';
import { tempDir } from './helpers/journal.js';
import { exampleToken, testCaDir } from './helpers/proxy.js';
import { ROOT, run, startToolbench } from './helpers/proxy-processes.js';
import type { WorldReady } from './helpers/reliability.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';

// Every listener is on loopback by default (in the source, in each helper, and in the processes
// the CLI starts), and the admin API needs the world's random token for everything but health;
// the split proxy needs no token, because it reads health only.

const SHIPPED = ['bin', 'catalog', 'certs', 'mocks', 'proxy', 'replay', 'scenarios'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|mjs|js)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

test('in the source: one place calls .listen() (proxy/service-listener.ts), and every --host option defaults to 127.0.0.1', (t) => {
  const files = SHIPPED.flatMap((dir) => sourceFiles(join(ROOT, dir)));
  const listening = files.filter((file) => /\.listen\(/.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));
  t.deepEqual(listening, ['proxy/service-listener.ts']);
  const hostOptions = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/option\('host',\s*\{([^}]*)\}/g)].map((m) => [relative(ROOT, file), m[1]!] as const));
  t.true(hostOptions.length >= 2, hostOptions.map(([f]) => f).join(', '));
  for (const [file, option] of hostOptions) t.regex(option, /default: '127\.0\.0\.1'/, file);
  // Nothing in the shipped source binds every interface unless told to.
  const wildcard = files.filter((file) => /(host|address)\s*[:=]\s*['"](0\.0\.0\.0|::)['"]/.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));
  t.deepEqual(wildcard, []);
});

test('each listening helper binds loopback when no host is given', async (t) => {
  const { world, catalog } = await openWorld({ scenarioDir: EXAMPLE_SCENARIO });
  const plain = await listen(createServer(), '127.0.0.1', 0);
  const service = await listenService(world, 'github', 'api.github.com', { port: 0 });
  const served = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0 });
  const proxied = await serveProxyForWorld(world, catalog.catalog, { caDir: testCaDir(), proxyPort: 0, tlsPort: 0 });
  try {
    for (const url of [plain.url, service.url, served.admin.url, ...Object.values(served.services).map((l) => l.url), proxied.proxy.url]) {
      t.regex(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    }
  } finally {
    await Promise.all([plain.close(), service.close(), served.close(), proxied.proxy.close()]);
    await world.journal.close();
  }
});

test('toolbench world and toolbench proxy --world: every socket they listen on is loopback; the admin token guards all but health, and the split proxy needs none', async (t) => {
  const dir = tempDir('toolbench-listeners-');
  const log = join(dir, 'egress.jsonl');
  const secret = join(dir, 'world.secret');
  const world = await startToolbench<WorldReady>(['world', '--scenario', EXAMPLE_SCENARIO, '--ports', 'ephemeral', '--admin-port', '0', '--no-proxy',
    '--secret-file', secret], guardedEnv(log));
  const other = await startToolbench<WorldReady>(['world', '--scenario', EXAMPLE_SCENARIO, '--ports', 'ephemeral', '--admin-port', '0', '--no-proxy'], guardedEnv(log));
  let proxy: Awaited<ReturnType<typeof startToolbench<{ proxy: string; ca: string; clients: Record<string, string> }>>> | undefined;
  try {
    const { admin, token } = world.ready;
    t.regex(token, /^[A-Za-z0-9_-]{32}$/);
    t.not(token, other.ready.token, 'a new random token per world');
    t.is((await fetch(`${admin}/_bench/health`)).status, 200);
    for (const [method, path] of [['GET', '/_bench/state'], ['GET', '/_bench/journal'], ['POST', '/_bench/reset']]) {
      t.is((await fetch(`${admin}${path}`, { method })).status, 401, `${method} ${path} without the token`);
      t.is((await fetch(`${admin}${path}`, { method, headers: { authorization: `Bearer ${other.ready.token}` } })).status, 401, `${method} ${path} with another world's token`);
    }
    t.is((await fetch(`${admin}/_bench/state`, { headers: { authorization: `Bearer ${token}` } })).status, 200);

    proxy = await startToolbench(['proxy', '--world', admin, '--secret-file', secret, '--ca-dir', testCaDir(), '--proxy-port', '0', '--tls-port', '0', '--client', 'github'], guardedEnv(log));
    const result = await run('curl', ['-sS', '--fail', '-x', proxy.ready.clients.github!, '--cacert', proxy.ready.ca, '-H', `Authorization: Bearer ${exampleToken()}`, 'https://api.github.com/user']);
    t.is(result.code, 0, result.stderr);
  } finally {
    await proxy?.stop();
    await other.stop();
    await world.stop();
  }
  const events = readEgressLog(log);
  t.is(new Set(events.filter((e) => e.kind === 'loaded').map((e) => e.pid)).size, 3, 'two worlds and the proxy ran with the guard');
  const listens = events.filter((e) => e.kind === 'listen');
  t.true(listens.length >= 6, `${listens.length} listeners`);
  t.deepEqual(beyondLoopback(events).map((e) => `${e.kind} ${e.host}`), [], 'every listener and connection on loopback');
});

test('--admin-token-file: made 0600 when missing and reused; a group-readable one is refused', async (t) => {
  const dir = tempDir('toolbench-token-');
  const file = join(dir, 'admin-token');
  const first = await startToolbench<WorldReady>(['world', '--ports', 'ephemeral', '--admin-port', '0', '--no-proxy', '--admin-token-file', file]);
  await first.stop();
  t.is(statSync(file).mode & 0o777, 0o600);
  t.is(readFileSync(file, 'utf8').trim(), first.ready.token);
  const second = await startToolbench<WorldReady>(['world', '--ports', 'ephemeral', '--admin-port', '0', '--no-proxy', '--admin-token-file', file]);
  await second.stop();
  t.is(second.ready.token, first.ready.token, 'the same token from the same file');

  const readable = join(dir, 'readable-token');
  writeFileSync(readable, 'a'.repeat(32) + '\n', { mode: 0o644 });
  const refused = await startToolbench<WorldReady>(['world', '--ports', 'ephemeral', '--admin-port', '0', '--no-proxy', '--admin-token-file', readable])
    .then(() => 'started', (error: Error) => error.message);
  t.regex(refused, /admin token file .*readable-token is readable by other users \(mode 0644\)/);
});
