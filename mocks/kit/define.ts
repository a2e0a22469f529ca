import type { z } from 'zod';
import { BodyParseError, ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { OperationRef } from '../core/journal-format.js';
import { Router, route, type Route } from '../core/router.js';
import type { FaultOrder, LoadContext, RejectReason, ServiceContext, ServiceDefinition } from '../core/service.js';
import type { DocumentStore, StoreDump } from '../core/store.js';
import { decodeBody, type DecodedBody } from './bodies.js';
import { ServiceError, type ErrorStyle, type KitRefusal } from './errors.js';
import type { Call, Operation } from './operation.js';

/** What a refusal knows: the allowed methods of a path, the failing parameter, the parse error. */
export interface RefusalDetail {
  allowed?: readonly string[];
  /** `path`, `query` or `body`, and zod's issues, for `invalid_params`. */
  where?: 'path' | 'query' | 'body';
  issues?: readonly z.ZodIssue[];
  /** The parser's message, for `malformed_body`. */
  message?: string;
  operation?: string;
}

/** The operation a middleware runs around, when one matched. */
export interface Matched {
  readonly name: string;
  readonly via: 'handler' | 'spec';
  readonly operation: Operation<unknown> | null;
}

/**
 * Runs around every request the service answers, in order (the first is outermost), as Hono's
 * middleware: call `next()` at most once; answer without calling it to refuse (auth, rate
 * windows); change what it returns to decorate (ETags, the service's headers). A ServiceError
 * thrown here is rendered in the service's envelope like a handler's.
 */
export type Middleware<C> = (req: ServiceRequest, context: C, next: () => ServiceResponse, matched: Matched | null) => ServiceResponse;

/** Answers requests that no hand-written operation takes: the long tail from the spec. */
export interface Fallback<C> {
  /** The spec's operation for the request (its operationId), or null when the spec has none. */
  operation(req: ServiceRequest): string | null;
  /** Every name `operation` can return (the spec's operationIds), for checking scenarios' call matchers. */
  operationNames(): readonly string[];
  handle(req: ServiceRequest, operation: string, context: C, ctx: ServiceContext): ServiceResponse;
}

/**
 * A service declared once: dataset, operations, errors, middleware, faults, grading views and
 * volatile fields. `defineService` turns it into the world's `ServiceDefinition`.
 */
export interface KitServiceSpec<D, C> {
  readonly id: string;
  /** Bump when any answer changes a byte (see ServiceDefinition.version). */
  readonly version: string;
  readonly dataset: z.ZodType<D, z.ZodTypeDef, unknown>;
  load(data: D, ctx: LoadContext): void;
  /** The per-request context handlers get (the store's typed collections, who is asking). Pure. */
  context(req: ServiceRequest, ctx: ServiceContext): C;
  readonly operations: readonly Operation<C>[];
  readonly errors: ErrorStyle<C>;
  /** The service's own error for a kit refusal (its 404 body, 405 or 404, validation errors). */
  refusal(reason: KitRefusal, detail: RefusalDetail): ServiceError;
  readonly middleware?: readonly Middleware<C>[];
  readonly fallback?: Fallback<C>;
  /**
   * How the service reads request bodies; default by Content-Type (bodies.ts). GitHub reads every
   * body as JSON whatever its Content-Type. Throw BodyParseError for a body that does not parse.
   */
  decode?(req: ServiceRequest, options: { graphql: boolean }): DecodedBody;
  /** Rewrites a request before it is matched (an alias path); pure, reads only the request. */
  rewrite?(req: ServiceRequest): ServiceRequest;
  fault?(order: FaultOrder, req: ServiceRequest, ctx: ServiceContext): ServiceResponse;
  readonly volatile?: Readonly<Record<string, '*' | readonly string[]>>;
  views?(store: DocumentStore): StoreDump;
}

type Resolution<C> =
  | { kind: 'found'; operation: Operation<C>; params: Record<string, string>; req: ServiceRequest }
  | { kind: 'method-not-allowed'; allowed: string[]; req: ServiceRequest }
  | { kind: 'not-found'; req: ServiceRequest };

/** The world's ServiceDefinition for a kit service. */
export function defineService<D, C>(spec: KitServiceSpec<D, C>): ServiceDefinition<D> & { readonly kit: KitServiceSpec<D, C> } {
  const index = new OperationIndex(spec.operations);
  // Computed on first ask (scenario validate): the spec fallback's names build its spec.
  let names: readonly string[] | null | undefined;
  // The world names the operation, then handles the same ServiceRequest: match once. Kept on
  // the request (`servingState`), tagged with this definition, which alone reads it.
  const stateOf = (req: ServiceRequest): KitRequestState<C> => {
    const kept = req.servingState as KitRequestState<C> | undefined;
    if (kept?.owner === index) return kept;
    const state: KitRequestState<C> = { owner: index, resolution: undefined, decoded: undefined };
    req.servingState = state;
    return state;
  };
  const resolve = (req: ServiceRequest): Resolution<C> => {
    const state = stateOf(req);
    return (state.resolution ??= index.resolve(spec.rewrite ? spec.rewrite(req) : req));
  };
  const decode = (req: ServiceRequest, graphql: boolean): DecodedBody => {
    const state = stateOf(req);
    return (state.decoded ??= spec.decode ? spec.decode(req, { graphql }) : decodeBody(req.headers, req.body, { graphql }));
  };
  const nameOf = (req: ServiceRequest, resolution: Resolution<C>): OperationRef | null => {
    if (resolution.kind === 'found') {
      const { operation } = resolution;
      const graphql = operation.matcher.kind === 'graphql';
      const name = operation.nameOf ? operation.nameOf(resolution.req, () => decode(req, graphql)) : operation.name;
      return name === null ? null : { name, via: 'handler' };
    }
    const fallback = spec.fallback?.operation(resolution.req) ?? null;
    return fallback === null ? null : { name: fallback, via: 'spec' };
  };
  const render = (error: unknown, context: C | null): ServiceResponse => {
    if (error instanceof ServiceError) return spec.errors(error, context);
    throw error;
  };
  const guarded = (run: () => ServiceResponse, context: C): ServiceResponse => {
    try {
      return run();
    } catch (error) {
      return render(error, context);
    }
  };

  const definition: ServiceDefinition<D> & { readonly kit: KitServiceSpec<D, C> } = {
    kit: spec,
    id: spec.id,
    version: spec.version,
    dataset: spec.dataset,
    load: (data, ctx) => spec.load(data, ctx),
    operation: (req) => nameOf(req, resolve(req)),
    operationNames: () => (names ??= operationNames(spec)),
    handle(req, ctx) {
      const context = spec.context(req, ctx);
      const resolution = resolve(req);
      const ref = nameOf(req, resolution);
      const matched: Matched | null = ref && { name: ref.name, via: ref.via, operation: resolution.kind === 'found' ? resolution.operation as Operation<unknown> : null };
      const innermost = () => guarded(() => {
        if (resolution.kind === 'found') return runOperation(resolution, context, ref?.name ?? resolution.operation.name);
        if (ref !== null && spec.fallback) return spec.fallback.handle(resolution.req, ref.name, context, ctx);
        if (resolution.kind === 'method-not-allowed') throw spec.refusal('method_not_allowed', { allowed: resolution.allowed });
        throw spec.refusal('not_found', {});
      }, context);
      const chain = (spec.middleware ?? []).reduceRight<() => ServiceResponse>(
        (next, middleware) => () => guarded(() => middleware(req, context, once(next), matched), context),
        innermost,
      );
      return chain();
    },
    reject(reason: RejectReason, ctx) {
      const blank = new ServiceRequest('GET', '/', [], new Uint8Array(0));
      return spec.errors(spec.refusal(reason, {}), spec.context(blank, ctx));
    },
    ...(spec.fault ? { fault: spec.fault.bind(spec) } : {}),
    routes: index.routes,
    ...(spec.volatile ? { volatile: spec.volatile } : {}),
    ...(spec.views ? { views: spec.views.bind(spec) } : {}),
  };

  const inputs: CallInputs = {
    decoded(req, operation, name) {
      try {
        return decode(req, operation.matcher.kind === 'graphql');
      } catch (error) {
        if (error instanceof BodyParseError) throw spec.refusal('malformed_body', { message: error.message, operation: name });
        throw error;
      }
    },
    query: (req, operation, name) => (operation.input?.query ? parse(operation.input.query, queryObject(req), 'query', name) : queryObject(req)),
    // An empty body is no parameters; a JSON `null` is a body, and the schema decides.
    body: (call, operation, name) => (operation.input?.body
      ? parse(operation.input.body, call.decoded.kind === 'empty' ? {} : call.decoded.value, 'body', name)
      : call.decoded.value),
  };

  function runOperation(resolution: Extract<Resolution<C>, { kind: 'found' }>, context: C, name: string): ServiceResponse {
    const { operation, req } = resolution;
    const input = operation.input;
    const call = new KitCall(req, name, resolution.params, operation as Operation<unknown>, inputs);
    // Eager operations decode and validate before the handler; lazy ones when the handler reads.
    if (!operation.lazy) void call.decoded;
    if (input?.path) call.params = parse(input.path, resolution.params, 'path', name);
    if (!operation.lazy) {
      void call.query;
      void call.body;
    }
    return operation.handle(call, context);
  }

  function parse(schema: z.ZodTypeAny, value: unknown, where: 'path' | 'query' | 'body', operation: string): any {
    const result = schema.safeParse(value);
    if (!result.success) throw spec.refusal('invalid_params', { where, issues: result.error.issues, operation });
    return result.data;
  }

  return definition;
}

/** The names a kit service's requests can have: its operations' and its fallback's; null when one is open. */
function operationNames<D, C>(spec: KitServiceSpec<D, C>): readonly string[] | null {
  const names = new Set<string>(spec.fallback?.operationNames() ?? []);
  for (const operation of spec.operations) {
    if (operation.nameOf && !operation.names) return null;
    for (const name of operation.names?.() ?? [operation.name]) names.add(name);
  }
  return [...names].sort();
}

/** `?a=1&b=2&b=3` → `{a: '1', b: ['2', '3']}` (a repeated key becomes a list). */
export function queryObject(req: ServiceRequest): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of req.query) {
    const existing = out[key];
    out[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

/** What a kit definition keeps on a request it serves (`ServiceRequest.servingState`). */
interface KitRequestState<C> {
  /** The definition's operation index: another definition handed the same request starts afresh. */
  owner: OperationIndex<C>;
  resolution: Resolution<C> | undefined;
  decoded: DecodedBody | undefined;
}

/** How a call reads its inputs: the definition's decoding and validation, shared by its calls. */
interface CallInputs {
  decoded(req: ServiceRequest, operation: Operation<unknown>, name: string): DecodedBody;
  query(req: ServiceRequest, operation: Operation<unknown>, name: string): unknown;
  body(call: KitCall, operation: Operation<unknown>, name: string): unknown;
}

const UNREAD: unique symbol = Symbol('unread');

/**
 * A handler's call: each input is read on first use and kept (a read that throws throws again
 * on the next); the decoded body is kept on the request, which naming the request may have
 * decoded already. A class, with its getters on the prototype: an object literal with getter
 * closures got a hidden class of its own per request, kept in old space and holding the
 * request's closures, which promoted every call's objects and set off full GCs (docs/benchmarks.md,
 * tenth pass).
 */
class KitCall implements Call {
  #query: unknown = UNREAD;
  #body: unknown = UNREAD;

  constructor(readonly req: ServiceRequest, readonly operation: string, public params: Record<string, string>,
    private readonly op: Operation<unknown>, private readonly inputs: CallInputs) {}

  get decoded(): DecodedBody {
    return this.inputs.decoded(this.req, this.op, this.operation);
  }

  get query(): any {
    if (this.#query === UNREAD) this.#query = this.inputs.query(this.req, this.op, this.operation);
    return this.#query;
  }

  get body(): any {
    if (this.#body === UNREAD) this.#body = this.inputs.body(this, this.op, this.operation);
    return this.#body;
  }
}

function once(next: () => ServiceResponse): () => ServiceResponse {
  let called = false;
  return () => {
    if (called) throw new Error('middleware called next() twice');
    called = true;
    return next();
  };
}

/** Finds the operation of a request: GraphQL routes and actions by path, REST operations by the router. */
class OperationIndex<C> {
  readonly routes: Route<unknown>[];
  private readonly router: Router<Operation<C>>;
  private readonly graphql = new Map<string, Operation<C>>();
  private readonly actions = new Map<string, Map<string, Operation<C>>>();
  private readonly operationOfRoute = new Map<Route<Operation<C>>, Operation<C>>();

  constructor(operations: readonly Operation<C>[]) {
    const restRoutes: Route<Operation<C>>[] = [];
    const names = new Set<string>();
    for (const operation of operations) {
      const matcher = operation.matcher;
      if (matcher.kind !== 'graphql' && names.has(operation.name)) throw new Error(`operation ${operation.name} is declared twice`);
      names.add(operation.name);
      if (matcher.kind === 'rest') {
        restRoutes.push(route<Operation<C>, string>(matcher.method, matcher.pattern, () => { throw new Error('not called'); }));
        this.operationOfRoute.set(restRoutes.at(-1)!, operation);
      } else if (matcher.kind === 'graphql') {
        this.graphql.set(`${matcher.method} ${matcher.path}`, operation);
      } else {
        let byName = this.actions.get(matcher.path);
        if (!byName) this.actions.set(matcher.path, byName = new Map());
        byName.set(matcher.action, operation);
      }
    }
    this.router = new Router(restRoutes);
    this.routes = restRoutes as Route<unknown>[];
  }

  resolve(req: ServiceRequest): Resolution<C> {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const graphql = this.graphql.get(`${method} ${req.path}`);
    if (graphql) return { kind: 'found', operation: graphql, params: {}, req };
    const actions = this.actions.get(req.path);
    if (actions) {
      const name = actionName(req);
      const operation = name === null ? undefined : actions.get(name);
      if (operation) return { kind: 'found', operation, params: {}, req };
    }
    const match = this.router.match(req.method, req.path);
    if (match.kind === 'found') return { kind: 'found', operation: this.operationOfRoute.get(match.route)!, params: match.params, req };
    if (match.kind === 'method-not-allowed') return { kind: 'method-not-allowed', allowed: match.allowed, req };
    return { kind: 'not-found', req };
  }
}

/** The AWS action of a request: `X-Amz-Target`'s operation, or `Action` in the query or form body. */
export function actionName(req: ServiceRequest): string | null {
  const target = req.header('x-amz-target');
  if (target !== undefined) return target.slice(target.lastIndexOf('.') + 1) || null;
  const fromQuery = req.query.get('Action');
  if (fromQuery) return fromQuery;
  if ((req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return new URLSearchParams(req.text()).get('Action');
  }
  return null;
}
