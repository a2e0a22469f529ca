import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { exampleToken, startProxiedWorld, type ProxiedWorld } from './helpers/proxy.js';
import { nodeClient, run } from './helpers/proxy-processes.js';
import { tempDir } from './helpers/journal.js';

// Unmodified clients reach the GitHub mock over HTTPS through the proxy, certificate checks on.

let w: ProxiedWorld;
test.before(async () => {
  w = await startProxiedWorld();
  w.tracker.register('github');
  w.tracker.markReady('github');
});
test.after.always(() => w?.close());

const TOKEN = exampleToken();
const auth = ['-H', `Authorization: Bearer ${TOKEN}`];

const requestsSince = async (seq: number) => (await w.entries()).filter((e) => e.seq > seq);
const lastSeq = async () => (await w.entries()).at(-1)?.seq ?? 0;

test.serial('curl -x with --cacert: CONNECT, TLS with the leaf, journaled with the credential\'s client', async (t) => {
  const before = await lastSeq();
  const result = await run('curl', ['-sS', '--fail-with-body', '-x', w.urlFor('github'), '--cacert', w.caPath, ...auth,
    '-H', 'Content-Type: application/json', '-d', '{"title":"Filed with curl"}', 'https://api.github.com/repos/acme/widgets/issues']);
  t.is(result.code, 0, result.stderr);
  t.like(JSON.parse(result.stdout), { title: 'Filed with curl', user: { login: 'alice' } });
  const [entry] = await requestsSince(before);
  t.like(entry, { host: 'api.github.com', service: 'github', method: 'POST', target: '/repos/acme/widgets/issues', response: { status: 201 } });
  t.like(entry!.attribution, { kind: 'mcp', client: 'github', endpoint: 'github' });
  // The world sees the client's headers, never the proxy's.
  t.deepEqual(entry!.request.headers.map(([name]) => name), ['Host', 'User-Agent', 'Accept', 'Authorization', 'Content-Type', 'Content-Length']);
});

test.serial('curl without a credential, or with a wrong one, is attributed direct', async (t) => {
  const before = await lastSeq();
  const wrong = new URL(w.urlFor('github'));
  wrong.password = 'not-the-password';
  for (const proxy of [w.proxyUrl, wrong.href]) {
    const result = await run('curl', ['-sS', '--fail', '-x', proxy, '--cacert', w.caPath, ...auth, 'https://api.github.com/user']);
    t.is(result.code, 0, result.stderr);
  }
  const entries = await requestsSince(before);
  t.deepEqual(entries.map((e) => e.attribution), [
    { kind: 'direct', client: null, endpoint: null, tool: null, callId: null },
    { kind: 'direct', client: null, endpoint: null, tool: null, callId: null },
  ]);
});

test.serial('curl refuses the proxy without the CA: certificate checking is real', async (t) => {
  const publicRoots = join(tempDir('toolbench-roots-'), 'roots.pem');
  writeFileSync(publicRoots, rootCertificates.join('\n'));
  const result = await run('curl', ['-sS', '-x', w.proxyUrl, '--cacert', publicRoots, 'https://api.github.com/user']);
  t.is(result.code, 60, result.stderr); // CURLE_PEER_FAILED_VERIFICATION
});

test.serial('Python urllib via HTTPS_PROXY and SSL_CERT_FILE', async (t) => {
  const before = await lastSeq();
  const script = 'import os, urllib.request\n' +
    'request = urllib.request.Request("https://api.github.com/user", headers={"Authorization": "Bearer " + os.environ["GITHUB_TOKEN"]})\n' +
    'print(urllib.request.urlopen(request).read().decode())';
  const result = await run('python3', ['-c', script], { HTTPS_PROXY: w.urlFor('github'), SSL_CERT_FILE: w.caPath, GITHUB_TOKEN: TOKEN });
  t.is(result.code, 0, result.stderr);
  t.like(JSON.parse(result.stdout), { login: 'alice' });
  const [entry] = await requestsSince(before);
  t.like(entry, { method: 'GET', target: '/user', attribution: { kind: 'mcp', client: 'github' } });
  t.true(entry!.request.headers.some(([name, value]) => name === 'User-Agent' && value.startsWith('Python-urllib/')));
});

test.serial('Node global fetch, https.get, http.get and @octokit/rest through the preload with NODE_EXTRA_CA_CERTS', async (t) => {
  const before = await lastSeq();
  const { results, run: result } = await nodeClient(w.urlFor('github'), w.caPath, ['fetch', 'fetch-post', 'https-get', 'http-get', 'octokit'], TOKEN);
  t.is(result.code, 0, result.stderr);
  t.deepEqual(results.map((r) => [r.step, r.status ?? r.error]), [
    ['fetch', 200], ['fetch-post', 201], ['https-get', 200], ['http-get', 200], ['octokit', 201],
  ]);
  const entries = await requestsSince(before);
  t.deepEqual(entries.map((e) => `${e.method} ${e.host}${e.target} ${e.attribution?.kind}:${e.attribution?.client}`), [
    'GET api.github.com/user mcp:github',
    'POST api.github.com/repos/acme/widgets/issues mcp:github',
    'GET api.github.com/user mcp:github',
    'GET api.github.com/user mcp:github',
    'POST api.github.com/repos/acme/widgets/issues mcp:github',
  ]);
  t.true(entries[4]!.request.headers.some(([name, value]) => name.toLowerCase() === 'user-agent' && value.startsWith('toolbench-test octokit-rest.js/')));
});

test.serial('the preload fails closed when no proxy is configured', async (t) => {
  const result = await run(process.execPath, ['-e', 'fetch("https://api.github.com/user")'], { NODE_OPTIONS: (await import('../proxy/preload-path.js')).preloadNodeOptions() });
  t.is(result.code, 78);
  t.regex(result.stderr, /HTTPS_PROXY is not set/);
});

test.serial('openssl s_client on the transparent port with -servername api.github.com verifies the chain', async (t) => {
  const before = await lastSeq();
  const result = await run('sh', ['-c', `printf 'GET /user HTTP/1.1\\r\\nHost: api.github.com\\r\\nAuthorization: Bearer ${TOKEN}\\r\\nConnection: close\\r\\n\\r\\n' | ` +
    `openssl s_client -connect 127.0.0.1:${w.tlsPort} -servername api.github.com -CAfile '${w.caPath}' -verify_return_error -verify_hostname api.github.com -quiet`]);
  t.is(result.code, 0, result.stderr);
  t.regex(result.stderr, /verify return:1/);
  t.regex(result.stdout, /^HTTP\/1\.1 200 OK/);
  t.regex(result.stdout, /"login":"alice"/);
  const [entry] = await requestsSince(before);
  t.like(entry, { host: 'api.github.com', target: '/user', attribution: { kind: 'direct', client: null } });
});
