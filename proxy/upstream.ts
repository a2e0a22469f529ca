import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Attribution } from '../mocks/core/journal-format.js';
import type { RawHeaders, WrittenResponse } from './http-exchange.js';

/** A decrypted request the proxy routes to a catalog service. */
export interface ForwardTarget {
  /** The hostname the client addressed (from CONNECT, SNI, the absolute URL or Host). */
  host: string;
  /** The catalog service; null for a noise host (the world answers it from the catalog's `[[noise]]`). */
  service: string | null;
  /** Origin-form target, exactly as sent (`/path?query`). */
  target: string;
  attribution: Attribution;
}

/** Why a request was refused (blocked.ts words the 403 for each). */
export type Refusal = 'outside-catalog' | 'passthrough-needs-connect' | 'cloud-metadata';

/** A request the proxy refuses: journaled as blocked, answered with the 403. */
export interface RefusedRequest {
  host: string;
  method: string;
  target: string;
  /** World-visible headers (headers.ts). */
  headers: RawHeaders;
  body: Uint8Array;
  oversize: boolean;
  attribution: Attribution;
  why: Refusal;
}

/**
 * Where the proxy sends what it decrypted: the world in this process (world-upstream.ts), or a
 * world in another process behind its service ports (remote-upstream.ts). Both journal the same
 * entries for the same traffic.
 */
export interface Upstream {
  /** Answers `res` with the world's response to `req` (or destroys it if the world cannot be reached). */
  forward(req: IncomingMessage, res: ServerResponse, to: ForwardTarget): void;
  /** Journals a refused request; resolves to the response to send. */
  refuse(request: RefusedRequest): Promise<WrittenResponse>;
  close(): Promise<void>;
}
