import { createServer } from 'node:http';
import type { ServiceEntry } from '../catalog/schema.js';
import { createAdminHandler, newAdminToken, withAdminToken, type AdminRoutes } from '../mocks/core/admin.js';
import { isHostPattern } from '../mocks/core/hosts.js';
import type { World } from '../mocks/core/world.js';
import { listen, listenService, type Listening } from './service-listener.js';

export interface ServeOptions {
  /** `catalog`: each service on its catalog port; `ephemeral`: any free ports. */
  ports: 'catalog' | 'ephemeral';
  host?: string;
  /** 0 = any free port. */
  adminPort: number;
  /** Extra fields for `/_bench/health` (which also lists `services`: each one's URL). */
  info?: Record<string, unknown>;
  /** The world's secret: service ports then accept requests forwarded by `toolbench proxy --world`. */
  forwardSecret?: Uint8Array;
  /** The admin API's token; default: a fresh random one (`ServedWorld.token`). */
  adminToken?: string;
  /** More admin routes (e.g. live grading). */
  adminRoutes?: AdminRoutes;
}

export interface ServedWorld {
  admin: Listening;
  /** The admin API's bearer token (every route but `/_bench/health` needs it). */
  token: string;
  services: Record<string, Listening>;
  close(): Promise<void>;
}

/** Opens the admin API and every catalog service's plain-HTTP port. */
export async function serveWorld(world: World, services: readonly ServiceEntry[], options: ServeOptions): Promise<ServedWorld> {
  const host = options.host ?? '127.0.0.1';
  const opened: Listening[] = [];
  try {
    const info: Record<string, unknown> = { ...options.info };
    const token = options.adminToken ?? newAdminToken();
    const admin = await listen(createServer(withAdminToken(token, createAdminHandler(world, info, options.adminRoutes))), host, options.adminPort);
    opened.push(admin);
    const byService: Record<string, Listening> = {};
    for (const entry of services) {
      const port = options.ports === 'catalog' ? entry.port : 0;
      // Journaled under the first concrete hostname (a pattern only when the service has no other).
      const hostname = entry.hostnames.find((name) => !isHostPattern(name)) ?? entry.hostnames[0]!;
      byService[entry.id] = await listenService(world, entry.id, hostname, { host, port, forwardSecret: options.forwardSecret });
      opened.push(byService[entry.id]!);
    }
    // A split proxy finds the service ports here (remote-world.ts).
    info.services = Object.fromEntries(Object.entries(byService).map(([id, l]) => [id, l.url]));
    return { admin, token, services: byService, close: () => closeAll(opened) };
  } catch (error) {
    await closeAll(opened);
    throw error;
  }
}

async function closeAll(listening: Listening[]): Promise<void> {
  await Promise.all(listening.map((l) => l.close()));
}
