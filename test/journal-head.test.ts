import test from 'ava';
import { join } from 'node:path';
import { Level } from 'level';
import { Packr } from 'msgpackr';
import { peekEntryHead } from '../mocks/core/journal-head.js';
import { entryKey, type JournalEntry } from '../mocks/core/journal-format.js';
import { LevelJournal } from '../mocks/core/journal.js';
import { openJournal } from '../replay/source.js';
import { tempDir, testHeader } from './helpers/journal.js';

/**
 * `peekEntryHead` reads seq, kind, service and host from an entry's packed bytes without decoding
 * the rest (replay's compatibility pre-pass); it must agree with a whole decode, or say null.
 */
const packr = new Packr({ useRecords: false });

function entry(seq: number, overrides: Partial<JournalEntry> = {}): JournalEntry {
  return {
    seq, time: new Date(Date.UTC(2025, 0, 1, 0, 0, seq % 60)).toISOString(), kind: 'http', service: 'github', host: 'api.github.com',
    method: 'GET', target: '/user', operation: { name: 'users.getAuthenticated', via: 'handler' },
    request: { headers: [['Accept', 'application/json']], body: new Uint8Array(0), oversize: false },
    response: { status: 200, headers: [['Content-Type', 'application/json']], body: new TextEncoder().encode('{"login":"alice"}') },
    attribution: null, fault: null, ...overrides,
  };
}

test('the head of every kind of entry, as msgpackr packs it, agrees with a whole decode', (t) => {
  const cases: JournalEntry[] = [
    entry(1),
    entry(127), entry(128), entry(255), entry(256), entry(65_535), entry(65_536), entry(4_000_000_000),
    entry(2, { kind: 'reset', service: null, host: 'toolbench' }),
    entry(3, { kind: 'noise', service: null, host: 'telemetry.example.com' }),
    entry(4, { service: null, host: 'h'.repeat(40) }),
    entry(5, { host: `${'x'.repeat(300)}.example.com` }),
    entry(6, { host: `${'y'.repeat(70_000)}.example.com` }),
    entry(7, { host: 'bücher.example' }),
  ];
  for (const one of cases) {
    const head = peekEntryHead(packr.pack(one));
    t.deepEqual(head, { seq: one.seq, kind: one.kind, service: one.service, host: one.host }, `seq ${one.seq} host ${one.host.slice(0, 20)}`);
  }
});

test('bytes that do not start as the world writes an entry give null, never a wrong head', (t) => {
  const { seq, time, kind, service, host, ...rest } = entry(9);
  const reordered = { time, seq, kind, service, host, ...rest };
  t.is(peekEntryHead(packr.pack(reordered)), null, 'keys in another order');
  t.is(peekEntryHead(packr.pack({ seq: 1.5, time, kind, service, host })), null, 'a seq that is not an integer');
  t.is(peekEntryHead(packr.pack({ seq: 0, time, kind, service, host })), null, 'seq 0');
  t.is(peekEntryHead(packr.pack({ seq, time, kind, service: 7, host })), null, 'a service that is not a string');
  t.is(peekEntryHead(packr.pack([seq, time, kind])), null, 'not a map');
  const whole = packr.pack(entry(10));
  t.is(peekEntryHead(whole.subarray(0, 30)), null, 'cut short');
  t.is(peekEntryHead(new Uint8Array([0x8c, 0xa3, 0x73, 0x65, 0x71, 0x01, 0xa4, 0xff, 0xfe, 0xfd, 0xfc])), null, 'invalid UTF-8');
});

test('a journal\'s heads agree with its entries, through the reader replay uses, a foreign value included', async (t) => {
  const dir = join(tempDir('toolbench-heads-'), 'journal');
  const journal = await LevelJournal.create(dir, testHeader());
  for (let seq = 1; seq <= 40; seq++) await journal.append(entry(seq, seq % 7 === 0 ? { kind: 'reset', service: null, host: 'toolbench' } : {}));
  await journal.close();
  // A value written in another key order (another writer): the head reader falls back to a decode.
  const db = new Level<string, Uint8Array>(dir, { keyEncoding: 'utf8', valueEncoding: 'view' });
  const key = entryKey(5);
  const { seq, time, kind, service, host, ...rest } = packr.unpack(await db.get(key)) as JournalEntry;
  await db.put(key, packr.pack({ time, seq, kind, service, host, ...rest }));
  await db.close();
  const source = await openJournal(dir);
  try {
    const entries: unknown[] = [];
    for await (const { seq: s, kind: k, service: sv, host: h } of source.entries()) entries.push({ seq: s, kind: k, service: sv, host: h });
    const heads: unknown[] = [];
    for await (const head of source.heads()) heads.push(head);
    t.is(heads.length, 40);
    t.deepEqual(heads, entries);
  } finally {
    await source.close();
  }
});
