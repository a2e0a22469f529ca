import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DEFAULT_CA_DIR } from '../certs/index.js';
import type { LoadedCatalog } from './load.js';
import type { AdminRoutes } from '../mocks/core/admin.js';
import type { ChaosLevel } from '../mocks/core/fault-plan.js';
import { openWorld, type OpenedWorld } from '../scenarios/world.js';
import { CallTracker } from '../mocks/core/attribution.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import { serveProxyForWorld, type ServedProxy } from '../proxy/for-world.js';
import { PRELOAD_PATH } from '../proxy/preload-path.js';
import { serveWorld, type ServedWorld } from '../proxy/serve.js';
import type { Listening } from '../proxy/service-listener.js';
import { selectEndpoints, type EndpointSelection } from './endpoint-selection.js';
import { baselineCredential } from './scenario-endpoints.js';
import type { EndpointEntry } from './schema.js';
import type { RunningEndpoint } from './supervisor.js';
import type { WarmLane } from './warm.js';

export type { EndpointSelection } from './endpoint-selection.js';

export interface StackOptions {
  scenarioDir: string;
  /** Default: the shipped catalog. */
  catalog?: LoadedCatalog;
  seed?: number;
  /** A new LevelDB journal here; in memory without it. */
  journalDir?: string;
  /** `catalog`: the catalog's ports (8100 admin, 8080 proxy, 8443 TLS, service and bridge ports); `ephemeral`: any free ones. */
  ports: 'catalog' | 'ephemeral';
  host?: string;
  caDir?: string;
  /**
   * Start MCP endpoints and their bridges (none with `false`): see `EndpointSelection`; `true`
   * is `'scenario'`.
   */
  endpoints: boolean | EndpointSelection;
  /** Per endpoint, how long its server may take to list its tools (default 120 s; 0: no limit). */
  readyTimeoutMs?: number;
  /** Servers starting at once (default 8): more only make each wait longer for the CPU. */
  startConcurrency?: number;
  /** Told as each endpoint becomes ready (its tool list answered), in the order they do. */
  onReady?: (ready: EndpointReadiness) => void;
  /** Endpoint servers' stderr logs go here (`<endpoint>.stderr.log`); discarded without it. */
  logDir?: string;
  /** More proxy clients to issue credentials for (their requests are `direct` unless they are endpoints). */
  clients?: string[];
  /** Proxy clients counted as ready MCP endpoints (`toolbench world --client NAME`): their requests are `mcp`. */
  mcpClients?: string[];
  /** Run the TLS proxy (default true); without it there are no MCP endpoints either. */
  proxy?: boolean;
  /** The admin API's bearer token; default: a new random one. */
  adminToken?: string;
  adminPort?: number;
  proxyPort?: number;
  tlsPort?: number;
  forwardSecret?: Uint8Array;
  /** Told when an endpoint's server exits while it should be running. */
  onCrash?: (endpoint: string, message: string) => void;
  /** A `--chaos` fault preset on top of the scenario's own faults. */
  chaos?: ChaosLevel;
  /** More admin API routes, given the opened world (e.g. live grading). */
  adminRoutes?: (opened: OpenedWorld) => AdminRoutes;
  /** Also serve the router endpoint over the started endpoints (catalog/router/; `record --tools router`). */
  router?: boolean;
  /**
   * A warm lane (`toolbench run`): use its proxy, take its running warm-safe endpoints instead of
   * starting them, and leave the ones this trial starts for the next; docs/trials.md.
   */
  lane?: WarmLane;
}

export interface StackEndpoint {
  entry: EndpointEntry;
  running: RunningEndpoint;
  bridge: Listening;
  readiness: EndpointReadiness;
}

/** One endpoint's start: how long from spawn to its tool list, and how many tools. */
export interface EndpointReadiness {
  endpoint: string;
  readyMs: number;
  tools: number;
  /** Taken running from a warm lane (its `readyMs` is then the time the previous start took). */
  warm?: boolean;
}


export interface Stack extends OpenedWorld {
  tracker: CallTracker;
  served: ServedWorld;
  /** Null when started with `proxy: false`. */
  proxy: ServedProxy | null;
  caPath: string | null;
  endpoints: Map<string, StackEndpoint>;
  /** The router's bridge, when started with `router: true`. */
  router: Listening | null;
  /** Addresses, for ready lines and MCP configs. */
  addresses(): StackAddresses;
  close(): Promise<void>;
}

export interface StackAddresses {
  admin: string;
  /** The admin API's bearer token (every route but `/_bench/health` needs it). */
  token: string;
  services: Record<string, string>;
  proxy: string | null;
  tls: number | null;
  ca: string | null;
  /** Each endpoint's Streamable HTTP URL. */
  mcp: Record<string, string>;
  /** The router's Streamable HTTP URL (null: not started). */
  router: string | null;
}

/**
 * A whole trial's machinery: the world and its ports, the TLS proxy, and (optionally) every
 * MCP endpoint of the scenario's services with its bridge. Anything that fails part-way closes
 * what was already started.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const opened = await openWorld({ scenarioDir: options.scenarioDir, seed: options.seed, journalDir: options.journalDir, catalog: options.catalog, chaos: options.chaos });
  const { world, header, catalog, manifest } = opened;
  const closers: (() => Promise<unknown>)[] = [() => world.journal.close()];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    closers.length = 0;
  };
  const catalogPorts = options.ports === 'catalog';
  const pick = (given: number | undefined, catalogPort: number) => given ?? (catalogPorts ? catalogPort : 0);
  try {
    const lane = options.lane;
    const tracker = lane?.tracker ?? new CallTracker();
    for (const client of options.mcpClients ?? []) {
      tracker.register(client);
      tracker.markReady(client);
    }
    const served = await serveWorld(world, catalog.catalog.services, {
      ports: options.ports, host: options.host, adminPort: pick(options.adminPort, 8100), forwardSecret: options.forwardSecret, adminToken: options.adminToken,
      info: { scenario: header.scenario, seed: header.seed, catalogHash: header.catalogHash, chaos: options.chaos ?? 'none' },
      adminRoutes: options.adminRoutes?.(opened),
    });
    closers.push(() => served.close());
    const endpoints = new Map<string, StackEndpoint>();
    let router: Listening | null = null;
    if (options.lane && !options.endpoints) throw new ToolbenchError('TB_ERR_USAGE', 'a warm lane keeps MCP endpoints: start them too');
    if (options.router && !options.endpoints) throw new ToolbenchError('TB_ERR_USAGE', 'the router routes to MCP endpoints: start them too');
    if (options.proxy === false) {
      if (options.endpoints) throw new ToolbenchError('TB_ERR_USAGE', 'MCP endpoints need the proxy: drop --no-proxy');
      return finish(null);
    }
    let proxy: ServedProxy;
    if (lane) {
      if (catalogPorts) throw new ToolbenchError('TB_ERR_USAGE', 'a warm lane runs on ephemeral ports');
      proxy = lane.proxy;
    } else {
      proxy = await serveProxyForWorld(world, catalog.catalog, {
        caDir: options.caDir ?? DEFAULT_CA_DIR, host: options.host, attribute: (client) => tracker.attribute(client),
        proxyPort: pick(options.proxyPort, 8080), tlsPort: pick(options.tlsPort, 8443),
      });
      closers.push(() => proxy.proxy.close());
    }
    for (const client of [...(options.clients ?? []), ...(options.mcpClients ?? [])]) proxy.proxy.credentials.issue(client);

    if (options.endpoints) {
      // Loaded only here: the MCP SDK is most of a cold start, and a world without endpoints needs none of it.
      const [{ serveBridge }, { McpLog }, { RunningEndpoint, describeExit }] = await Promise.all([
        import('./bridge.js'), import('./mcp-log.js'), import('./supervisor.js'),
      ]);
      const mcpLog = new McpLog(world.journal, () => world.clock.current);
      if (lane) {
        lane.bind(world, mcpLog, header.catalogHash, options.onCrash);
        // The lane's proxy outlives the trial: from here on it answers no one for this world.
        closers.push(async () => lane.unbind());
      }
      const selection = options.endpoints === true ? 'scenario' : options.endpoints;
      const wanted = selectEndpoints(selection, manifest, catalog.catalog);
      if (options.logDir) mkdirSync(options.logDir, { recursive: true });
      // Several at once: 30 servers one after another would take minutes, and all 30 at once on
      // two cores would each take as long as all of them (and time out one by one). Their startup
      // requests interleave in the journal in whatever order they come; replay re-issues them in
      // the journal's order, and the agent's requests all come after every endpoint is ready.
      const started = await settleBounded(wanted, options.startConcurrency ?? 8, async (entry): Promise<StackEndpoint> => {
        const warm = lane?.warms(entry, manifest) === true;
        if (warm) {
          const pooled = lane!.take(entry.id);
          if (pooled) {
            await pooled.running.rejoin();
            const readiness = { ...pooled.readiness, warm: true };
            options.onReady?.(readiness);
            return { ...pooled, readiness };
          }
        }
        // A warm server's stderr and life belong to the lane, not to this trial.
        const stderr = warm ? await lane!.openLog(entry.id) : options.logDir ? await openLog(join(options.logDir, `${entry.id}.stderr.log`)) : discard();
        const own = (close: () => Promise<unknown>) => (warm ? lane!.onClose(close) : closers.push(close));
        own(() => new Promise<void>((done) => stderr.end(done)));
        const began = performance.now();
        const running = await RunningEndpoint.start({
          endpoint: entry,
          credential: manifest.credentials[entry.service] ?? (manifest.services.includes(entry.service) ? undefined : baselineCredential(catalog.catalog, entry)),
          tracker,
          mcpLog: warm ? lane!.mcpLog : mcpLog,
          stderr,
          readyTimeoutMs: options.readyTimeoutMs,
          network: {
            proxyUrl: proxy.proxy.urlFor(entry.id),
            caPath: proxy.certs.ca.certPath,
            bundlePath: proxy.certs.ca.bundlePath,
            preloadPath: PRELOAD_PATH,
            serviceUrl: await serviceUrlFor(entry, proxy.proxy),
          },
          // A warm server outlives this trial: its crash goes to whichever trial is bound then.
          onCrash: (id, exit) => {
            const message = `the ${id} MCP server exited with ${describeExit(exit)}`;
            if (warm) lane!.crashed(id, message);
            else options.onCrash?.(id, message);
          },
        });
        own(() => running.close());
        const readiness = { endpoint: entry.id, readyMs: Math.round(performance.now() - began), tools: running.tools.length };
        options.onReady?.(readiness);
        const bridge = await serveBridge(running, { host: options.host, port: pick(undefined, entry.bridge_port) });
        own(() => bridge.close());
        const endpoint = { entry, running, bridge, readiness };
        if (warm) lane!.keep(endpoint);
        return endpoint;
      });
      const failed = started.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as Error] : []));
      if (failed.length === 1) throw failed[0];
      if (failed.length > 1) {
        throw new ToolbenchError(failed.every((e) => e instanceof ToolbenchError && e.code === 'TB_ERR_SCENARIO') ? 'TB_ERR_SCENARIO' : 'TB_ERR_CATALOG',
          `${failed.length} of ${wanted.length} endpoints did not start:\n${failed.map((e) => `- ${e.message}`).join('\n')}`, { cause: failed[0] });
      }
      // Catalog order, whatever order they became ready in: MCP configs list them alike every trial.
      for (const outcome of started) if (outcome.status === 'fulfilled') endpoints.set(outcome.value.entry.id, outcome.value);
      if (options.router) {
        const { serveRouter } = await import('./router/serve.js');
        const routed = [...endpoints.values()].map((e) => ({ id: e.entry.id, url: e.bridge.url, tools: e.running.tools }));
        const routerServed = await serveRouter(routed, mcpLog, { host: options.host, port: pick(undefined, catalog.catalog.router.bridge_port) });
        closers.push(() => routerServed.close());
        router = routerServed.bridge;
      }
    }
    return finish(proxy);

    /**
     * `{{service_url}}`: for a `base-url` endpoint, a loopback stand-in for its service's host that
     * speaks for the endpoint (so its requests are journaled under the host and attributed to its
     * tool calls, as through the proxy); for others, the service's plain port.
     */
    async function serviceUrlFor(entry: EndpointEntry, running: ServedProxy['proxy']): Promise<string> {
      const host = catalog.catalog.services.find((service) => service.id === entry.service)?.hostnames[0];
      if (entry.reach !== 'base-url' || host === undefined || host.includes('{')) return served.services[entry.service]!.url;
      return running.baseUrlFor(entry.id, host);
    }

    function finish(proxy: ServedProxy | null): Stack {
      return {
        ...opened, tracker, served, proxy, endpoints, router, caPath: proxy?.certs.ca.certPath ?? null,
        addresses: () => ({
          admin: served.admin.url,
          token: served.token,
          services: Object.fromEntries(Object.entries(served.services).map(([id, l]) => [id, l.url])),
          proxy: proxy?.proxy.url ?? null,
          tls: proxy?.proxy.tlsPort ?? null,
          ca: proxy?.certs.ca.certPath ?? null,
          mcp: Object.fromEntries([...endpoints].map(([id, e]) => [id, e.bridge.url])),
          router: router?.url ?? null,
        }),
        close: closeAll,
      };
    }
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** `run` over every item, at most `limit` at a time; every outcome, in the items' order. */
async function settleBounded<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const out: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        out[index] = { status: 'fulfilled', value: await run(items[index]!) };
      } catch (reason) {
        out[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/** A log file opened for appending (a server's stderr). */
export function openLog(path: string): Promise<WriteStream> {
  return new Promise((resolve, reject) => {
    const stream = createWriteStream(path, { flags: 'a' });
    stream.once('open', () => resolve(stream));
    stream.once('error', reject);
  });
}

/** A stream that drops what it is given (a server's stderr nobody keeps). */
export function discard(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}
