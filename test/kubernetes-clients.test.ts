import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';
import { tempDir } from './helpers/journal.js';

// Real clients nobody here wrote, unmodified, through the TLS proxy against the Kubernetes mock:
// @kubernetes/client-node 1.3 (the preload; see the helper for why not the 2.0 devDependency) and kubectl itself (HTTPS_PROXY; the CA in the
// kubeconfig). kubectl must be on PATH: CI installs Debian's kubernetes-client (.ci/run); only
// off CI is a missing kubectl a skip.

const run = promisify(execFile);
let stack: Stack;
let dir: string;
let kubeconfig: string;

function hasKubectl(): boolean {
  return (process.env.PATH ?? '').split(':').some((p) => { try { return readFileSync(join(p, 'kubectl')).length > 0; } catch { return false; } });
}

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/kubernetes/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['k8s-client-node', 'kubectl'] });
  dir = tempDir('toolbench-kube-test-');
  kubeconfig = join(dir, 'config');
  writeFileSync(kubeconfig, JSON.stringify({
    apiVersion: 'v1', kind: 'Config',
    clusters: [{ name: 't', cluster: { server: 'https://kubernetes.toolbench.test', 'certificate-authority-data': readFileSync(stack.caPath!).toString('base64') } }],
    users: [{ name: 'u', user: { token: 'k8s-conformance-token' } }],
    contexts: [{ name: 't', context: { cluster: 't', user: 'u', namespace: 'shop' } }], 'current-context': 't',
  }));
});
test.after.always(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test.serial('@kubernetes/client-node reads, scales, creates, patches, pages, reads logs and watches; errors are Status objects', async (t) => {
  const script = fileURLToPath(new URL('./helpers/kubernetes-client-node.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], { env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('k8s-client-node'), stack.caPath!), KUBECONFIG: kubeconfig } });
  const out = JSON.parse(stdout);
  t.deepEqual(out.namespaces, ['default', 'kube-node-lease', 'kube-public', 'kube-system', 'monitoring', 'payments', 'shop', 'staging'].sort((a, b) => out.namespaces.indexOf(a) - out.namespaces.indexOf(b)));
  t.true(out.namespaces.includes('shop') && out.namespaces.length === 8);
  t.deepEqual(out.pods, { count: 3, phases: ['Running'], nodes: true });
  t.deepEqual(out.deployment, { replicas: 2, ready: 2, image: 'registry.acme.io/cart:3.2.4', revision: '1' });
  t.deepEqual(out.scaled, { kind: 'Scale', replicas: 4, selector: 'app=cart' });
  t.deepEqual(out.afterScale, { ready: 4, updated: 4, observed: true });
  t.deepEqual(out.created, { rv: 'string', uid: true });
  t.deepEqual(out.patched, { a: '1', b: '2' });
  t.is(out.pages.first.length, 2);
  t.deepEqual(out.pages.second, ['sdk-settings']);
  t.is(out.pages.remaining, 1);
  t.regex(out.log, /INFO GET \/cart 200/);
  t.deepEqual(out.watch, ['ADDED sdk-settings']);
  t.like(out.errors.missing, { code: 404, body: { kind: 'Status', status: 'Failure', reason: 'NotFound', message: 'deployments.apps "nope" not found', details: { name: 'nope', group: 'apps', kind: 'deployments' }, code: 404 } });
  t.like(out.errors.duplicate, { code: 409, body: { reason: 'AlreadyExists', message: 'configmaps "sdk-settings" already exists' } });
  t.like(out.errors.invalid, { code: 422, body: { reason: 'Invalid', details: { causes: [{ reason: 'FieldValueInvalid', field: 'spec.replicas' }] } } });
  await stack.world.journal.flush();
  const named: string[] = [];
  for await (const entry of stack.world.journal.entries()) named.push(`${entry.host} ${entry.operation?.name ?? 'null'}`);
  t.true(named.length > 10 && named.every((s) => s.startsWith('kubernetes.toolbench.test ') && !s.endsWith(' null')), named.join('\n'));
});

test.serial('kubectl gets, scales, waits for the rollout, patches and reads logs through the proxy', async (t) => {
  if (!hasKubectl()) {
    if (process.env.CI) return void t.fail('kubectl is not on PATH on CI (.ci/run installs kubernetes-client)');
    return void t.pass('kubectl is not on PATH (off CI): skipped');
  }
  const env = { PATH: process.env.PATH ?? '', HOME: dir, KUBECONFIG: kubeconfig, HTTPS_PROXY: stack.proxy!.proxy.urlFor('kubectl'), NO_PROXY: '127.0.0.1,localhost' };
  const kubectl = async (...args: string[]) => (await run('kubectl', args, { env })).stdout;
  t.regex(await kubectl('get', 'deployments', '-n', 'payments'), /ledger\s+2\/2\s+2\s+2/);
  t.regex(await kubectl('scale', 'deployment/ledger', '-n', 'payments', '--replicas=3'), /deployment.apps\/ledger scaled/);
  t.regex(await kubectl('rollout', 'status', 'deployment/ledger', '-n', 'payments', '--timeout=10s'), /successfully rolled out/);
  t.regex(await kubectl('get', 'pods', '-n', 'payments', '-l', 'app=ledger', '-o', 'name'), /^(pod\/ledger-\S+\n){3}$/);
  t.regex(await kubectl('patch', 'configmap', 'ledger-config', '-n', 'payments', '--type=merge', '-p', '{"data":{"LEDGER_BATCH":"250"}}'), /patched/);
  t.is(await kubectl('get', 'configmap', 'ledger-config', '-n', 'payments', '-o', 'jsonpath={.data.LEDGER_BATCH}'), '250');
  t.regex(await kubectl('logs', 'deployment/ledger', '-n', 'payments', '--tail=1'), /ledger batch 500 committed/);
  const missing = await run('kubectl', ['get', 'deployment', 'nope', '-n', 'payments'], { env }).catch((e: { stderr: string }) => e);
  t.regex((missing as { stderr: string }).stderr, /Error from server \(NotFound\): deployments.apps "nope" not found/);
  const ledger = stack.world.gradingState().kubernetes!.deployments!['payments/ledger'] as { spec: { replicas: number } };
  t.is(ledger.spec.replicas, 3);
});
