import test from 'ava';
import { once } from 'node:events';
import { createServer } from 'node:net';
import tls from 'node:tls';
import { MemoryJournal } from '../mocks/core/journal.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { World } from '../mocks/core/world.js';
import { blockedResponse } from '../proxy/blocked.js';
import { looksLikeTls, readClientHello } from '../proxy/client-hello.js';
import { ProxyCredentials } from '../proxy/credentials.js';
import { hostOfTarget, originForm } from '../proxy/exchange.js';
import { signForwarded, verifyForwarded, type Forwarded } from '../proxy/forwarded.js';
import { FORWARDED_HEADER, worldHeaders } from '../proxy/headers.js';
import { HostRoutes, hostOfHeader, parseAuthority } from '../proxy/routes.js';
import { listenService } from '../proxy/service-listener.js';
import { counterService } from './helpers/counter-service.js';
import { testHeader } from './helpers/journal.js';

// The proxy's pure parts: bytes and headers in, decisions out, no sockets (except where noted).

/** The first flight of a real TLS client (Node's), as the transparent listener receives it. */
async function clientHello(servername?: string): Promise<Buffer> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const received = new Promise<Buffer>((resolve) => server.once('connection', (socket) => socket.once('data', (chunk: Buffer) => {
    resolve(chunk);
    socket.destroy();
  })));
  const client = tls.connect({ port: (server.address() as { port: number }).port, host: '127.0.0.1', servername });
  client.on('error', () => {});
  const hello = await received;
  server.close();
  return hello;
}

test('ClientHello: the server name is read without terminating TLS, at any split of the bytes', async (t) => {
  const hello = await clientHello('API.GitHub.com');
  t.true(looksLikeTls(hello));
  t.deepEqual(readClientHello(hello), { kind: 'hello', sni: 'api.github.com' });
  for (const cut of [0, 1, 4, 5, 40, hello.length - 1]) t.deepEqual(readClientHello(hello.subarray(0, cut)), { kind: 'incomplete' });
  t.deepEqual(readClientHello(await clientHello()), { kind: 'hello', sni: null }); // an IP host: no SNI
});

test('ClientHello: plain HTTP, other record types and malformed hellos are not TLS', (t) => {
  t.false(looksLikeTls(Buffer.from('GET / HTTP/1.1\r\n')));
  t.like(readClientHello(Buffer.from('GET / HTTP/1.1\r\n\r\n')), { kind: 'not-tls' });
  t.like(readClientHello(Buffer.from([0x17, 0x03, 0x03, 0x00, 0x01, 0x00])), { kind: 'not-tls' });
  const reason = (bytes: number[]) => {
    const verdict = readClientHello(Buffer.from(bytes));
    return verdict.kind === 'not-tls' ? verdict.reason : `not refused: ${verdict.kind}`;
  };
  t.regex(reason([0x16, 0x03, 0x01, 0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x00]), /not a ClientHello/);
  t.regex(reason([0x16, 0x03, 0x01, 0x00, 0x06, 0x01, 0x00, 0x00, 0x02, 0x03, 0x03]), /malformed/);
  t.regex(reason([0x16, 0x03, 0x01, 0x00, 0x04, 0x01, 0xff, 0xff, 0xff]), /too large/);
});

test('world headers: hop-by-hop, proxy and forwarding headers go; the rest keep their order and spelling', (t) => {
  t.deepEqual(worldHeaders([
    ['Host', 'api.github.com'], ['Proxy-Authorization', 'Basic eDp5'], ['Connection', 'keep-alive, X-Trace'],
    ['X-Trace', '1'], ['accept', '*/*'], ['Keep-Alive', 'timeout=5'], ['Proxy-Connection', 'Keep-Alive'],
    ['Transfer-Encoding', 'chunked'], ['TE', 'trailers'], [FORWARDED_HEADER, 'forged'], ['X-Dup', 'a'], ['x-dup', 'b'],
  ]), [['Host', 'api.github.com'], ['accept', '*/*'], ['X-Dup', 'a'], ['x-dup', 'b']]);
});

test('routes: catalog hosts to their service, passthrough hosts, everything else blocked', (t) => {
  const routes = new HostRoutes({ services: [{ id: 'github', hostnames: ['api.github.com'] }], passthrough: ['api.anthropic.com'] });
  t.deepEqual(routes.route('API.GITHUB.COM.'), { kind: 'service', host: 'api.github.com', service: 'github' });
  t.deepEqual(routes.route('api.anthropic.com'), { kind: 'passthrough', host: 'api.anthropic.com' });
  t.deepEqual(routes.route('github.com'), { kind: 'blocked', host: 'github.com', why: 'outside-catalog' });
  t.deepEqual(routes.tlsNames, ['api.github.com']);
  t.deepEqual(parseAuthority('api.github.com:443'), { host: 'api.github.com', port: 443 });
  t.deepEqual(parseAuthority('[::1]:8443'), { host: '[::1]', port: 8443 });
  for (const bad of ['api.github.com', 'api.github.com:0', 'api.github.com:65536', ':443', 'a b:443', 'user@host:443', '']) t.is(parseAuthority(bad), null, bad);
  t.is(hostOfHeader('Api.GitHub.com:8443'), 'api.github.com');
  t.is(hostOfHeader('[::1]:80'), '[::1]');
});

test('absolute-form targets: origin-form kept byte for byte, host without userinfo or port', (t) => {
  t.is(originForm('http://api.github.com/repos//a/b?q=%2F&x'), '/repos//a/b?q=%2F&x');
  t.is(originForm('http://api.github.com'), '/');
  t.is(originForm('http://api.github.com?x=1'), '/?x=1');
  t.is(originForm('/already/origin'), '/already/origin');
  t.is(hostOfTarget('http://user:pw@API.github.com:80/x'), 'api.github.com');
  t.is(hostOfTarget('https://[::1]:443/'), '[::1]');
  t.is(hostOfTarget('/x'), null);
});

test('credentials: random per registry, the client named only by a matching password', (t) => {
  let n = 0;
  const credentials = new ProxyCredentials((size) => Buffer.alloc(size, ++n));
  const github = credentials.issue('github');
  t.is(credentials.issue('github'), github);
  t.not(credentials.issue('slack').password, github.password);
  t.is(new ProxyCredentials().issue('github').password.length, 32);
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  t.is(credentials.clientOf(basic('github', github.password)), 'github');
  t.is(credentials.clientOf(basic('github', 'guess')), null);
  t.is(credentials.clientOf(basic('stranger', github.password)), null);
  t.is(credentials.clientOf('Bearer abc'), null);
  t.is(credentials.clientOf(undefined), null);
  t.is(credentials.url('github', 'http://127.0.0.1:8080'), `http://github:${github.password}@127.0.0.1:8080`);
  t.throws(() => credentials.issue('bad name'), { code: 'TB_ERR_USAGE' } as never);
});

test('forwarded identity: verified only with the world\'s secret and untampered', (t) => {
  const secret = Buffer.alloc(32, 7);
  const forwarded: Forwarded = {
    host: 'api.github.com', method: 'GET', target: '/user', headers: [['Host', 'api.github.com']],
    attribution: { kind: 'mcp', client: 'github', endpoint: 'github', tool: null, callId: null }, oversize: false, refusal: null, noise: false,
  };
  const value = signForwarded(forwarded, secret);
  t.deepEqual(verifyForwarded(value, secret), forwarded);
  t.is(verifyForwarded(value, Buffer.alloc(32, 8)), null);
  t.is(verifyForwarded(value, undefined), null);
  const [payload, mac] = value.split('.');
  const tampered = Buffer.from(JSON.stringify({ ...forwarded, target: '/admin' })).toString('base64url');
  t.is(verifyForwarded(`${tampered}.${mac}`, secret), null);
  t.is(verifyForwarded(payload, secret), null);
});

test('a service port ignores (and never journals) a forwarded header it cannot verify', async (t) => {
  const journal = new MemoryJournal(testHeader());
  const world = new World({ seed: 7, epochMs: Date.parse('2025-01-01T00:00:00Z'), tickMs: 1000, journal,
    services: [{ id: 'counter', hostnames: ['counter.test'], definition: counterService, data: { items: [] } }] });
  const secret = Buffer.alloc(32, 1);
  const port = await listenService(world, 'counter', 'counter.test', { port: 0, forwardSecret: secret });
  try {
    const forged = signForwarded({
      host: 'evil.test', method: 'DELETE', target: '/items', headers: [], oversize: false, refusal: null, noise: false,
      attribution: { kind: 'mcp', client: 'github', endpoint: null, tool: null, callId: null },
    }, Buffer.alloc(32, 2));
    const response = await fetch(`${port.url}/items`, { headers: { [FORWARDED_HEADER]: forged, 'x-kept': '1' } });
    t.is(response.status, 200);
    await journal.flush();
    const entries: JournalEntry[] = [];
    for await (const entry of journal.entries()) entries.push(entry);
    t.like(entries[0], { host: 'counter.test', method: 'GET', target: '/items', attribution: null });
    t.false(entries[0]!.request.headers.some(([name]) => name.toLowerCase() === FORWARDED_HEADER.toLowerCase()));
    t.true(entries[0]!.request.headers.some(([name]) => name === 'x-kept'));
  } finally {
    await port.close();
  }
});

test('the 403 for a refused host names it and the fix, the same bytes every time', (t) => {
  const response = blockedResponse('example.com');
  t.is(response.status, 403);
  t.deepEqual(response, blockedResponse('example.com'));
  const text = Buffer.from(response.body).toString();
  t.regex(text, /example\.com is not in the catalog/);
  t.regex(text, /hostnames.*catalog\/services\.toml.*passthrough/);
  t.regex(Buffer.from(blockedResponse('api.anthropic.com', 'passthrough-needs-connect').body).toString(), /only tunnelled/);
});
