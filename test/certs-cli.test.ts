import test from 'ava';
import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../catalog/load.js';
import { HostRoutes } from '../proxy/routes.js';
import { exampleToken, startProxiedWorld, testCaDir } from './helpers/proxy.js';
import { ROOT, run } from './helpers/proxy-processes.js';
import { CLI_ARGS } from './helpers/cli.js';
import { tempDir } from './helpers/journal.js';

const toolbench = (args: string[]) => run(process.execPath, [...CLI_ARGS, ...args], {}, 60_000);
const temp = () => join(tempDir('toolbench-certs-cli-'), 'ca');

test('toolbench certs init creates the CA once (0600 key, catalog hosts only), then reuses it and its leaves', async (t) => {
  const dir = temp();
  const first = await toolbench(['certs', 'init', '--dir', dir, '--json']);
  t.is(first.code, 0, first.stderr);
  const made = JSON.parse(first.stdout);
  // Every concrete catalog host gets its leaf now; host patterns are permitted by their suffix (`.x.y`).
  const names = new HostRoutes(loadCatalog().catalog).tlsNames;
  const concrete = names.filter((name) => !name.startsWith('.'));
  t.true(concrete.includes('api.github.com') && names.includes('.in.applicationinsights.azure.com'));
  t.like(made, { ca: join(dir, 'ca.pem'), key: join(dir, 'ca-key.pem'), created: true, permitted: [...names].sort(), leaves: { signed: concrete.length, loaded: 0 } });
  t.is(statSync(made.key).mode & 0o777, 0o600);
  const again = JSON.parse((await toolbench(['certs', 'init', '--dir', dir, '--json'])).stdout);
  t.like(again, { created: false, fingerprint: made.fingerprint, leaves: { signed: 0, loaded: concrete.length } });
  const forced = JSON.parse((await toolbench(['certs', 'init', '--dir', dir, '--force', '--json'])).stdout);
  t.like(forced, { created: true });
  t.not(forced.fingerprint, made.fingerprint);

  chmodSync(join(dir, 'ca-key.pem'), 0o644);
  const refused = await toolbench(['certs', 'init', '--dir', dir]);
  t.is(refused.code, 2);
  t.regex(refused.stderr, /readable by other users \(mode 0644\)/);
});

test('toolbench certs env prints what Node, Python, curl and Go need; with --proxy, what a child needs to use the proxy', async (t) => {
  const missing = await toolbench(['certs', 'env', '--dir', temp()]);
  t.is(missing.code, 2);
  t.regex(missing.stderr, /no CA in .*toolbench certs init/);

  const w = await startProxiedWorld();
  try {
    const dir = testCaDir();
    const shell = await toolbench(['certs', 'env', '--dir', dir]);
    t.is(shell.stdout, [
      `export NODE_EXTRA_CA_CERTS='${dir}/ca.pem'`, `export SSL_CERT_FILE='${dir}/ca-bundle.pem'`,
      `export REQUESTS_CA_BUNDLE='${dir}/ca-bundle.pem'`, `export CURL_CA_BUNDLE='${dir}/ca-bundle.pem'`, '',
    ].join('\n'));

    const json = await toolbench(['certs', 'env', '--dir', dir, '--proxy', w.urlFor('agent'), '--json']);
    const env = JSON.parse(json.stdout) as Record<string, string>;
    t.like(env, { HTTPS_PROXY: w.urlFor('agent'), HTTP_PROXY: w.urlFor('agent'), NO_PROXY: 'localhost,127.0.0.1,::1' });
    t.regex(env.NODE_OPTIONS!, /^--import=file:\/\/.*\/proxy\/preload\.mjs$/);

    // The printed environment is all a client needs: curl and Python (bundle) and Node (preload).
    const auth = `Authorization: Bearer ${exampleToken()}`;
    const curl = await run('curl', ['-sS', '--fail', '-H', auth, 'https://api.github.com/user'], env);
    t.is(curl.code, 0, curl.stderr);
    const python = await run('python3', ['-c', `import urllib.request as u; print(u.urlopen(u.Request("https://api.github.com/user", headers={"Authorization": "${auth.slice(15)}"})).status)`], env);
    t.is(python.stdout.trim(), '200', python.stderr);
    const node = await run(process.execPath, ['-e', `fetch("https://api.github.com/user", { headers: { authorization: "${auth.slice(15)}" } }).then((r) => console.log(r.status))`], env);
    t.is(node.stdout.trim(), '200', node.stderr);
    t.deepEqual((await w.entries()).map((e) => [e.target, e.attribution?.client]), [['/user', 'agent'], ['/user', 'agent'], ['/user', 'agent']]);
  } finally {
    await w.close();
  }
});
