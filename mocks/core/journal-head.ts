import type { JournalEntry } from './journal-format.js';

/** What a pass over a journal often needs of each entry: its place and where it went. */
export type EntryHead = Pick<JournalEntry, 'seq' | 'kind' | 'service' | 'host'>;

/** The head of an entry decoded already. */
export function headOf({ seq, kind, service, host }: JournalEntry): EntryHead {
  return { seq, kind, service, host };
}

const HEAD_KEYS = ['seq', 'time', 'kind', 'service', 'host'] as const;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An entry's head read from its packed bytes without decoding the rest: the world writes each
 * entry as a MessagePack map whose first keys are `seq`, `time`, `kind`, `service`, `host`
 * (mocks/core/world.ts builds every entry in that order), and the bodies that make an entry
 * large come after. Replay's compatibility check reads every entry's head before replaying; a
 * whole decode of each was 4 % of a `replay --verify`.
 *
 * Null when the bytes do not start that way (another writer, a damaged value): the caller then
 * decodes the whole entry, so this only ever speeds up a read.
 */
export function peekEntryHead(bytes: Uint8Array): EntryHead | null {
  const reader = new HeadReader(bytes);
  const size = reader.mapSize();
  if (size === null || size < HEAD_KEYS.length) return null;
  const values: (string | number | null)[] = [];
  for (const key of HEAD_KEYS) {
    if (reader.string() !== key) return null;
    const value = reader.scalar();
    if (value === undefined) return null;
    values.push(value);
  }
  const [seq, , kind, service, host] = values;
  if (typeof seq !== 'number' || !Number.isInteger(seq) || seq <= 0) return null;
  if (typeof kind !== 'string' || (service !== null && typeof service !== 'string') || typeof host !== 'string') return null;
  return { seq, kind: kind as EntryHead['kind'], service, host };
}

/** Just enough of MessagePack for a map header, string keys, and integer, string or nil values. */
class HeadReader {
  private at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  mapSize(): number | null {
    const b = this.byte();
    if (b === null) return null;
    if (b >= 0x80 && b <= 0x8f) return b & 0x0f;
    if (b === 0xde) return this.uint(2);
    if (b === 0xdf) return this.uint(4);
    return null;
  }

  string(): string | null {
    const value = this.scalar();
    return typeof value === 'string' ? value : null;
  }

  /** An integer, a string or nil; undefined for anything else (or bytes that end too soon). */
  scalar(): string | number | null | undefined {
    const b = this.byte();
    if (b === null) return undefined;
    if (b <= 0x7f) return b;
    if (b >= 0xa0 && b <= 0xbf) return this.text(b & 0x1f);
    if (b === 0xc0) return null;
    if (b === 0xcc) return this.uint(1) ?? undefined;
    if (b === 0xcd) return this.uint(2) ?? undefined;
    if (b === 0xce) return this.uint(4) ?? undefined;
    if (b === 0xd9 || b === 0xda || b === 0xdb) {
      const length = this.uint(b === 0xd9 ? 1 : b === 0xda ? 2 : 4);
      return length === null ? undefined : this.text(length);
    }
    return undefined;
  }

  private byte(): number | null {
    return this.at < this.bytes.length ? this.bytes[this.at++]! : null;
  }

  private uint(size: number): number | null {
    if (this.at + size > this.bytes.length) return null;
    let value = 0;
    for (let i = 0; i < size; i++) value = value * 256 + this.bytes[this.at++]!;
    return value;
  }

  private text(length: number): string | undefined {
    if (this.at + length > this.bytes.length) return undefined;
    try {
      return utf8.decode(this.bytes.subarray(this.at, (this.at += length)));
    } catch {
      return undefined;
    }
  }
}
