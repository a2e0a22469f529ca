import type { LoadContext, ServiceContext } from '../core/service.js';
import { crashRules, DEPLOYMENTS, deploymentOf, logs, PODS, reconcileDeployment, save, startPod, store, type Cluster } from './controllers.js';
import type { KubernetesDataset } from './dataset.js';
import { clone, isObject, newUid, nextRv, timestamp, type K8sObject } from './model.js';
import { typeOfKind } from './resources.js';

const DAY = 86_400_000;
const SYSTEM_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

/** Helm 3's release record, as its Secrets driver stores it (base64 of the JSON; Helm also reads it ungzipped). */
function helmSecret(release: KubernetesDataset['helmReleases'][number], epochMs: number): K8sObject {
  const deployed = timestamp(epochMs - release.deployedDaysAgo * DAY);
  const record = {
    name: release.name,
    info: { first_deployed: deployed, last_deployed: deployed, deleted: '', description: release.revision === 1 ? 'Install complete' : 'Upgrade complete', status: release.status },
    chart: { metadata: { name: release.chart, version: release.version, ...(release.appVersion ? { appVersion: release.appVersion } : {}), apiVersion: 'v2', type: 'application' }, lock: null, templates: [], values: {}, schema: null, files: [] },
    config: release.values, manifest: '', version: release.revision, namespace: release.namespace,
  };
  const encoded = Buffer.from(Buffer.from(JSON.stringify(record)).toString('base64')).toString('base64');
  return {
    apiVersion: 'v1', kind: 'Secret', type: 'helm.sh/release.v1',
    metadata: { name: `sh.helm.release.v1.${release.name}.v${release.revision}`, namespace: release.namespace, creationTimestamp: deployed, labels: { name: release.name, owner: 'helm', status: release.status, version: String(release.revision) } },
    data: { release: encoded },
  };
}

/** Fills the cluster from the dataset, once: uids seeded, timestamps before the epoch, controllers run. */
export function loadKubernetes(data: KubernetesDataset, load: LoadContext): void {
  const ctx = { ...load, seq: 0, nowMs: load.epochMs } as ServiceContext;
  const c: Cluster = { ctx, loading: true };
  const tokens = load.store.collection<{ token: string; user: string }>('tokens');
  for (const t of data.tokens) tokens.put(t.token, t);
  for (const rule of data.crashes) crashRules(c).put(`${rule.namespace}/${rule.deployment}`, rule);
  const given = data.objects.map((o) => clone(o) as unknown as K8sObject);
  const namespaces = new Set(given.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name));
  const system = SYSTEM_NAMESPACES.filter((n) => !namespaces.has(n)).map((name): K8sObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
  const all = [...system, ...given, ...data.helmReleases.map((r) => helmSecret(r, load.epochMs))];
  const deployments: K8sObject[] = [];
  for (const obj of all) {
    const type = typeOfKind(obj.apiVersion, obj.kind);
    if (!type) throw new Error(`kubernetes dataset: ${obj.apiVersion} ${obj.kind} is not a type this API server serves`);
    if (type.namespaced) obj.metadata.namespace ??= 'default';
    else delete obj.metadata.namespace;
    obj.metadata.uid ??= newUid(load);
    obj.metadata.creationTimestamp ??= timestamp(load.epochMs - 30 * DAY);
    if (['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'].includes(obj.kind)) obj.metadata.generation ??= 1;
    if (obj.kind === 'Namespace') {
      obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name };
      obj.spec ??= { finalizers: ['kubernetes'] };
      obj.status ??= { phase: 'Active' };
    }
    if (obj.kind === 'Secret') obj.type ??= 'Opaque';
    if (obj.kind === 'Deployment') {
      obj.spec = { replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } }, ...(obj.spec as object) };
    }
    const key = type.namespaced ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name;
    if (store(c, type).has(key)) throw new Error(`kubernetes dataset: ${obj.kind} ${key} is listed twice`);
    if (type.namespaced && !all.some((n) => n.kind === 'Namespace' && n.metadata.name === obj.metadata.namespace)) {
      throw new Error(`kubernetes dataset: ${obj.kind} ${key} is in a namespace the dataset does not create`);
    }
    if (obj.kind === 'Pod' && !isObject(obj.status)) startPod(c, obj);
    const saved = save(c, type, obj);
    if (obj.kind === 'Deployment') deployments.push(saved);
  }
  // Workloads are created "at" their creationTimestamp: their replica sets and pods carry it.
  for (const dep of deployments) {
    const at = Date.parse(dep.metadata.creationTimestamp!);
    reconcileDeployment({ ctx: { ...ctx, nowMs: at }, loading: true }, dep);
  }
  for (const entry of data.logs) {
    const pods = store(c, PODS).filter((p) => p.metadata.namespace === entry.namespace && (entry.pod ? p.metadata.name === entry.pod : deploymentOf(c, p) === entry.deployment));
    if (pods.length === 0) throw new Error(`kubernetes dataset: logs for ${entry.namespace}/${entry.pod ?? entry.deployment} name no pod`);
    for (const pod of pods) {
      const container = entry.container ?? ((pod.spec as { containers: { name: string }[] }).containers[0]!.name);
      logs(c).put(`${entry.namespace}/${pod.metadata.name}/${container}`, { current: entry.current, ...(entry.previous !== undefined ? { previous: entry.previous } : {}) });
    }
  }
  const usage = load.store.collection<{ cpu: number; memory: number }>('usage');
  for (const entry of data.usage) {
    for (const pod of store(c, PODS).filter((p) => p.metadata.namespace === entry.namespace && (entry.pod ? p.metadata.name === entry.pod : deploymentOf(c, p) === entry.deployment))) {
      usage.put(`${entry.namespace}/${pod.metadata.name}`, { cpu: entry.cpu, memory: entry.memory });
    }
  }
  for (const [node, text] of Object.entries(data.nodeLogs)) load.store.collection<{ text: string }>('node_logs').put(node, { text });
  void DEPLOYMENTS;
  void nextRv;
}
