import { bytes, jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { rest, type Operation } from '../kit/operation.js';
import { afterPodDeleted, collectGarbage, DEPLOYMENTS, NAMESPACES, NODES, PODS, reconcileDeployment, reconcileReplicaSet, REPLICASETS, save, startPod, store, type Cluster } from './controllers.js';
import { apiGroup, apiGroupList, apiVersions, openapiV3, openapiV3Root, resourceList, VERSION } from './discovery.js';
import { alreadyExists, badRequest, clone, dropNulls, conflict, currentRv, invalid, isObject, nameProblem, newUid, notFound, qualified, randomSuffix, status, timestamp, type K8sObject } from './model.js';
import { jsonPatch, mergePatch, strategicMergePatch } from './patch.js';
import { decodeProtobuf, isProtobuf } from './protobuf.js';
import { operationName, parsePath, type Route } from './paths.js';
import { apiVersionOf, keyOf, RESOURCES, type ResourceType } from './resources.js';
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector, selectorString } from './selectors.js';
import { table, wantsTable } from './table.js';

/** What a handler gets: the world context, and who is asking. */
export interface K8sCtx extends Cluster {
  readonly ctx: ServiceContext;
  readonly user: string | null;
  readonly badToken: boolean;
}

type Resource = Extract<Route, { op: 'resource' }>;

const json = (value: unknown, code = 200): ServiceResponse => jsonResponse(code, value, [['Cache-Control', 'no-cache, private']]);

function q(req: ServiceRequest, name: string): string | undefined {
  return req.query.get(name) ?? undefined;
}

function isWatch(req: ServiceRequest): boolean {
  const w = q(req, 'watch');
  return w === 'true' || w === '1';
}

/** Items in a list omit `kind` and `apiVersion`, as the API server serialises them. */
function bare(obj: K8sObject): Omit<K8sObject, 'kind' | 'apiVersion'> {
  const { kind: _k, apiVersion: _a, ...rest } = obj;
  return rest;
}

function continueToken(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64');
}

function readContinue(token: string): { rv: number; start: string } {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { v?: string; rv?: number; start?: string };
    if (parsed.v !== 'meta.k8s.io/v1' || typeof parsed.start !== 'string') throw new Error('bad');
    return { rv: parsed.rv ?? 0, start: parsed.start };
  } catch {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
}

function select(c: K8sCtx, req: ServiceRequest, r: Resource): { items: [string, K8sObject][]; filtered: boolean } {
  const labels = q(req, 'labelSelector');
  const fields = q(req, 'fieldSelector');
  const lreq = labels ? parseLabelSelector(labels) : [];
  const freq = fields ? parseFieldSelector(fields, r.type.kind) : [];
  const items = store(c, r.type).entries().filter(([, obj]) => (r.namespace === undefined || obj.metadata.namespace === r.namespace)
    && matchesLabels(obj.metadata.labels, lreq) && matchesFields(obj, freq));
  // By namespace (as etcd's keys group them), then in creation order: sorting by name would let
  // the seeded pod name suffixes reorder lists from one seed to another.
  const nsOf = (obj: K8sObject) => obj.metadata.namespace ?? '';
  items.sort(([, a], [, b]) => (nsOf(a) < nsOf(b) ? -1 : nsOf(a) > nsOf(b) ? 1 : 0));
  return { items, filtered: lreq.length > 0 || freq.length > 0 };
}

function list(c: K8sCtx, req: ServiceRequest, r: Resource): ServiceResponse {
  if (r.namespace !== undefined && r.type.plural !== 'namespaces') requireNamespace(c, r.namespace, false);
  const { items, filtered } = select(c, req, r);
  const rv = currentRv(c.ctx.store);
  if (isWatch(req)) return watch(c, req, r, items.map(([, o]) => o), rv);
  let start = 0;
  const token = q(req, 'continue');
  if (token) {
    const from = readContinue(token).start;
    start = /^#\d+$/.test(from) ? Number(from.slice(1)) : -1;
    if (start < 0 || start > items.length) throw status(410, 'Expired', 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.');
  }
  const limit = Number(q(req, 'limit') ?? '0');
  const page = limit > 0 ? items.slice(start, start + limit) : items.slice(start);
  const more = limit > 0 && start + limit < items.length;
  const meta: Record<string, unknown> = { resourceVersion: String(rv) };
  if (more) {
    // The position of the next item, not its key as etcd's token has: keys carry seeded pod names.
    meta.continue = continueToken(rv, `#${start + limit}`);
    if (!filtered) meta.remainingItemCount = items.length - start - limit;
  }
  const objs = page.map(([, o]) => o);
  if (wantsTable(req.header('accept'))) return json(table(r.type.kind, objs, meta, c.ctx.nowMs, q(req, 'includeObject') ?? 'Metadata'));
  return json({ kind: `${r.type.kind}List`, apiVersion: apiVersionOf(r.type), metadata: meta, items: objs.map(bare) });
}

/**
 * A watch is answered as a bounded stream: the objects as ADDED events (none when the client
 * asks from the current resourceVersion), a BOOKMARK when `sendInitialEvents` asks for one,
 * then the end of the stream, which clients treat as a watch to re-establish.
 */
function watch(c: K8sCtx, req: ServiceRequest, r: Resource, items: K8sObject[], rv: number): ServiceResponse {
  const from = q(req, 'resourceVersion');
  const initial = q(req, 'sendInitialEvents') === 'true';
  const replay = initial || from === undefined || from === '' || from === '0';
  const lines = (replay ? items : []).map((obj) => JSON.stringify({ type: 'ADDED', object: obj }));
  if (initial && q(req, 'allowWatchBookmarks') === 'true') {
    lines.push(JSON.stringify({ type: 'BOOKMARK', object: { kind: r.type.kind, apiVersion: apiVersionOf(r.type), metadata: { resourceVersion: String(rv), creationTimestamp: null, annotations: { 'k8s.io/initial-events-end': 'true' } } } }));
  }
  return { status: 200, headers: [['Cache-Control', 'no-cache, private'], ['Content-Type', 'application/json']], body: bytes(lines.map((l) => `${l}\n`).join('')) };
}

function requireNamespace(c: K8sCtx, namespace: string, creating: boolean): void {
  const ns = store(c, NAMESPACES).get(namespace);
  if (!ns && creating) throw notFound(NAMESPACES, namespace);
  if (ns && creating && ns.metadata.deletionTimestamp) {
    throw status(403, 'Forbidden', `unable to create new content in namespace ${namespace} because it is being terminated`, { name: namespace, kind: 'namespaces' });
  }
}

function getObject(c: K8sCtx, r: Resource): K8sObject {
  const obj = store(c, r.type).get(keyOf(r.type, r.namespace, r.name!));
  if (!obj) throw notFound(r.type, r.name!);
  return obj;
}

function body(req: ServiceRequest): unknown {
  // Protobuf bodies (client-go's typed clients send them): Secrets and ConfigMaps are decoded.
  if (isProtobuf(req.header('content-type'))) {
    const decoded = decodeProtobuf(req.body);
    if (decoded) return decoded;
    throw status(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
  }
  if (req.body.length === 0) throw badRequest('the body of the request was empty');
  try {
    return JSON.parse(new TextDecoder().decode(req.body));
  } catch (error) {
    // Not JSON: the YAML decoder would run next; the mock reads JSON (what client-go and kubectl send).
    throw badRequest(`error decoding from json: ${(error as Error).message}`);
  }
}

const SPEC_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Ingress']);

/** Defaults and validation for a new or replaced object (a subset of the API server's). */
function admit(c: K8sCtx, type: ResourceType, obj: K8sObject, old: K8sObject | undefined): K8sObject {
  const name = obj.metadata.name;
  const causes: { field: string; reason: string; message: string }[] = [];
  const problem = nameProblem(name, type.kind === 'Namespace' || type.kind === 'Service');
  if (problem) causes.push({ field: 'metadata.name', reason: 'FieldValueInvalid', message: `Invalid value: "${name}": ${problem}` });
  const spec = (isObject(obj.spec) ? obj.spec : {}) as Record<string, any>;
  if (type.kind === 'Deployment' || type.kind === 'ReplicaSet' || type.kind === 'StatefulSet') {
    if (spec.replicas !== undefined && (typeof spec.replicas !== 'number' || spec.replicas < 0)) causes.push({ field: 'spec.replicas', reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(spec.replicas)}: must be greater than or equal to 0` });
    const containers = spec.template?.spec?.containers;
    if (!Array.isArray(containers) || containers.length === 0) causes.push({ field: 'spec.template.spec.containers', reason: 'FieldValueRequired', message: 'Required value' });
    if (!isObject(spec.selector)) causes.push({ field: 'spec.selector', reason: 'FieldValueRequired', message: 'Required value' });
    else if (!matchesLabels(spec.template?.metadata?.labels, parseLabelSelector(selectorString(spec.selector)))) {
      causes.push({ field: 'spec.template.metadata.labels', reason: 'FieldValueInvalid', message: `Invalid value: map[string]string${JSON.stringify(spec.template?.metadata?.labels ?? {})}: \`selector\` does not match template \`labels\`` });
    }
    if (old && JSON.stringify((old.spec as Record<string, unknown>)?.selector) !== JSON.stringify(spec.selector)) causes.push({ field: 'spec.selector', reason: 'FieldValueInvalid', message: 'Invalid value: field is immutable' });
  }
  if (type.kind === 'Pod') {
    const containers = spec.containers;
    if (!Array.isArray(containers) || containers.length === 0) causes.push({ field: 'spec.containers', reason: 'FieldValueRequired', message: 'Required value' });
    for (const [i, ct] of (Array.isArray(containers) ? containers : []).entries()) {
      if (!isObject(ct) || typeof ct.image !== 'string' || ct.image === '') causes.push({ field: `spec.containers[${i}].image`, reason: 'FieldValueRequired', message: 'Required value' });
    }
  }
  if (type.kind === 'ConfigMap' || type.kind === 'Secret') {
    for (const key of Object.keys(isObject(obj.data) ? obj.data : {})) {
      if (!/^[-._a-zA-Z0-9]+$/.test(key)) causes.push({ field: `data[${key}]`, reason: 'FieldValueInvalid', message: `Invalid value: "${key}": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')` });
    }
    if (old && isObject(old) && (old as { immutable?: boolean }).immutable === true && JSON.stringify(old.data) !== JSON.stringify(obj.data)) causes.push({ field: 'data', reason: 'FieldForbidden', message: 'Forbidden: field is immutable when `immutable` is set' });
  }
  if (causes.length > 0) throw invalid(type, name, causes);
  const out = clone(obj);
  // A template's Go zero values arrive as nulls (kubectl sends `creationTimestamp: null`); stored without them.
  if (isObject(out.spec) && isObject(out.spec.template)) out.spec.template = dropNulls(out.spec.template);
  if (type.kind === 'Deployment') {
    out.spec = { replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } }, ...(out.spec as object) };
  }
  if (type.kind === 'Service' && !old) {
    const n = c.ctx.ids.next('cluster-ip', 20);
    out.spec = { type: 'ClusterIP', sessionAffinity: 'None', ...(out.spec as object), clusterIP: `10.96.${Math.floor(n / 250) % 250}.${(n % 250) + 2}` };
    (out.spec as Record<string, unknown>).clusterIPs = [(out.spec as { clusterIP: string }).clusterIP];
    out.status = { loadBalancer: {} };
  }
  if (type.kind === 'Service' && old) {
    out.spec = { ...(out.spec as object), clusterIP: (old.spec as { clusterIP: string }).clusterIP, clusterIPs: (old.spec as { clusterIPs: string[] }).clusterIPs };
  }
  if (type.kind === 'Namespace' && !old) {
    out.metadata.labels = { ...(out.metadata.labels ?? {}), 'kubernetes.io/metadata.name': name };
    out.spec = { finalizers: ['kubernetes'] };
    out.status = { phase: 'Active' };
  }
  if (type.kind === 'Secret' && out.type === undefined) out.type = 'Opaque';
  return out;
}

function create(c: K8sCtx, req: ServiceRequest, r: Resource): ServiceResponse {
  if (r.type.namespaced && r.namespace === undefined) throw status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  if (!(r.type.verbs ?? ['create']).includes('create')) throw status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  const input = body(req);
  if (!isObject(input)) throw badRequest('Object \'Kind\' is missing in the request body');
  const obj = clone(input) as K8sObject;
  // A body without kind and apiVersion takes the endpoint's, as the server's decoder defaults them.
  obj.kind ??= r.type.kind;
  obj.apiVersion ??= apiVersionOf(r.type);
  if (obj.kind !== r.type.kind || obj.apiVersion !== apiVersionOf(r.type)) {
    if (obj.kind === undefined) throw badRequest("Object 'Kind' is missing in '" + JSON.stringify(input) + "'");
    throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersionOf(r.type)})`);
  }
  obj.metadata = isObject(obj.metadata) ? obj.metadata : { name: '' };
  if (!obj.metadata.name && obj.metadata.generateName) obj.metadata.name = `${obj.metadata.generateName}${randomSuffix(c.ctx, 'generate')}`;
  if (!obj.metadata.name) throw invalid(r.type, '', [{ field: 'metadata.name', reason: 'FieldValueRequired', message: 'Required value: name or generateName is required' }]);
  if (r.type.namespaced) {
    if (obj.metadata.namespace !== undefined && obj.metadata.namespace !== r.namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    obj.metadata.namespace = r.namespace;
    requireNamespace(c, r.namespace!, true);
  }
  const key = keyOf(r.type, r.namespace, obj.metadata.name);
  if (store(c, r.type).has(key)) throw alreadyExists(r.type, obj.metadata.name);
  const dryRun = q(req, 'dryRun') === 'All';
  let admitted = admit(c, r.type, obj, undefined);
  const { resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, generation: _g, ...meta } = admitted.metadata;
  admitted.metadata = { ...meta, name: admitted.metadata.name, uid: newUid(c.ctx), creationTimestamp: timestamp(c.ctx.nowMs), ...(SPEC_KINDS.has(r.type.kind) ? { generation: 1 } : {}) } as K8sObject['metadata'];
  if (r.type.kind === 'Pod') admitted = startPod(c, admitted);
  if (dryRun) return json({ ...admitted, metadata: { ...admitted.metadata, resourceVersion: undefined } }, 201);
  let saved = save(c, r.type, admitted);
  if (r.type.kind === 'Deployment') saved = reconcileDeployment(c, saved);
  if (r.type.kind === 'ReplicaSet') saved = reconcileReplicaSet(c, saved);
  return json(saved, 201);
}

/** Stores `next` as the new version of `old`: identity kept, generation bumped when the spec changed. */
function replace(c: K8sCtx, r: Resource, old: K8sObject, next: K8sObject): K8sObject {
  if (!isObject(next.metadata)) next.metadata = clone(old.metadata);
  if (next.metadata.name !== undefined && next.metadata.name !== old.metadata.name) {
    throw badRequest(`the name of the object (${next.metadata.name}) does not match the name on the URL (${old.metadata.name})`);
  }
  if (next.metadata.resourceVersion && next.metadata.resourceVersion !== old.metadata.resourceVersion) throw conflict(r.type, old.metadata.name);
  next.kind = old.kind;
  next.apiVersion = old.apiVersion;
  const admitted = admit(c, r.type, next, old);
  admitted.metadata = { ...admitted.metadata, name: old.metadata.name, uid: old.metadata.uid, creationTimestamp: old.metadata.creationTimestamp, ...(old.metadata.namespace ? { namespace: old.metadata.namespace } : {}) };
  if (old.metadata.generation !== undefined) {
    admitted.metadata.generation = JSON.stringify(admitted.spec) === JSON.stringify(old.spec) ? old.metadata.generation : old.metadata.generation + 1;
  }
  if (r.type.kind !== 'Pod' && 'status' in old && r.sub !== 'status') admitted.status = old.status;
  if (JSON.stringify(admitted) === JSON.stringify({ ...old, metadata: { ...old.metadata } })) return old;
  let saved = save(c, r.type, admitted);
  if (r.type.kind === 'Deployment') saved = reconcileDeployment(c, saved);
  if (r.type.kind === 'ReplicaSet') saved = reconcileReplicaSet(c, saved);
  return saved;
}

function update(c: K8sCtx, req: ServiceRequest, r: Resource): ServiceResponse {
  const input = body(req);
  if (!isObject(input)) throw badRequest('Object \'Kind\' is missing in the request body');
  const old = getObject(c, r);
  return json(replace(c, r, old, clone(input) as K8sObject));
}

const APPLY = 'application/apply-patch+yaml';

function applyPatch(kind: string, target: unknown, patch: unknown): unknown {
  switch (kind) {
    case 'application/json-patch+json': return jsonPatch(target, patch);
    case 'application/merge-patch+json': return mergePatch(target, patch);
    default: return strategicMergePatch(target, patch);
  }
}

function patchType(req: ServiceRequest): string {
  const type = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', APPLY].includes(type)) {
    throw status(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json`);
  }
  return type;
}

function patch(c: K8sCtx, req: ServiceRequest, r: Resource): ServiceResponse {
  const type = patchType(req);
  const input = body(req);
  const key = keyOf(r.type, r.namespace, r.name!);
  const old = store(c, r.type).get(key);
  if (type === APPLY) {
    // Server-side apply: field ownership is not modelled; the applied configuration is merged
    // strategically into the live object, or creates it.
    if (!q(req, 'fieldManager')) throw invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [{ field: 'fieldManager', reason: 'FieldValueRequired', message: 'Required value: is required for apply patch' }]);
    if (!isObject(input)) throw badRequest('error decoding YAML: the applied configuration is not an object');
    if (!old) {
      const created: Resource = { ...r, name: undefined };
      return create(c, req, created);
    }
    const { status: _s, ...applied } = input;
    return json(replace(c, r, old, strategicMergePatch(old, applied) as K8sObject));
  }
  if (!old) throw notFound(r.type, r.name!);
  const { resourceVersion: _rv, ...meta } = old.metadata;
  const base = { ...old, metadata: meta };
  const next = applyPatch(type, base, input) as K8sObject;
  if (!isObject(next)) throw badRequest('the patch did not produce an object');
  return json(replace(c, r, old, next));
}

function remove(c: K8sCtx, req: ServiceRequest, r: Resource): ServiceResponse {
  const obj = getObject(c, r);
  if (q(req, 'dryRun') === 'All') return json(obj);
  const key = keyOf(r.type, r.namespace, r.name!);
  if (r.type.kind === 'Namespace') {
    if (['default', 'kube-system', 'kube-public', 'kube-node-lease'].includes(obj.metadata.name)) {
      throw status(403, 'Forbidden', `namespaces "${obj.metadata.name}" is forbidden: this namespace may not be deleted`, { name: obj.metadata.name, kind: 'namespaces' });
    }
    // The namespace controller empties it at once; the answer shows it Terminating, as the server's does.
    for (const type of RESOURCES) {
      if (!type.namespaced) continue;
      for (const [k, o] of store(c, type).entries()) if (o.metadata.namespace === obj.metadata.name) store(c, type).delete(k);
    }
    store(c, NAMESPACES).delete(key);
    nextRvOnly(c);
    return json({ ...obj, metadata: { ...obj.metadata, deletionTimestamp: timestamp(c.ctx.nowMs) }, status: { phase: 'Terminating' } });
  }
  store(c, r.type).delete(key);
  nextRvOnly(c);
  collectGarbage(c, obj);
  if (r.type.kind === 'Pod') {
    afterPodDeleted(c, obj);
    return json({ ...obj, metadata: { ...obj.metadata, deletionTimestamp: timestamp(c.ctx.nowMs + 30_000), deletionGracePeriodSeconds: 30 } });
  }
  if (r.type.kind === 'ReplicaSet') {
    const depRef = (obj.metadata.ownerReferences ?? []).find((ref) => ref.kind === 'Deployment');
    const dep = depRef ? store(c, DEPLOYMENTS).get(`${obj.metadata.namespace}/${depRef.name}`) : undefined;
    if (dep) reconcileDeployment(c, dep);
  }
  return json({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: obj.metadata.name, ...(r.type.group ? { group: r.type.group } : {}), kind: r.type.plural, uid: obj.metadata.uid } });
}

/** Deletes advance the cluster's revision like writes. */
function nextRvOnly(c: K8sCtx): void {
  c.ctx.store.collection<{ rv: number }>('cluster').put('revision', { rv: currentRv(c.ctx.store) + 1 });
}

function deleteCollection(c: K8sCtx, req: ServiceRequest, r: Resource): ServiceResponse {
  const { items } = select(c, req, r);
  for (const [key, obj] of items) {
    store(c, r.type).delete(key);
    collectGarbage(c, obj);
    if (r.type.kind === 'Pod') afterPodDeleted(c, obj);
  }
  nextRvOnly(c);
  return json({ kind: `${r.type.kind}List`, apiVersion: apiVersionOf(r.type), metadata: { resourceVersion: String(currentRv(c.ctx.store)) }, items: items.map(([, o]) => bare(o)) });
}

function scale(c: K8sCtx, req: ServiceRequest, r: Resource): ServiceResponse {
  const obj = getObject(c, { ...r, sub: undefined });
  const render = (o: K8sObject) => ({
    kind: 'Scale', apiVersion: 'autoscaling/v1',
    metadata: { name: o.metadata.name, namespace: o.metadata.namespace, uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion, creationTimestamp: o.metadata.creationTimestamp },
    spec: { replicas: (o.spec as { replicas?: number }).replicas ?? 1 },
    status: { replicas: (o.status as { replicas?: number } | undefined)?.replicas ?? 0, selector: selectorString((o.spec as { selector?: unknown }).selector) },
  });
  if (req.method === 'GET') return json(render(obj));
  let replicas: unknown;
  if (req.method === 'PUT') {
    const input = body(req);
    if (!isObject(input) || input.kind !== 'Scale') throw badRequest(`the API version in the data (${isObject(input) ? String(input.apiVersion) : ''}) does not match the expected API version (autoscaling/v1)`);
    const rv = isObject(input.metadata) ? input.metadata.resourceVersion : undefined;
    if (rv && rv !== obj.metadata.resourceVersion) throw conflict(r.type, obj.metadata.name);
    replicas = isObject(input.spec) ? input.spec.replicas : undefined;
  } else {
    const type = patchType(req);
    if (type === APPLY) throw status(415, 'UnsupportedMediaType', 'apply patches are not supported on the scale subresource of this mock');
    const next = applyPatch(type, render(obj), body(req)) as { spec?: { replicas?: unknown } };
    replicas = next.spec?.replicas;
  }
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw invalid({ group: 'autoscaling', kind: 'Scale' }, obj.metadata.name, [{ field: 'spec.replicas', reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0` }]);
  }
  const next = clone(obj);
  (next.spec as { replicas: number }).replicas = replicas;
  return json(render(replace(c, { ...r, sub: undefined }, obj, next)));
}

function logs(c: K8sCtx, req: ServiceRequest, r: Resource): ServiceResponse {
  const pod = getObject(c, { ...r, sub: undefined });
  const containers = ((pod.spec as { containers?: { name: string }[] }).containers ?? []).map((ct) => ct.name);
  let container = q(req, 'container');
  if (!container) {
    if (containers.length !== 1) throw badRequest(`a container name must be specified for pod ${pod.metadata.name}, choose one of: [${containers.join(' ')}]`);
    container = containers[0]!;
  }
  if (!containers.includes(container)) throw badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`);
  const logsOf = c.ctx.store.collection<{ current: string; previous?: string }>('logs').get(`${pod.metadata.namespace}/${pod.metadata.name}/${container}`);
  const previous = q(req, 'previous') === 'true';
  const statuses = ((pod.status as { containerStatuses?: { name: string; state?: { waiting?: { reason?: string; message?: string } } }[] } | undefined)?.containerStatuses ?? []);
  const waiting = statuses.find((s) => s.name === container)?.state?.waiting;
  if (previous && logsOf?.previous === undefined) throw badRequest(`previous terminated container "${container}" in pod "${pod.metadata.name}" not found`);
  if (!previous && waiting && waiting.reason !== 'CrashLoopBackOff' && !logsOf) {
    throw badRequest(`container "${container}" in pod "${pod.metadata.name}" is waiting to start: ${waiting.reason ?? 'ContainerCreating'}`);
  }
  let lines = (previous ? logsOf?.previous : logsOf?.current) ?? '';
  const tail = q(req, 'tailLines');
  if (tail !== undefined) {
    const all = lines.split('\n');
    if (all.at(-1) === '') all.pop();
    const n = Number(tail);
    lines = n <= 0 ? '' : all.slice(-n).map((l) => `${l}\n`).join('');
  }
  const limit = q(req, 'limitBytes');
  if (limit !== undefined) lines = lines.slice(0, Number(limit));
  return { status: 200, headers: [['Cache-Control', 'no-cache, private'], ['Content-Type', 'text/plain']], body: bytes(lines) };
}

/** The kubelet's endpoints behind the node proxy: `stats/summary` and `logs/`. */
function nodeProxy(c: K8sCtx, req: ServiceRequest, r: Resource): ServiceResponse {
  const node = getObject(c, { ...r, sub: undefined });
  const path = r.rest ?? '';
  if (req.method === 'GET' && path === 'stats/summary') {
    const pods = store(c, PODS).filter((p) => (p.spec as { nodeName?: string }).nodeName === node.metadata.name);
    const usage = c.ctx.store.collection<{ cpu: number; memory: number }>('usage');
    const time = timestamp(c.ctx.nowMs);
    const podStats = pods.map((p) => {
      const u = usage.get(`${p.metadata.namespace}/${p.metadata.name}`) ?? { cpu: 5, memory: 32 };
      return { podRef: { name: p.metadata.name, namespace: p.metadata.namespace, uid: p.metadata.uid }, startTime: p.metadata.creationTimestamp, cpu: { time, usageNanoCores: u.cpu * 1_000_000, usageCoreNanoSeconds: u.cpu * 3_600_000_000_000 }, memory: { time, workingSetBytes: u.memory * 1_048_576, usageBytes: u.memory * 1_048_576 } };
    });
    const cpu = podStats.reduce((n, p) => n + p.cpu.usageNanoCores, 0) + 250_000_000;
    const mem = podStats.reduce((n, p) => n + p.memory.workingSetBytes, 0) + 1_073_741_824;
    return json({ node: { nodeName: node.metadata.name, startTime: node.metadata.creationTimestamp, cpu: { time, usageNanoCores: cpu }, memory: { time, workingSetBytes: mem, usageBytes: mem }, fs: { time, availableBytes: 60_000_000_000, capacityBytes: 100_000_000_000, usedBytes: 40_000_000_000 } }, pods: podStats });
  }
  if (req.method === 'GET' && path.startsWith('logs')) {
    const text = c.ctx.store.collection<{ text: string }>('node_logs').get(node.metadata.name)?.text;
    const file = path.slice('logs'.length).replace(/^\//, '');
    const query = q(req, 'query');
    if (file === '' && !query) return { status: 200, headers: [['Content-Type', 'text/html; charset=utf-8']], body: bytes('<pre>\n<a href="containers/">containers/</a>\n<a href="journal/">journal/</a>\n<a href="kubelet.log">kubelet.log</a>\n<a href="pods/">pods/</a>\n</pre>\n') };
    if (text === undefined || (file !== '' && file !== 'kubelet.log' && query !== 'kubelet')) return { status: 404, headers: [['Content-Type', 'text/plain; charset=utf-8']], body: bytes('404 page not found\n') };
    let out = text;
    const tail = q(req, 'tailLines');
    if (tail !== undefined) out = out.split('\n').filter((l) => l !== '').slice(-Number(tail)).map((l) => `${l}\n`).join('');
    return { status: 200, headers: [['Content-Type', 'text/plain; charset=utf-8']], body: bytes(out) };
  }
  return { status: 404, headers: [['Content-Type', 'text/plain; charset=utf-8']], body: bytes('404 page not found\n') };
}

/** PodMetrics and NodeMetrics (metrics-server), from each pod's usage in the dataset or a small default. */
function metrics(c: K8sCtx, req: ServiceRequest, r: Resource): ServiceResponse {
  const usage = c.ctx.store.collection<{ cpu: number; memory: number }>('usage');
  const time = timestamp(c.ctx.nowMs);
  const fmt = (u: { cpu: number; memory: number }) => ({ cpu: `${u.cpu * 1_000_000}n`, memory: `${u.memory * 1024}Ki` });
  const lreq = parseLabelSelector(q(req, 'labelSelector') ?? '');
  let items: Record<string, unknown>[];
  if (r.type.kind === 'PodMetrics') {
    items = store(c, PODS).filter((p) => (r.namespace === undefined || p.metadata.namespace === r.namespace) && (r.name === undefined || p.metadata.name === r.name)
      && matchesLabels(p.metadata.labels, lreq) && (p.status as { phase?: string } | undefined)?.phase === 'Running').map((p) => {
      const u = usage.get(`${p.metadata.namespace}/${p.metadata.name}`) ?? { cpu: 5, memory: 32 };
      const containers = ((p.spec as { containers?: { name: string }[] }).containers ?? []).map((ct, i, all) => ({ name: ct.name, usage: fmt({ cpu: Math.floor(u.cpu / all.length) + (i === 0 ? u.cpu % all.length : 0), memory: Math.floor(u.memory / all.length) + (i === 0 ? u.memory % all.length : 0) }) }));
      return { metadata: { name: p.metadata.name, namespace: p.metadata.namespace, creationTimestamp: time, labels: p.metadata.labels ?? {} }, timestamp: time, window: '15.011s', containers };
    });
  } else {
    items = store(c, NODES).filter((n) => (r.name === undefined || n.metadata.name === r.name) && matchesLabels(n.metadata.labels, lreq)).map((n) => {
      const pods = store(c, PODS).filter((p) => (p.spec as { nodeName?: string }).nodeName === n.metadata.name);
      const sum = pods.reduce((acc, p) => { const u = usage.get(`${p.metadata.namespace}/${p.metadata.name}`) ?? { cpu: 5, memory: 32 }; return { cpu: acc.cpu + u.cpu, memory: acc.memory + u.memory }; }, { cpu: 250, memory: 1024 });
      return { metadata: { name: n.metadata.name, creationTimestamp: time, labels: n.metadata.labels ?? {} }, timestamp: time, window: '20.05s', usage: fmt(sum) };
    });
  }
  if (r.name !== undefined) {
    const one = items[0];
    if (!one) throw notFound(r.type, r.name);
    return json({ kind: r.type.kind, apiVersion: 'metrics.k8s.io/v1beta1', ...one });
  }
  return json({ kind: `${r.type.kind}List`, apiVersion: 'metrics.k8s.io/v1beta1', metadata: {}, items });
}

function resource(c: K8sCtx, req: ServiceRequest, r: Resource): ServiceResponse {
  if (r.type.group === 'metrics.k8s.io') {
    if (req.method !== 'GET') throw status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
    return metrics(c, req, r);
  }
  if (r.sub === 'log') return logs(c, req, r);
  if (r.sub === 'exec' || r.sub === 'portforward') {
    getObject(c, { ...r, sub: undefined });
    // Streaming subresources need a SPDY or WebSocket upgrade, which this mock never grants.
    throw badRequest('Upgrade request required');
  }
  if (r.sub === 'proxy') return nodeProxy(c, req, r);
  if (r.sub === 'scale') return scale(c, req, r);
  if (r.sub === 'status') {
    const obj = getObject(c, { ...r, sub: undefined });
    if (req.method === 'GET') return json(obj);
    if (req.method === 'PUT') return json(replace(c, r, obj, { ...clone(obj), status: (body(req) as { status?: unknown }).status }));
    const next = applyPatch(patchType(req), obj, body(req)) as K8sObject;
    return json(replace(c, r, obj, { ...clone(obj), status: next.status }));
  }
  switch (req.method) {
    case 'GET': return r.name === undefined ? list(c, req, r) : getOne(c, req, r);
    case 'POST': if (r.name === undefined) return create(c, req, r); break;
    case 'PUT': if (r.name !== undefined) return update(c, req, r); break;
    case 'PATCH': if (r.name !== undefined) return patch(c, req, r); break;
    case 'DELETE': return r.name === undefined ? deleteCollection(c, req, r) : remove(c, req, r);
  }
  throw status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
}

function getOne(c: K8sCtx, req: ServiceRequest, r: Resource): ServiceResponse {
  const obj = getObject(c, r);
  if (wantsTable(req.header('accept'))) return json(table(r.type.kind, [obj], { resourceVersion: obj.metadata.resourceVersion }, c.ctx.nowMs, q(req, 'includeObject') ?? 'Metadata'));
  return json(obj);
}

/** Every request: discovery, OpenAPI, and the resources, parsed from the path. */
export function serve(c: K8sCtx, req: ServiceRequest): ServiceResponse {
  const route = parsePath(req.path);
  if (!route) throw status(404, 'NotFound', 'the server could not find the requested resource', {});
  if (route.op !== 'resource' && req.method !== 'GET' && req.method !== 'HEAD') throw status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  switch (route.op) {
    case 'healthz': return { status: 200, headers: [['Content-Type', 'text/plain; charset=utf-8']], body: bytes('ok') };
    case 'version': return json(VERSION);
    case 'api': return json(apiVersions());
    case 'apis': return json(apiGroupList());
    case 'group': {
      const g = apiGroup(route.group);
      if (!g) throw status(404, 'NotFound', 'the server could not find the requested resource', {});
      return json(g);
    }
    case 'resources': {
      const l = resourceList(route.group, route.version);
      if (!l) throw status(404, 'NotFound', 'the server could not find the requested resource', {});
      return json(l);
    }
    case 'openapi.v2':
      // This API server publishes only OpenAPI v3 (what kubectl 1.27+ and client-go read).
      throw status(404, 'NotFound', 'the server could not find the requested resource', {});
    case 'openapi.v3': return json(openapiV3Root());
    case 'openapi.v3.gv': {
      const doc = openapiV3(route.group, route.version);
      if (!doc) throw status(404, 'NotFound', 'the server could not find the requested resource', {});
      return json(doc);
    }
    case 'resource': return resource(c, req, route);
  }
}

export const kubernetesOperations: Operation<K8sCtx>[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].map((method) => ({
  name: `kubernetes.${method.toLowerCase()}`,
  matcher: rest(method, '/*path'),
  lazy: true,
  nameOf: (req: ServiceRequest) => operationName(req.method, parsePath(req.path), isWatch(req)),
  handle: (call: { req: ServiceRequest }, c: K8sCtx) => serve(c, call.req),
}));

