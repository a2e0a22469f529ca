/**
 * Journal figures, in a process of their own (bench/run.ts runs it with --expose-gc):
 * - the world in process with a LevelDB journal: RSS before and after N journaled requests
 *   (GET and POST alternating, 64 in flight through `World.dispatch`), and their rate;
 * - the journal alone: N entries (real GitHub entries, renumbered) appended with up to 1,000
 *   in flight, so group commit batches them: entries/s;
 * - LevelDB alone, as the yardstick: the same entries' packed bytes written in batches of 1,000
 *   straight with `db.batch` (no journal code at all), right after, on the same disk.
 *
 *   node --expose-gc --import tsx bench/journal.ts [--requests 100000] [--scenario DIR]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { Level } from 'level';
import { Packr } from 'msgpackr';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openWorld } from '../scenarios/world.js';
import { bytes } from '../mocks/core/http.js';
import { LevelJournal } from '../mocks/core/journal.js';
import { entryKey, type JournalEntry } from '../mocks/core/journal-format.js';
import type { WorldRequest } from '../mocks/core/world.js';
import { contentAddressedEstimate } from './content-addressed.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    scenario: { type: 'string', default: 'scenarios/example/github/basic' },
  },
});
const total = Number(values.requests);
const work = mkdtempSync(join(tmpdir(), 'toolbench-bench-journal-'));
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const packr = new Packr({ useRecords: false });
const rssMiB = () => { gc(); gc(); return process.memoryUsage().rss / 2 ** 20; };

const headers: [string, string][] = [
  ['Host', 'api.github.com'], ['Accept', 'application/vnd.github+json'],
  ['Authorization', 'Bearer ghp_aliceAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'], ['User-Agent', 'toolbench-bench/1'],
  ['X-GitHub-Api-Version', '2022-11-28'],
];
const requests: WorldRequest[] = [
  { service: 'github', host: 'api.github.com', method: 'GET', target: '/repos/acme/widgets/issues/1', headers, body: new Uint8Array(0) },
  {
    service: 'github', host: 'api.github.com', method: 'POST', target: '/repos/acme/widgets/issues/2/comments',
    headers: [...headers, ['Content-Type', 'application/json']], body: bytes(JSON.stringify({ body: 'A comment from the benchmark: the proxy should add little to this request.' })),
  },
];

/** Runs `count` calls of `one(i)` with at most `window` in flight. */
async function pump(count: number, window: number, one: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(window, count) }, async () => {
    while (next < count) await one(next++);
  }));
}

function dirBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

try {
  // The world, journaled: RSS around N requests.
  const opened = await openWorld({ scenarioDir: values.scenario, journalDir: join(work, 'world') });
  const { world } = opened;
  const templates: JournalEntry[] = [world.process(requests[0]!), world.process(requests[1]!)];
  await world.journal.append(templates[0]!);
  await world.journal.append(templates[1]!);
  const rssBeforeMiB = rssMiB();
  const dispatchStart = performance.now();
  await pump(total, 64, (i) => world.dispatch(requests[i % 2]!));
  await world.journal.flush();
  const dispatchMs = performance.now() - dispatchStart;
  const rssAfterMiB = rssMiB();
  await world.journal.close();
  const worldJournalBytes = dirBytes(join(work, 'world'));

  // Real entries as the world journaled them (a window of up to 20,000), for bytes per entry and
  // the content-addressed estimate.
  const reread = await LevelJournal.open(join(work, 'world'));
  const sample: JournalEntry[] = [];
  for await (const entry of reread.entries({ from: 1, to: Math.min(total, 20_000) })) sample.push(entry);
  await reread.close();
  const valueBytesPerEntry = sample.reduce((sum, entry) => sum + packr.pack(entry).length, 0) / sample.length;
  const contentAddressed = await contentAddressedEstimate(sample);
  sample.length = 0;

  // The journal alone: append rate with group commit, and its RSS (no world state here).
  const appendRssBeforeMiB = rssMiB();
  const journal = await LevelJournal.create(join(work, 'append'), opened.header);
  const appendStart = performance.now();
  await pump(total, 1000, (i) => journal.append({ ...templates[i % 2]!, seq: i + 1 }));
  await journal.flush();
  const appendMs = performance.now() - appendStart;
  await journal.close();
  const appendRssAfterMiB = rssMiB();

  // LevelDB alone: the bytes the journal would write, no journal code.
  const db = new Level<string, Uint8Array>(join(work, 'raw'), { keyEncoding: 'utf8', valueEncoding: 'view' });
  await db.open();
  const rawStart = performance.now();
  for (let from = 0; from < total; from += 1000) {
    const batch = [];
    for (let i = from; i < Math.min(total, from + 1000); i++) batch.push({ type: 'put' as const, key: entryKey(i + 1), value: packr.pack({ ...templates[i % 2]!, seq: i + 1 }) });
    await db.batch(batch);
  }
  const rawMs = performance.now() - rawStart;
  await db.close();

  process.stdout.write(JSON.stringify({
    requests: total,
    appendPerSecond: total / (appendMs / 1000),
    levelDbPerSecond: total / (rawMs / 1000),
    dispatchPerSecond: total / (dispatchMs / 1000),
    rssBeforeMiB,
    rssAfterMiB,
    journalMiB: worldJournalBytes / 2 ** 20,
    appendRssBeforeMiB,
    appendRssAfterMiB,
    valueBytesPerEntry,
    keyBytesPerEntry: entryKey(1).length,
    contentAddressed,
  }) + '\n');
} finally {
  rmSync(work, { recursive: true, force: true });
}
