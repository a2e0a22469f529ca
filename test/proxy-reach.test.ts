import test from 'ava';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import forge from 'node-forge';
import { z } from 'zod';
import { loadCatalog } from '../catalog/load.js';
import { LeafCache, loadCa, signLeaf } from '../certs/index.js';
import { caPaths } from '../certs/ca.js';
import { noiseAnswers } from '../scenarios/world.js';
import { CallTracker } from '../mocks/core/attribution.js';
import { jsonResponse } from '../mocks/core/http.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import type { ServiceDefinition } from '../mocks/core/service.js';
import { World } from '../mocks/core/world.js';
import { childEnvironment } from '../proxy/child-env.js';
import { serveProxyForWorld, type ServedProxy } from '../proxy/for-world.js';
import { auditJournal } from '../replay/audit.js';
import { fromJournal } from '../replay/source.js';
import { testHeader, tempDir } from './helpers/journal.js';
import { guardNetwork, type NetGuard } from './helpers/proxy-net-guard.js';
import { run, type Run } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// How servers reach the world: real clients (stripe-node 23 and 17.7, Node's http/https with the
// agents libraries make, undici fetch, curl, openssl, python3) through the one child environment
// (proxy/child-env.ts) and the preload, to concrete hosts, host patterns, noise hosts, cloud-
// metadata probes and a loopback host that must stay direct.

/** Answers anything with a Stripe-shaped empty list naming what it saw, so every client is satisfied. */
const echoService: ServiceDefinition<Record<string, never>> = {
  id: 'echo',
  version: '1',
  dataset: z.object({}).strict(),
  load() {},
  handle: (req) => jsonResponse(200, { object: 'list', data: [], has_more: false, url: req.path, method: req.method }),
  reject: (reason) => jsonResponse(reason === 'payload_too_large' ? 413 : 500, { error: { type: 'api_error', message: reason } }),
};

const HOSTNAMES = ['api.stripe.com', '{site}.atlassian.net', '{bucket}.s3.{region}.amazonaws.com'];
const CLIENT = fileURLToPath(new URL('./helpers/preload-client.mjs', sourceUrl(import.meta.url)));

let guard: NetGuard;
let world: World;
let served: ServedProxy;
let loopback: Server;
let loopbackUrl: string;
const loopbackSeen: { url: string; headers: IncomingHttpHeaders }[] = [];

test.before(async () => {
  guard = guardNetwork(); // the proxy and world run here: every socket and lookup they make is seen
  const catalog = loadCatalog().catalog;
  const tracker = new CallTracker();
  tracker.register('probe');
  tracker.markReady('probe');
  const noise = noiseAnswers(catalog.noise);
  world = new World({
    seed: 1, epochMs: Date.parse('2025-01-01T00:00:00Z'), tickMs: 1000, journal: new MemoryJournal(testHeader()),
    services: [{ id: 'echo', hostnames: HOSTNAMES, definition: echoService, data: {} }], noise,
  });
  served = await serveProxyForWorld(world, { services: [{ id: 'echo', hostnames: HOSTNAMES }], noise: catalog.noise }, {
    caDir: testCaDir(), proxyPort: 0, tlsPort: 0, attribute: (client) => tracker.attribute(client),
  });
  loopback = createServer((req, res) => {
    loopbackSeen.push({ url: req.url ?? '', headers: req.headers });
    res.end('loopback');
  });
  await new Promise<void>((done) => loopback.listen(0, '127.0.0.1', done));
  loopbackUrl = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}`;
});
test.after.always(async () => {
  await served?.proxy.close();
  await world?.journal.close();
  await new Promise((done) => loopback?.close(done));
  guard?.restore();
});

/** The environment every endpoint gets, for client `probe`. */
const childEnv = (): Record<string, string> => ({ ...childEnvironment({ proxyUrl: served.proxy.urlFor('probe'), ca: served.certs.ca }), LOOPBACK_URL: loopbackUrl });

async function client(steps: string[]): Promise<{ results: Record<string, any>[]; run: Run }> {
  const result = await run(process.execPath, [CLIENT, ...steps], childEnv(), 60_000);
  return { results: result.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, any>), run: result };
}

async function entries(): Promise<JournalEntry[]> {
  await world.journal.flush();
  const out: JournalEntry[] = [];
  for await (const entry of world.journal.entries()) out.push(entry);
  return out;
}

async function since(steps: string[]): Promise<{ results: Record<string, any>[]; added: JournalEntry[]; run: Run }> {
  const before = (await entries()).length;
  const { results, run: result } = await client(steps);
  return { results, added: (await entries()).slice(before), run: result };
}

test.serial('stripe-node 23 and 17.7 (their own keep-alive https.Agent) reach the world through the preload', async (t) => {
  const { results, added, run: result } = await since(['stripe-17-version', 'stripe-23', 'stripe-17']);
  t.is(result.code, 0, result.stderr);
  t.regex(results[0]!.body, /^17\.7\./);
  t.deepEqual(results.slice(1).map((r) => [r.step, r.status ?? r.error]), [['stripe-23', 200], ['stripe-17', 200]]);
  t.deepEqual(added.map((e) => [e.host, e.service, e.method, e.target.split('?')[0], e.attribution?.kind, e.attribution?.client]), [
    ['api.stripe.com', 'echo', 'GET', '/v1/customers', 'mcp', 'probe'],
    ['api.stripe.com', 'echo', 'GET', '/v1/customers', 'mcp', 'probe'],
  ]);
  t.true(added.every((e) => e.request.headers.some(([name, value]) => name.toLowerCase() === 'authorization' && value === 'Bearer sk_test_toolbench')));
});

test.serial('agent:false (superagent), a library\'s own plain Agent (ESM named import, .get, http) and the separate global agents', async (t) => {
  const steps = ['global-agents', 'agent-false', 'agent-false-http', 'own-agent-named-import', 'own-agent-get', 'own-http-agent'];
  const { results, added, run: result } = await since(steps);
  t.is(result.code, 0, result.stderr);
  t.deepEqual(JSON.parse(results[0]!.body), { separate: true, https: true, http: true, constructible: true });
  t.deepEqual(results.slice(1).map((r) => [r.step, r.status ?? r.error]), steps.slice(1).map((step) => [step, 200]));
  t.deepEqual(added.map((e) => e.target), ['/v1/agent-false', '/v1/agent-false-http', '/v1/own-agent', '/v1/own-agent-get', '/v1/own-http-agent']);
  t.true(added.every((e) => e.attribution?.client === 'probe' && e.host === 'api.stripe.com'));
});

test.serial('loopback targets go direct, never through the proxy, whatever agent a library brings', async (t) => {
  const seen = loopbackSeen.length;
  const before = (await entries()).length;
  const { results, added, run: result } = await since(['loopback-http', 'loopback-fetch']);
  t.is(result.code, 0, result.stderr);
  t.deepEqual(results.map((r) => [r.step, r.status, r.body]), [['loopback-http', 200, 'loopback'], ['loopback-fetch', 200, 'loopback']]);
  t.deepEqual(added, []);
  t.deepEqual(loopbackSeen.slice(seen).map((r) => [r.url, r.headers['proxy-authorization']]), [['/direct', undefined], ['/direct-fetch', undefined]]);

  // The preload keeps loopback direct by itself, even where no NO_PROXY says so.
  const { NO_PROXY: _a, no_proxy: _b, ...withoutNoProxy } = childEnv();
  const bare = await run(process.execPath, [CLIENT, 'loopback-http', 'loopback-fetch'], withoutNoProxy, 60_000);
  t.deepEqual(bare.stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { status: number }).status), [200, 200], bare.stderr);
  t.is(loopbackSeen.length, seen + 4);
  t.deepEqual((await entries()).length, before);
});

test.serial('host patterns: fetch and https reach {site}.atlassian.net and {bucket}.s3.{region}.amazonaws.com; leaves issued once, from the shared key', async (t) => {
  const { results, added, run: result } = await since(['fetch-pattern', 'https-pattern', 'fetch-pattern']);
  t.is(result.code, 0, result.stderr);
  t.deepEqual(results.map((r) => r.status), [200, 200, 200]);
  t.deepEqual(added.map((e) => [e.host, e.service]), [['acme.atlassian.net', 'echo'], ['logs.s3.eu-west-1.amazonaws.com', 'echo'], ['acme.atlassian.net', 'echo']]);
  t.is(world.serviceForHost('ACME.atlassian.net:443'), 'echo');
  t.is(world.serviceForHost('atlassian.net'), undefined);
  t.is(world.serviceForHost('a.b.atlassian.net'), undefined);

  // Each pattern host got one leaf on disk, for the CA's one leaf key.
  const ca = served.certs.ca;
  const leafDir = join(caPaths(ca.dir).leavesDir, ca.fingerprint.slice(0, 32));
  const files = readdirSync(leafDir);
  t.true(files.includes('acme.atlassian.net.pem') && files.includes('logs.s3.eu-west-1.amazonaws.com.pem'), files.join(', '));
  const leafKey = forge.pki.privateKeyFromPem(readFileSync(caPaths(ca.dir).leafKeyPath, 'utf8')) as forge.pki.rsa.PrivateKey;
  const leaf = forge.pki.certificateFromPem(readFileSync(join(leafDir, 'acme.atlassian.net.pem'), 'utf8'));
  t.is((leaf.publicKey as forge.pki.rsa.PublicKey).n.toString(16), leafKey.n.toString(16));
  t.deepEqual(LeafCache.open(ca).prepare(['acme.atlassian.net']), { signed: 0, loaded: 1 });
});

test.serial('curl -x, openssl s_client -servername and python3 urllib trust a pattern host\'s leaf', async (t) => {
  const before = (await entries()).length;
  const ca = served.certs.ca;
  const curl = await run('curl', ['-sS', '--fail', '-x', served.proxy.urlFor('probe'), '--cacert', ca.certPath, 'https://globex.atlassian.net/rest/api/3/project']);
  t.is(curl.code, 0, curl.stderr);
  t.like(JSON.parse(curl.stdout), { url: '/rest/api/3/project' });

  // Transparent TLS: the ClientHello's server name picks the leaf (stdin closed, so s_client ends after the handshake).
  const sClient = await run('sh', ['-c', `openssl s_client -connect 127.0.0.1:${served.proxy.tlsPort} -servername initech.atlassian.net ` +
    `-CAfile '${ca.certPath}' -verify_return_error -verify_hostname initech.atlassian.net -brief < /dev/null`], {}, 20_000);
  t.regex(sClient.stderr + sClient.stdout, /Verification: OK/);

  const python = await run('python3', ['-c', 'import urllib.request as u; r = u.urlopen("https://media.s3.us-east-1.amazonaws.com/a.txt"); print(r.status)'],
    childEnv());
  t.is(python.stdout.trim(), '200', python.stderr);
  const added = (await entries()).slice(before);
  t.deepEqual(added.map((e) => e.host), ['globex.atlassian.net', 'media.s3.us-east-1.amazonaws.com']);
});

test.serial('openssl verify: the CA permits each pattern\'s subdomains, not the bare suffix, and nothing outside', async (t) => {
  const ca = loadCa(served.certs.ca.dir);
  t.true(ca.permitted.includes('.atlassian.net') && ca.permitted.includes('.amazonaws.com') && ca.permitted.includes('api.stripe.com'), ca.permitted.join(', '));
  const leafKey = forge.pki.privateKeyFromPem(readFileSync(caPaths(ca.dir).leafKeyPath, 'utf8')) as forge.pki.rsa.PrivateKey;
  const out = tempDir('toolbench-reach-');
  const verify = async (host: string) => {
    const file = join(out, `${host}.pem`);
    writeFileSync(file, signLeaf(ca, leafKey, host)); // the CA's key signs anything; the constraints decide
    return run('openssl', ['verify', '-CAfile', ca.certPath, '-purpose', 'sslserver', file]);
  };
  t.is((await verify('acme.atlassian.net')).code, 0);
  for (const host of ['atlassian.net', 'evil.example.com', 'atlassian.net.evil.com']) {
    const refused = await verify(host);
    t.not(refused.code, 0, host);
    t.regex(refused.stdout + refused.stderr, /permitted subtree violation/, host);
  }
});

test.serial('noise hosts are answered by the world from the catalog, journaled as noise, outside api_calls', async (t) => {
  const { results, added, run: result } = await since(['fetch-noise', 'https-noise']);
  t.is(result.code, 0, result.stderr);
  t.deepEqual(results.map((r) => [r.status, r.body]), [[200, '{}'], [200, '{"itemsReceived":0,"itemsAccepted":0,"errors":[]}']]);
  t.deepEqual(added.map((e) => [e.kind, e.host, e.service, e.attribution?.client]), [
    ['noise', 'api.agnost.ai', null, 'probe'], ['noise', 'westeurope-5.in.applicationinsights.azure.com', null, 'probe'],
  ]);
  const audit = await auditJournal(fromJournal(world.journal, 'reach'));
  t.is(audit.totals.noise, 2);
  t.is(audit.totals.requests, (await entries()).filter((e) => e.kind === 'http').length);
  t.false(Object.keys(audit.byService).includes('(none)') && audit.routes.some((row) => row.route.includes('agnost')));
});

test.serial('cloud-metadata probes get a fast 404, journaled as blocked (http through the preload, fetch, curl)', async (t) => {
  const { results, added, run: result } = await since(['metadata-http', 'metadata-fetch']);
  t.is(result.code, 0, result.stderr);
  for (const r of results) {
    t.true(r.ms < 2000, `${r.step} took ${r.ms} ms`);
    // Both tunnel (CONNECT), which the proxy refuses with its 404: an error at once, not a hang
    // (the preload names the refusal; undici reports a cancelled request).
    t.truthy(r.error, JSON.stringify(r));
    if (r.step === 'metadata-http') t.regex(r.error, /refused CONNECT 169\.254\.169\.254:80 \(404\)/);
  }
  const curl = await run('curl', ['-sS', '-x', served.proxy.url, '-o', '/dev/null', '-w', '%{http_code}', 'http://169.254.169.254/latest/api/token', '-X', 'PUT']);
  t.is(curl.stdout, '404');
  const all = [...added, ...(await entries()).slice(-1)];
  t.deepEqual(all.map((e) => [e.host, e.service, e.attribution?.kind, e.response.status]), [
    ['169.254.169.254', null, 'blocked', 404], ['metadata.google.internal', null, 'blocked', 404], ['169.254.169.254', null, 'blocked', 404],
  ]);
});

test.serial('the proxy reached nothing beyond loopback for any of it: noise and metadata are answered here', async (t) => {
  t.deepEqual(guard.outside(), []);
  t.deepEqual(guard.outsideLookups(), []);
  // Positive control: the guard sees this process's connections.
  await (await fetch(`${loopbackUrl}/control`)).text();
  t.true(guard.connections.some((c) => c.startsWith('127.0.0.1:')), guard.connections.join(', '));
  t.deepEqual(guard.outsideLookups(), []);
});
