import test from 'ava';
import { connect, type Socket } from 'node:net';
import tls from 'node:tls';
import { serveWorld, type ServedWorld } from '../proxy/serve.js';
import { exampleToken, startProxiedWorld, type ProxiedWorld } from './helpers/proxy.js';
import { run } from './helpers/proxy-processes.js';

// Garbage on every port gets a clean close or an error response, and the proxy keeps serving.

const TIMEOUTS = { headersMs: 300, requestMs: 3_000, keepAliveMs: 1_000, handshakeMs: 300 };
let w: ProxiedWorld;
let ports: ServedWorld;

test.before(async () => {
  w = await startProxiedWorld({ proxy: { timeouts: TIMEOUTS } });
  ports = await serveWorld(w.world, [{ id: 'github', group: 'code', description: '', hostnames: ['api.github.com'], port: 1, auth: 'bearer' }], { ports: 'ephemeral', adminPort: 0 });
});
test.after.always(async () => {
  await ports?.close();
  await w?.close();
});

interface Outcome { reply: Buffer; ms: number }

/** Writes each chunk (waiting `gapMs` between them), then reads until the server closes (at most 5 s). */
async function probe(port: number, chunks: (string | Buffer)[], gapMs = 0): Promise<Outcome> {
  const started = Date.now();
  const socket = connect(port, '127.0.0.1');
  let reply = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => { reply = Buffer.concat([reply, chunk]); });
  socket.on('error', () => {});
  for (const chunk of chunks) {
    if (gapMs) await new Promise((resolve) => setTimeout(resolve, gapMs));
    if (!socket.destroyed) socket.write(chunk);
  }
  await closed(socket);
  return { reply, ms: Date.now() - started };
}

function closed(socket: Socket | tls.TLSSocket, limitMs = 5_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not close the connection')), limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A raw CONNECT to api.github.com:443; resolves with the tunnel socket once the 200 is in. */
async function tunnel(): Promise<Socket> {
  const socket = connect(w.served.proxy.port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write('CONNECT api.github.com:443 HTTP/1.1\r\nHost: api.github.com:443\r\n\r\n');
  await new Promise<void>((resolve) => {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      resolve();
    };
    socket.on('data', onData);
  });
  return socket;
}

const status = (outcome: Outcome) => /^HTTP\/1\.1 (\d{3})/.exec(outcome.reply.toString('latin1'))?.[1] ?? 'closed';
const GARBAGE = Buffer.from([0x00, 0xff, 0x13, 0x37, 0x0d, 0x0a, 0x80, 0x16, 0x03, 0x99, 0x0d, 0x0a, 0x0d, 0x0a]);

/** After each ordeal the proxy still serves a real client. */
async function stillServing(t: import('ava').ExecutionContext) {
  const result = await run('curl', ['-sS', '--fail', '-x', w.proxyUrl, '--cacert', w.caPath, '-H', `Authorization: Bearer ${exampleToken()}`, 'https://api.github.com/user']);
  t.is(result.code, 0, result.stderr);
  const viaSni = await run('curl', ['-sS', '--fail', '--cacert', w.caPath, '--resolve', `api.github.com:${w.tlsPort}:127.0.0.1`,
    '-H', `Authorization: Bearer ${exampleToken()}`, `https://api.github.com:${w.tlsPort}/user`]);
  t.is(viaSni.code, 0, viaSni.stderr);
}

test.serial('explicit proxy port: binary garbage, broken CONNECT lines and bad authorities get a 400', async (t) => {
  const port = w.served.proxy.port;
  t.is(status(await probe(port, [GARBAGE])), '400');
  t.is(status(await probe(port, ['CONNECT\r\n\r\n'])), '400');
  t.is(status(await probe(port, ['CONNECT api.github.com HTTP/1.1\r\nHost: x\r\n\r\n'])), '400');
  t.is(status(await probe(port, ['CONNECT api.github.com:99999 HTTP/1.1\r\nHost: x\r\n\r\n'])), '400');
  t.is(status(await probe(port, ['GET / HTTP/1.1\r\n\r\n'])), '400');
  t.is(status(await probe(port, [`GET http://api.github.com/ HTTP/1.1\r\nHost: api.github.com\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`])), '431');
  await stillServing(t);
});

test.serial('explicit proxy port: slow headers time out (408), a silent tunnel is closed', async (t) => {
  const slow = await probe(w.served.proxy.port, ['GET http://api.github.com/user HTTP/1.1\r\n', 'Host: api.git'], 50);
  t.is(status(slow), '408');
  t.true(slow.ms < 3_000);
  const silent = await tunnel();
  const started = Date.now();
  await closed(silent);
  t.true(Date.now() - started < 3_000);
  await stillServing(t);
});

test.serial('inside a CONNECT tunnel: non-TLS garbage, broken TLS, a mismatched name and slow headers', async (t) => {
  const plain = await tunnel();
  let reply = '';
  plain.on('data', (chunk: Buffer) => { reply += chunk.toString('latin1'); });
  plain.write(GARBAGE.subarray(0, 4)); // does not start with 0x16: parsed as (broken) HTTP
  plain.write('\r\n\r\n');
  await closed(plain);
  t.regex(reply, /^HTTP\/1\.1 400/);

  const brokenTls = await tunnel();
  brokenTls.write(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05, 0xde, 0xad, 0xbe, 0xef, 0x00]));
  await closed(brokenTls);

  // The leaf is for the CONNECT host; a client asking for another name rejects it and leaves.
  const wrongName = tls.connect({ socket: await tunnel(), servername: 'www.github.com', ca: await caPem() });
  const error = await new Promise<Error>((resolve) => wrongName.once('error', resolve));
  t.regex(error.message, /does not match|altnames/i);

  const slowInside = tls.connect({ socket: await tunnel(), servername: 'api.github.com', ca: await caPem() });
  await new Promise((resolve) => slowInside.once('secureConnect', resolve));
  let inside = '';
  slowInside.on('data', (chunk: Buffer) => { inside += chunk.toString('latin1'); });
  slowInside.on('error', () => {});
  slowInside.write('GET /user HTTP/1.1\r\nHost: api.gi');
  await closed(slowInside);
  t.regex(inside, /^HTTP\/1\.1 408/);
  await stillServing(t);
});

test.serial('transparent TLS port: plain HTTP, garbage, a bad ClientHello and a slow one are dropped; no or unknown SNI gets an alert', async (t) => {
  const port = w.tlsPort;
  t.is((await probe(port, ['GET / HTTP/1.1\r\nHost: api.github.com\r\n\r\n'])).reply.length, 0);
  t.is((await probe(port, [GARBAGE])).reply.length, 0);
  t.is((await probe(port, [Buffer.from([0x16, 0x03, 0x01, 0x00, 0x06, 0x01, 0x00, 0x00, 0x02, 0x03, 0x03])])).reply.length, 0);
  const slow = await probe(port, [Buffer.from([0x16, 0x03, 0x01])]);
  t.is(slow.reply.length, 0);
  t.true(slow.ms < 3_000);

  const before = (await w.entries()).length;
  for (const servername of ['unknown.example.org', undefined]) {
    const client = tls.connect({ port, host: '127.0.0.1', servername, ca: await caPem() });
    const error = await new Promise<Error>((resolve) => client.once('error', resolve));
    t.regex(error.message, /unrecognized name/);
  }
  const refused = (await w.entries()).slice(before).filter((e) => e.attribution?.kind === 'blocked');
  t.deepEqual(refused.map((e) => [e.method, e.target, e.attribution?.kind]), [['CONNECT', 'unknown.example.org:443', 'blocked']]);
  await stillServing(t);
});

test.serial('the world\'s plain service and admin ports answer garbage with a 400 and keep serving', async (t) => {
  for (const url of [ports.services.github!.url, ports.admin.url]) {
    const port = Number(new URL(url).port);
    t.is(status(await probe(port, [GARBAGE])), '400');
  }
  const health = await fetch(`${ports.admin.url}/_bench/health`);
  t.is(health.status, 200);
});

let ca: string | undefined;
async function caPem(): Promise<string> {
  ca ??= (await import('node:fs')).readFileSync(w.caPath, 'utf8');
  return ca;
}
