import { apiVersionOf, GROUPS, RESOURCES, type ResourceType } from './resources.js';

/** Discovery documents (`/api`, `/apis`, `/api/v1`, `/apis/<g>/<v>`), `/version` and OpenAPI v3, from the resource table. */

export const VERSION = {
  major: '1', minor: '31', gitVersion: 'v1.31.4', gitCommit: 'a78aa47129b8539636eb86a9d00e31b2720fe06b', gitTreeState: 'clean',
  buildDate: '2024-12-10T18:38:27Z', goVersion: 'go1.22.9', compiler: 'gc', platform: 'linux/amd64',
};

export function apiVersions() {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '10.0.0.1:6443' }] };
}

function group(g: { name: string; version: string }) {
  const gv = { groupVersion: `${g.name}/${g.version}`, version: g.version };
  return { name: g.name, versions: [gv], preferredVersion: gv };
}

export function apiGroupList() {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: GROUPS.map(group) };
}

export function apiGroup(name: string) {
  const g = GROUPS.find((x) => x.name === name);
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...group(g) } : null;
}

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function resourceList(groupName: string, version: string) {
  const types = RESOURCES.filter((r) => r.group === groupName && r.version === version);
  if (types.length === 0) return null;
  const resources: Record<string, unknown>[] = [];
  for (const r of types) {
    resources.push({
      name: r.plural, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs ?? VERBS,
      ...(r.shortNames ? { shortNames: r.shortNames } : {}), ...(r.categories ? { categories: r.categories } : {}),
    });
    for (const sub of r.subresources ?? []) {
      resources.push({ name: `${r.plural}/${sub.name}`, singularName: '', namespaced: r.namespaced, ...(sub.group ? { group: sub.group, version: sub.version } : {}), kind: sub.kind, verbs: sub.verbs });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group: groupName, version }), resources };
}

/** The OpenAPI v3 root: one document per group version. */
export function openapiV3Root() {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  const gvs = [{ name: '', version: 'v1' }, ...GROUPS];
  for (const g of gvs) {
    const path = g.name === '' ? 'api/v1' : `apis/${g.name}/${g.version}`;
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hashOf(path)}` };
  }
  return { paths };
}

function hashOf(text: string): string {
  let h = 0x811c9dc5;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h.toString(16).toUpperCase().padStart(8, '0').repeat(16);
}

const PACKAGES: Record<string, string> = { '': 'io.k8s.api.core.v1', apps: 'io.k8s.api.apps.v1', batch: 'io.k8s.api.batch.v1', 'events.k8s.io': 'io.k8s.api.events.v1', 'networking.k8s.io': 'io.k8s.api.networking.v1', 'metrics.k8s.io': 'io.k8s.metrics.pkg.apis.metrics.v1beta1' };

/**
 * One group version's OpenAPI v3 document: each kind's schema with its
 * `x-kubernetes-group-version-kind` (what `kubectl explain` reads), and each write operation
 * with the `fieldValidation` query parameter (what kubectl checks before it asks the server to
 * validate, instead of validating on the client).
 */
export function openapiV3(groupName: string, version: string) {
  const types = RESOURCES.filter((r) => r.group === groupName && r.version === version);
  if (types.length === 0) return null;
  const base = groupName === '' ? `/api/${version}` : `/apis/${groupName}/${version}`;
  const schemas: Record<string, unknown> = {
    'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
      description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.', type: 'object',
      properties: Object.fromEntries(([] as [string, unknown][]).concat(['name', 'namespace', 'generateName', 'uid', 'resourceVersion', 'creationTimestamp'].map((p) => [p, { type: 'string' }]),
        [['labels', { type: 'object', additionalProperties: { type: 'string', default: '' } }], ['annotations', { type: 'object', additionalProperties: { type: 'string', default: '' } }], ['generation', { type: 'integer', format: 'int64' }]])),
    },
  };
  const paths: Record<string, unknown> = {};
  const fieldValidation = { name: 'fieldValidation', in: 'query', description: 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields.', schema: { type: 'string', uniqueItems: true } };
  for (const r of types) {
    const name = `${PACKAGES[groupName]}.${r.kind}`;
    schemas[name] = {
      description: `${r.kind} is a ${r.kind === 'Pod' ? 'collection of containers that can run on a host' : 'Kubernetes API object'}.`, type: 'object',
      properties: {
        apiVersion: { description: 'APIVersion defines the versioned schema of this representation of an object.', type: 'string' },
        kind: { description: 'Kind is a string value representing the REST resource this object represents.', type: 'string' },
        metadata: { description: "Standard object's metadata.", default: {}, allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] },
        ...(r.kind === 'ConfigMap' || r.kind === 'Secret' ? { data: { type: 'object', additionalProperties: { type: 'string', default: '' } } } : { spec: { description: `Spec defines the desired behavior of the ${r.kind}.`, type: 'object' }, status: { description: `Most recently observed status of the ${r.kind}. Read-only.`, type: 'object' } }),
      },
      'x-kubernetes-group-version-kind': [{ group: groupName, kind: r.kind, version }],
    };
    const collection = r.namespaced ? `${base}/namespaces/{namespace}/${r.plural}` : `${base}/${r.plural}`;
    const write = (op: string) => ({ operationId: `${op}${r.kind}`, parameters: [fieldValidation], responses: { '200': { description: 'OK' } }, 'x-kubernetes-action': op === 'create' ? 'post' : op === 'replace' ? 'put' : 'patch', 'x-kubernetes-group-version-kind': { group: groupName, kind: r.kind, version } });
    paths[collection] = { get: { operationId: `list${r.kind}`, responses: { '200': { description: 'OK' } } }, ...((r.verbs ?? VERBS).includes('create') ? { post: write('create') } : {}) };
    paths[`${collection}/{name}`] = { get: { operationId: `read${r.kind}`, responses: { '200': { description: 'OK' } } }, put: write('replace'), patch: write('patch') };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: VERSION.gitVersion }, paths, components: { schemas } };
}

export type { ResourceType };
