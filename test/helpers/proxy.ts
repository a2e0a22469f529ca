import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallTracker } from '../../mocks/core/attribution.js';
import type { JournalEntry } from '../../mocks/core/journal-format.js';
import { MemoryJournal } from '../../mocks/core/journal.js';
import { World, type HostedService } from '../../mocks/core/world.js';
import { serveProxyForWorld, type ServedProxy } from '../../proxy/for-world.js';
import type { ProxyServeOptions } from '../../proxy/for-world.js';
import { githubStub } from './proxy-github-stub.js';
import { testHeader } from './journal.js';

/** GitHub as the proxy tests see it (the stand-in until they move to the real mock). */
export const GITHUB: HostedService = { id: 'github', hostnames: ['api.github.com'], definition: githubStub, data: {} };

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

/** A world (journal in memory) behind an in-process proxy on ephemeral loopback ports. */
export async function startProxiedWorld(options: {
  services?: HostedService[];
  passthrough?: string[];
  proxy?: Partial<ProxyServeOptions>;
} = {}): Promise<ProxiedWorld> {
  const services = options.services ?? [GITHUB];
  const journal = new MemoryJournal(testHeader({ scenario: 'test/proxy' }));
  const header = journal.header;
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal });
  const tracker = new CallTracker();
  const catalog = { services: services.map((s) => ({ id: s.id, hostnames: [...s.hostnames] })), passthrough: options.passthrough ?? [] };
  const served = await serveProxyForWorld(world, catalog, {
    caDir: testCaDir(), proxyPort: 0, tlsPort: 0, attribute: (client) => tracker.attribute(client), ...options.proxy,
  });
  return {
    world, served, tracker,
    proxyUrl: served.proxy.url,
    tlsPort: served.proxy.tlsPort!,
    caPath: served.certs.ca.certPath,
    urlFor: (client) => served.proxy.urlFor(client),
    async entries() {
      await journal.flush();
      const out: JournalEntry[] = [];
      for await (const entry of journal.entries()) out.push(entry);
      return out;
    },
    async close() {
      await served.proxy.close();
      await journal.close();
    },
  };
}
