import test from 'ava';
import { writeFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Level } from 'level';
import { Packr } from 'msgpackr';
import { LevelJournal, MemoryJournal, type Journal } from '../mocks/core/journal.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { World } from '../mocks/core/world.js';
import { listenService } from '../proxy/service-listener.js';
import { counterService } from './helpers/counter-service.js';
import { tempDir, testHeader } from './helpers/journal.js';

const counterWorld = (journal: Journal, onHandlerError?: (error: unknown) => void) => new World({
  seed: 7, epochMs: Date.parse('2025-01-01T00:00:00Z'), tickMs: 1000, journal, onHandlerError,
  services: [{ id: 'counter', hostnames: ['counter.test'], definition: counterService, data: { items: ['seeded'] } }],
});

const post = (name: string) => ({
  host: 'counter.test', method: 'POST', target: '/items',
  headers: [['Content-Type', 'application/json']] as [string, string][],
  body: new TextEncoder().encode(JSON.stringify({ name })),
});

async function collect(journal: Journal, range?: { from?: number; to?: number }): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  for await (const entry of journal.entries(range)) out.push(entry);
  return out;
}

test('a LevelDB journal keeps its header and every entry across a reopen', async (t) => {
  const dir = join(tempDir(), 'journal');
  const journal = await LevelJournal.create(dir, testHeader());
  const world = counterWorld(journal);
  const responses = await Promise.all(['a', 'b', 'c'].map((name) => world.dispatch(post(name))));
  await world.dispatch({ host: 'counter.test', method: 'GET', target: '/items', headers: [], body: new Uint8Array() });
  await journal.close();

  const reopened = await LevelJournal.open(dir);
  t.deepEqual(reopened.header, testHeader());
  const entries = await collect(reopened);
  t.deepEqual(entries.map((e) => e.seq), [1, 2, 3, 4]);
  t.deepEqual(entries.slice(0, 3).map((e) => Buffer.from(e.response.body).toString()), responses.map((r) => Buffer.from(r.body).toString()));
  t.is(entries[0]!.time, '2025-01-01T00:00:01.000Z');
  t.deepEqual(entries[0]!.request.headers, [['Content-Type', 'application/json']]);
  t.is(entries[0]!.attribution, null);
  t.is(entries[0]!.fault, null);
  t.deepEqual((await collect(reopened, { from: 2, to: 3 })).map((e) => e.seq), [2, 3]);
  await reopened.close();
});

test('a journal is never mixed: creating one in a non-empty directory is refused', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'something'), 'x');
  await t.throwsAsync(LevelJournal.create(dir, testHeader()), { code: 'TB_ERR_JOURNAL_EXISTS' } as never);
});

test('opening a missing, foreign, corrupt or newer journal is a clear error', async (t) => {
  await t.throwsAsync(LevelJournal.open(join(tempDir(), 'none')), { code: 'TB_ERR_JOURNAL_MISSING' } as never);

  const garbage = tempDir();
  writeFileSync(join(garbage, 'CURRENT'), 'MANIFEST-000099\n');
  const error = await t.throwsAsync(LevelJournal.open(garbage), { code: 'TB_ERR_JOURNAL_CORRUPT' } as never);
  t.regex(error!.message, /unreadable/);

  const foreign = tempDir();
  const db = new Level<string, string>(foreign);
  await db.put('hello', 'world');
  await db.close();
  t.regex((await t.throwsAsync(LevelJournal.open(foreign), { code: 'TB_ERR_JOURNAL_CORRUPT' } as never))!.message, /no format record/);

  const newer = join(tempDir(), 'j');
  await (await LevelJournal.create(newer, testHeader())).close();
  const raw = new Level<string, Uint8Array>(newer, { valueEncoding: 'view' });
  await raw.put('meta:format', new Packr({ useRecords: false }).pack({ format: 99 }));
  await raw.put('req:000000000001', new Uint8Array([0xc1, 0xc1]));
  await raw.close();
  t.regex((await t.throwsAsync(LevelJournal.open(newer), { code: 'TB_ERR_JOURNAL_VERSION' } as never))!.message, /format 99/);

  const raw2 = new Level<string, Uint8Array>(newer, { valueEncoding: 'view' });
  await raw2.put('meta:format', new Packr({ useRecords: false }).pack({ format: 1 }));
  await raw2.close();
  const broken = await LevelJournal.open(newer);
  await t.throwsAsync(collect(broken), { code: 'TB_ERR_JOURNAL_CORRUPT', message: /req:000000000001/ } as never);
  await broken.close();
});

test('a journal in use by another writer is refused with a clear message', async (t) => {
  const dir = join(tempDir(), 'j');
  const journal = await LevelJournal.create(dir, testHeader());
  await t.throwsAsync(LevelJournal.open(dir), { code: 'TB_ERR_JOURNAL_CORRUPT', message: /in use/ } as never);
  await journal.close();
});

test('8 concurrent HTTP clients: journal order is dispatch order, nothing lost, restart reads it back', async (t) => {
  const dir = join(tempDir(), 'journal');
  const journal = await LevelJournal.create(dir, testHeader());
  const world = counterWorld(journal);
  const served = await listenService(world, 'counter', 'counter.test', { port: 0 });
  const seen = new Map<number, string>();
  await Promise.all(Array.from({ length: 8 }, async (_, client) => {
    for (let i = 0; i < 25; i++) {
      const write = i % 3 !== 2;
      const res = await fetch(`${served.url}/items`, write
        ? { method: 'POST', body: JSON.stringify({ name: `c${client}-${i}` }), headers: { 'content-type': 'application/json' } }
        : {});
      const seq = Number(res.headers.get('x-toolbench-seq'));
      seen.set(seq, await res.text());
    }
  }));
  await served.close();
  await journal.close();

  const entries = await collect(await LevelJournal.open(dir).then((j) => { t.teardown(() => j.close()); return j; }));
  t.is(entries.length, 200);
  t.deepEqual(entries.map((e) => e.seq), Array.from({ length: 200 }, (_, i) => i + 1));
  for (const entry of entries) t.is(Buffer.from(entry.response.body).toString(), seen.get(entry.seq) ?? `(no client saw seq ${entry.seq})`);
  // Items are numbered in dispatch order, so the journal's writes carry increasing ids.
  const ids = entries.filter((e) => e.method === 'POST').map((e) => (JSON.parse(Buffer.from(e.response.body).toString()) as { id: number }).id);
  t.deepEqual(ids, [...ids].sort((a, b) => a - b));
});

test('a handler that throws rolls back its writes and answers the service\'s 500', async (t) => {
  const errors: unknown[] = [];
  const world = counterWorld(new MemoryJournal(testHeader()), (error) => errors.push(error));
  const before = JSON.stringify(world.state());
  const res = await world.dispatch({ host: 'counter.test', method: 'POST', target: '/explode', headers: [], body: new Uint8Array() });
  t.is(res.status, 500);
  t.is((errors[0] as Error).message, 'boom');
  t.is(JSON.stringify(world.state()), before);
  const next = await world.dispatch(post('after'));
  t.is((JSON.parse(Buffer.from(next.body).toString()) as { id: number }).id, 2, 'the id counter was rolled back too');
});

test('reset goes back to the dataset and is journaled', async (t) => {
  const journal = new MemoryJournal(testHeader());
  const world = counterWorld(journal);
  const initial = JSON.stringify(world.state());
  await world.dispatch(post('x'));
  t.not(JSON.stringify(world.state()), initial);
  await world.reset();
  t.is(JSON.stringify(world.state()), initial);
  const entries = await collect(journal);
  t.deepEqual(entries.map((e) => [e.seq, e.kind]), [[1, 'http'], [2, 'reset']]);
});

test('unknown host: a 421 naming the host, journaled with no service', async (t) => {
  const journal = new MemoryJournal(testHeader());
  const world = counterWorld(journal);
  const res = await world.dispatch({ host: 'elsewhere.example:443', method: 'GET', target: '/', headers: [], body: new Uint8Array() });
  t.is(res.status, 421);
  t.regex(Buffer.from(res.body).toString(), /elsewhere\.example/);
  t.is((await collect(journal))[0]!.service, null);
});

test('group commit: appends in one turn share a batch and all resolve after the write', async (t) => {
  const dir = join(tempDir(), 'journal');
  mkdirSync(dir);
  const journal = await LevelJournal.create(join(dir, 'j'), testHeader());
  const world = counterWorld(journal);
  const results = await Promise.all(Array.from({ length: 500 }, (_, i) => world.dispatch(post(`n${i}`))));
  t.is(results.length, 500);
  await journal.close();
  const reopened = await LevelJournal.open(join(dir, 'j'));
  t.is((await collect(reopened)).length, 500);
  await reopened.close();
});

test('a journal that outgrew LevelDB\'s memtable is compacted when closed (an empty log, one sorted run); a small one lives in its log', async (t) => {
  const sizes = (dir: string) => {
    const files = readdirSync(dir);
    return { log: files.filter((f) => f.endsWith('.log')).reduce((n, f) => n + statSync(join(dir, f)).size, 0), tables: files.filter((f) => f.endsWith('.ldb')).length };
  };
  const write = async (posts: number, bodyBytes: number) => {
    const dir = join(tempDir(), 'journal');
    const journal = await LevelJournal.create(dir, testHeader());
    const world = counterWorld(journal);
    for (let i = 0; i < posts; i++) await world.dispatch(post(`item ${i} ${'x'.repeat(bodyBytes)}`));
    await journal.close();
    return dir;
  };
  const small = sizes(await write(20, 100));
  t.true(small.log > 0);
  t.is(small.tables, 0);
  const bigDir = await write(700, 8000);
  const big = sizes(bigDir);
  t.is(big.log, 0, 'every entry is in a table');
  t.true(big.tables > 0);
  const reopened = await LevelJournal.open(bigDir);
  t.is((await collect(reopened)).length, 700);
  t.is(reopened.end?.entries, 700);
  await reopened.close();
});
