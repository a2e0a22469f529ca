import { findType, RESOURCES, type ResourceType } from './resources.js';

/** A request path, as the API server's mux reads it. */
export type Route =
  | { op: 'version' | 'api' | 'apis' | 'openapi.v2' | 'openapi.v3' | 'healthz' }
  | { op: 'group'; group: string }
  | { op: 'resources' | 'openapi.v3.gv'; group: string; version: string }
  | { op: 'resource'; type: ResourceType; namespace?: string; name?: string; sub?: string; rest?: string };

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function parsePath(path: string): Route | null {
  const parts = path.split('/').slice(1).map(decode);
  if (parts.at(-1) === '' && parts.length > 1) parts.pop();
  const [head, ...rest] = parts;
  if (parts.length === 1 && ['healthz', 'livez', 'readyz'].includes(head!)) return { op: 'healthz' };
  if (head === 'version' && rest.length === 0) return { op: 'version' };
  // Where kubectl before 1.27 falls back for the OpenAPI v2 schema (served until Kubernetes 1.14): the same 404.
  if (head === 'swagger-2.0.0.pb-v1' && rest.length === 0) return { op: 'openapi.v2' };
  if (head === 'openapi') {
    if (rest.length === 1 && rest[0] === 'v2') return { op: 'openapi.v2' };
    if (rest[0] === 'v3' && rest.length === 1) return { op: 'openapi.v3' };
    if (rest[0] === 'v3' && rest[1] === 'api' && rest.length === 3) return { op: 'openapi.v3.gv', group: '', version: rest[2]! };
    if (rest[0] === 'v3' && rest[1] === 'apis' && rest.length === 4) return { op: 'openapi.v3.gv', group: rest[2]!, version: rest[3]! };
    return null;
  }
  let group: string;
  let version: string | undefined;
  let tail: string[];
  if (head === 'api') {
    if (rest.length === 0) return { op: 'api' };
    group = '';
    version = rest[0];
    tail = rest.slice(1);
  } else if (head === 'apis') {
    if (rest.length === 0) return { op: 'apis' };
    group = rest[0]!;
    if (rest.length === 1) return { op: 'group', group };
    version = rest[1];
    tail = rest.slice(2);
  } else return null;
  if (!version) return null;
  if (tail.length === 0) return { op: 'resources', group, version };
  let namespace: string | undefined;
  if (tail[0] === 'namespaces' && tail.length >= 3 && findType(group, version, tail[2]!)?.namespaced) {
    namespace = tail[1];
    tail = tail.slice(2);
  }
  const type = findType(group, version, tail[0]!);
  if (!type) return null;
  if (type.namespaced && namespace === undefined && tail.length > 1) return null;
  const [, name, sub, ...more] = tail;
  if (sub !== undefined && !(type.subresources ?? []).some((s) => s.name === sub)) return null;
  return { op: 'resource', type, ...(namespace !== undefined ? { namespace } : {}), ...(name !== undefined ? { name } : {}), ...(sub !== undefined ? { sub } : {}), ...(more.length ? { rest: more.join('/') } : {}) };
}

/** Plurals that two groups share (`events`, and metrics' `pods`/`nodes`) carry their group in operation names. */
function prefix(type: ResourceType): string {
  const shared = RESOURCES.some((r) => r !== type && r.plural === type.plural);
  return shared && (type.group === 'events.k8s.io' || type.group === 'metrics.k8s.io') ? `${type.group.split('.')[0]}.` : '';
}

/** The operation a request is: `deployments.patch`, `pods.log.get`, `deployments.scale.update`, `discovery.api`. */
export function operationName(method: string, route: Route | null, watch: boolean): string | null {
  if (!route) return null;
  switch (route.op) {
    case 'version': return 'version';
    case 'healthz': return 'healthz';
    case 'api': return 'discovery.api';
    case 'apis': return 'discovery.apis';
    case 'group': return 'discovery.group';
    case 'resources': return 'discovery.resources';
    case 'openapi.v2': return 'openapi.v2';
    case 'openapi.v3': return 'openapi.v3';
    case 'openapi.v3.gv': return 'openapi.v3.groupVersion';
    case 'resource': {
      const base = `${prefix(route.type)}${route.type.plural}`;
      const verb = ({ GET: route.name === undefined ? (watch ? 'watch' : 'list') : 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: route.name === undefined ? 'deletecollection' : 'delete' } as Record<string, string>)[method] ?? method.toLowerCase();
      if (route.sub) return `${base}.${route.sub}.${route.sub === 'log' || route.sub === 'proxy' || route.sub === 'exec' ? method.toLowerCase() : verb}`;
      return `${base}.${verb}`;
    }
  }
}
