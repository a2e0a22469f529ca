import type { HeaderList } from '../mocks/core/http.js';

/**
 * What replay compares and what it ignores, as data (Polly.js's `matchRequestsBy`, undici's
 * `ignoreHeaders`). Change these lists, not the comparison code.
 */

/** The parts of a response whose bytes must match (DESIGN.md, determinism rule 5). */
export const COMPARED_RESPONSE_FIELDS = ['status', 'headers', 'body'] as const;

/**
 * Headers Node's HTTP stack adds or rewrites around the world's response; never part of the
 * compared bytes. Compared case-insensitively.
 */
export const TRANSPORT_HEADERS: readonly string[] = ['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection'];

/**
 * What makes two journal entries "the same request" when two journals are compared: a replayed
 * entry must have been caused by the same request, in the same position (`seq`, Polly's `order`).
 * Request headers are not part of it: clients vary `User-Agent` and friends across versions.
 */
export const REQUEST_IDENTITY = ['seq', 'kind', 'service', 'method', 'target', 'request.body'] as const;
export type RequestIdentityField = (typeof REQUEST_IDENTITY)[number];

const TRANSPORT_LENGTHS = new Set(TRANSPORT_HEADERS.map((name) => name.length));

/** Whether `name` is one of TRANSPORT_HEADERS, in any case (its length rules out most names at once). */
export function isTransportHeader(name: string): boolean {
  return TRANSPORT_LENGTHS.has(name.length) && TRANSPORT_HEADERS.includes(name.toLowerCase());
}

/** A response's headers without the transport headers, in their order. */
export function comparedHeaders(headers: HeaderList): HeaderList {
  return headers.filter(([name]) => !isTransportHeader(name));
}

/**
 * Headers the world itself writes around a service's (docs/design.md, "Response bytes"): `Date`
 * first, `X-Toolbench-Seq` and `Content-Length` last.
 */
export const WORLD_HEADERS = { first: ['date'], last: ['x-toolbench-seq', 'content-length'] } as const;

/** A recorded response without the world's own headers: what the service (or the proxy) answered. */
export function serviceHeaders(headers: HeaderList): HeaderList {
  let start = 0;
  let end = headers.length;
  for (const name of WORLD_HEADERS.first) if (headers[start]?.[0].toLowerCase() === name) start++;
  for (const name of [...WORLD_HEADERS.last].reverse()) if (end > start && headers[end - 1]![0].toLowerCase() === name) end--;
  return headers.slice(start, end);
}
