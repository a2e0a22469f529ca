import test from 'ava';
import { connect, type Socket } from 'node:net';
import tls from 'node:tls';
import { openWorld } from '../scenarios/world.js';
import { listenService, MAX_CONNECTIONS_PER_CLIENT, type Listening } from '../proxy/service-listener.js';
import { exampleToken, startProxiedWorld } from './helpers/proxy.js';
import { run } from './helpers/proxy-processes.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';

// Limits with clear errors: body size (the service's 413), header size (431), slow or silent
// clients (408, then closed), idle kept-alive connections (closed), and connections per client
// (503 naming the limit; the TLS port closes). Every limit leaves the port serving.

const TOKEN = exampleToken();

async function githubPort(options: Partial<Parameters<typeof listenService>[3]> = {}) {
  const { world } = await openWorld({ scenarioDir: EXAMPLE_SCENARIO });
  const port = await listenService(world, 'github', 'api.github.com', { port: 0, ...options });
  return { world, port, close: async () => { await port.close(); await world.journal.close(); } };
}

/** Writes `chunks` `gapMs` apart, then reads until the server closes (at most `limitMs`); `ms` is when it closed. */
async function exchange(port: number, chunks: (string | Buffer)[], gapMs = 0, limitMs = 5_000): Promise<{ reply: string; ms: number; closed: boolean }> {
  const started = Date.now();
  const socket = connect(port, '127.0.0.1');
  let reply = '';
  socket.on('data', (chunk: Buffer) => { reply += chunk.toString('latin1'); });
  socket.on('error', () => {});
  let closedAt = 0;
  const closing = new Promise<boolean>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    socket.once('close', () => { closedAt = Date.now(); clearTimeout(timer); resolve(true); });
    socket.once('connect', () => { timer = setTimeout(() => resolve(false), limitMs + gapMs * chunks.length); });
  });
  for (const chunk of chunks) {
    if (gapMs) await new Promise((resolve) => setTimeout(resolve, gapMs));
    if (!socket.destroyed) socket.write(chunk);
  }
  const closed = await closing;
  socket.destroy();
  return { reply, ms: (closedAt || Date.now()) - started, closed };
}

const statusOf = (reply: string) => /^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 'none';
const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: api.github.com\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`;

async function stillServes(t: import('ava').ExecutionContext, port: Listening) {
  const res = await fetch(`${port.url}/user`, { headers: { authorization: `Bearer ${TOKEN}` } });
  t.is(res.status, 200);
  t.is(((await res.json()) as { login: string }).login, 'alice');
}

test('body size: over the limit is GitHub\'s own 413, journaled as oversize, on the plain port and through the proxy', async (t) => {
  const plain = await githubPort({ bodyLimit: 1024 });
  t.teardown(plain.close);
  const big = JSON.stringify({ title: 'x'.repeat(4096) });
  const res = await fetch(`${plain.port.url}/repos/acme/widgets/issues`, { method: 'POST', body: big, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } });
  t.is(res.status, 413);
  const shape = await res.json() as { message: string; documentation_url?: string };
  t.regex(shape.message, /too large/i);
  let entries = 0;
  for await (const entry of plain.world.journal.entries()) {
    entries += 1;
    t.like(entry, { request: { oversize: true }, response: { status: 413 } });
    t.is(entry.request.body.length, 0);
  }
  t.is(entries, 1);
  await stillServes(t, plain.port);

  const proxied = await startProxiedWorld({ proxy: { bodyLimit: 1024 } });
  t.teardown(proxied.close);
  const viaProxy = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-x', proxied.proxyUrl, '--cacert', proxied.caPath,
    '-H', `Authorization: Bearer ${TOKEN}`, '-H', 'Content-Type: application/json', '--data-binary', big, 'https://api.github.com/repos/acme/widgets/issues']);
  t.is(viaProxy.stdout, '413', viaProxy.stderr);
  t.like((await proxied.entries()).at(-1), { request: { oversize: true }, response: { status: 413 } });
});

test('header size: over 16 KiB is a 431 and the connection closes; nothing is journaled', async (t) => {
  const plain = await githubPort();
  t.teardown(plain.close);
  const oversized = await exchange(plain.port.port, [`GET /user HTTP/1.1\r\nHost: api.github.com\r\nX-Flood: ${'a'.repeat(17 * 1024)}\r\n\r\n`]);
  t.is(statusOf(oversized.reply), '431');
  t.true(oversized.closed);
  const flood = await exchange(plain.port.port, [`GET /user HTTP/1.1\r\nHost: api.github.com\r\n${Array.from({ length: 4000 }, (_, i) => `X-H${i}: v\r\n`).join('')}\r\n`]);
  t.is(statusOf(flood.reply), '431');
  t.is(plain.world.clock.current, 0);
  await stillServes(t, plain.port);
});

test('slowloris: a client trickling headers, or silent, gets a 408 and is cut off; an idle kept-alive connection is closed', async (t) => {
  const plain = await githubPort({ timeouts: { headersMs: 400, requestMs: 2_000, keepAliveMs: 300 } });
  t.teardown(plain.close);
  const trickle = await exchange(plain.port.port, ['GET /user HTTP/1.1\r\n', ...Array.from({ length: 20 }, (_, i) => `X-Slow-${i}: y\r\n`)], 50);
  t.is(statusOf(trickle.reply), '408');
  t.true(trickle.closed);
  t.true(trickle.ms < 2_000, `${trickle.ms} ms`);

  const silent = await exchange(plain.port.port, []);
  t.true(silent.closed);
  t.true(silent.ms < 2_000, `${silent.ms} ms`);

  // A kept-alive connection that goes quiet after its response is closed after keepAliveMs.
  const idle = await exchange(plain.port.port, [get('/user')]);
  t.is(statusOf(idle.reply), '200');
  t.true(idle.closed);
  t.true(idle.ms < 2_000, `${idle.ms} ms`);
  t.is(plain.world.clock.current, 1, 'only the complete request reached the world');
  await stillServes(t, plain.port);
});

/** Opens `n` connections to `port` and waits until each is accepted (it answers nothing yet). */
async function openMany(port: number, n: number): Promise<Socket[]> {
  const sockets = await Promise.all(Array.from({ length: n }, () => new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  })));
  await new Promise((resolve) => setTimeout(resolve, 100)); // the server's accept side catches up
  return sockets;
}

test('connections per client: over the cap a new connection gets a 503 naming the limit and never reaches the world', async (t) => {
  const plain = await githubPort({ maxConnectionsPerClient: 4 });
  t.teardown(plain.close);
  const held = await openMany(plain.port.port, 4);
  const refused = await exchange(plain.port.port, [get('/user')]);
  t.is(statusOf(refused.reply), '503');
  t.regex(refused.reply, /too many open connections from 127\.0\.0\.1 \(limit 4 per client\)/);
  t.regex(refused.reply, /\r\nRetry-After: 1\r\n/);
  t.true(refused.closed);
  t.is(plain.world.clock.current, 0, 'the refused request was never parsed');

  held.pop()!.destroy();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const admitted = await exchange(plain.port.port, [get('/user').replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')]);
  t.is(statusOf(admitted.reply), '200', 'a freed slot is usable again');
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 100));
  await stillServes(t, plain.port);
});

test(`connections per client on the proxy: the default cap (${MAX_CONNECTIONS_PER_CLIENT}) on the explicit port (503) and the TLS port (closed)`, async (t) => {
  const proxied = await startProxiedWorld();
  t.teardown(proxied.close);
  for (const [port, http] of [[proxied.served.proxy.port, true], [proxied.tlsPort, false]] as const) {
    const held = await openMany(port, MAX_CONNECTIONS_PER_CLIENT);
    const refused = await exchange(port, [http ? 'CONNECT api.github.com:443 HTTP/1.1\r\nHost: api.github.com:443\r\n\r\n' : Buffer.from([0x16, 0x03, 0x01])]);
    t.true(refused.closed);
    if (http) t.regex(refused.reply, /^HTTP\/1\.1 503 .*\r\n[\s\S]*too many open connections/);
    else t.is(refused.reply, '');
    for (const socket of held) socket.destroy();
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  const result = await run('curl', ['-sS', '--fail', '-x', proxied.proxyUrl, '--cacert', proxied.caPath, '-H', `Authorization: Bearer ${TOKEN}`, 'https://api.github.com/user']);
  t.is(result.code, 0, result.stderr);
  const viaSni = tls.connect({ port: proxied.tlsPort, host: '127.0.0.1', servername: 'api.github.com', ca: await import('node:fs').then((fs) => fs.readFileSync(proxied.caPath)) });
  await new Promise((resolve, reject) => { viaSni.once('secureConnect', resolve); viaSni.once('error', reject); });
  viaSni.destroy();
});
