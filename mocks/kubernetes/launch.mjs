#!/usr/bin/env node
// Starts a Kubernetes MCP server with a kubeconfig toolbench writes for this start: the API
// server's URL, the world's CA as certificate-authority-data and the scenario's bearer token
// (TOOLBENCH_KUBE_SERVER, TOOLBENCH_KUBE_CA (a PEM path), TOOLBENCH_KUBE_TOKEN, from the
// catalog's env). The kubeconfig, HOME and the kubectl/helm caches live in a fresh temporary
// folder, removed when the server exits, so nothing is shared between trials or read from the
// machine's own ~/.kube. Usage: launch.mjs <command> [args…]; an argument `@KUBECONFIG@` is
// replaced by the kubeconfig's path. The server's stdio is its own (MCP over stdio).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { TOOLBENCH_KUBE_SERVER: server, TOOLBENCH_KUBE_CA: caPath, TOOLBENCH_KUBE_TOKEN: token, ...env } = process.env;
if (!server || !caPath || !token) {
  process.stderr.write('launch.mjs: TOOLBENCH_KUBE_SERVER, TOOLBENCH_KUBE_CA and TOOLBENCH_KUBE_TOKEN must be set\n');
  process.exit(2);
}
const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('launch.mjs: usage: launch.mjs <command> [args…]\n');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'toolbench-kube-'));
const kubeconfig = join(dir, 'config');
const ca = Buffer.from(readFileSync(caPath)).toString('base64');
// JSON is YAML: every kubeconfig reader (client-go, @kubernetes/client-node, kubectl, helm) takes it.
writeFileSync(kubeconfig, `${JSON.stringify({
  apiVersion: 'v1', kind: 'Config', preferences: {},
  clusters: [{ name: 'toolbench', cluster: { server, 'certificate-authority-data': ca } }],
  users: [{ name: 'toolbench-user', user: { token } }],
  contexts: [{ name: 'toolbench', context: { cluster: 'toolbench', user: 'toolbench-user', namespace: 'default' } }],
  'current-context': 'toolbench',
}, null, 2)}\n`, { mode: 0o600 });

const child = spawn(command, args.map((a) => (a === '@KUBECONFIG@' ? kubeconfig : a)), {
  stdio: 'inherit',
  env: {
    ...env, KUBECONFIG: kubeconfig, HOME: dir, KUBECACHEDIR: join(dir, 'cache'),
    HELM_CACHE_HOME: join(dir, 'helm-cache'), HELM_CONFIG_HOME: join(dir, 'helm-config'), HELM_DATA_HOME: join(dir, 'helm-data'),
  },
});
const cleanup = () => rmSync(dir, { recursive: true, force: true });
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  cleanup();
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
child.on('error', (error) => {
  process.stderr.write(`launch.mjs: ${error.message}\n`);
  cleanup();
  process.exit(127);
});
