/**
 * The logical clock. Time never comes from the wall: it starts at the scenario's epoch and every
 * dispatched request takes the next sequence number and advances time by a fixed tick.
 */
export interface Tick {
  /** Sequence number of this request in the world, from 1. */
  readonly seq: number;
  /** Logical time of this request, in milliseconds since the Unix epoch. */
  readonly nowMs: number;
}

export class LogicalClock {
  private seq = 0;

  constructor(readonly epochMs: number, readonly tickMs: number = 1000) {
    if (!Number.isFinite(epochMs)) throw new RangeError(`epoch must be a finite time, got ${epochMs}`);
    if (!(tickMs > 0)) throw new RangeError(`tick must be positive, got ${tickMs}`);
  }

  /** Takes the next sequence number. */
  next(): Tick {
    this.seq += 1;
    return { seq: this.seq, nowMs: this.timeAt(this.seq) };
  }

  /** The last sequence number handed out (0 before the first request). */
  get current(): number {
    return this.seq;
  }

  timeAt(seq: number): number {
    return this.epochMs + seq * this.tickMs;
  }
}

/** RFC 9110 IMF-fixdate, as in the HTTP `Date` header. */
export function httpDate(ms: number): string {
  return new Date(ms).toUTCString();
}

/** ISO 8601 without milliseconds, as GitHub and most JSON APIs write timestamps. */
export function isoSeconds(ms: number): string {
  // toISOString always ends in `.sssZ` (extended years too): cut the milliseconds, keep the Z.
  return new Date(ms).toISOString().slice(0, -5) + 'Z';
}
