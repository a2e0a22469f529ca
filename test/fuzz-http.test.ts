import test from 'ava';
import fc from 'fast-check';
import { openWorld } from '../scenarios/world.js';
import { replayJournal } from '../replay/run.js';
import { fromJournal } from '../replay/source.js';
import { serveWorld, type ServedWorld } from '../proxy/serve.js';
import { listenService, type Listening } from '../proxy/service-listener.js';
import { bodyArb, eolArb, fcOptions, headersArb, mostly, probe, replyIsHttpOrNothing, requestArb, splitsArb, fuzzTimeout } from './helpers/fuzz.js';
import { guardNetwork, type NetGuard } from './helpers/proxy-net-guard.js';
import { exampleToken, startProxiedWorld, type ProxiedWorld } from './helpers/proxy.js';
import { run } from './helpers/proxy-processes.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';

// Generated malformed HTTP at the world's plain service port, the explicit proxy port (origin-
// and absolute-form, and CONNECT with broken targets) and the admin port. Every case: a clean
// HTTP error or a close, within the limits; afterwards the port answers a normal request. At
// the end, whatever reached the world replays byte for byte, and nothing left loopback.

const TIMEOUTS = { headersMs: 400, requestMs: 1_500, keepAliveMs: 300, handshakeMs: 400 };
const TOKEN = exampleToken();
let w: ProxiedWorld;
let service: Listening;
let admin: ServedWorld;
let guard: NetGuard;
let cases = 0;

test.before(async () => {
  guard = guardNetwork();
  w = await startProxiedWorld({
    passthrough: [],
    proxy: { timeouts: TIMEOUTS, connect: () => { throw new Error('the fuzz test never tunnels out'); } },
  });
  service = await listenService(w.world, 'github', 'api.github.com', { port: 0, timeouts: TIMEOUTS });
  admin = await serveWorld(w.world, [], { ports: 'ephemeral', adminPort: 0 });
});
test.after.always(async () => {
  await admin?.close();
  await service?.close();
  await w?.close();
  guard?.restore();
});

const normal = (absolute: boolean) => `GET ${absolute ? 'http://api.github.com' : ''}/user HTTP/1.1\r\nHost: api.github.com\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`;

async function answersNormally(port: number, absolute: boolean): Promise<boolean> {
  const result = await probe(port, normal(absolute), [], 4_000, false);
  return /^HTTP\/1\.1 200 /.test(result.reply.toString('latin1')) && result.reply.includes('"login":"alice"');
}

const outcomes = new Map<string, number>();
const tally = (reply: Buffer) => {
  const status = /^HTTP\/1\.1 (\d{3})/.exec(reply.toString('latin1'))?.[1] ?? 'closed';
  outcomes.set(status, (outcomes.get(status) ?? 0) + 1);
};
const summary = () => {
  const text = [...outcomes].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status} ×${n}`).join(', ');
  outcomes.clear();
  return text;
};

/** One case: garbage in, a clean answer or close out, then a normal request still works. */
async function ordeal(port: number, data: string, splits: number[], absolute: boolean): Promise<void> {
  cases += 1;
  const result = await probe(port, data, splits);
  tally(result.reply);
  if (!result.closed) throw new Error(`the server kept the connection open ${result.ms} ms after ${JSON.stringify(data.slice(0, 120))}`);
  if (!replyIsHttpOrNothing(result.reply)) throw new Error(`not an HTTP answer: ${JSON.stringify(result.reply.toString('latin1').slice(0, 120))}`);
  if (!(await answersNormally(port, absolute))) throw new Error(`the port stopped serving after ${JSON.stringify(data.slice(0, 120))}`);
}

test.serial('plain service port: malformed request lines, headers, chunking, lengths and floods', async (t) => {
  t.timeout(fuzzTimeout);
  await fc.assert(fc.asyncProperty(requestArb, splitsArb, (data, splits) => ordeal(service.port, data, splits, false)), fcOptions(300));
  t.log(summary());
  t.true(cases > 0, 'the property ran its generated cases (fc.assert throws on the first failing one)');
});

test.serial('explicit proxy port: the same, origin-form and absolute-form', async (t) => {
  t.timeout(fuzzTimeout);
  await fc.assert(fc.asyncProperty(requestArb, splitsArb, (data, splits) => ordeal(w.served.proxy.port, data, splits, true)), fcOptions(250));
  t.log(summary());
  t.true(cases > 0, 'the property ran its generated cases (fc.assert throws on the first failing one)');
});

const hostArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant('api.github.com') },
  fc.constantFrom('api.github.com', 'API.GitHub.com', 'api.github.com.', 'localhost', '127.0.0.1', '[::1]', '[::1', '::1', '0', '', 'a'.repeat(300), 'api.github.com@evil.example', '%00', 'xn--'),
  fc.domain(), fc.ipV4(), fc.ipV6().map((ip) => `[${ip}]`), fc.string({ maxLength: 20 }),
);
const portArb = fc.oneof({ weight: 3, arbitrary: fc.constant('443') }, fc.constantFrom('443', '80', '0', '65535', '65536', '99999', '-1', '', 'abc', '443 ', '0443', '4 43'), fc.nat(70_000).map(String));
type Shape = (host: string, port: string) => string;
const shapeArb = fc.constantFrom<Shape>((h, p) => `${h}:${p}`, (h, p) => `${h}:${p}`, (h, p) => `${h}:${p}`, (h, p) => `${h}:${p}`, (h) => h,
  (h, p) => `user@${h}:${p}`, (h, p) => `${h}:${p}/x`, (h, p) => `http://${h}:${p}`, (h, p) => `${h}:${p}:${p}`, (h, p) => ` ${h}:${p}`, (h, p) => `${h} :${p}`);
const tailArb = fc.oneof(
  fc.constant(''),
  fc.constant(`GET /user HTTP/1.1\r\nHost: api.github.com\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from([0x16, 0x03, 0x01, ...bytes]).toString('latin1')),
  bodyArb,
);

test.serial('explicit proxy port: CONNECT with broken, foreign and hostile targets, then anything in the tunnel', async (t) => {
  t.timeout(fuzzTimeout);
  const before = (await w.entries()).length;
  const proxyHeaders = fc.array(fc.tuple(fc.constantFrom('Proxy-Authorization', 'User-Agent', 'Proxy-Connection'),
    fc.constantFrom(`Basic ${Buffer.from(w.urlFor('fuzz').split('@')[0]!.slice('http://'.length)).toString('base64')}`, 'Basic Og==', 'Basic !!', 'Bearer x', 'keep-alive', '')), { maxLength: 2 });
  await fc.assert(fc.asyncProperty(hostArb, portArb, shapeArb, mostly(proxyHeaders, headersArb), mostly(fc.constant('\r\n'), eolArb, 6), tailArb, splitsArb, (host, port, shape, headers, eol, tail, splits) => {
    const authority = shape(host, port);
    const head = `CONNECT ${authority} HTTP/1.1${eol}Host: ${authority}${eol}${headers.map(([name, value]) => `${name}: ${value}${eol}`).join('')}${eol}`;
    return ordeal(w.served.proxy.port, head + tail, splits, true);
  }), fcOptions(250));
  const blocked = (await w.entries()).slice(before).filter((e) => e.attribution?.kind === 'blocked');
  t.log(summary());
  t.log(`${blocked.length} refused hosts journaled as blocked`);
  t.true(blocked.every((e) => e.response.status === 403 && e.service === null));
});

test.serial('admin port: malformed requests get an HTTP error or a close; health still answers', async (t) => {
  t.timeout(fuzzTimeout);
  const port = Number(new URL(admin.admin.url).port);
  await fc.assert(fc.asyncProperty(requestArb, splitsArb, async (data, splits) => {
    cases += 1;
    const result = await probe(port, data, splits);
    if (!result.closed || !replyIsHttpOrNothing(result.reply)) throw new Error(`bad answer to ${JSON.stringify(data.slice(0, 120))}`);
    // Without the token nothing but health is served, whatever the request looked like.
    if (/^HTTP\/1\.1 200 /.test(result.reply.toString('latin1')) && !/"ok": true/.test(result.reply.toString('latin1'))) {
      throw new Error(`an admin route answered 200 without the token: ${JSON.stringify(data.slice(0, 120))}`);
    }
    const health = await fetch(`${admin.admin.url}/_bench/health`);
    if (health.status !== 200) throw new Error('health stopped answering');
  }), fcOptions(100));
  t.true(cases > 0, 'the property ran its generated cases (fc.assert throws on the first failing one)');
});

test.serial('afterwards: real clients still work, whatever reached the world replays byte for byte, nothing left loopback', async (t) => {
  t.timeout(fuzzTimeout);
  const curl = await run('curl', ['-sS', '--fail', '-x', w.proxyUrl, '--cacert', w.caPath, '-H', `Authorization: Bearer ${TOKEN}`, 'https://api.github.com/user']);
  t.is(curl.code, 0, curl.stderr);
  // A refused HEAD is journaled without its body (its length kept): replay must rebuild the same bytes.
  const head = await run('curl', ['-sS', '-I', '-x', w.proxyUrl, 'http://refused.example/x']);
  t.regex(head.stdout, /^HTTP\/1\.1 403 /, head.stderr);
  await w.world.journal.flush();
  const { world: fresh } = await openWorld({ scenarioDir: EXAMPLE_SCENARIO });
  const outcome = await replayJournal(fromJournal(w.world.journal, 'fuzz'), fresh);
  t.is(outcome.divergent, 0, JSON.stringify(outcome.first));
  t.log(`${cases} generated cases; ${outcome.entries} journal entries (cases that reached the world or were refused as blocked, and the normal request after each) replay identically`);
  t.true(cases >= 900);
  t.deepEqual(guard.outside(), []);
  t.deepEqual(guard.outsideLookups(), []);
});
