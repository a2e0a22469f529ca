import { openCertificates, type Certificates } from '../certs/index.js';
import type { World } from '../mocks/core/world.js';
import { HostRoutes, type RouteSource } from './routes.js';
import { startProxy, type ProxyOptions, type RunningProxy } from './server.js';
import type { Upstream } from './upstream.js';
import { worldUpstream } from './world-upstream.js';

export type ProxyServeOptions = Omit<ProxyOptions, 'routes' | 'leaves' | 'upstream'> & {
  /** The CA directory (made if missing; see certs/). */
  caDir: string;
};

export interface ServedProxy {
  proxy: RunningProxy;
  certs: Certificates;
}

/** The proxy for a catalog in front of any upstream: CA and leaves ready first, then the listeners. */
export async function serveProxy(catalog: RouteSource, upstream: Upstream, options: ProxyServeOptions): Promise<ServedProxy> {
  const routes = new HostRoutes(catalog);
  const certs = openCertificates(options.caDir, routes.tlsNames);
  const proxy = await startProxy({ ...options, routes, leaves: certs.leaves, upstream });
  return { proxy, certs };
}

/** The proxy in front of a world in this process. */
export function serveProxyForWorld(world: World, catalog: RouteSource, options: ProxyServeOptions): Promise<ServedProxy> {
  return serveProxy(catalog, worldUpstream(world, { bodyLimit: options.bodyLimit, log: options.log }), options);
}
