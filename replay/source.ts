import { existsSync, statSync } from 'node:fs';
import { ToolbenchError, isToolbenchError } from '../mocks/core/errors.js';
import type { JournalEnd, JournalEntry, JournalHeader, McpRecord } from '../mocks/core/journal-format.js';
import { headOf, type EntryHead } from '../mocks/core/journal-head.js';
import { LevelJournal, type Journal } from '../mocks/core/journal.js';
import { snapshotJournal } from './snapshot.js';

/** A sequence-number range, both ends inclusive and optional. */
export interface SeqRange {
  from?: number;
  to?: number;
}

/**
 * A journal opened for reading only. Wraps the core persister so that every failure while
 * reading (LevelDB errors mid-iteration included, and a hole in the sequence numbers) surfaces
 * as a coded ToolbenchError with one clear line, never as a stack trace.
 */
export interface JournalSource {
  readonly dir: string;
  readonly header: JournalHeader;
  /**
   * The end marker the world wrote when it closed the journal: null when there is none (the world
   * was killed, or still runs); undefined for a persister without markers (memory).
   */
  readonly end?: JournalEnd | null;
  /** What is worth saying about a journal that is still usable, one line each (e.g. not closed cleanly). */
  readonly warnings: string[];
  entries(range?: SeqRange): AsyncIterable<JournalEntry>;
  /** The same entries' heads (seq, kind, service, host), with the same checks; cheaper to read. */
  heads(range?: SeqRange): AsyncIterable<EntryHead>;
  /** MCP-level records (tool calls, endpoints ready or crashed), in order. */
  mcpRecords(): AsyncIterable<McpRecord>;
  close(): Promise<void>;
}

/**
 * Opens the journal at `dir` for reading, through a snapshot (snapshot.ts): the journal itself is
 * never written, not even by LevelDB's own recovery. Errors name `dir`, never the snapshot.
 */
export async function openJournal(dir: string): Promise<JournalSource> {
  if (!existsSync(dir)) throw new ToolbenchError('TB_ERR_JOURNAL_MISSING', `no journal at ${dir}`);
  if (!statSync(dir).isDirectory()) throw new ToolbenchError('TB_ERR_JOURNAL_CORRUPT', `${dir} is a file, not a journal directory`);
  const snapshot = snapshotJournal(dir);
  const rename = (error: unknown) => asJournalError(error, dir, snapshot.path);
  let journal: LevelJournal;
  try {
    journal = await LevelJournal.open(snapshot.path);
  } catch (error) {
    snapshot.dispose();
    throw rename(error);
  }
  const source = fromJournal(journal, dir, rename);
  return {
    ...source,
    async close() {
      try {
        await journal.close();
      } finally {
        snapshot.dispose();
      }
    },
  };
}

/**
 * A reader over any persister (memory journals in tests). `rename` turns every error its records
 * throw into what the caller reports (the snapshot's path named as the journal's).
 */
export function fromJournal(journal: Journal, dir: string, rename: (error: unknown) => Error = (error) => error as Error): JournalSource {
  const end = journal instanceof LevelJournal ? journal.end : undefined;
  return {
    dir,
    header: journal.header,
    end,
    warnings: end === null ? [notClosedCleanly(dir)] : [],
    entries: (range = {}) => guarded(journal.entries(range), dir, rename, continuity(dir, Math.max(1, range.from ?? 1), end, range.to)),
    heads: (range = {}) => guarded(journal instanceof LevelJournal ? journal.entryHeads(range) : headsOf(journal.entries(range)), dir, rename,
      continuity(dir, Math.max(1, range.from ?? 1), end, range.to)),
    mcpRecords: () => guarded(journal.mcpRecords(), dir, rename),
    close: () => journal.close(),
  };
}

/** What a reader checks of each record, in order, and once all are read. */
interface RecordCheck<T> {
  each(record: T): void;
  end(): void;
}

/**
 * Reads `records` with every failure coded (`asJournalError`), each record checked, and every
 * error through `rename`: one generator for what were three nested ones (each layer cost replay
 * a few promises per entry).
 */
async function* guarded<T>(records: AsyncIterable<T>, dir: string, rename: (error: unknown) => Error, check?: RecordCheck<T>): AsyncIterable<T> {
  const iterator = records[Symbol.asyncIterator]();
  let finished = false;
  try {
    try {
      for (;;) {
        let next: IteratorResult<T>;
        try {
          next = await iterator.next();
        } catch (error) {
          finished = true;
          throw asJournalError(error, dir);
        }
        if (next.done) { finished = true; break; }
        check?.each(next.value);
        yield next.value;
      }
      check?.end();
    } finally {
      // A consumer that stops early (or a refused record) must not leave a LevelDB iterator open.
      if (!finished) await iterator.return?.();
    }
  } catch (error) {
    throw rename(error);
  }
}

/**
 * Any failure while reading a journal as one coded line (LevelDB's own errors carry no code of
 * ours), naming the journal rather than the snapshot it was read through.
 */
function asJournalError(error: unknown, dir: string, readFrom: string = dir): Error {
  const named = (text: string) => oneLine(text.split(readFrom).join(dir));
  if (isToolbenchError(error)) {
    return readFrom === dir ? error : new ToolbenchError(error.code, named(error.message), { cause: error.cause ?? error });
  }
  const message = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error)?.message ?? String(error);
  return new ToolbenchError('TB_ERR_JOURNAL_CORRUPT', `journal ${dir} is unreadable: LevelDB failed while reading it: ${named(message)}`, { cause: error });
}

/**
 * A world journals every sequence number it hands out, from 1, in order; a journal with a hole
 * or a step back was damaged (LevelDB dropped a corrupt block, an entry was deleted or
 * rewritten). Replaying it would number every later request differently, and counting it would
 * silently miss requests, so every reader refuses it.
 */
async function* headsOf(entries: AsyncIterable<JournalEntry>): AsyncIterable<EntryHead> {
  for await (const entry of entries) yield headOf(entry);
}

function continuity<T extends { seq: number }>(dir: string, first: number, end?: JournalEnd | null, to?: number): RecordCheck<T> {
  let previous = first - 1;
  return {
    each(entry) {
      if (entry.seq !== previous + 1) {
        const where = previous === first - 1 ? `its first entry${first > 1 ? ` from seq ${first}` : ''}` : `after seq ${previous} the next entry`;
        const why = entry.seq > previous + 1
          ? `seq ${previous + 1}${entry.seq > previous + 2 ? `..${entry.seq - 1}` : ''} missing`
          : 'sequence numbers out of order';
        throw new ToolbenchError('TB_ERR_JOURNAL_CORRUPT', `journal ${dir} is damaged: ${where} is seq ${entry.seq} (${why})`);
      }
      previous = entry.seq;
    },
    // Read to the end: a cleanly closed journal must reach its end marker's last seq, exactly. A
    // log cut at a record boundary reads as a shorter journal; only the marker tells.
    end() {
      if (!end) return;
      const expected = Math.max(first - 1, to === undefined ? end.lastSeq : Math.min(to, end.lastSeq));
      if (previous < expected) {
        throw new ToolbenchError('TB_ERR_JOURNAL_CORRUPT',
          `journal ${dir} is truncated: its end marker says the last entry is seq ${end.lastSeq}, but it ends at seq ${previous} (seq ${previous + 1}${expected > previous + 1 ? `..${expected}` : ''} missing)`);
      }
      if (previous > expected) {
        throw new ToolbenchError('TB_ERR_JOURNAL_CORRUPT',
          `journal ${dir} is damaged: it holds entries after seq ${end.lastSeq}, the last one its end marker names (up to seq ${previous})`);
      }
    },
  };
}

/** The warning for a journal without an end marker: legitimate (a killed world), worth knowing. */
export function notClosedCleanly(dir: string): string {
  return `journal ${dir} was not closed cleanly (no end marker): the world was killed or is still running; it holds every request journaled until then`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Parses `A..B`, `A..`, `..B` or `N` (sequence numbers from 1). */
export function parseSeqRange(text: string): SeqRange {
  const match = /^(\d*)(\.\.)?(\d*)$/.exec(text.trim());
  const bad = () => new ToolbenchError('TB_ERR_USAGE', `--seq ${JSON.stringify(text)}: expected N, A..B, A.. or ..B (sequence numbers from 1)`);
  if (!match || (match[1] === '' && match[3] === '') || (!match[2] && match[3] !== '')) throw bad();
  const from = match[1] === '' ? undefined : Number(match[1]);
  const to = match[2] ? (match[3] === '' ? undefined : Number(match[3])) : from;
  if (from !== undefined && to !== undefined && from > to) throw bad();
  return { from, to };
}

/**
 * The highest sequence number in the journal (0 when empty): the end marker's, when the world
 * closed the journal (the reads after it check that the entries agree); otherwise found by
 * probing ranges rather than reading every entry, about 2·log2(n) reads of one entry's head
 * (each a trip to LevelDB for a chunk: 50–170 ms on a 10,000-entry journal).
 */
export async function lastSeq(journal: JournalSource): Promise<number> {
  if (journal.end) return journal.end.lastSeq;
  const firstFrom = async (from: number): Promise<number | undefined> => {
    for await (const head of journal.heads({ from })) return head.seq;
    return undefined;
  };
  let last = await firstFrom(1);
  if (last === undefined) return 0;
  // Grow a bound past the end, then narrow: `low` always has an entry at or after it.
  let low = last;
  let high = Math.max(2, last * 2);
  for (let seq = await firstFrom(high); seq !== undefined; seq = await firstFrom(high)) {
    low = seq;
    high = seq * 2;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    const seq = await firstFrom(mid);
    if (seq === undefined) high = mid;
    else low = seq;
  }
  last = low;
  return last;
}
