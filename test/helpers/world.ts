import { openWorld, type OpenWorldOptions } from '../../scenarios/world.js';
import type { World } from '../../mocks/core/world.js';
import { serveWorld } from '../../proxy/serve.js';

export const EXAMPLE_SCENARIO = 'scenarios/example/github/basic';

export interface TestWorld {
  world: World;
  /** Plain-HTTP base URL of each service, e.g. `urls.github`. */
  urls: Record<string, string>;
  admin: string;
  /** The admin API's bearer token. */
  token: string;
  /** `fetch` on the admin API with the token. */
  adminFetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** A world on ephemeral loopback ports, journal in memory unless `journalDir` is given. */
export async function startWorld(options: Partial<OpenWorldOptions> & { scenario?: string } = {}): Promise<TestWorld> {
  const { world, catalog } = await openWorld({ scenarioDir: options.scenario ?? EXAMPLE_SCENARIO, ...options });
  const served = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0 });
  return {
    world,
    urls: Object.fromEntries(Object.entries(served.services).map(([id, l]) => [id, l.url])),
    admin: served.admin.url,
    token: served.token,
    adminFetch: (path, init = {}) => fetch(`${served.admin.url}${path}`, { ...init, headers: { ...init.headers as Record<string, string>, authorization: `Bearer ${served.token}` } }),
    async close() {
      await served.close();
      await world.journal.close();
    },
  };
}
