import { createHash } from 'node:crypto';
import type { LoadContext } from '../core/service.js';

/**
 * ID styles, all seeded (DESIGN.md rule 3): the same seed gives the same IDs, another seed other
 * ones. Numeric IDs come from the service's counters; opaque ones from a hash of (seed, service,
 * kind, counter).
 */
type Ids = Pick<LoadContext, 'ids'>;

/** An increasing number of `kind` (GitHub issues, Zendesk tickets), from `start`. */
export function numericId(ctx: Ids, kind: string, start = 1): number {
  return ctx.ids.next(kind, start);
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `cus_` + 14 base-62 characters by default, as Stripe's IDs look; counted per `kind`. */
export function prefixedId(ctx: Ids, prefix: string, kind = prefix, length = 14): string {
  const n = ctx.ids.next(`prefixed:${kind}`);
  return `${prefix}${base62(digest(ctx, kind, n), length)}`;
}

/** A version-4-shaped UUID (Linear, Notion): hex from the hash, version and variant bits set. */
export function uuidId(ctx: Ids, kind: string): string {
  const n = ctx.ids.next(`uuid:${kind}`);
  const hex = Buffer.from(digest(ctx, kind, n)).toString('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Upper-case alphanumerics after a letter (Slack's `C024BE91L`, `U0G9QF9C6`): `prefix` + `length` characters. */
export function slackStyleId(ctx: Ids, prefix: string, kind = prefix, length = 10): string {
  const n = ctx.ids.next(`slack:${kind}`);
  const bytes = digest(ctx, kind, n);
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let out = prefix;
  for (let i = 0; out.length < prefix.length + length; i++) out += alphabet[bytes[i % bytes.length]! % alphabet.length];
  return out;
}

function digest(ctx: Ids, kind: string, n: number): Uint8Array {
  return createHash('sha256').update(`${ctx.ids.seed}/${ctx.ids.service}/id:${kind}/${n}`).digest();
}

function base62(bytes: Uint8Array, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += BASE62[bytes[i % bytes.length]! % 62];
  return out;
}
