import { existsSync, readdirSync, statSync } from 'node:fs';
import { Level } from 'level';
import { Packr } from 'msgpackr';
import { ToolbenchError } from './errors.js';
import { headOf, peekEntryHead, type EntryHead } from './journal-head.js';
import {
  ENTRY_PREFIX, JOURNAL_FORMAT, READABLE_FORMATS, JournalEndSchema, JournalHeaderSchema, KEY_END, KEY_FORMAT, KEY_HEADER, MCP_PREFIX,
  McpRecordSchema, entryKey, mcpKey, parseJournalEntry, type JournalEnd, type JournalEntry, type JournalHeader, type McpRecord,
} from './journal-format.js';

/**
 * Where a trial's exchanges go. Two persisters share one interface (as Polly.js splits
 * persisters): LevelDB for real runs, memory for a world started without `--journal`.
 */
export interface Journal {
  readonly header: JournalHeader;
  /** Resolves once the entry has been handed to the store (group commit). */
  append(entry: JournalEntry): Promise<void>;
  /** Entries in sequence order, `from`..`to` inclusive. */
  entries(range?: { from?: number; to?: number }): AsyncIterable<JournalEntry>;
  /** Records an MCP-level event (tool call, endpoint ready or crashed); same group commit. */
  appendMcp(record: McpRecord): Promise<void>;
  mcpRecords(): AsyncIterable<McpRecord>;
  /** Resolves when every appended entry has been written. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const packr = new Packr({ useRecords: false });

/**
 * LevelDB's memtable (classic-level's default `writeBufferSize`). A journal that outgrew it is
 * compacted when its world closes it: otherwise its last memtable stays in the write-ahead log,
 * and every reader's open recovers it into a table whose keys (the end marker, `meta:end`, sorts
 * before the entries) overlap every other table; a reader's second pass over the entries (replay
 * after its compatibility pre-pass) then charged enough reads to that table to start LevelDB's
 * seek compaction, a rewrite of the whole journal on a background thread during every replay
 * (docs/benchmarks.md, ninth pass). A journal within one memtable lives in the log alone.
 */
const WRITE_BUFFER_BYTES = 4 << 20;
const KEY_LOWEST = '';
const KEY_HIGHEST = '\uffff';

/** Entries read from LevelDB per trip (and bytes at most), by `entries()`. */
const READ_AHEAD_ENTRIES = 256;
const READ_AHEAD_BYTES = 4 << 20;

/**
 * Batches appends: all entries appended while a write is in flight go out in the next single
 * batch, and each caller's promise resolves when its batch has been written. The callers of one
 * batch share one promise (resolved or rejected once, their continuations in append order).
 */
type Record = { key: string; value: JournalEntry | McpRecord | Uint8Array };

interface Batch {
  records: Record[];
  written: Promise<void>;
  settle(error: { failed: unknown } | null): void;
}

function newBatch(): Batch {
  let settle!: Batch['settle'];
  const written = new Promise<void>((resolve, reject) => {
    settle = (error) => (error ? reject(error.failed) : resolve());
  });
  return { records: [], written, settle };
}

class GroupCommit {
  private pending: Batch | null = null;
  private inFlight: Promise<void> | null = null;

  constructor(private readonly write: (records: Record[]) => Promise<void>) {}

  append(record: Record): Promise<void> {
    const batch = this.pending ??= newBatch();
    batch.records.push(record);
    if (!this.inFlight) this.inFlight = this.drain();
    return batch.written;
  }

  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  private async drain(): Promise<void> {
    // Let every request dispatched in this turn of the event loop join the first batch. (Waiting a
    // turn before every batch was measured too: 3.5 → 3.8 entries per batch at 8 connections,
    // no change in CPU per request beyond the noise; not kept.)
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.pending) {
      const batch = this.pending;
      this.pending = null;
      try {
        await this.write(batch.records);
        batch.settle(null);
      } catch (error) {
        batch.settle({ failed: error });
      }
    }
    this.inFlight = null;
  }
}

export class MemoryJournal implements Journal {
  private readonly stored: JournalEntry[] = [];
  private readonly mcp: McpRecord[] = [];
  private readonly commits = new GroupCommit(async (records) => {
    for (const { key, value } of records) {
      if (key.startsWith(MCP_PREFIX)) this.mcp.push(value as McpRecord);
      else this.stored.push(value as JournalEntry);
    }
  });

  constructor(readonly header: JournalHeader) {}

  append(entry: JournalEntry): Promise<void> {
    return this.commits.append({ key: entryKey(entry.seq), value: entry });
  }

  appendMcp(record: McpRecord): Promise<void> {
    return this.commits.append({ key: mcpKey(record.n), value: record });
  }

  async *mcpRecords(): AsyncIterable<McpRecord> {
    yield* this.mcp;
  }

  async *entries(range: { from?: number; to?: number } = {}): AsyncIterable<JournalEntry> {
    for (const entry of this.stored) {
      if (entry.seq < (range.from ?? 0)) continue;
      if (entry.seq > (range.to ?? Infinity)) break;
      yield entry;
    }
  }

  flush(): Promise<void> {
    return this.commits.flush();
  }

  async close(): Promise<void> {
    await this.flush();
  }
}

type Db = Level<string, Uint8Array>;
/** `level` is classic-level on Node, which compacts; its browser-wide types leave that out. */
interface Compactable { compactRange(start: string, end: string): Promise<void> }

export class LevelJournal implements Journal {
  private readonly commits: GroupCommit;
  /** What this process wrote (a journal it created), for the end marker. */
  private readonly written = { lastSeq: 0, entries: 0, mcpRecords: 0 };
  private bytesWritten = 0;
  private closed = false;

  /**
   * `end`: the end marker of a journal opened for reading (null: it was not closed cleanly);
   * `writing`: this process created the journal, so closing it writes the marker.
   */
  private constructor(private readonly db: Db, readonly header: JournalHeader, readonly dir: string,
    readonly end: JournalEnd | null = null, private readonly writing = false) {
    this.commits = new GroupCommit((records) =>
      db.batch(records.map(({ key, value }) => ({ type: 'put' as const, key, value: value instanceof Uint8Array ? value : packr.pack(value) }))));
  }

  /** A new journal in `dir`, which must not exist yet or be empty: a journal is never mixed. */
  static async create(dir: string, header: JournalHeader): Promise<LevelJournal> {
    if (existsSync(dir) && readdirSync(dir).length > 0) {
      throw new ToolbenchError('TB_ERR_JOURNAL_EXISTS', `journal directory ${dir} already exists and is not empty; choose a new directory`);
    }
    const db: Db = new Level(dir, { keyEncoding: 'utf8', valueEncoding: 'view' });
    await openDb(db, dir);
    await db.batch([
      { type: 'put', key: KEY_FORMAT, value: packr.pack({ format: JOURNAL_FORMAT }) },
      { type: 'put', key: KEY_HEADER, value: packr.pack(JournalHeaderSchema.parse(header)) },
    ]);
    return new LevelJournal(db, header, dir, null, true);
  }

  /** An existing journal, for reading. */
  static async open(dir: string): Promise<LevelJournal> {
    if (!existsSync(dir)) throw new ToolbenchError('TB_ERR_JOURNAL_MISSING', `no journal at ${dir}`);
    const db: Db = new Level(dir, { keyEncoding: 'utf8', valueEncoding: 'view', createIfMissing: false });
    await openDb(db, dir);
    try {
      const format = decode(await read(db, KEY_FORMAT, dir), dir, 'format record') as { format?: unknown } | undefined;
      if (format === undefined) throw corrupt(dir, 'it has no format record (is it a toolbench journal?)');
      if (typeof format.format !== 'number' || !READABLE_FORMATS.includes(format.format)) {
        throw new ToolbenchError('TB_ERR_JOURNAL_VERSION',
          `journal ${dir} has format ${JSON.stringify(format.format)}; this toolbench reads formats ${READABLE_FORMATS.join(' and ')}`);
      }
      const parsed = JournalHeaderSchema.safeParse(decode(await read(db, KEY_HEADER, dir), dir, 'header'));
      if (!parsed.success) throw corrupt(dir, `its header is invalid (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
      const end = decode(await read(db, KEY_END, dir), dir, 'end marker');
      const parsedEnd = end === undefined ? null : JournalEndSchema.safeParse(end);
      if (parsedEnd && !parsedEnd.success) throw corrupt(dir, `its end marker is invalid (${parsedEnd.error.issues[0]?.path.join('.')}: ${parsedEnd.error.issues[0]?.message})`);
      return new LevelJournal(db, parsed.data, dir, parsedEnd ? parsedEnd.data : null);
    } catch (error) {
      await db.close();
      throw error;
    }
  }

  append(entry: JournalEntry): Promise<void> {
    this.written.entries += 1;
    this.written.lastSeq = Math.max(this.written.lastSeq, entry.seq);
    // Packed now, while the previous batch is being written (the same bytes as packing at write time).
    const value = packr.pack(entry);
    this.bytesWritten += value.length;
    return this.commits.append({ key: entryKey(entry.seq), value });
  }

  appendMcp(record: McpRecord): Promise<void> {
    this.written.mcpRecords += 1;
    const value = packr.pack(record);
    this.bytesWritten += value.length;
    return this.commits.append({ key: mcpKey(record.n), value });
  }

  async *mcpRecords(): AsyncIterable<McpRecord> {
    for await (const [key, value] of this.db.iterator({ gte: MCP_PREFIX, lte: MCP_PREFIX + '\uffff' })) {
      const parsed = McpRecordSchema.safeParse(decode(value, this.dir, key));
      if (!parsed.success) throw corrupt(this.dir, `record ${key} is invalid (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
      yield parsed.data;
    }
  }

  async *entries(range: { from?: number; to?: number } = {}): AsyncIterable<JournalEntry> {
    for await (const chunk of this.chunks(range)) for (const [key, value] of chunk) yield this.entry(key, value);
  }

  /** Each entry's head (seq, kind, service, host), read without decoding the rest where it can be. */
  async *entryHeads(range: { from?: number; to?: number } = {}): AsyncIterable<EntryHead> {
    for await (const chunk of this.chunks(range)) {
      for (const [key, value] of chunk) {
        yield peekEntryHead(value) ?? headOf(this.entry(key, value));
      }
    }
  }

  private entry(key: string, value: Uint8Array): JournalEntry {
    const parsed = parseJournalEntry(decode(value, this.dir, key));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw corrupt(this.dir, `entry ${key} is invalid (${issue?.path.join('.')}: ${issue?.message})`);
    }
    return parsed.data;
  }

  /**
   * The entries' keys and packed values, in sequence order, a chunk per trip to LevelDB (a yield
   * per entry through a second generator would cost replay a few promises per entry).
   */
  private async *chunks(range: { from?: number; to?: number }): AsyncIterable<[string, Uint8Array][]> {
    const iterator = this.db.iterator({
      gte: range.from === undefined ? ENTRY_PREFIX : entryKey(range.from),
      lte: range.to === undefined ? ENTRY_PREFIX + '\uffff' : entryKey(range.to),
      // classic-level's default (16 KiB) holds three 5 KB entries: a trip to LevelDB's thread
      // every three entries. Read in chunks, and the next chunk while this one is used.
      highWaterMarkBytes: READ_AHEAD_BYTES,
    });
    let pending: Promise<[string, Uint8Array][]> | null = iterator.nextv(READ_AHEAD_ENTRIES);
    try {
      for (;;) {
        const chunk: [string, Uint8Array][] = await pending;
        pending = null;
        if (chunk.length === 0) return;
        pending = iterator.nextv(READ_AHEAD_ENTRIES);
        // Not unhandled while this chunk is consumed; awaited (and its error thrown) above.
        pending.catch(() => undefined);
        yield chunk;
      }
    } finally {
      // A consumer that stopped early: let the read in flight finish before closing.
      if (pending) await pending.catch(() => undefined);
      await iterator.close();
    }
  }

  flush(): Promise<void> {
    return this.commits.flush();
  }

  /** Flushes, writes the end marker (a journal this process created), and closes. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush();
    if (this.writing) {
      await this.db.put(KEY_END, packr.pack(JournalEndSchema.parse(this.written)));
      if (this.bytesWritten > WRITE_BUFFER_BYTES) await (this.db as Db & Compactable).compactRange(KEY_LOWEST, KEY_HIGHEST);
    }
    await this.db.close();
  }
}

async function openDb(db: Db, dir: string): Promise<void> {
  try {
    await db.open();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.message ?? (error as Error).message;
    if (cause?.code === 'LEVEL_LOCKED') {
      throw new ToolbenchError('TB_ERR_JOURNAL_CORRUPT', `journal ${dir} is in use by another process (${why})`, { cause: error });
    }
    if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() === false) {
      throw corrupt(dir, 'it is a file, not a journal directory', error);
    }
    throw corrupt(dir, `LevelDB cannot open it: ${why}`, error);
  }
}

/** A read that LevelDB refuses (a damaged table file) is a corrupt journal, with a code. */
async function read(db: Db, key: string, dir: string): Promise<Uint8Array | undefined> {
  try {
    return await db.get(key);
  } catch (error) {
    throw corrupt(dir, `LevelDB cannot read ${key}: ${(error as { cause?: Error }).cause?.message ?? (error as Error).message}`, error);
  }
}

function decode(value: Uint8Array | undefined, dir: string, what: string): unknown {
  if (value === undefined) return undefined;
  try {
    return packr.unpack(value);
  } catch (error) {
    throw corrupt(dir, `its ${what} cannot be decoded`, error);
  }
}

function corrupt(dir: string, why: string, cause?: unknown): ToolbenchError {
  return new ToolbenchError('TB_ERR_JOURNAL_CORRUPT', `journal ${dir} is unreadable: ${why}`, { cause });
}
