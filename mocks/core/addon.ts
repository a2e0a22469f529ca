import type { FaultKind } from './fault-plan.js';
import type { OperationRef } from './journal-format.js';
import type { WorldRequest } from './world-request.js';

/**
 * A fault an addon decided for one request. The world answers with the service's rendering of
 * `kind` instead of running the handler (`latency`: it runs the handler and the transport waits
 * `latencyMs` before answering).
 */
export interface PlannedFault {
  kind: FaultKind | 'latency';
  /** Real time the transport waits on record (a timeout's hold included); skipped on replay. */
  latencyMs: number;
  /** Seconds for `Retry-After` (429 and 503). */
  retryAfter: number;
  /** The deciding rule's stream id. */
  rule: string;
  /** Which matching request of its route this was, from 1. */
  n: number;
}

/**
 * One request to a service as the addons see it (mitmproxy's Flow): its place in the world's
 * order, what was asked, and what the addons decided so far.
 */
export interface Exchange {
  readonly seq: number;
  /** Logical time, ms since the Unix epoch. */
  readonly nowMs: number;
  readonly seed: number;
  readonly service: string;
  readonly request: WorldRequest;
  /** The request target's path, without the query. */
  readonly path: string;
  /**
   * The route: method and the service's route pattern (`POST /repos/:owner/:repo/issues`) when
   * the service has routes as data and one matches (HEAD as GET), else method and path.
   */
  readonly route: string;
  /** The operation the service names this request (`issues.create`), or null when none matched. */
  readonly operation: OperationRef | null;
  /** Set by a `request` hook; later addons see it and may replace it. */
  fault: PlannedFault | null;
}

/**
 * Something that takes part in every request without being a service (as mitmproxy's addons
 * do). Hooks are synchronous and must be deterministic: replay runs them again. An addon that
 * throws is reported and skipped; the others still run.
 */
export interface WorldAddon {
  readonly name: string;
  /**
   * Fires once per request to a service, after its sequence number and logical time are taken
   * and before the handler runs. May set `exchange.fault`; nothing else can change yet.
   */
  request?(exchange: Exchange): void;
  /** Fires when the world goes back to its datasets (`World.reset`), before the reset's entry. */
  reset?(): void;
}
