import test from 'ava';
import { request } from 'node:http';
import { openWorld } from '../scenarios/world.js';
import { resetCut } from '../mocks/core/faults.js';
import { serveProxy, serveProxyForWorld } from '../proxy/for-world.js';
import { remoteUpstream } from '../proxy/remote-upstream.js';
import { serveWorld } from '../proxy/serve.js';
import { randomSecret } from '../proxy/world-secret.js';
import { decode, faultyScenario, journalOf } from './helpers/faults.js';
import { TOKENS } from './helpers/github-requests.js';
import { testCaDir } from './helpers/proxy.js';
import { run } from './helpers/proxy-processes.js';
import { startWorld, type TestWorld } from './helpers/world.js';

// How faults reach a client over real sockets (loopback, ephemeral ports): latency is real time
// on record, a reset closes the connection mid-answer, a timeout holds the answer past the
// client's patience (bounded) and both are journaled with the answer the world would have sent.

const PLAN = `
[[faults]]
route = "/repos/acme/widgets"
kind = "reset"
nth = [1]

[[faults]]
route = "/repos/acme/widgets"
method = "HEAD"
kind = "reset"
nth = [1]

[[faults]]
route = "/orgs/acme"
kind = "timeout"
nth = [1, 2]
hold_ms = 1200

[[faults]]
route = "/user"
latency = { dist = "fixed", ms = 400 }

[[faults]]
route = "/repos/:owner/:repo/issues"
method = "POST"
kind = 429
nth = [1]
retry_after = 1
`;

let w: TestWorld;
test.before(async () => {
  w = await startWorld({ scenario: faultyScenario(PLAN) });
});
test.after.always(() => w?.close());

interface Received {
  status: number | null;
  headers: [string, string][];
  body: Buffer;
  /** How the exchange ended: a whole answer, the connection closed under it, or our own timeout. */
  end: 'complete' | 'reset' | 'gave-up';
  error: string | null;
  elapsedMs: number;
}

/** One request on a fresh connection, reading whatever arrives. */
function send(method: string, path: string, options: { timeoutMs?: number; body?: string } = {}): Promise<Received> {
  const url = new URL(w.urls.github!);
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let status: number | null = null;
    let headers: [string, string][] = [];
    const done = (end: Received['end'], error: Error | null) =>
      resolve({ status, headers, body: Buffer.concat(chunks), end, error: error ? (error as NodeJS.ErrnoException).code ?? error.message : null, elapsedMs: performance.now() - started });
    const req = request({
      host: url.hostname, port: url.port, method, path, agent: false,
      headers: { Authorization: `Bearer ${TOKENS.alice}`, ...(options.body ? { 'Content-Type': 'application/json' } : {}) },
    }, (res) => {
      status = res.statusCode ?? null;
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done('complete', null));
      res.on('error', (error) => done('reset', error));
    });
    req.on('error', (error) => done(req.destroyed && gaveUp ? 'gave-up' : 'reset', error));
    let gaveUp = false;
    if (options.timeoutMs) req.setTimeout(options.timeoutMs, () => { gaveUp = true; req.destroy(); });
    req.end(options.body);
  });
}

const entryAt = async (seq: number) => (await journalOf(w.world)).find((e) => e.seq === seq)!;

test.serial('reset: the status line, the headers and half the body, then the connection closes', async (t) => {
  const got = await send('GET', '/repos/acme/widgets');
  t.is(got.end, 'reset', `ended ${got.end} (${got.error})`);
  t.is(got.error, 'ECONNRESET');
  t.is(got.status, 502);
  const entry = await entryAt(w.world.clock.current);
  t.like(entry, { method: 'GET', target: '/repos/acme/widgets', response: { status: 502 } });
  t.deepEqual(entry.fault, { kind: 'reset', latencyMs: 0, rule: '* * /repos/acme/widgets reset', n: 1 });
  t.is(got.body.length, resetCut(entry.response.body.length));
  t.true(got.body.length > 0 && got.body.length < entry.response.body.length);
  t.deepEqual(got.body, Buffer.from(entry.response.body.subarray(0, got.body.length)), 'the start of the journaled answer');
  t.deepEqual(got.headers.filter(([name]) => name.toLowerCase() !== 'connection'), entry.response.headers, 'the journaled head, Content-Length promising the whole body');
  const next = await send('GET', '/repos/acme/widgets');
  t.like(next, { end: 'complete', status: 200 });
});

test.serial('reset of an answer without a body: the connection closes before the status line', async (t) => {
  const got = await send('HEAD', '/repos/acme/widgets');
  t.like(got, { end: 'reset', status: null, error: 'ECONNRESET' });
  const entry = await entryAt(w.world.clock.current);
  t.like(entry, { method: 'HEAD', fault: { kind: 'reset' }, response: { status: 502 } });
  t.is(entry.response.body.length, 0);
});

test.serial('timeout: the answer is held past the client\'s timeout; a client that waits gets the 504 after the hold', async (t) => {
  const impatient = await send('GET', '/orgs/acme', { timeoutMs: 200 });
  t.is(impatient.end, 'gave-up');
  t.true(impatient.elapsedMs < 1000);
  const held = await entryAt(w.world.clock.current);
  t.deepEqual(held.fault, { kind: 'timeout', latencyMs: 1200, rule: '* * /orgs/acme timeout', n: 1 });
  t.is(held.response.status, 504, 'journaled with the answer a gateway gives up with');

  const patient = await send('GET', '/orgs/acme');
  t.like(patient, { end: 'complete', status: 504 });
  t.true(patient.elapsedMs >= 1150, `answered after ${Math.round(patient.elapsedMs)} ms`);
  const entry = await entryAt(w.world.clock.current);
  t.deepEqual(patient.body, Buffer.from(entry.response.body));
  t.regex(decode(entry.response.body), /couldn't respond to your request in time/);
  t.like(await send('GET', '/orgs/acme'), { end: 'complete', status: 200 }, 'the third request is not in nth');
});

test.serial('latency is real time on record and changes no byte', async (t) => {
  const got = await send('GET', '/user');
  t.like(got, { end: 'complete', status: 200 });
  t.true(got.elapsedMs >= 390, `answered after ${Math.round(got.elapsedMs)} ms`);
  const entry = await entryAt(w.world.clock.current);
  t.deepEqual(entry.fault, { kind: 'latency', latencyMs: 400, rule: '* * /user latency', n: 1 });
  t.deepEqual(got.body, Buffer.from(entry.response.body));
  t.like(JSON.parse(decode(entry.response.body)), { login: 'alice' });
});

test.serial('through the TLS proxy: curl gets the 429 with Retry-After, and a reset as a cut transfer', async (t) => {
  const { world, catalog } = await openWorld({ scenarioDir: faultyScenario(PLAN) });
  const served = await serveProxyForWorld(world, catalog.catalog, { caDir: testCaDir(), proxyPort: 0, tlsPort: 0 });
  try {
    const curl = (...args: string[]) => run('curl', ['-sS', '-x', served.proxy.url, '--cacert', served.certs.ca.certPath,
      '-H', `Authorization: Bearer ${TOKENS.alice}`, ...args]);
    const limited = await curl('-i', '-H', 'Content-Type: application/json', '-d', '{"title":"via curl"}', 'https://api.github.com/repos/acme/widgets/issues');
    t.is(limited.code, 0, limited.stderr);
    t.regex(limited.stdout, /\r\nHTTP\/1\.1 429 Too Many Requests\r\n/, 'after the CONNECT answer');
    t.regex(limited.stdout, /\r\nRetry-After: 1\r\n/);
    t.regex(limited.stdout, /secondary rate limit/);
    const again = await curl('-H', 'Content-Type: application/json', '-d', '{"title":"via curl"}', 'https://api.github.com/repos/acme/widgets/issues');
    t.like(JSON.parse(again.stdout), { title: 'via curl' });

    const cut = await curl('https://api.github.com/repos/acme/widgets');
    t.true(cut.code === 18 || cut.code === 56, `curl exit ${cut.code}: ${cut.stderr}`); // partial file, or receive failure
    const entries = await journalOf(world);
    const reset = entries.at(-1)!;
    t.like(reset, { target: '/repos/acme/widgets', fault: { kind: 'reset' } });
    t.is(cut.stdout, decode(reset.response.body.subarray(0, resetCut(reset.response.body.length))));
    t.deepEqual(entries.map((e) => e.response.status), [429, 201, 502]);
  } finally {
    await served.proxy.close();
    await world.journal.close();
  }
});

test.serial('through a split proxy (proxy --world): the world\'s port cuts the reset and the proxy passes the cut on; a hold is held', async (t) => {
  const { world, catalog } = await openWorld({ scenarioDir: faultyScenario(PLAN) });
  const secret = randomSecret();
  const ports = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0, forwardSecret: secret });
  const services = Object.fromEntries(Object.entries(ports.services).map(([id, l]) => [id, l.url]));
  const served = await serveProxy(catalog.catalog, remoteUpstream({ services, secret }), { caDir: testCaDir(), proxyPort: 0, tlsPort: 0 });
  try {
    const curl = (...args: string[]) => run('curl', ['-sS', '-m', '5', '-x', served.proxy.url, '--cacert', served.certs.ca.certPath,
      '-H', `Authorization: Bearer ${TOKENS.alice}`, ...args]);
    const started = performance.now();
    const cut = await curl('https://api.github.com/repos/acme/widgets');
    t.true(cut.code === 18 || cut.code === 56, `curl exit ${cut.code}: ${cut.stderr}`);
    t.true(performance.now() - started < 2000, 'closed at once, not left waiting');
    const reset = (await journalOf(world)).at(-1)!;
    t.like(reset, { fault: { kind: 'reset' }, attribution: { kind: 'direct' } });
    t.is(cut.stdout, decode(reset.response.body.subarray(0, resetCut(reset.response.body.length))));

    const held = performance.now();
    const timeout = await curl('-o', '/dev/null', '-w', '%{http_code}', 'https://api.github.com/orgs/acme');
    t.is(timeout.stdout, '504');
    t.true(performance.now() - held >= 1150, 'held for hold_ms through the proxy');
  } finally {
    await served.proxy.close();
    await ports.close();
    await world.journal.close();
  }
});
