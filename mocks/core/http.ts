/**
 * The request and response a service handler sees: Web-like, but synchronous and byte-exact.
 * Headers are kept as the raw ordered list the client sent; lookups are case-insensitive.
 */
import { serializeJson } from './json-fragment.js';

export type HeaderList = [name: string, value: string][];

const utf8 = new TextDecoder('utf-8');
const encoder = new TextEncoder();

/** Thrown by `ServiceRequest.json()`; services map it to their own "Problems parsing JSON". */
export class BodyParseError extends Error {
  override name = 'BodyParseError';
}

export class ServiceRequest {
  readonly path: string;
  readonly query: URLSearchParams;
  /**
   * What the layer serving this request keeps for it while it is served (the kit: its route
   * match and decoded body, so naming the request and handling it match once). A field rather
   * than a WeakMap keyed by the request: V8's young-generation GC holds a WeakMap's values
   * strongly, and a value that refers back to its request (a route match does) kept every
   * request alive until the next full GC (docs/benchmarks.md, tenth pass).
   */
  servingState: unknown = undefined;

  constructor(
    readonly method: string,
    /** Origin-form request target, `/path?query`, exactly as sent. */
    readonly target: string,
    readonly headers: HeaderList,
    readonly body: Uint8Array,
  ) {
    const q = target.indexOf('?');
    this.path = q === -1 ? target : target.slice(0, q);
    this.query = new URLSearchParams(q === -1 ? '' : target.slice(q + 1));
  }

  /** The first value of header `name` (case-insensitive). */
  header(name: string): string | undefined {
    const lower = name.toLowerCase();
    for (const [key, value] of this.headers) if (key.toLowerCase() === lower) return value;
    return undefined;
  }

  text(): string {
    return utf8.decode(this.body);
  }

  /** The body parsed as JSON; `undefined` when empty. Throws BodyParseError when malformed. */
  json(): unknown {
    if (this.body.length === 0) return undefined;
    try {
      return JSON.parse(this.text());
    } catch (error) {
      throw new BodyParseError((error as Error).message);
    }
  }
}

export interface ServiceResponse {
  status: number;
  headers: HeaderList;
  body: Uint8Array;
}

export function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

export function jsonResponse(status: number, value: unknown, headers: HeaderList = []): ServiceResponse {
  return {
    status,
    headers: [['Content-Type', 'application/json; charset=utf-8'], ...headers],
    body: serializeJson(value),
  };
}

export function emptyResponse(status: number, headers: HeaderList = []): ServiceResponse {
  return { status, headers, body: new Uint8Array(0) };
}

/** Case-insensitive lookup in a header list. */
export function headerValue(headers: HeaderList, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of headers) if (key.toLowerCase() === lower) return value;
  return undefined;
}
