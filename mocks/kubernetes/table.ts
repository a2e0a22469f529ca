import { humanDuration, isObject, type K8sObject } from './model.js';

/** Server-side printing (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`), with the columns kubectl shows. */

type Column = { name: string; type: string; format: string; description: string; priority: number };
const col = (name: string, type = 'string', priority = 0, format = ''): Column => ({ name, type, format, description: name === 'Name' ? 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names' : `${name} of the object.`, priority });

function age(obj: K8sObject, nowMs: number): string {
  const created = obj.metadata.creationTimestamp ? Date.parse(obj.metadata.creationTimestamp) : nowMs;
  return humanDuration(nowMs - created);
}

function podStatus(pod: K8sObject): { ready: string; status: string; restarts: string } {
  const status = isObject(pod.status) ? pod.status : {};
  const statuses = (Array.isArray(status.containerStatuses) ? status.containerStatuses : []) as { ready?: boolean; restartCount?: number; state?: { waiting?: { reason?: string }; terminated?: { reason?: string } } }[];
  const total = isObject(pod.spec) && Array.isArray(pod.spec.containers) ? pod.spec.containers.length : statuses.length;
  let reason = String(status.reason ?? status.phase ?? 'Unknown');
  for (const s of statuses) {
    if (s.state?.waiting?.reason) reason = s.state.waiting.reason;
    else if (s.state?.terminated?.reason) reason = s.state.terminated.reason;
  }
  if (pod.metadata.deletionTimestamp) reason = 'Terminating';
  return { ready: `${statuses.filter((s) => s.ready).length}/${total}`, status: reason, restarts: String(statuses.reduce((n, s) => n + (s.restartCount ?? 0), 0)) };
}

function columns(kind: string): Column[] {
  switch (kind) {
    case 'Pod': return [col('Name', 'string', 0, 'name'), col('Ready'), col('Status'), col('Restarts', 'string'), col('Age'), col('IP', 'string', 1), col('Node', 'string', 1)];
    case 'Deployment': return [col('Name', 'string', 0, 'name'), col('Ready'), col('Up-to-date', 'integer'), col('Available', 'integer'), col('Age'), col('Containers', 'string', 1), col('Images', 'string', 1), col('Selector', 'string', 1)];
    case 'ReplicaSet': return [col('Name', 'string', 0, 'name'), col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), col('Age')];
    case 'Service': return [col('Name', 'string', 0, 'name'), col('Type'), col('Cluster-IP'), col('External-IP'), col('Port(s)'), col('Age')];
    case 'Node': return [col('Name', 'string', 0, 'name'), col('Status'), col('Roles'), col('Age'), col('Version')];
    case 'Namespace': return [col('Name', 'string', 0, 'name'), col('Status'), col('Age')];
    case 'ConfigMap': return [col('Name', 'string', 0, 'name'), col('Data', 'integer'), col('Age')];
    case 'Secret': return [col('Name', 'string', 0, 'name'), col('Type'), col('Data', 'integer'), col('Age')];
    case 'Event': return [col('Last Seen'), col('Type'), col('Reason'), col('Object'), col('Message')];
    case 'Job': return [col('Name', 'string', 0, 'name'), col('Status'), col('Completions'), col('Duration'), col('Age')];
    default: return [col('Name', 'string', 0, 'name'), col('Age')];
  }
}

function cells(obj: K8sObject, nowMs: number): unknown[] {
  const spec = (isObject(obj.spec) ? obj.spec : {}) as Record<string, any>;
  const status = (isObject(obj.status) ? obj.status : {}) as Record<string, any>;
  const name = obj.metadata.name;
  switch (obj.kind) {
    case 'Pod': {
      const s = podStatus(obj);
      return [name, s.ready, s.status, Number(s.restarts), age(obj, nowMs), status.podIP ?? '<none>', spec.nodeName ?? '<none>'];
    }
    case 'Deployment': {
      const containers = (spec.template?.spec?.containers ?? []) as { name: string; image: string }[];
      return [name, `${status.readyReplicas ?? 0}/${spec.replicas ?? 1}`, status.updatedReplicas ?? 0, status.availableReplicas ?? 0, age(obj, nowMs),
        containers.map((c) => c.name).join(','), containers.map((c) => c.image).join(','), Object.entries(spec.selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`).join(',')];
    }
    case 'ReplicaSet': return [name, spec.replicas ?? 0, status.replicas ?? 0, status.readyReplicas ?? 0, age(obj, nowMs)];
    case 'Service': return [name, spec.type ?? 'ClusterIP', spec.clusterIP ?? '<none>', (status.loadBalancer?.ingress ?? []).map((i: { ip?: string }) => i.ip).join(',') || '<none>',
      (spec.ports ?? []).map((p: { port: number; protocol?: string; nodePort?: number }) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',') || '<none>', age(obj, nowMs)];
    case 'Node': {
      const ready = (status.conditions ?? []).find((c: { type: string }) => c.type === 'Ready');
      const roles = Object.keys(obj.metadata.labels ?? {}).filter((k) => k.startsWith('node-role.kubernetes.io/')).map((k) => k.split('/')[1]).join(',') || '<none>';
      return [name, `${ready?.status === 'True' ? 'Ready' : 'NotReady'}${spec.unschedulable ? ',SchedulingDisabled' : ''}`, roles, age(obj, nowMs), status.nodeInfo?.kubeletVersion ?? ''];
    }
    case 'Namespace': return [name, status.phase ?? 'Active', age(obj, nowMs)];
    case 'ConfigMap': return [name, Object.keys((obj.data as object) ?? {}).length + Object.keys((obj.binaryData as object) ?? {}).length, age(obj, nowMs)];
    case 'Secret': return [name, obj.type ?? 'Opaque', Object.keys((obj.data as object) ?? {}).length, age(obj, nowMs)];
    case 'Event': {
      const o = (obj.involvedObject ?? {}) as { kind?: string; name?: string };
      const last = typeof obj.lastTimestamp === 'string' ? humanDuration(nowMs - Date.parse(obj.lastTimestamp)) : age(obj, nowMs);
      return [last, obj.type ?? 'Normal', obj.reason ?? '', `${String(o.kind ?? '').toLowerCase()}/${o.name ?? ''}`, obj.message ?? ''];
    }
    case 'Job': return [name, status.succeeded >= (spec.completions ?? 1) ? 'Complete' : status.failed ? 'Failed' : 'Running', `${status.succeeded ?? 0}/${spec.completions ?? 1}`, '', age(obj, nowMs)];
    default: return [name, age(obj, nowMs)];
  }
}

export function wantsTable(accept: string | undefined): boolean {
  return accept !== undefined && /as=Table/.test(accept);
}

export function table(kind: string, items: K8sObject[], listMeta: Record<string, unknown>, nowMs: number, includeObject: string): Record<string, unknown> {
  return {
    kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: listMeta, columnDefinitions: columns(kind),
    rows: items.map((obj) => ({
      cells: cells(obj, nowMs),
      object: includeObject === 'None' ? null : includeObject === 'Object' ? obj : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata },
    })),
  };
}
