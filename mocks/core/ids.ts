import { createHash } from 'node:crypto';

/** Counters of one service, kept so a reset or snapshot can restore them exactly. */
export type IdCounters = Record<string, number>;

/**
 * Seeded identifiers for one service. Numeric IDs are counters per kind (the real services use
 * increasing numbers); opaque IDs are a hash of (seed, service, kind, counter), so the same seed
 * gives the same IDs and a different seed different ones.
 */
export class SeededIds {
  private counters: IdCounters = {};

  constructor(readonly seed: number, readonly service: string) {}

  /** The next number of `kind`, starting at `start` the first time a kind is used. */
  next(kind: string, start = 1): number {
    const value = (this.counters[kind] ?? start - 1) + 1;
    this.counters[kind] = value;
    return value;
  }

  /** Makes the next `next(kind)` return more than `value` (datasets bring their own IDs). */
  reserve(kind: string, value: number): void {
    if ((this.counters[kind] ?? 0) < value) this.counters[kind] = value;
  }

  /** A stable digest of (seed, service, kind, counter); hex, `length` characters (≤ 64). */
  opaque(kind: string, counter: number | string, length = 40): string {
    return createHash('sha256')
      .update(`${this.seed}/${this.service}/${kind}/${counter}`)
      .digest('hex')
      .slice(0, length);
  }

  /** Like `opaque`, as base64url, for IDs such as GitHub's `node_id`. */
  opaqueBase64(kind: string, counter: number | string, length = 16): string {
    return createHash('sha256')
      .update(`${this.seed}/${this.service}/${kind}/${counter}`)
      .digest('base64url')
      .slice(0, length);
  }

  snapshot(): IdCounters {
    return { ...this.counters };
  }

  restore(counters: IdCounters): void {
    this.counters = { ...counters };
  }
}
