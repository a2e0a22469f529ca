import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { DEFAULT_CA_DIR } from '../certs/index.js';
import { CallTracker } from '../mocks/core/attribution.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import type { McpRecord } from '../mocks/core/journal-format.js';
import type { World } from '../mocks/core/world.js';
import { serveProxy, type ServedProxy } from '../proxy/for-world.js';
import type { WrittenResponse } from '../proxy/http-exchange.js';
import type { ForwardTarget, RefusedRequest, Upstream } from '../proxy/upstream.js';
import { worldUpstream } from '../proxy/world-upstream.js';
import type { EndpointChoice } from './scenario-endpoints.js';
import type { LoadedCatalog } from './load.js';
import type { McpSink } from './mcp-log.js';
import type { EndpointEntry } from './schema.js';
import type { StackEndpoint } from './stack.js';

/**
 * A warm lane: what one worker of a `toolbench run` keeps from trial to trial. Its proxy (ports,
 * CA, proxy credentials) and the servers of `warm_safe` endpoints outlive each trial; each trial
 * binds its own world, journal and MCP log to them and unbinds when it closes. Only servers that
 * keep nothing between calls and take nothing per trial may stay (docs/trials.md, "Warm lanes"):
 * a warm server's requests in trial N+1 are then exactly what a freshly started one would send.
 */
export class WarmLane {
  readonly mcpLog = new SwitchedMcpLog();
  private readonly pool = new Map<string, StackEndpoint>();
  private readonly closers: (() => Promise<unknown>)[] = [];
  private bound = false;
  private closed = false;

  private constructor(
    readonly catalog: LoadedCatalog,
    readonly proxy: ServedProxy,
    private readonly upstream: SwitchedUpstream,
    /** One tracker for the lane: the proxy's attribution must not change under a running server. */
    readonly tracker: CallTracker,
    /** Where the warm servers' stderr goes (they outlive any one trial's folder). */
    readonly openLog: (endpoint: string) => Promise<Writable>,
    private readonly alsoWarm: ReadonlySet<string>,
  ) {}

  /**
   * `alsoWarm`: endpoints kept even for a scenario that names their service (the warm audit runs
   * one scenario, so one credential, over and over); a run never sets it.
   */
  static async open(options: { catalog: LoadedCatalog; caDir?: string; host?: string; openLog: (endpoint: string) => Promise<Writable>; alsoWarm?: readonly string[] }): Promise<WarmLane> {
    const upstream = new SwitchedUpstream();
    const tracker = new CallTracker();
    const proxy = await serveProxy(options.catalog.catalog, upstream, {
      caDir: options.caDir ?? DEFAULT_CA_DIR, host: options.host, attribute: (client) => tracker.attribute(client), proxyPort: 0, tlsPort: 0,
    });
    return new WarmLane(options.catalog, proxy, upstream, tracker, options.openLog, new Set(options.alsoWarm ?? []));
  }

  /** Requests that came while no trial was bound (answered 503, journaled nowhere): should stay 0. */
  get strays(): readonly string[] {
    return this.upstream.strays;
  }

  /** The bound trial's crash callback: a warm server's crash is told to the trial it happens in. */
  private crashHandler: ((endpoint: string, message: string) => void) | null = null;

  /** Makes `world` the one every request and MCP record of the lane goes to, until `unbind`. */
  bind(world: World, mcpLog: McpSink, catalogHash: string, onCrash?: (endpoint: string, message: string) => void): void {
    if (this.closed) throw new ToolbenchError('TB_ERR_USAGE', 'warm lane: closed');
    if (this.bound) throw new ToolbenchError('TB_ERR_USAGE', 'warm lane: one trial at a time');
    if (catalogHash !== this.catalog.hash) throw new ToolbenchError('TB_ERR_USAGE', 'warm lane: the trial\'s catalog is not the lane\'s');
    this.upstream.current = worldUpstream(world);
    this.mcpLog.current = mcpLog;
    this.crashHandler = onCrash ?? null;
    this.bound = true;
  }

  /** A warm server crashed: told to the bound trial, if any (between trials the next `take` restarts it). */
  crashed(endpoint: string, message: string): void {
    this.crashHandler?.(endpoint, message);
  }

  unbind(): void {
    this.upstream.current = null;
    this.mcpLog.current = null;
    this.crashHandler = null;
    this.bound = false;
  }

  /** Whether this trial may take `entry` from the pool (or leave it there): warm-safe, and not the scenario's own. */
  warms(entry: EndpointEntry, manifest: EndpointChoice): boolean {
    if (this.alsoWarm.has(entry.id)) return true;
    return entry.warm_safe && !manifest.services.includes(entry.service);
  }

  /** The pooled endpoint, if its server still runs (one that crashed is dropped and restarted). */
  take(id: string): StackEndpoint | null {
    const pooled = this.pool.get(id);
    if (!pooled) return null;
    if (pooled.running.alive) return pooled;
    // Its bridge and log close with the lane; the next trial starts a new server.
    this.pool.delete(id);
    return null;
  }

  keep(endpoint: StackEndpoint): void {
    this.pool.set(endpoint.entry.id, endpoint);
  }

  /** Run when the lane closes, last registered first (a warm server's bridge, process, log). */
  onClose(close: () => Promise<unknown>): void {
    this.closers.push(close);
  }

  get warmEndpoints(): string[] {
    return [...this.pool.keys()];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unbind();
    for (const close of this.closers.reverse()) await close().catch(() => undefined);
    this.closers.length = 0;
    this.pool.clear();
    await this.proxy.proxy.close();
  }
}

/** The MCP log of whichever trial is bound; records made while none is are dropped (a crash between trials). */
export class SwitchedMcpLog implements McpSink {
  current: McpSink | null = null;

  record(fields: Omit<McpRecord, 'n'>): Promise<void> {
    return this.current ? this.current.record(fields) : Promise.resolve();
  }

  worldSeq(): number {
    return this.current?.worldSeq() ?? 0;
  }
}

const UNBOUND_BODY = new TextEncoder().encode('toolbench: no trial is running on this lane\n');

/** Forwards to the bound world's upstream; between trials it answers 503 and notes the request. */
class SwitchedUpstream implements Upstream {
  current: Upstream | null = null;
  readonly strays: string[] = [];

  forward(req: IncomingMessage, res: ServerResponse, to: ForwardTarget): void {
    if (this.current) return this.current.forward(req, res, to);
    this.strays.push(`${req.method ?? '?'} ${to.host}${to.target} from ${to.attribution.client ?? 'a direct client'}`);
    req.resume();
    res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': UNBOUND_BODY.length });
    res.end(UNBOUND_BODY);
  }

  refuse(request: RefusedRequest): Promise<WrittenResponse> {
    if (this.current) return this.current.refuse(request);
    this.strays.push(`${request.method} ${request.host}${request.target} (refused) from ${request.attribution.client ?? 'a direct client'}`);
    return Promise.resolve({ status: 503, headers: [['Content-Type', 'text/plain; charset=utf-8']], body: UNBOUND_BODY });
  }

  async close(): Promise<void> {}
}
