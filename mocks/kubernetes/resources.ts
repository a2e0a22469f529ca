/**
 * The resource types the mock API server serves: group, version, plural, kind, scope, verbs and
 * subresources, as a real v1.31 API server lists them in discovery. Every handler and the
 * discovery documents are built from this one table.
 */
export interface ResourceType {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** Subresources this type has (`status`, `scale`, `log`…), with their kind and verbs. */
  readonly subresources?: readonly { name: string; kind: string; verbs: readonly string[]; group?: string; version?: string }[];
  readonly verbs?: readonly string[];
  /** The store collection (default the plural; events of both groups share `events`). */
  readonly collection?: string;
}

const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;
const STATUS = { name: 'status', verbs: ['get', 'patch', 'update'] };
const SCALE = { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] };

export const RESOURCES: readonly ResourceType[] = [
  { group: '', version: 'v1', plural: 'bindings', singular: 'binding', kind: 'Binding', namespaced: true, verbs: ['create'] },
  { group: '', version: 'v1', plural: 'configmaps', singular: 'configmap', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] },
  { group: '', version: 'v1', plural: 'endpoints', singular: 'endpoints', kind: 'Endpoints', namespaced: true, shortNames: ['ep'] },
  { group: '', version: 'v1', plural: 'events', singular: 'event', kind: 'Event', namespaced: true, shortNames: ['ev'] },
  { group: '', version: 'v1', plural: 'namespaces', singular: 'namespace', kind: 'Namespace', namespaced: false, shortNames: ['ns'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], subresources: [{ ...STATUS, kind: 'Namespace' }] },
  { group: '', version: 'v1', plural: 'nodes', singular: 'node', kind: 'Node', namespaced: false, shortNames: ['no'], subresources: [{ name: 'proxy', kind: 'NodeProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] }, { ...STATUS, kind: 'Node' }] },
  { group: '', version: 'v1', plural: 'persistentvolumeclaims', singular: 'persistentvolumeclaim', kind: 'PersistentVolumeClaim', namespaced: true, shortNames: ['pvc'], subresources: [{ ...STATUS, kind: 'PersistentVolumeClaim' }] },
  {
    group: '', version: 'v1', plural: 'pods', singular: 'pod', kind: 'Pod', namespaced: true, shortNames: ['po'], categories: ['all'],
    subresources: [
      { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'] }, { name: 'log', kind: 'Pod', verbs: ['get'] },
      { name: 'portforward', kind: 'PodPortForwardOptions', verbs: ['create', 'get'] }, { ...STATUS, kind: 'Pod' },
    ],
  },
  { group: '', version: 'v1', plural: 'secrets', singular: 'secret', kind: 'Secret', namespaced: true },
  { group: '', version: 'v1', plural: 'serviceaccounts', singular: 'serviceaccount', kind: 'ServiceAccount', namespaced: true, shortNames: ['sa'] },
  { group: '', version: 'v1', plural: 'services', singular: 'service', kind: 'Service', namespaced: true, shortNames: ['svc'], categories: ['all'], subresources: [{ ...STATUS, kind: 'Service' }] },
  { group: 'apps', version: 'v1', plural: 'daemonsets', singular: 'daemonset', kind: 'DaemonSet', namespaced: true, shortNames: ['ds'], categories: ['all'], subresources: [{ ...STATUS, kind: 'DaemonSet' }] },
  { group: 'apps', version: 'v1', plural: 'deployments', singular: 'deployment', kind: 'Deployment', namespaced: true, shortNames: ['deploy'], categories: ['all'], subresources: [{ ...SCALE }, { ...STATUS, kind: 'Deployment' }] },
  { group: 'apps', version: 'v1', plural: 'replicasets', singular: 'replicaset', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'], categories: ['all'], subresources: [{ ...SCALE }, { ...STATUS, kind: 'ReplicaSet' }] },
  { group: 'apps', version: 'v1', plural: 'statefulsets', singular: 'statefulset', kind: 'StatefulSet', namespaced: true, shortNames: ['sts'], categories: ['all'], subresources: [{ ...SCALE }, { ...STATUS, kind: 'StatefulSet' }] },
  { group: 'batch', version: 'v1', plural: 'cronjobs', singular: 'cronjob', kind: 'CronJob', namespaced: true, shortNames: ['cj'], categories: ['all'], subresources: [{ ...STATUS, kind: 'CronJob' }] },
  { group: 'batch', version: 'v1', plural: 'jobs', singular: 'job', kind: 'Job', namespaced: true, categories: ['all'], subresources: [{ ...STATUS, kind: 'Job' }] },
  { group: 'events.k8s.io', version: 'v1', plural: 'events', singular: 'event', kind: 'Event', namespaced: true, shortNames: ['ev'], collection: 'events.k8s.io' },
  { group: 'networking.k8s.io', version: 'v1', plural: 'ingresses', singular: 'ingress', kind: 'Ingress', namespaced: true, shortNames: ['ing'], subresources: [{ ...STATUS, kind: 'Ingress' }] },
  { group: 'metrics.k8s.io', version: 'v1beta1', plural: 'nodes', singular: '', kind: 'NodeMetrics', namespaced: false, verbs: ['get', 'list'], collection: 'metrics.nodes' },
  { group: 'metrics.k8s.io', version: 'v1beta1', plural: 'pods', singular: '', kind: 'PodMetrics', namespaced: true, verbs: ['get', 'list'], collection: 'metrics.pods' },
];

/** Groups in the order a real server lists them (core first, then by priority). */
export const GROUPS: readonly { name: string; version: string }[] = [
  { name: 'apps', version: 'v1' }, { name: 'events.k8s.io', version: 'v1' }, { name: 'batch', version: 'v1' },
  { name: 'networking.k8s.io', version: 'v1' }, { name: 'metrics.k8s.io', version: 'v1beta1' },
];

export function collectionOf(type: ResourceType): string {
  return type.collection ?? type.plural;
}

export function apiVersionOf(type: { group: string; version: string }): string {
  return type.group === '' ? type.version : `${type.group}/${type.version}`;
}

export function findType(group: string, version: string, plural: string): ResourceType | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.plural === plural);
}

export function typeOfKind(apiVersion: string, kind: string): ResourceType | undefined {
  return RESOURCES.find((r) => apiVersionOf(r) === apiVersion && r.kind === kind);
}

/** The store key of an object: `namespace/name`, or `name` for cluster-scoped types. */
export function keyOf(type: ResourceType, namespace: string | undefined, name: string): string {
  return type.namespaced ? `${namespace ?? 'default'}/${name}` : name;
}
