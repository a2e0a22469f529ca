import { sha256 } from './sha256.js';

/** Digests kept per service (a document's node ID is rendered on every answer that shows it); cleared when full. */
const DIGEST_CACHE_SIZE = 20_000;

/** Counters of one service, kept so a reset or snapshot can restore them exactly. */
export type IdCounters = Record<string, number>;

/**
 * Seeded identifiers for one service. Numeric IDs are counters per kind (the real services use
 * increasing numbers); opaque IDs are a hash of (seed, service, kind, counter), so the same seed
 * gives the same IDs and a different seed different ones.
 */
export class SeededIds {
  private counters: IdCounters = {};
  /**
   * Digests by encoding, kind and counter: a pure function of (seed, service, kind, counter), safe
   * to keep across resets and replays. Nested maps, so that a lookup builds no string.
   */
  private readonly digests = { hex: new Map<string, Map<number | string, string>>(), base64url: new Map<string, Map<number | string, string>>() };
  private kept = 0;

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
    return this.digest(kind, counter, 'hex').slice(0, length);
  }

  /**
   * `opaque`, not kept: for an ID each request makes once (a request ID from its sequence number),
   * which would only push the kept ones out.
   */
  opaqueOnce(kind: string, counter: number | string, length = 40): string {
    return sha256(this.text(kind, counter), 'hex').slice(0, length);
  }

  /** Like `opaque`, as base64url, for IDs such as GitHub's `node_id`. */
  opaqueBase64(kind: string, counter: number | string, length = 16): string {
    return this.digest(kind, counter, 'base64url').slice(0, length);
  }

  private digest(kind: string, counter: number | string, encoding: 'hex' | 'base64url'): string {
    const byKind = this.digests[encoding];
    let byCounter = byKind.get(kind);
    let found = byCounter?.get(counter);
    if (found !== undefined) return found;
    if (this.kept >= DIGEST_CACHE_SIZE) {
      this.digests.hex.clear();
      this.digests.base64url.clear();
      this.kept = 0;
      byCounter = undefined;
    }
    if (!byCounter) {
      byCounter = new Map();
      byKind.set(kind, byCounter);
    }
    found = sha256(this.text(kind, counter), encoding);
    byCounter.set(counter, found);
    this.kept += 1;
    return found;
  }

  /** What an opaque ID hashes. */
  private text(kind: string, counter: number | string): string {
    return `${this.seed}/${this.service}/${kind}/${counter}`;
  }

  snapshot(): IdCounters {
    return { ...this.counters };
  }

  restore(counters: IdCounters): void {
    this.counters = { ...counters };
  }
}
