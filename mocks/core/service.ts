import type { z } from 'zod';
import type { FaultKind } from './fault-plan.js';
import type { ServiceRequest, ServiceResponse } from './http.js';
import type { SeededIds } from './ids.js';
import type { OperationRef } from './journal-format.js';
import type { Route } from './router.js';
import type { DocumentStore, StoreDump } from './store.js';

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

/** A fault the world answers with instead of running the handler (docs/faults.md). */
export interface FaultOrder {
  /**
   * `429`…`503`: that error; `reset`: an answer the transport cuts mid-body (a 502 is usual);
   * `timeout`: what a gateway answers after holding the request (a 504 is usual).
   */
  readonly kind: FaultKind;
  /** Seconds for `Retry-After` on a 429 or 503, from the plan. */
  readonly retryAfter: number;
}

/**
 * One mocked service. `handle` must be a pure, synchronous function of the request and the
 * context: no wall clock, no `Math.random`, no environment, no I/O. If it throws, the world rolls
 * the store back and answers with `reject('internal_error')`.
 */
export interface ServiceDefinition<D = any> {
  /** The catalog id (`github`). */
  readonly id: string;
  /**
   * This mock's own version. Bump it whenever any answer of the mock changes a byte: a journal
   * records the version of every service, and replay refuses (or, with --allow-mismatch, notes)
   * a change only for the services the journal touched.
   */
  readonly version: string;
  /**
   * Names the operation a request is (`issues.create`, `Query.issues`, `DescribeInstances`), and
   * whether a handler or the spec fallback answers it; `null` when nothing matches. Pure and
   * read-only: it sees only the request (fault rules are decided on it before the handler runs).
   */
  operation?(req: ServiceRequest): OperationRef | null;
  /**
   * Every name `operation` can return, sorted; null (or absent) when the mock cannot list them
   * (a name built from the request). `scenario validate` checks call matchers' `operation` here.
   */
  operationNames?(): readonly string[] | null;
  /** Schema of `<scenario>/dataset/<id>.json`; a missing file is parsed as `{}`. */
  readonly dataset: z.ZodType<D, z.ZodTypeDef, unknown>;
  load(data: D, ctx: LoadContext): void;
  handle(req: ServiceRequest, ctx: ServiceContext): ServiceResponse;
  reject(reason: RejectReason, ctx: ServiceContext): ServiceResponse;
  /**
   * The service's own answer for a fault (GitHub's secondary rate limit, Slack's `ratelimited`);
   * without it the world answers generically (faults.ts). Pure like `handle`, and read-only: the
   * world rolls back anything it writes.
   */
  fault?(order: FaultOrder, req: ServiceRequest, ctx: ServiceContext): ServiceResponse;
  /** The service's routes, when it has them as data: `toolbench audit` groups calls by their patterns. */
  readonly routes?: readonly Route<any>[];
  /**
   * Fields the grader leaves out of state diffs, by collection: IDs, timestamps, counters that
   * change as a side effect. `'*'` leaves out the whole collection (e.g. rate-limit counters).
   */
  readonly volatile?: Readonly<Record<string, '*' | readonly string[]>>;
  /**
   * Derived collections for grading, computed from the store (e.g. GitHub's files on each
   * branch, read from git objects), so scenarios can state expectations on them.
   */
  views?(store: DocumentStore): StoreDump;
}
