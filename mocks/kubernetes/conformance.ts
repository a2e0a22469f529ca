import { fileURLToPath } from 'node:url';
import type { SweepProfile } from '../kit/sweep-profile.js';
import { sourceUrl } from '../core/source-url.js';

/**
 * How the conformance suite and `toolbench coverage` call all 23 + 23 tools of the two
 * Kubernetes MCP servers in the conformance cluster (mocks/kubernetes/conformance): creates
 * first, then reads, writes, and deletes last, each naming objects that exist there (or the
 * sweep's own creates). Pod names of deployments are seeded: tools that take a pod name use the
 * stand-alone pods the sweep runs itself.
 */
// In the source tree even when this runs from dist/ (`toolbench catalog sweep`, `npm test`).
const CHART = fileURLToPath(new URL('./conformance/chart', sourceUrl(import.meta.url)));

const MANIFEST = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sweep-applied', namespace: 'shop' }, data: { mode: 'sweep' } });

const ARGS: Record<string, Record<string, unknown>> = {
  // kubernetes-mcp-server (Go)
  configuration_view: { minified: true },
  events_list: { namespace: 'monitoring' },
  helm_install: { chart: CHART, name: 'sweep', namespace: 'staging' },
  helm_list: { all_namespaces: true },
  helm_uninstall: { name: 'sweep', namespace: 'staging' },
  namespaces_list: {},
  nodes_log: { name: 'ip-10-0-1-34.eu-west-1.compute.internal', query: 'kubelet', tailLines: 10 },
  nodes_stats_summary: { name: 'ip-10-0-1-34.eu-west-1.compute.internal' },
  nodes_top: {},
  pods_run: { image: 'busybox:1.36', name: 'sweep-go', namespace: 'shop', port: 8080 },
  pods_get: { name: 'sweep-go', namespace: 'shop' },
  pods_list: { labelSelector: 'app=storefront' },
  pods_list_in_namespace: { namespace: 'payments' },
  pods_log: { name: 'sweep-go', namespace: 'shop', tail: 20 },
  pods_exec: { name: 'sweep-go', namespace: 'shop', command: ['ls', '/'] },
  pods_top: { all_namespaces: false, namespace: 'shop' },
  pods_delete: { name: 'sweep-go', namespace: 'shop' },
  projects_list: {},
  resources_create_or_update: { resource: MANIFEST },
  resources_get: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'storefront', namespace: 'shop' },
  resources_list: { apiVersion: 'v1', kind: 'Service', namespace: 'shop' },
  resources_scale: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'cart', namespace: 'shop', scale: 3 },
  resources_delete: { apiVersion: 'v1', kind: 'ConfigMap', name: 'sweep-applied', namespace: 'shop' },
  // mcp-server-kubernetes (kubectl)
  cleanup: {},
  ping: {},
  kubectl_context: { operation: 'get' },
  kubectl_reconnect: {},
  list_api_resources: { apiGroup: 'apps' },
  explain_resource: { resource: 'deployments', apiVersion: 'apps/v1' },
  kubectl_create: { resourceType: 'configmap', name: 'sweep-node', namespace: 'shop', fromLiteral: ['mode=node'] },
  kubectl_apply: { manifest: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sweep-node-applied', namespace: 'shop' }, data: { a: '1' } }), namespace: 'shop' },
  kubectl_get: { resourceType: 'deployments', namespace: 'shop' },
  kubectl_describe: { resourceType: 'deployment', name: 'catalog', namespace: 'shop' },
  kubectl_logs: { resourceType: 'deployment', name: 'storefront', namespace: 'shop', tail: 5 },
  kubectl_patch: { resourceType: 'configmap', name: 'sweep-node', namespace: 'shop', patchType: 'merge', patchData: { data: { patched: 'yes' } } },
  kubectl_scale: { name: 'catalog', namespace: 'shop', replicas: 3 },
  kubectl_rollout: { subCommand: 'status', resourceType: 'deployment', name: 'catalog', namespace: 'shop', timeout: '10s' },
  kubectl_generic: { command: 'rollout', subCommand: 'history', resourceType: 'deployment', name: 'storefront', namespace: 'shop' },
  node_management: { operation: 'cordon', nodeName: 'ip-10-0-3-52.eu-west-1.compute.internal' },
  exec_in_pod: { name: 'sweep-go', namespace: 'shop', command: ['ls', '/'] },
  port_forward: { resourceType: 'deployment', resourceName: 'storefront', namespace: 'shop', localPort: 18080, targetPort: 8080 },
  stop_port_forward: { id: 'no-such-forward' },
  install_helm_chart: { name: 'sweep-node', chart: CHART, namespace: 'staging' },
  upgrade_helm_chart: { name: 'sweep-node', chart: CHART, namespace: 'staging' },
  uninstall_helm_chart: { name: 'sweep-node', namespace: 'staging' },
  kubectl_delete: { resourceType: 'configmap', name: 'sweep-node', namespace: 'shop' },
};

const FIRST = ['pods_run', 'helm_install', 'resources_create_or_update', 'kubectl_create', 'kubectl_apply', 'install_helm_chart'];
const LAST = ['pods_delete', 'helm_uninstall', 'resources_delete', 'upgrade_helm_chart', 'uninstall_helm_chart', 'kubectl_delete'];

export function rank(tool: string): number {
  if (FIRST.includes(tool)) return FIRST.indexOf(tool);
  if (LAST.includes(tool)) return 100 + LAST.indexOf(tool);
  return 50;
}

export const sweep: SweepProfile = {
  scenario: 'mocks/kubernetes/conformance',
  order: rank,
  argsFor: (tool) => ({ ...(ARGS[tool.name] ?? {}) }),
  // Local: the kubeconfig, the port-forward table, a reload of the kubeconfig; OpenShift's
  // projects (discovery, already cached, has no project.openshift.io); helm for
  // mcp-server-kubernetes is a binary neither this machine nor CI has (Debian ships none).
  offline: ['configuration_view', 'projects_list', 'cleanup', 'ping', 'kubectl_context', 'kubectl_reconnect', 'stop_port_forward', 'install_helm_chart', 'upgrade_helm_chart', 'uninstall_helm_chart'],
};
