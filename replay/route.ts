import type { ServiceDefinition } from '../mocks/core/service.js';

/** Names the route a request hit: its route pattern when the service has routes as data. */
export type RouteResolver = (service: string | null, method: string, path: string) => string | undefined;

/** Route patterns from each service's `routes` (HEAD is matched as GET, as the router does). */
export function routesResolver(definitions: ReadonlyMap<string, ServiceDefinition>): RouteResolver {
  return (service, method, path) => {
    const routes = service === null ? undefined : definitions.get(service)?.routes;
    if (!routes) return undefined;
    const wanted = method === 'HEAD' ? 'GET' : method;
    return routes.find((route) => route.method === wanted && route.match(path) !== null)?.pattern;
  };
}

/**
 * Path segments that are identifiers, collapsed when no route pattern is known, in order of
 * precedence. Names stay: `/repos/acme/web/issues/12` → `/repos/acme/web/issues/:number`.
 */
export const ID_SEGMENTS: readonly { pattern: RegExp; name: string }[] = [
  { pattern: /^\d+$/, name: ':number' },
  { pattern: /^[0-9a-f]{40}$|^[0-9a-f]{64}$/i, name: ':sha' },
  { pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, name: ':uuid' },
  // Opaque ids: long, and mixing letters with digits (`MDQ6VXNlcjE=`, `ch_3N1x…`, `C024BE91L`).
  { pattern: /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_=-]{9,}$/, name: ':id' },
];

export function collapseIds(path: string): string {
  return path.split('/').map((segment) => ID_SEGMENTS.find((rule) => rule.pattern.test(segment))?.name ?? segment).join('/');
}

/** `GET /repos/:owner/:repo`: the method and the route pattern, or the path with ids collapsed. */
export function routeOf(service: string | null, method: string, target: string, resolve?: RouteResolver): string {
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  return `${method} ${resolve?.(service, method, path) ?? collapseIds(path)}`;
}
