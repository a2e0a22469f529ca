import type { ServiceResponse, HeaderList } from './http.js';
import type { Attribution, Fault } from './journal-format.js';

/**
 * What crosses the world's boundary: a request as any listener (plain port, proxy, replay) hands
 * it in, and the world's answer. Its own module so that addons, faults and listeners can speak of
 * requests without importing the World.
 */

/** A request as the world receives it from any listener (plain port, proxy, replay). */
export interface WorldRequest {
  /** The service, when the listener already knows it (a per-service port); else found by `host`. */
  service?: string | null;
  /** The hostname the client addressed (`api.github.com`), without port. */
  host: string;
  method: string;
  /** Origin-form target, `/path?query`. */
  target: string;
  headers: HeaderList;
  body: Uint8Array;
  /** The body exceeded the listener's limit and was not read. */
  oversize?: boolean;
  attribution?: Attribution | null;
}

export interface WorldResponse extends ServiceResponse {
  seq: number;
  /** The fault applied (as journaled): the transport waits `latencyMs`, cuts a reset, holds a timeout. */
  fault: Fault | null;
}
