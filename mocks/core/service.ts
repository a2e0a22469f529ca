import type { z } from 'zod';
import type { ServiceRequest, ServiceResponse } from './http.js';
import type { SeededIds } from './ids.js';
import type { Route } from './router.js';
import type { DocumentStore } from './store.js';

/** What a service's code may touch while loading its dataset. */
export interface LoadContext {
  readonly service: string;
  readonly store: DocumentStore;
  readonly ids: SeededIds;
  readonly epochMs: number;
}

/** What a handler may touch while serving one request: nothing but these. */
export interface ServiceContext extends LoadContext {
  /** This request's sequence number in the world. */
  readonly seq: number;
  /** This request's logical time (ms since the Unix epoch). */
  readonly nowMs: number;
}

/** Why the world answered before (or instead of) the handler. */
export type RejectReason = 'payload_too_large' | 'internal_error';

/**
 * One mocked service. `handle` must be a pure, synchronous function of the request and the
 * context: no wall clock, no `Math.random`, no environment, no I/O. If it throws, the world rolls
 * the store back and answers with `reject('internal_error')`.
 */
export interface ServiceDefinition<D = any> {
  /** The catalog id (`github`). */
  readonly id: string;
  /** Schema of `<scenario>/dataset/<id>.json`; a missing file is parsed as `{}`. */
  readonly dataset: z.ZodType<D, z.ZodTypeDef, unknown>;
  load(data: D, ctx: LoadContext): void;
  handle(req: ServiceRequest, ctx: ServiceContext): ServiceResponse;
  reject(reason: RejectReason, ctx: ServiceContext): ServiceResponse;
  /** The service's routes, when it has them as data: `toolbench audit` groups calls by their patterns. */
  readonly routes?: readonly Route<any>[];
}
