import test from 'ava';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleToken } from './helpers/proxy.js';
import { nodeClient, run, startToolbench, type Daemon } from './helpers/proxy-processes.js';

// `toolbench world` with its proxy, and `toolbench proxy --world` in front of a world in
// another process: same traffic, identical journals.

import type { WorldReady } from '../bin/world-ready.js';
import { CLI_ARGS } from './helpers/cli.js';
import { tempDir } from './helpers/journal.js';
interface ProxyReady { proxy: string; tls: number; ca: string; world: string; clients: Record<string, string> }

const TOKEN = exampleToken();
const temp = () => tempDir('toolbench-cli-');
const EPHEMERAL = ['--ports', 'ephemeral', '--admin-port', '0'];

async function journalLines({ admin, token }: WorldReady): Promise<string[]> {
  return (await (await fetch(`${admin}/_bench/journal`, { headers: { authorization: `Bearer ${token}` } })).text()).split('\n').filter(Boolean);
}

test('toolbench world --json: proxy, tls and ca in the ready line; every listener on loopback; the CA key is 0600', async (t) => {
  const caDir = join(temp(), 'ca');
  const world = await startToolbench<WorldReady>(['world', ...EPHEMERAL, '--ca-dir', caDir, '--client', 'github']);
  try {
    const { ready } = world;
    t.regex(ready.proxy!, /^http:\/\/127\.0\.0\.1:\d+$/);
    t.true(Number.isInteger(ready.tls) && ready.tls! > 0);
    t.is(ready.ca, join(caDir, 'ca.pem'));
    t.regex(ready.admin, /^http:\/\/127\.0\.0\.1:\d+$/);
    for (const url of Object.values(ready.services)) t.regex(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    t.is(statSync(join(caDir, 'ca-key.pem')).mode & 0o777, 0o600);
    t.is(statSync(join(caDir, 'leaf-key.pem')).mode & 0o777, 0o600);
    t.regex(ready.clients.github!, /^http:\/\/github:[A-Za-z0-9_-]+@127\.0\.0\.1:\d+$/);

    const result = await run('curl', ['-sS', '--fail', '-x', ready.clients.github!, '--cacert', ready.ca!, '-H', `Authorization: Bearer ${TOKEN}`, 'https://api.github.com/user']);
    t.is(result.code, 0, result.stderr);
    const [line] = await journalLines(ready);
    t.like(JSON.parse(line!), { target: '/user', attribution: { kind: 'mcp', client: 'github' } });
  } finally {
    t.is(await world.stop(), 0);
  }
});

test('--host moves every listener (here to IPv6 loopback)', async (t) => {
  const world = await startToolbench<WorldReady>(['world', ...EPHEMERAL, '--ca-dir', join(temp(), 'ca'), '--host', '::1']);
  try {
    for (const url of [world.ready.admin, world.ready.proxy!, ...Object.values(world.ready.services)]) t.regex(url, /^http:\/\/\[::1\]:\d+$/);
    const result = await run('curl', ['-sS', '--fail', '-x', world.ready.proxy!, '--cacert', world.ready.ca!, '-H', `Authorization: Bearer ${TOKEN}`, 'https://api.github.com/user']);
    t.is(result.code, 0, result.stderr);
    const transparent = await run('curl', ['-sS', '--fail', '--cacert', world.ready.ca!, '--resolve', `api.github.com:${world.ready.tls}:::1`,
      '-H', `Authorization: Bearer ${TOKEN}`, `https://api.github.com:${world.ready.tls}/user`]);
    t.is(transparent.code, 0, transparent.stderr);
  } finally {
    await world.stop();
  }
});

/** The same client traffic, in the same order: curl, Python, Node, transparent TLS, refusals. */
async function traffic(t: import('ava').ExecutionContext, proxyWithCredential: string, proxy: string, tls: number, ca: string): Promise<void> {
  const auth = ['-H', `Authorization: Bearer ${TOKEN}`];
  const steps: [string, string[], Record<string, string>?][] = [
    ['curl', ['-sS', '-x', proxyWithCredential, '--cacert', ca, ...auth, 'https://api.github.com/user']],
    ['curl', ['-sS', '-x', proxyWithCredential, '--cacert', ca, ...auth, '-H', 'X-Dup: 1', '-H', 'X-Other: 2', '-H', 'X-Dup: 3',
      '-H', 'Content-Type: application/json', '-d', '{"title":"Split or not","body":"same bytes"}', 'https://api.github.com/repos/acme/widgets/issues']],
    ['curl', ['-sS', '-x', proxyWithCredential, ...auth, 'http://api.github.com/repos/acme/widgets/issues?per_page=2&page=2']],
    // `Expect: 100-continue`: curl waits for the interim response before sending the body.
    ['curl', ['-sS', '-x', proxyWithCredential, '--cacert', ca, ...auth, '-H', 'Content-Type: application/json', '-H', 'Expect: 100-continue',
      '-d', JSON.stringify({ title: 'A long one', body: 'x'.repeat(3000) }), 'https://api.github.com/repos/acme/widgets/issues']],
    ['curl', ['-sS', '-x', proxyWithCredential, '--cacert', ca, 'https://example.com/']],
    ['curl', ['-sS', '-x', proxyWithCredential, '-d', 'a=1', 'http://example.com/form']],
    // Noise (answered by the world from the catalog) and a cloud-metadata probe (a fast 404).
    ['curl', ['-sS', '-x', proxyWithCredential, '--cacert', ca, '-d', '{"e":1}', 'https://api.agnost.ai/api/v1/capture-event']],
    ['curl', ['-sS', '-x', proxyWithCredential, '--cacert', ca, 'https://registry.npmjs.org/@zereight%2fmcp-gitlab']],
    ['curl', ['-sS', '-x', proxyWithCredential, 'http://169.254.169.254/latest/meta-data/']],
    ['curl', ['-sS', '-x', proxy, '--cacert', ca, 'https://api.github.com/repos/acme/widgets//issues//1']],
    // Transparent TLS, as a client whose DNS maps the hostnames to the proxy sees it.
    ['curl', ['-sS', '--cacert', ca, '--connect-to', `api.github.com:443:127.0.0.1:${tls}`, ...auth, 'https://api.github.com/repos/acme/widgets']],
    ['curl', ['-sS', '--cacert', ca, '--connect-to', `nope.example.org:443:127.0.0.1:${tls}`, 'https://nope.example.org/']],
    ['python3', ['-c', 'import os, urllib.request\nr = urllib.request.Request("https://api.github.com/user/repos", headers={"Authorization": "Bearer " + os.environ["T"]})\nprint(urllib.request.urlopen(r).status)'],
      { HTTPS_PROXY: proxyWithCredential, SSL_CERT_FILE: ca, T: TOKEN }],
  ];
  for (const [file, args, env] of steps) await run(file, args, env);
  const { results } = await nodeClient(proxyWithCredential, ca, ['fetch', 'fetch-post', 'https-get', 'octokit', 'https-outside'], TOKEN);
  t.is(results.length, 5);
}

test('the same traffic through toolbench proxy --world and through the in-process proxy yields identical journals', async (t) => {
  const dir = temp();
  const caDir = join(dir, 'ca');
  const secretFile = join(dir, 'world.secret');

  const inProcess = await startToolbench<WorldReady>(['world', ...EPHEMERAL, '--ca-dir', caDir, '--client', 'github']);
  let single: string[];
  try {
    await traffic(t, inProcess.ready.clients.github!, inProcess.ready.proxy!, inProcess.ready.tls!, inProcess.ready.ca!);
    single = await journalLines(inProcess.ready);
  } finally {
    await inProcess.stop();
  }

  const world = await startToolbench<WorldReady>(['world', ...EPHEMERAL, '--no-proxy', '--secret-file', secretFile]);
  let split: string[];
  let proxy: Daemon<ProxyReady> | undefined;
  try {
    t.is(world.ready.proxy, null);
    t.is(statSync(secretFile).mode & 0o777, 0o600);
    proxy = await startToolbench<ProxyReady>(['proxy', '--world', world.ready.admin, '--secret-file', secretFile,
      '--proxy-port', '0', '--tls-port', '0', '--ca-dir', caDir, '--client', 'github']);
    t.is(proxy.ready.world, world.ready.admin);
    await traffic(t, proxy.ready.clients.github!, proxy.ready.proxy, proxy.ready.tls, proxy.ready.ca);
    split = await journalLines(world.ready);
  } finally {
    await proxy?.stop();
    await world.stop();
  }

  t.true(single.length >= 14, `${single.length} entries`);
  const kinds = single.map((line) => (JSON.parse(line) as { attribution: { kind: string } | null }).attribution?.kind);
  t.deepEqual([...new Set(kinds)].sort(), ['blocked', 'direct', 'mcp']);
  const noise = single.map((line) => JSON.parse(line) as { kind: string; host: string; response: { status: number } }).filter((e) => e.kind === 'noise');
  t.deepEqual(noise.map((e) => [e.host, e.response.status]), [['api.agnost.ai', 200], ['registry.npmjs.org', 404]]);
  t.true(single.some((line) => line.includes('"host":"169.254.169.254"') && line.includes('"status":404')), 'the metadata probe got its 404');
  t.true(single.some((line) => line.includes('["Expect","100-continue"]')), 'a request waited for 100 Continue');
  // Compare entry by entry, so a failure names the first divergence rather than the whole journal.
  t.is(split.length, single.length);
  for (let i = 0; i < single.length; i++) {
    if (split[i] !== single[i]) {
      t.deepEqual(JSON.parse(split[i] ?? 'null'), JSON.parse(single[i]!), `entry ${i + 1} differs`);
      break;
    }
  }
  t.deepEqual(split, single);
});

test('toolbench proxy refuses to start without the world\'s secret or a reachable world', async (t) => {
  const dir = temp();
  const missing = await run(process.execPath, [...CLI_ARGS, 'proxy', '--world', 'http://127.0.0.1:9', '--secret-file', join(dir, 'none'), '--ca-dir', join(dir, 'ca')],
    { PATH: process.env.PATH! });
  t.is(missing.code, 2);
  t.regex(missing.stderr, /no world secret at .*none/);

  const secret = join(dir, 'secret');
  writeFileSync(secret, 'ab'.repeat(32), { mode: 0o600 });
  const unreachable = await run(process.execPath, [...CLI_ARGS, 'proxy', '--world', 'http://127.0.0.1:9', '--secret-file', secret, '--ca-dir', join(dir, 'ca')],
    { PATH: process.env.PATH! });
  t.is(unreachable.code, 2);
  t.regex(unreachable.stderr, /cannot reach the world's admin API at http:\/\/127\.0\.0\.1:9\/_bench\/health/);
});
