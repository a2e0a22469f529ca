import type { Exchange, PlannedFault, WorldAddon } from './addon.js';
import type { WorldRequest, WorldResponse } from './world-request.js';
import { LogicalClock, httpDate } from './clock.js';
import { ToolbenchError, isToolbenchError } from './errors.js';
import type { FaultPlan } from './fault-plan.js';
import { faultAddon, genericFaultResponse } from './faults.js';
import { ServiceRequest, bytes, type HeaderList, type ServiceResponse } from './http.js';
import { HostTable, stripPort } from './hosts.js';
import { SeededIds, type IdCounters } from './ids.js';
import type { Attribution, Fault, JournalEntry, OperationRef } from './journal-format.js';
import type { Journal } from './journal.js';
import { noiseResponse, type NoiseAnswer } from './noise.js';
import type { FaultOrder, ServiceContext, ServiceDefinition } from './service.js';
import { DocumentStore, type StoreDump, type StoreSnapshot } from './store.js';

export type { WorldRequest, WorldResponse } from './world-request.js';

/** One hosted service: its catalog hostnames, its code and its parsed dataset. */
export interface HostedService {
  id: string;
  hostnames: readonly string[];
  /** The mock; with `importDefinition`, undefined until that has resolved (it may be a getter). */
  readonly definition?: ServiceDefinition;
  /**
   * Imports the mock's module when the service is first asked for (a lazy service only): most
   * trials touch one or two of the catalog's services, and importing all of them was half of
   * `toolbench world`'s start. `World.dispatch` awaits it; `importServices` does it ahead.
   */
  importDefinition?: () => Promise<ServiceDefinition>;
  /** The parsed dataset; with `lazy`, read (it may be a getter that parses) only when the service loads. */
  data: unknown;
  /**
   * Load the dataset when the service is first used (a request to it, its state read, a grade)
   * instead of when the world is built: a shared baseline a scenario does not name, which most
   * trials never touch. Nothing a client sees changes: a service's store and IDs depend only on
   * its own dataset, the seed and the epoch, never on when or in what order services load.
   */
  lazy?: boolean;
}

export interface WorldConfig {
  seed: number;
  epochMs: number;
  tickMs: number;
  services: readonly HostedService[];
  /** Telemetry and update-check hosts answered with a canned response, journaled as `noise`. */
  noise?: readonly NoiseAnswer[];
  journal: Journal;
  /** Told when a handler throws (a bug in a mock); default: a line on stderr. */
  onHandlerError?: (error: unknown, service: string, request: WorldRequest) => void;
  /** The fault plan (docs/faults.md); applied by the fault addon, before any of `addons`. */
  faults?: FaultPlan;
  addons?: readonly WorldAddon[];
  /** Told when an addon's hook throws; default: a line on stderr. The other addons still run. */
  onAddonError?: (error: unknown, addon: string) => void;
  /**
   * What listeners do with a fault's latency and a timeout's hold: wait in real time (`real`, the
   * default: recording) or answer at once (`skip`: replay). Never changes a byte.
   */
  latency?: 'real' | 'skip';
}

interface ServiceRuntime {
  hosted: HostedService;
  definition: ServiceDefinition;
  store: DocumentStore;
  ids: SeededIds;
  initial: { store: StoreSnapshot; ids: IdCounters };
}

/**
 * Hosts every service and dispatches requests to them. The world is a pure function of
 * (datasets, seed, ordered requests): the sequence number is taken and the handler runs
 * synchronously at dispatch, so concurrent clients get a well-defined order, the journal's.
 */
export class World {
  readonly clock: LogicalClock;
  readonly journal: Journal;
  /** Every hosted service by id, in the catalog's order. */
  private readonly hosted = new Map<string, HostedService>();
  /** The services loaded so far (all but the lazy ones not used yet). */
  private readonly runtimes = new Map<string, ServiceRuntime>();
  private readonly hosts: HostTable<{ service: string } | { noise: NoiseAnswer }>;
  private readonly addons: readonly WorldAddon[];

  constructor(readonly config: WorldConfig) {
    this.clock = new LogicalClock(config.epochMs, config.tickMs);
    this.journal = config.journal;
    this.addons = [...(config.faults?.rules.length ? [faultAddon(config.faults.rules)] : []), ...(config.addons ?? [])];
    for (const hosted of config.services) {
      this.hosted.set(hosted.id, hosted);
      if (!hosted.lazy) this.load(hosted);
    }
    this.hosts = new HostTable<{ service: string } | { noise: NoiseAnswer }>([
      ...config.services.flatMap((hosted) => hosted.hostnames.map((host) => ({ host, value: { service: hosted.id } }))),
      ...(config.noise ?? []).flatMap((noise) => noise.hostnames.map((host) => ({ host, value: { noise } }))),
    ]);
  }

  /** Loads one service's dataset into a store of its own. */
  private load(hosted: HostedService): ServiceRuntime {
    const definition = hosted.definition;
    if (!definition) throw new Error(`toolbench: the ${hosted.id} mock is not imported yet (await world.importServices() before reading it)`);
    const store = new DocumentStore();
    const ids = new SeededIds(this.config.seed, hosted.id);
    try {
      definition.load(hosted.data, { service: hosted.id, store, ids, epochMs: this.config.epochMs });
    } catch (error) {
      if (isToolbenchError(error)) throw error;
      throw new ToolbenchError('TB_ERR_DATASET', `${hosted.id} dataset cannot be loaded: ${(error as Error).message}`, { cause: error });
    }
    const runtime: ServiceRuntime = { hosted, definition, store, ids, initial: { store: store.snapshot(), ids: ids.snapshot() } };
    this.runtimes.set(hosted.id, runtime);
    return runtime;
  }

  /** A service's runtime, loading it on first use. */
  private runtime(id: string): ServiceRuntime | undefined {
    const loaded = this.runtimes.get(id);
    if (loaded) return loaded;
    const hosted = this.hosted.get(id);
    return hosted && this.load(hosted);
  }

  /**
   * Every imported service's runtime in the catalog's order, loading those not loaded yet. A mock
   * not imported yet has had no request: its service is its baseline, the same in every world.
   */
  private allRuntimes(): [string, ServiceRuntime][] {
    return [...this.hosted.values()].filter((hosted) => hosted.definition).map((hosted) => [hosted.id, this.runtime(hosted.id)!]);
  }

  get serviceIds(): string[] {
    return [...this.hosted.keys()];
  }

  /** The service that answers for `host` (port and case ignored; host patterns too), if any. */
  serviceForHost(host: string): string | undefined {
    const found = this.hosts.resolve(host)?.value;
    return found && 'service' in found ? found.service : undefined;
  }

  /**
   * Imports the mocks of `services` (every service without it) not imported yet, so that reading
   * their state or processing a request synchronously (replay) finds them.
   */
  async importServices(services?: readonly string[]): Promise<void> {
    await Promise.all((services ?? [...this.hosted.keys()]).map((id) => this.importOf(id)));
  }

  /** The import of `id`'s mock, while it is not imported yet (else undefined). */
  private importOf(id: string | undefined): Promise<unknown> | undefined {
    const hosted = id === undefined ? undefined : this.hosted.get(id);
    return hosted && !hosted.definition ? hosted.importDefinition?.() : undefined;
  }

  /**
   * The import `request`'s service still waits for, if any: `process` needs its mock imported.
   * Replay awaits it before each entry instead of importing every mock first (a journal reaches
   * one or two of them; importing all 29 was most of verifying a small journal).
   */
  importFor(request: Pick<WorldRequest, 'service' | 'host'>): Promise<unknown> | undefined {
    return this.importOf(request.service ?? this.serviceForHost(request.host));
  }

  /**
   * Serves one request; resolves after its journal entry has been handed to the store. A request
   * to a service whose mock is not imported yet waits for the import before it takes its sequence
   * number: requests in flight at once may be numbered in another order than they arrived, as
   * any concurrent requests may; the journal's order is the one replay follows.
   */
  async dispatch(request: WorldRequest): Promise<WorldResponse> {
    const importing = this.importFor(request);
    if (importing) await importing;
    const entry = this.process(request);
    await this.journal.append(entry);
    return { seq: entry.seq, ...entry.response, fault: entry.fault };
  }

  /**
   * The synchronous part of dispatch: sequence number, addons (the fault plan), then the handler
   * and its state change, or the service's answer for a fault instead; the journal entry.
   */
  process(request: WorldRequest): JournalEntry {
    const tick = this.clock.next();
    const serviceId = request.service ?? this.serviceForHost(request.host) ?? null;
    const runtime = serviceId === null ? undefined : this.runtime(serviceId);
    if (!runtime) {
      const found = request.service ? undefined : this.hosts.resolve(request.host)?.value;
      if (found && 'noise' in found) return entryFor(tick, null, request, noiseResponse(found.noise), request.attribution ?? null, null, null, 'noise');
      return entryFor(tick, null, request, misdirected(request.host), request.attribution ?? null);
    }
    const serviceRequest = new ServiceRequest(request.method, request.target, request.headers, request.body);
    const operation = this.operationOf(runtime, serviceRequest);
    const fault = this.runAddons(runtime, request, tick, operation);
    const serviceResponse = fault !== null && fault.kind !== 'latency'
      ? this.renderFault(runtime, request, serviceRequest, { kind: fault.kind, retryAfter: fault.retryAfter }, tick.seq, tick.nowMs)
      : this.runHandler(runtime, request, serviceRequest, tick.seq, tick.nowMs);
    const journaled: Fault | null = fault && { kind: fault.kind, latencyMs: fault.latencyMs, rule: fault.rule, n: fault.n };
    return entryFor(tick, runtime.hosted.id, request, serviceResponse, request.attribution ?? null, journaled, operation);
  }

  /** The service's name for the request; a naming function that throws is a mock bug, reported, and names nothing. */
  private operationOf(runtime: ServiceRuntime, req: ServiceRequest): OperationRef | null {
    const name = runtime.definition.operation;
    if (!name) return null;
    try {
      return name.call(runtime.definition, req);
    } catch (error) {
      (this.config.onHandlerError ?? reportHandlerError)(error, runtime.hosted.id, { host: '', method: req.method, target: req.target, headers: req.headers, body: req.body });
      return null;
    }
  }

  /**
   * A request refused before reaching any service (a host outside the catalog), as a journal
   * entry: it takes a sequence number and logical time like any other and carries attribution
   * kind `blocked` (keeping the client it came from) and `response`, which the caller chose and
   * sends. No service state changes. The synchronous part of `recordBlocked` (for replay).
   */
  processBlocked(request: WorldRequest, response: ServiceResponse): JournalEntry {
    const tick = this.clock.next();
    const attribution: Attribution = {
      kind: 'blocked',
      client: request.attribution?.client ?? null,
      endpoint: request.attribution?.endpoint ?? null,
      tool: request.attribution?.tool ?? null,
      callId: request.attribution?.callId ?? null,
    };
    return entryFor(tick, null, request, response, attribution);
  }

  /** Journals a refused request (see `processBlocked`); resolves once the entry is handed to the store. */
  async recordBlocked(request: WorldRequest, response: ServiceResponse): Promise<WorldResponse> {
    const entry = this.processBlocked(request, response);
    await this.journal.append(entry);
    return { seq: entry.seq, ...entry.response, fault: null };
  }

  /** Every addon's `request` hook, in order; what they decided. */
  private runAddons(runtime: ServiceRuntime, request: WorldRequest, tick: { seq: number; nowMs: number }, operation: OperationRef | null): PlannedFault | null {
    if (this.addons.length === 0) return null;
    const exchange = new WorldExchange(tick.seq, tick.nowMs, this.config.seed, runtime.hosted.id, request, operation, runtime.definition.routes);
    for (const addon of this.addons) {
      try {
        addon.request?.(exchange);
      } catch (error) {
        (this.config.onAddonError ?? reportAddonError)(error, addon.name);
      }
    }
    return exchange.fault;
  }

  /** The service's answer for a fault (else the generic one); whatever it writes is rolled back. */
  private renderFault(runtime: ServiceRuntime, request: WorldRequest, serviceRequest: ServiceRequest, order: FaultOrder, seq: number, nowMs: number): ServiceResponse {
    const { hosted, definition, store, ids } = runtime;
    const render = definition.fault;
    if (!render) return genericFaultResponse(order);
    const ctx: ServiceContext = { service: hosted.id, store, ids, epochMs: this.config.epochMs, seq, nowMs };
    const counters = ids.snapshot();
    let response: ServiceResponse = genericFaultResponse(order);
    try {
      store.transaction(() => {
        response = render.call(definition, order, serviceRequest, ctx);
        throw ROLLBACK;
      });
    } catch (error) {
      if (error !== ROLLBACK) (this.config.onHandlerError ?? reportHandlerError)(error, hosted.id, request);
    } finally {
      ids.restore(counters);
    }
    return response;
  }

  private runHandler(runtime: ServiceRuntime, request: WorldRequest, serviceRequest: ServiceRequest, seq: number, nowMs: number): ServiceResponse {
    const { hosted, definition, store, ids } = runtime;
    const ctx: ServiceContext = { service: hosted.id, store, ids, epochMs: this.config.epochMs, seq, nowMs };
    if (request.oversize) return definition.reject('payload_too_large', ctx);
    const counters = ids.snapshot();
    try {
      return store.transaction(() => definition.handle(serviceRequest, ctx));
    } catch (error) {
      ids.restore(counters);
      // A handler that throws is a bug in the mock; the agent sees the service's 500 and the
      // world keeps serving, and the bug is reported rather than lost.
      (this.config.onHandlerError ?? reportHandlerError)(error, hosted.id, request);
      return definition.reject('internal_error', ctx);
    }
  }

  /** Every service back to its dataset; journaled, so replay resets at the same point. */
  async reset(): Promise<WorldResponse> {
    const tick = this.clock.next();
    // A service not loaded yet is as loaded already: nothing to restore.
    for (const runtime of this.runtimes.values()) {
      runtime.store.restore(runtime.initial.store);
      runtime.ids.restore(runtime.initial.ids);
    }
    for (const addon of this.addons) {
      try {
        addon.reset?.();
      } catch (error) {
        (this.config.onAddonError ?? reportAddonError)(error, addon.name);
      }
    }
    const body = bytes(JSON.stringify({ ok: true, seq: tick.seq }));
    const entry: JournalEntry = {
      seq: tick.seq,
      time: new Date(tick.nowMs).toISOString(),
      kind: 'reset',
      service: null,
      host: 'toolbench',
      method: 'POST',
      target: '/_bench/reset',
      operation: null,
      request: { headers: [], body: new Uint8Array(0), oversize: false },
      response: { status: 200, headers: [['Content-Type', 'application/json']], body },
      attribution: null,
      fault: null,
    };
    await this.journal.append(entry);
    return { seq: tick.seq, ...entry.response, fault: null };
  }

  /** Every imported service's documents (`importServices` imports the rest), or only `services`' (a copy). */
  state(services?: readonly string[]): Record<string, StoreDump> {
    const out: Record<string, StoreDump> = {};
    for (const [id, runtime] of this.runtimesOf(services)) out[id] = runtime.store.dump();
    return out;
  }

  /** The runtimes of `services` (every service without it), loading those not loaded yet. */
  private runtimesOf(services: readonly string[] | undefined): [string, ServiceRuntime][] {
    if (!services) return this.allRuntimes();
    return services.flatMap((id): [string, ServiceRuntime][] => {
      const runtime = this.runtime(id);
      return runtime ? [[id, runtime]] : [];
    });
  }

  /** The services loaded so far, in the catalog's order: the others are exactly as they would load. */
  get loadedServiceIds(): string[] {
    return [...this.hosted.keys()].filter((id) => this.runtimes.has(id));
  }

  /**
   * What a grader compares: each service's documents plus its derived views, now or as loaded;
   * every imported service, or only `services` (loading those not loaded yet).
   */
  gradingState(when: 'now' | 'initial' = 'now', services?: readonly string[]): Record<string, StoreDump> {
    const out: Record<string, StoreDump> = {};
    for (const [id, runtime] of this.runtimesOf(services)) {
      let store = runtime.store;
      if (when === 'initial') {
        store = new DocumentStore();
        store.restore(runtime.initial.store);
      }
      out[id] = { ...store.dump(), ...runtime.definition.views?.(store) };
    }
    return out;
  }

  /** A service's definition (for its volatile fields and views); undefined while not imported. */
  definition(service: string): ServiceDefinition | undefined {
    return this.hosted.get(service)?.definition;
  }
}

function reportHandlerError(error: unknown, service: string, request: WorldRequest): void {
  process.stderr.write(`toolbench: ${service} handler failed on ${request.method} ${request.target}: ${(error as Error)?.stack ?? error}\n`);
}

function reportAddonError(error: unknown, addon: string): void {
  process.stderr.write(`toolbench: addon ${addon} failed: ${(error as Error)?.stack ?? error}\n`);
}

/** Thrown inside a fault's rendering transaction so that it always rolls back. */
const ROLLBACK = Symbol('rollback');

/** The journal entry of one request: the world's own headers around the service's, in a fixed order. */
function entryFor(tick: { seq: number; nowMs: number }, service: string | null, request: WorldRequest,
  serviceResponse: ServiceResponse, attribution: Attribution | null, fault: Fault | null = null, operation: OperationRef | null = null,
  kind: 'http' | 'noise' = 'http'): JournalEntry {
  const headers: HeaderList = [
    ['Date', httpDate(tick.nowMs)],
    ...serviceResponse.headers,
    ['X-Toolbench-Seq', String(tick.seq)],
    ['Content-Length', String(serviceResponse.body.length)],
  ];
  return {
    seq: tick.seq,
    time: new Date(tick.nowMs).toISOString(),
    kind,
    service,
    host: stripPort(request.host).toLowerCase(),
    method: request.method,
    target: request.target,
    operation,
    request: { headers: request.headers, body: request.body, oversize: request.oversize ?? false },
    response: {
      status: serviceResponse.status,
      headers,
      body: request.method === 'HEAD' ? new Uint8Array(0) : serviceResponse.body,
    },
    attribution,
    fault,
  };
}

function misdirected(host: string): ServiceResponse {
  return {
    status: 421,
    headers: [['Content-Type', 'application/json; charset=utf-8']],
    body: bytes(JSON.stringify({ message: `toolbench: no service in the catalog answers for host ${host}` })),
  };
}

/**
 * What addons see of one request. A class with the route on its prototype, worked out on first
 * read: an object literal with a getter closure got a hidden class of its own per request
 * (docs/benchmarks.md, tenth pass).
 */
class WorldExchange implements Exchange {
  readonly path: string;
  fault: PlannedFault | null = null;
  #route: string | undefined;

  constructor(readonly seq: number, readonly nowMs: number, readonly seed: number, readonly service: string,
    readonly request: WorldRequest, readonly operation: OperationRef | null, private readonly routes: ServiceDefinition['routes']) {
    const q = request.target.indexOf('?');
    this.path = q === -1 ? request.target : request.target.slice(0, q);
  }

  /** The REST route's pattern; else the operation's name (GraphQL fields and AWS actions share one path); else the path itself. */
  get route(): string {
    if (this.#route === undefined) {
      const { request, path } = this;
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      this.#route = `${request.method} ${this.routes?.find((r) => r.method === method && r.match(path) !== null)?.pattern ?? this.operation?.name ?? path}`;
    }
    return this.#route;
  }
}
