import test from 'ava';
import { join } from 'node:path';
import { LevelJournal, MemoryJournal } from '../mocks/core/journal.js';
import { freshWorld } from '../replay/rebuild.js';
import { replayJournal } from '../replay/run.js';
import { fromJournal, lastSeq, openJournal, parseSeqRange } from '../replay/source.js';
import { tempDir, testHeader } from './helpers/journal.js';
import { copyJournal, counterServices, deleteEndMarker, deleteEntry, counterWorld, listItems, postItem, rewriteEntry, rewriteHeader, swapEntries } from './helpers/replay.js';

/** Records a small mixed journal: writes, reads, a 404, a handler failure, a reset, binary bodies. */
async function recordCounter(): Promise<string> {
  const dir = join(tempDir(), 'journal');
  const journal = await LevelJournal.create(dir, testHeader());
  const world = counterWorld(journal);
  await Promise.all(['a', 'b', 'c', 'd'].map((name) => world.dispatch(postItem(name))));
  await world.dispatch(listItems());
  await world.dispatch(listItems({ target: '/nothing' }));
  await world.dispatch(postItem('x', { body: new Uint8Array([0xff, 0x00, 0xfe]) }));
  await world.reset();
  await world.dispatch(postItem('after-reset'));
  await world.dispatch(listItems());
  // What only the proxy and the listeners produce: a blocked host, an oversize body, an unknown host.
  await world.recordBlocked(listItems({ host: 'evil.test', attribution: { kind: 'direct', client: 'agent', endpoint: null, tool: null, callId: null } }),
    { status: 403, headers: [['Content-Type', 'text/plain']], body: new TextEncoder().encode('blocked\n') });
  // A HEAD's answer is journaled without its body, its length kept in Content-Length.
  await world.recordBlocked(listItems({ method: 'HEAD', host: 'evil.test', attribution: { kind: 'direct', client: 'agent', endpoint: null, tool: null, callId: null } }),
    { status: 403, headers: [['Content-Type', 'text/plain']], body: new TextEncoder().encode('blocked\n') });
  await world.dispatch(postItem('big', { oversize: true, body: new Uint8Array() }));
  await world.dispatch(listItems({ host: 'nowhere.test', service: null }));
  await journal.close();
  return dir;
}

async function replay(dir: string, via: 'process' | 'http' = 'process') {
  const journal = await openJournal(dir);
  try {
    return await replayJournal(journal, freshWorld(journal.header, counterServices), { via });
  } finally {
    await journal.close();
  }
}

test('an untouched journal replays identically, in process and over HTTP: resets, blocked, oversize and misdirected requests included', async (t) => {
  const dir = await recordCounter();
  for (const via of ['process', 'http'] as const) {
    const outcome = await replay(dir, via);
    t.like(outcome, { entries: 14, identical: 14, divergent: 0, first: null, via }, via);
  }
  t.is((await replay(dir, 'http')).inProcess, 5, 'the reset, the two blocked, oversize and misdirected requests have no port');
});

test('one flipped body byte: the report names the seq, and the JSON path', async (t) => {
  const dir = copyJournal(await recordCounter());
  await rewriteEntry(dir, 3, (entry) => {
    const text = Buffer.from(entry.response.body).toString().replace('"name":"c"', '"name":"C"');
    entry.response.body = Buffer.from(text);
  });
  const outcome = await replay(dir);
  t.is(outcome.divergent, 1);
  t.is(outcome.first?.seq, 3);
  t.deepEqual(outcome.first?.fields, ['body']);
  t.like(outcome.first?.body, { kind: 'json', paths: [{ path: '$.name', op: 'changed', recorded: '"C"', replayed: '"c"' }] });
});

test('a changed seed diverges at the first response carrying a seeded id', async (t) => {
  const dir = copyJournal(await recordCounter());
  await rewriteHeader(dir, (header) => { header.seed = 8; });
  const outcome = await replay(dir);
  t.is(outcome.first?.seq, 1);
  t.is(outcome.first?.body?.kind, 'json');
  t.deepEqual(outcome.first?.body?.kind === 'json' && outcome.first.body.paths.map((p) => p.path), ['$.node']);
});

test('two swapped entries: the first divergence is at the earlier position', async (t) => {
  const dir = copyJournal(await recordCounter());
  await swapEntries(dir, 2, 5);
  const outcome = await replay(dir);
  t.is(outcome.first?.seq, 2);
  // The GET /items recorded at 5 now runs at 2: fewer items, and its recorded Date and seq headers.
  t.deepEqual(outcome.first?.fields, ['headers', 'body']);
  t.deepEqual(outcome.first?.headers?.map((h) => h.name), ['Date', 'X-Toolbench-Seq', 'Content-Length']);
  t.true(outcome.divergentSeqs.includes(5));
});

test('lastSeq: the end marker\'s, or probed from the entries without reading them all', async (t) => {
  const dir = await recordCounter();
  const journal = await openJournal(dir);
  t.is(journal.end?.lastSeq, 14);
  t.is(await lastSeq(journal), 14);
  await journal.close();
  // A killed world's journal has no end marker: its entries say where it ends.
  const unclosed = copyJournal(dir);
  await deleteEndMarker(unclosed);
  const killed = await openJournal(unclosed);
  t.is(killed.end, null);
  t.is(await lastSeq(killed), 14);
  await killed.close();
  const memory = new MemoryJournal(testHeader());
  t.is(await lastSeq(fromJournal(memory, 'memory')), 0);
  const world = counterWorld(memory);
  for (let i = 0; i < 37; i++) await world.dispatch(listItems());
  t.is(await lastSeq(fromJournal(memory, 'memory')), 37);
});

test('--seq ranges', (t) => {
  t.deepEqual(parseSeqRange('3..7'), { from: 3, to: 7 });
  t.deepEqual(parseSeqRange('3..'), { from: 3, to: undefined });
  t.deepEqual(parseSeqRange('..7'), { from: undefined, to: 7 });
  t.deepEqual(parseSeqRange('5'), { from: 5, to: 5 });
  for (const bad of ['', '..', '7..3', 'a..b', '3-7']) t.throws(() => parseSeqRange(bad), { code: 'TB_ERR_USAGE' } as never, bad);
});

test('a journal with a hole in its sequence numbers is damaged, not divergent', async (t) => {
  const dir = copyJournal(await recordCounter());
  await deleteEntry(dir, 4);
  const error = await t.throwsAsync(replay(dir), { code: 'TB_ERR_JOURNAL_CORRUPT' } as never);
  t.regex(error!.message, /after seq 3 the next entry is seq 5 \(seq 4 missing\)/);
});
