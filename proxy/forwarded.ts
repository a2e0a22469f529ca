import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AttributionSchema, HeaderListSchema, type Attribution } from '../mocks/core/journal-format.js';
import type { RawHeaders } from './http-exchange.js';

export { FORWARDED_HEADER } from './headers.js';

/**
 * What a split proxy (`toolbench proxy --world`) tells the world about a request it forwards:
 * the host the client addressed, the exact method, target and world-visible headers (so the
 * journal matches the in-process proxy byte for byte, whatever the forwarding hop does to them),
 * the attribution, and whether the proxy refused it (and why). Signed with HMAC-SHA256 under the world's
 * secret: the world ignores the header without a valid signature.
 */
export const ForwardedSchema = z.object({
  host: z.string(),
  method: z.string(),
  target: z.string(),
  headers: HeaderListSchema,
  attribution: AttributionSchema,
  /** The proxy read more than its body limit (the body that follows is empty). */
  oversize: z.boolean(),
  /** Set when the proxy refused the request: the world journals it as blocked. */
  refusal: z.enum(['outside-catalog', 'passthrough-needs-connect', 'cloud-metadata']).nullable(),
  /** A noise host: the world answers by host (its `[[noise]]`), not as the port's service. */
  noise: z.boolean(),
}).strict();
export type Forwarded = z.infer<typeof ForwardedSchema> & { headers: RawHeaders; attribution: Attribution };

export function signForwarded(forwarded: Forwarded, secret: Uint8Array): string {
  const payload = Buffer.from(JSON.stringify(forwarded)).toString('base64url');
  return `${payload}.${mac(payload, secret)}`;
}

/** The payload of a header value, or null when it is malformed or not signed with `secret`. */
export function verifyForwarded(value: string | undefined, secret: Uint8Array | undefined): Forwarded | null {
  if (!value || !secret) return null;
  const dot = value.indexOf('.');
  if (dot === -1) return null;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(payload, secret));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed = ForwardedSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    return parsed.success ? (parsed.data as Forwarded) : null;
  } catch {
    return null;
  }
}

function mac(payload: string, secret: Uint8Array): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}
