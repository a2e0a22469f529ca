import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { Level } from 'level';
import { Packr } from 'msgpackr';
import { KEY_END, KEY_HEADER, entryKey, type JournalEntry, type JournalHeader } from '../../mocks/core/journal-format.js';
import type { Journal } from '../../mocks/core/journal.js';
import { World, type HostedService, type WorldRequest } from '../../mocks/core/world.js';
import { counterService } from './counter-service.js';
import { tempDir } from './journal.js';

/** The counter service as a world's only service, as the replay tests build it on both sides. */
export const counterServices: HostedService[] = [
  { id: 'counter', hostnames: ['counter.test'], definition: counterService, data: { items: ['seeded'] } },
];

export function counterWorld(journal: Journal): World {
  const header = journal.header;
  return new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services: counterServices, journal });
}

const encoder = new TextEncoder();

export const postItem = (name: string, extra: Partial<WorldRequest> = {}): WorldRequest => ({
  host: 'counter.test', method: 'POST', target: '/items',
  headers: [['Host', 'counter.test'], ['Content-Type', 'application/json']],
  body: encoder.encode(JSON.stringify({ name })), ...extra,
});

export const listItems = (extra: Partial<WorldRequest> = {}): WorldRequest => ({
  host: 'counter.test', method: 'GET', target: '/items', headers: [['Host', 'counter.test']], body: new Uint8Array(), ...extra,
});

const packr = new Packr({ useRecords: false });

/** A copy of a (closed) LevelDB journal, to tamper with. */
export function copyJournal(dir: string): string {
  const copy = join(tempDir('toolbench-tamper-'), 'journal');
  cpSync(dir, copy, { recursive: true });
  return copy;
}

async function withDb<T>(dir: string, fn: (db: Level<string, Uint8Array>) => Promise<T>): Promise<T> {
  const db = new Level<string, Uint8Array>(dir, { keyEncoding: 'utf8', valueEncoding: 'view' });
  await db.open();
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

export async function readRawEntry(dir: string, seq: number): Promise<JournalEntry> {
  return withDb(dir, async (db) => packr.unpack((await db.get(entryKey(seq)))!) as JournalEntry);
}

/** Rewrites entry `seq` in place with `change`. */
export async function rewriteEntry(dir: string, seq: number, change: (entry: JournalEntry) => void): Promise<void> {
  await withDb(dir, async (db) => {
    const entry = packr.unpack((await db.get(entryKey(seq)))!) as JournalEntry;
    change(entry);
    await db.put(entryKey(seq), packr.pack(entry));
  });
}

export async function rewriteHeader(dir: string, change: (header: JournalHeader) => void): Promise<void> {
  await withDb(dir, async (db) => {
    const header = packr.unpack((await db.get(KEY_HEADER))!) as JournalHeader;
    change(header);
    await db.put(KEY_HEADER, packr.pack(header));
  });
}

/**
 * Swaps two entries' positions as if the requests had arrived in the other order: each takes
 * the other's key and sequence number, everything else (request and recorded response) moves.
 */
export async function swapEntries(dir: string, a: number, b: number): Promise<void> {
  await withDb(dir, async (db) => {
    const first = packr.unpack((await db.get(entryKey(a)))!) as JournalEntry;
    const second = packr.unpack((await db.get(entryKey(b)))!) as JournalEntry;
    [first.seq, second.seq] = [b, a];
    [first.time, second.time] = [second.time, first.time];
    await db.batch([
      { type: 'put', key: entryKey(b), value: packr.pack(first) },
      { type: 'put', key: entryKey(a), value: packr.pack(second) },
    ]);
  });
}

/** Stores a raw value (not necessarily msgpack) under an entry's key. */
export async function putRaw(dir: string, key: string, value: Uint8Array): Promise<void> {
  await withDb(dir, (db) => db.put(key, value));
}

export async function deleteEntry(dir: string, seq: number): Promise<void> {
  await withDb(dir, (db) => db.del(entryKey(seq)));
}

/** Removes the end marker, as a world that was killed leaves its journal. */
export async function deleteEndMarker(dir: string): Promise<void> {
  await withDb(dir, (db) => db.del(KEY_END));
}
