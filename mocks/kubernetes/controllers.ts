import type { ServiceContext } from '../core/service.js';
import { clone, isObject, nextRv, objects, randomSuffix, templateHash, timestamp, newUid, type K8sObject } from './model.js';
import { findType, type ResourceType } from './resources.js';
import { matchesLabels, selectorRequirements } from './selectors.js';

/**
 * What the controller manager, scheduler and kubelets would do, done at once and
 * deterministically inside the write that calls for it: a deployment's template becomes a
 * replica set (named by its pod-template-hash), replica sets get exactly their replicas of pods,
 * pods are placed on nodes and started. A container whose env names a config map or secret key
 * that does not exist never starts (`CreateContainerConfigError`), as on a real kubelet.
 */

/** `loading`: the dataset is being loaded (pods show the restarts they had before the epoch). */
export type Cluster = { ctx: ServiceContext; loading?: boolean };

const T = (group: string, version: string, plural: string): ResourceType => findType(group, version, plural)!;
export const DEPLOYMENTS = T('apps', 'v1', 'deployments');
export const REPLICASETS = T('apps', 'v1', 'replicasets');
export const PODS = T('', 'v1', 'pods');
export const NODES = T('', 'v1', 'nodes');
export const CONFIGMAPS = T('', 'v1', 'configmaps');
export const SECRETS = T('', 'v1', 'secrets');
export const NAMESPACES = T('', 'v1', 'namespaces');
export const EVENTS = T('', 'v1', 'events');

const REVISION = 'deployment.kubernetes.io/revision';

function ownedBy(obj: K8sObject, owner: K8sObject): boolean {
  return (obj.metadata.ownerReferences ?? []).some((ref) => ref.uid === owner.metadata.uid && ref.controller === true);
}

function ownerRef(owner: K8sObject): NonNullable<K8sObject['metadata']['ownerReferences']>[number] {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

export function store(c: Cluster, type: ResourceType) {
  return objects(c.ctx.store, type);
}

export function save(c: Cluster, type: ResourceType, obj: K8sObject): K8sObject {
  const key = type.namespaced ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name;
  obj.metadata.resourceVersion = nextRv(c.ctx.store);
  return store(c, type).put(key, obj);
}

/** Why a container cannot be configured (the kubelet's message), or null. */
function configProblem(c: Cluster, namespace: string, container: Record<string, unknown>): string | null {
  for (const env of Array.isArray(container.env) ? container.env : []) {
    const from = isObject(env) && isObject(env.valueFrom) ? env.valueFrom : null;
    for (const [refName, type, label] of [['configMapKeyRef', CONFIGMAPS, 'configmap'], ['secretKeyRef', SECRETS, 'secret']] as const) {
      const ref = from && isObject(from[refName]) ? from[refName] as { name?: string; key?: string; optional?: boolean } : null;
      if (!ref || ref.optional) continue;
      const target = store(c, type).get(`${namespace}/${ref.name}`);
      if (!target) return `${label} "${ref.name}" not found`;
      const data = { ...(isObject(target.data) ? target.data : {}), ...(isObject(target.binaryData) ? target.binaryData : {}) };
      if (!(String(ref.key) in data)) return `couldn't find key ${ref.key} in ${type.kind} ${namespace}/${ref.name}`;
    }
  }
  for (const env of Array.isArray(container.envFrom) ? container.envFrom : []) {
    if (!isObject(env)) continue;
    const cm = isObject(env.configMapRef) ? env.configMapRef as { name?: string; optional?: boolean } : null;
    if (cm && !cm.optional && !store(c, CONFIGMAPS).get(`${namespace}/${cm.name}`)) return `configmap "${cm.name}" not found`;
    const secret = isObject(env.secretRef) ? env.secretRef as { name?: string; optional?: boolean } : null;
    if (secret && !secret.optional && !store(c, SECRETS).get(`${namespace}/${secret.name}`)) return `secret "${secret.name}" not found`;
  }
  return null;
}

/** The node the scheduler picks: the Ready, schedulable node with the fewest pods, by name on ties. */
function pickNode(c: Cluster): string | undefined {
  const nodes = store(c, NODES).values().filter((n) => !(isObject(n.spec) && n.spec.unschedulable === true));
  const count = (name: string) => store(c, PODS).filter((p) => isObject(p.spec) && p.spec.nodeName === name).length;
  return nodes.map((n) => [n.metadata.name, count(n.metadata.name)] as const).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}

function podIp(c: Cluster): string {
  const n = c.ctx.ids.next('pod-ip', 10);
  return `10.244.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;
}

/** A started pod's status: Running and Ready, or waiting on a configuration error. */
export function startPod(c: Cluster, pod: K8sObject): K8sObject {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const namespace = pod.metadata.namespace!;
  const nodeName = typeof spec.nodeName === 'string' ? spec.nodeName : pickNode(c);
  if (nodeName) pod.spec = { ...spec, nodeName };
  const now = timestamp(c.ctx.nowMs);
  const containers = (Array.isArray(spec.containers) ? spec.containers : []) as Record<string, unknown>[];
  const statuses = containers.map((container) => {
    const problem = configProblem(c, namespace, container);
    return {
      name: container.name, image: container.image, imageID: '', containerID: problem ? undefined : `containerd://${randomSuffix(c.ctx, 'container', 16)}`,
      ready: problem === null, started: problem === null, restartCount: 0,
      state: problem ? { waiting: { reason: 'CreateContainerConfigError', message: problem } } : { running: { startedAt: now } },
    };
  }).map((s) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>);
  const crash = crashRule(c, pod);
  if (crash) {
    const index = Math.max(0, statuses.findIndex((s) => s.name === (crash.container ?? statuses[0]?.name)));
    const restarts = c.loading ? crash.restarts : 1;
    statuses[index] = {
      ...statuses[index], ready: false, started: false, restartCount: restarts,
      state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting failed container=${String(statuses[index]?.name)} pod=${pod.metadata.name}_${namespace}(${pod.metadata.uid})` } },
      lastState: { terminated: { exitCode: crash.exitCode, reason: 'Error', startedAt: now, finishedAt: now, containerID: statuses[index]?.containerID } },
    };
    logs(c).put(`${namespace}/${pod.metadata.name}/${String(statuses[index]?.name)}`, { current: crash.logs, previous: crash.logs });
  }
  const ready = statuses.every((s) => s.ready === true);
  pod.status = {
    // A crash-looping container has run: its pod is Running, only not Ready.
    phase: ready || crash ? 'Running' : 'Pending',
    conditions: [
      { type: 'PodReadyToStartContainers', status: 'True', lastProbeTime: null, lastTransitionTime: now },
      { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: now },
      { type: 'Ready', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: now, ...(ready ? {} : { reason: 'ContainersNotReady', message: `containers with unready status: [${statuses.filter((s) => !s.ready).map((s) => s.name).join(' ')}]` }) },
      { type: 'ContainersReady', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: now, ...(ready ? {} : { reason: 'ContainersNotReady', message: `containers with unready status: [${statuses.filter((s) => !s.ready).map((s) => s.name).join(' ')}]` }) },
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now },
    ],
    hostIP: nodeIp(c, nodeName), podIP: podIp(c), startTime: now, containerStatuses: statuses, qosClass: 'BestEffort',
  };
  (pod.status as Record<string, unknown>).podIPs = [{ ip: (pod.status as { podIP: string }).podIP }];
  return pod;
}

function nodeIp(c: Cluster, name: string | undefined): string {
  const node = name ? store(c, NODES).get(name) : undefined;
  const addresses = node && isObject(node.status) && Array.isArray(node.status.addresses) ? node.status.addresses as { type: string; address: string }[] : [];
  return addresses.find((a) => a.type === 'InternalIP')?.address ?? '10.0.0.10';
}

export interface CrashRule { namespace: string; deployment: string; container?: string; requires: { configMap: string; key: string }; exitCode: number; restarts: number; logs: string; healthyLogs: string }

export function crashRules(c: Pick<Cluster, 'ctx'> | { ctx: { store: ServiceContext['store'] } }) {
  return c.ctx.store.collection<CrashRule>('crash_rules');
}

export function logs(c: { ctx: { store: ServiceContext['store'] } }) {
  return c.ctx.store.collection<{ current: string; previous?: string }>('logs');
}

/** The deployment that owns a pod (through its replica set), if any. */
export function deploymentOf(c: Cluster, pod: K8sObject): string | undefined {
  const rsRef = (pod.metadata.ownerReferences ?? []).find((r) => r.kind === 'ReplicaSet');
  const rs = rsRef ? store(c, REPLICASETS).get(`${pod.metadata.namespace}/${rsRef.name}`) : undefined;
  return rs?.metadata.ownerReferences?.find((r) => r.kind === 'Deployment')?.name;
}

/** The crash rule that holds for a pod: its deployment has one whose config map key is missing. */
function crashRule(c: Cluster, pod: K8sObject): CrashRule | undefined {
  const dep = deploymentOf(c, pod);
  const rule = dep ? crashRules(c).get(`${pod.metadata.namespace}/${dep}`) : undefined;
  if (!rule) return undefined;
  const cm = store(c, CONFIGMAPS).get(`${rule.namespace}/${rule.requires.configMap}`);
  const present = cm && isObject(cm.data) && rule.requires.key in cm.data;
  if (present) {
    if (rule.healthyLogs) {
      for (const ct of (isObject(pod.spec) && Array.isArray(pod.spec.containers) ? pod.spec.containers : []) as { name: string }[]) {
        if (!rule.container || rule.container === ct.name) logs(c).put(`${pod.metadata.namespace}/${pod.metadata.name}/${ct.name}`, { current: rule.healthyLogs });
      }
    }
    return undefined;
  }
  return rule;
}

export function podReady(pod: K8sObject): boolean {
  const conditions = isObject(pod.status) && Array.isArray(pod.status.conditions) ? pod.status.conditions as { type: string; status: string }[] : [];
  return conditions.some((cond) => cond.type === 'Ready' && cond.status === 'True');
}

function podsOf(c: Cluster, owner: K8sObject): K8sObject[] {
  return store(c, PODS).filter((p) => p.metadata.namespace === owner.metadata.namespace && ownedBy(p, owner) && !p.metadata.deletionTimestamp);
}

/** A replica set gets exactly `spec.replicas` pods: new ones from its template, extras deleted newest first. */
export function reconcileReplicaSet(c: Cluster, rs: K8sObject): K8sObject {
  const spec = (rs.spec ?? {}) as { replicas?: number; template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown } };
  const want = spec.replicas ?? 1;
  let pods = podsOf(c, rs);
  while (pods.length > want) {
    const victim = pods[pods.length - 1]!;
    store(c, PODS).delete(`${victim.metadata.namespace}/${victim.metadata.name}`);
    pods = podsOf(c, rs);
  }
  while (pods.length < want) {
    const name = `${rs.metadata.name}-${randomSuffix(c.ctx, 'pod')}`;
    const pod: K8sObject = {
      apiVersion: 'v1', kind: 'Pod',
      metadata: {
        name, generateName: `${rs.metadata.name}-`, namespace: rs.metadata.namespace, uid: newUid(c.ctx), creationTimestamp: timestamp(c.ctx.nowMs),
        labels: { ...(spec.template?.metadata?.labels ?? {}) }, ...(spec.template?.metadata?.annotations ? { annotations: { ...spec.template.metadata.annotations } } : {}),
        ownerReferences: [ownerRef(rs)],
      },
      spec: { ...clone((spec.template?.spec ?? {}) as Record<string, unknown>), restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', serviceAccountName: 'default' },
    };
    save(c, PODS, startPod(c, pod));
    pods = podsOf(c, rs);
  }
  const ready = pods.filter(podReady).length;
  const status = { replicas: pods.length, fullyLabeledReplicas: pods.length, readyReplicas: ready, availableReplicas: ready, observedGeneration: rs.metadata.generation ?? 1 };
  const updated = clone(rs);
  updated.status = Object.fromEntries(Object.entries(status).filter(([k, v]) => !(v === 0 && k !== 'replicas' && k !== 'observedGeneration')));
  if (JSON.stringify(updated.status) === JSON.stringify(rs.status)) return rs;
  return save(c, REPLICASETS, updated);
}

/**
 * A deployment's template as a replica set (the current one gets the replicas, older ones
 * none), then the deployment's status and the conditions `kubectl rollout status` reads.
 * Pods that cannot start count as a rollout past its progress deadline (the logical clock does
 * not wait ten minutes), so `rollout status` fails instead of waiting.
 */
export function reconcileDeployment(c: Cluster, deployment: K8sObject): K8sObject {
  const dep = clone(deployment);
  const spec = (dep.spec ?? {}) as { replicas?: number; template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown }; selector?: unknown; paused?: boolean };
  const namespace = dep.metadata.namespace!;
  const hash = templateHash(spec.template ?? {});
  const owned = store(c, REPLICASETS).filter((rs) => rs.metadata.namespace === namespace && ownedBy(rs, dep));
  const revisionOf = (rs: K8sObject) => Number(rs.metadata.annotations?.[REVISION] ?? '0');
  let current = owned.find((rs) => rs.metadata.labels?.['pod-template-hash'] === hash);
  const maxRevision = Math.max(0, ...owned.map(revisionOf));
  const template = clone(spec.template ?? {}) as { metadata?: { labels?: Record<string, string> } };
  template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), 'pod-template-hash': hash } };
  const annotations = { [REVISION]: '' };
  if (!current) {
    const selector = clone(isObject(spec.selector) ? spec.selector : {}) as { matchLabels?: Record<string, string> };
    selector.matchLabels = { ...(selector.matchLabels ?? {}), 'pod-template-hash': hash };
    current = save(c, REPLICASETS, {
      apiVersion: 'apps/v1', kind: 'ReplicaSet',
      metadata: {
        name: `${dep.metadata.name}-${hash}`, namespace, uid: newUid(c.ctx), generation: 1, creationTimestamp: timestamp(c.ctx.nowMs),
        labels: { ...(template.metadata.labels ?? {}) },
        annotations: { 'deployment.kubernetes.io/desired-replicas': String(spec.replicas ?? 1), 'deployment.kubernetes.io/max-replicas': String(Math.ceil((spec.replicas ?? 1) * 1.25)), [REVISION]: String(maxRevision + 1) },
        ownerReferences: [ownerRef(dep)],
      },
      spec: { replicas: 0, selector, template },
    });
  } else if (revisionOf(current) < maxRevision) {
    // Rolling back to an older template makes its replica set the newest revision again.
    const bumped = clone(current);
    bumped.metadata.annotations = { ...(bumped.metadata.annotations ?? {}), [REVISION]: String(maxRevision + 1) };
    current = save(c, REPLICASETS, bumped);
  }
  annotations[REVISION] = current.metadata.annotations?.[REVISION] ?? '1';
  const replicas = spec.replicas ?? 1;
  for (const rs of store(c, REPLICASETS).filter((r) => r.metadata.namespace === namespace && ownedBy(r, dep))) {
    const want = rs.metadata.uid === current.metadata.uid ? replicas : 0;
    let next = rs;
    if ((rs.spec as { replicas?: number }).replicas !== want) {
      next = clone(rs);
      (next.spec as { replicas: number }).replicas = want;
      next.metadata.generation = (next.metadata.generation ?? 1) + 1;
      next.metadata.annotations = { ...(next.metadata.annotations ?? {}), 'deployment.kubernetes.io/desired-replicas': String(replicas) };
      next = save(c, REPLICASETS, next);
    }
    reconcileReplicaSet(c, next);
  }
  const all = store(c, PODS).filter((p) => p.metadata.namespace === namespace && store(c, REPLICASETS).filter((r) => r.metadata.namespace === namespace && ownedBy(r, dep)).some((r) => ownedBy(p, r)));
  const updatedPods = podsOf(c, store(c, REPLICASETS).get(`${namespace}/${current.metadata.name}`)!);
  const ready = all.filter(podReady).length;
  const now = timestamp(c.ctx.nowMs);
  const healthy = updatedPods.length === replicas && updatedPods.every(podReady);
  const previous = (isObject(dep.status) && Array.isArray(dep.status.conditions) ? dep.status.conditions : []) as { type: string; status: string; reason?: string; lastTransitionTime?: string; lastUpdateTime?: string }[];
  const condition = (type: string, status: string, reason: string, message: string) => {
    const old = previous.find((p) => p.type === type);
    const same = old && old.status === status && old.reason === reason;
    return { type, status, lastUpdateTime: same ? old.lastUpdateTime ?? now : now, lastTransitionTime: old && old.status === status ? old.lastTransitionTime ?? now : now, reason, message };
  };
  const available = ready >= replicas;
  dep.metadata.annotations = { ...(dep.metadata.annotations ?? {}), ...annotations };
  dep.status = {
    observedGeneration: dep.metadata.generation ?? 1,
    replicas: all.length, updatedReplicas: updatedPods.length,
    ...(ready > 0 ? { readyReplicas: ready, availableReplicas: ready } : {}),
    ...(all.length - ready > 0 ? { unavailableReplicas: all.length - ready } : {}),
    conditions: [
      available
        ? condition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.')
        : condition('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'),
      healthy
        ? condition('Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${current.metadata.name}" has successfully progressed.`)
        : condition('Progressing', 'False', 'ProgressDeadlineExceeded', `ReplicaSet "${current.metadata.name}" has timed out progressing.`),
    ],
  };
  if (JSON.stringify(dep) === JSON.stringify(deployment)) return deployment;
  return save(c, DEPLOYMENTS, dep);
}

/** What deleting an owner takes with it (background cascading deletion, done at once). */
export function collectGarbage(c: Cluster, owner: K8sObject): void {
  for (const type of [REPLICASETS, PODS, findType('batch', 'v1', 'jobs')!]) {
    for (const obj of store(c, type).filter((o) => o.metadata.namespace === owner.metadata.namespace && ownedBy(o, owner))) {
      store(c, type).delete(`${obj.metadata.namespace}/${obj.metadata.name}`);
      collectGarbage(c, obj);
    }
  }
}

/** After a pod of a replica set goes, the replica set replaces it; its deployment's status follows. */
export function afterPodDeleted(c: Cluster, pod: K8sObject): void {
  const ref = (pod.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'ReplicaSet');
  if (!ref) return;
  const rs = store(c, REPLICASETS).get(`${pod.metadata.namespace}/${ref.name}`);
  if (!rs) return;
  reconcileReplicaSet(c, rs);
  const depRef = (rs.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'Deployment');
  const dep = depRef ? store(c, DEPLOYMENTS).get(`${rs.metadata.namespace}/${depRef.name}`) : undefined;
  if (dep) reconcileDeployment(c, dep);
}

export function labelsMatch(selector: unknown, labels: Record<string, string> | undefined): boolean {
  return matchesLabels(labels, selectorRequirements(selector));
}
