import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorld } from '../../scenarios/world.js';
import { CallTracker } from '../../mocks/core/attribution.js';
import type { JournalEntry } from '../../mocks/core/journal-format.js';
import type { World } from '../../mocks/core/world.js';
import { serveProxyForWorld, type ProxyServeOptions, type ServedProxy } from '../../proxy/for-world.js';
import { EXAMPLE_SCENARIO } from './world.js';

/** Alice's personal access token from the example scenario's GitHub dataset. */
export function exampleToken(): string {
  const dataset = JSON.parse(readFileSync(join(EXAMPLE_SCENARIO, 'dataset', 'github.json'), 'utf8')) as { users: { login: string; tokens: string[] }[] };
  return dataset.users.find((user) => user.login === 'alice')!.tokens[0]!;
}

let sharedCa: string | undefined;
/** One CA per test file (each ava file runs in its own process): keys are made once. */
export function testCaDir(): string {
  sharedCa ??= join(mkdtempSync(join(tmpdir(), 'toolbench-ca-')), 'ca');
  return sharedCa;
}

export interface ProxiedWorld {
  world: World;
  served: ServedProxy;
  /** Tracks MCP endpoints: register + markReady a client to have it attributed `mcp`. */
  tracker: CallTracker;
  /** `http://127.0.0.1:PORT` */
  proxyUrl: string;
  tlsPort: number;
  caPath: string;
  urlFor(client: string): string;
  entries(): Promise<JournalEntry[]>;
  close(): Promise<void>;
}

/**
 * The example scenario's world (or `scenarioDir`'s; journal in memory) behind an in-process proxy on ephemeral
 * loopback ports, with the catalog's routes (`passthrough` replaced when given).
 */
export async function startProxiedWorld(options: { passthrough?: string[]; proxy?: Partial<ProxyServeOptions>; scenarioDir?: string } = {}): Promise<ProxiedWorld> {
  const { world, catalog } = await openWorld({ scenarioDir: options.scenarioDir ?? EXAMPLE_SCENARIO });
  const tracker = new CallTracker();
  const routes = { services: catalog.catalog.services, noise: catalog.catalog.noise, passthrough: options.passthrough ?? catalog.catalog.passthrough };
  const served = await serveProxyForWorld(world, routes, {
    caDir: testCaDir(), proxyPort: 0, tlsPort: 0, attribute: (client) => tracker.attribute(client), ...options.proxy,
  });
  return {
    world, served, tracker,
    proxyUrl: served.proxy.url,
    tlsPort: served.proxy.tlsPort!,
    caPath: served.certs.ca.certPath,
    urlFor: (client) => served.proxy.urlFor(client),
    async entries() {
      await world.journal.flush();
      const out: JournalEntry[] = [];
      for await (const entry of world.journal.entries()) out.push(entry);
      return out;
    },
    async close() {
      await served.proxy.close();
      await world.journal.close();
    },
  };
}
