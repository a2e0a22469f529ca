import type { RawHeaders } from './http-exchange.js';

/** The header that carries a forwarded request's identity from a split proxy to its world (forwarded.ts). */
export const FORWARDED_HEADER = 'X-Toolbench-Forwarded';

/**
 * Headers that concern one connection or the proxy, never the service: RFC 9110 §7.6.1's
 * hop-by-hop list, the proxy's own credentials, and our forwarding header.
 */
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'proxy-connection',
  'te', 'trailer', 'transfer-encoding', 'upgrade', FORWARDED_HEADER.toLowerCase(),
]);

/**
 * What the world sees of a request's headers: the client's raw list, in order and spelling,
 * without hop-by-hop headers (and those a `Connection` header names).
 */
export function worldHeaders(raw: RawHeaders): RawHeaders {
  const named = new Set<string>();
  for (const [name, value] of raw) {
    if (name.toLowerCase() === 'connection') {
      for (const token of value.split(',')) named.add(token.trim().toLowerCase());
    }
  }
  return raw.filter(([name]) => {
    const lower = name.toLowerCase();
    return !HOP_BY_HOP.has(lower) && !named.has(lower);
  });
}

/** Whether `name` is one of the headers the world never sees (not counting those `Connection` names). */
export function isHopByHop(name: string): boolean {
  return HOP_BY_HOP.has(name.toLowerCase());
}

/** The first value of `name` in a raw list (case-insensitive). */
export function rawHeader(raw: RawHeaders, name: string): string | undefined {
  const lower = name.toLowerCase();
  return raw.find(([key]) => key.toLowerCase() === lower)?.[1];
}
