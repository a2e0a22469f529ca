import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
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
/**
 * One CA for the whole ava run: every test file (each in its own process, all children of ava's
 * one main process) shares it and its cached leaves, so the two RSA keys are made once per run,
 * not once per file (0.2–0.8 s of CPU each time on this machine). createCa's staging rename makes
 * two files' first starts safe; the folder is named after ava's process and its start time
 * (/proc), so a reused pid never meets an old run's CA. Elsewhere: one CA per file, as before.
 */
export function testCaDir(): string {
  sharedCa ??= join(runScopedDir() ?? mkdtempSync(join(tmpdir(), 'toolbench-ca-')), 'ca');
  return sharedCa;
}

function runScopedDir(): string | null {
  try {
    const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
    const startTicks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]; // field 22, starttime
    const dir = join(tmpdir(), `toolbench-test-ca-${process.ppid}-${startTicks}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    return null;
  }
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
