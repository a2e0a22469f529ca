import test from 'ava';
import { join } from 'node:path';
import { Level } from 'level';
import { Packr } from 'msgpackr';
import { KEY_END } from '../mocks/core/journal-format.js';
import { LevelJournal } from '../mocks/core/journal.js';
import { openJournal } from '../replay/source.js';
import { tempDir, testHeader } from './helpers/journal.js';
import { copyJournal, counterWorld, deleteEntry, listItems, postItem, putRaw } from './helpers/replay.js';
import { toolbench } from './helpers/replay-cli.js';
import { recordGithubTrial } from './helpers/replay-github.js';

// The journal's end marker: written when the world closes its journal, so a reader tells a
// cleanly closed journal from one whose world was killed (usable, with a warning) and from one
// that lost entries its marker names (unusable).

async function readAll(dir: string) {
  const journal = await openJournal(dir);
  try {
    const seqs: number[] = [];
    for await (const entry of journal.entries()) seqs.push(entry.seq);
    return { seqs, end: journal.end, warnings: journal.warnings };
  } finally {
    await journal.close();
  }
}

test('a closed journal carries its end marker; one still open (or killed) reads with a "not closed cleanly" warning', async (t) => {
  const dir = join(tempDir(), 'journal');
  const journal = await LevelJournal.create(dir, testHeader());
  const world = counterWorld(journal);
  await world.dispatch(postItem('a'));
  await world.dispatch(listItems());
  await world.reset();
  await journal.appendMcp({ n: 1, endpoint: 'e', kind: 'ready', tool: null, callId: null, arguments: null, result: null, isError: false, error: null, worldSeqBefore: 0, worldSeqAfter: 0 });
  await journal.flush();

  // Read while the world still holds it open: what a killed world leaves.
  const open = await readAll(dir);
  t.deepEqual(open.seqs, [1, 2, 3]);
  t.is(open.end, null);
  t.is(open.warnings.length, 1);
  t.regex(open.warnings[0]!, /^journal .* was not closed cleanly \(no end marker\): the world was killed or is still running/);

  await journal.close();
  await journal.close(); // idempotent: one marker
  const closed = await readAll(dir);
  t.deepEqual(closed.seqs, [1, 2, 3]);
  t.deepEqual(closed.end, { lastSeq: 3, entries: 3, mcpRecords: 1 });
  t.deepEqual(closed.warnings, []);

  // Reading never writes a marker: a killed journal stays recognisable however often it is read.
  const reader = await LevelJournal.open(copyJournal(dir));
  t.deepEqual(reader.end, { lastSeq: 3, entries: 3, mcpRecords: 1 });
  await reader.close();
});

test('entries missing before the end marker: truncated (exit 2, one line), in every reader; a bad marker is corrupt', async (t) => {
  const trial = await recordGithubTrial({ total: 30, clients: 2 });
  const { end, seqs } = await readAll(trial.journalDir);
  t.is(end?.lastSeq, seqs.length);

  const cut = copyJournal(trial.journalDir);
  await deleteEntry(cut, seqs.length);
  await deleteEntry(cut, seqs.length - 1);
  const commands = [['replay', cut, '--verify'], ['audit', cut], ['journal', cut], ['export', cut, '--har']];
  const results = await Promise.all(commands.map((command) => toolbench(command)));
  for (const [i, result] of results.entries()) {
    t.is(result.code, 2, `${commands[i]![0]}: ${result.stderr}`);
    t.is(result.stderr.split('\n').filter(Boolean).length, 1);
    t.regex(result.stderr, new RegExp(`^toolbench: journal .* is truncated: its end marker says the last entry is seq ${seqs.length}, but it ends at seq ${seqs.length - 2} \\(seq ${seqs.length - 1}\\.\\.${seqs.length} missing\\)`));
  }

  const bad = copyJournal(trial.journalDir);
  await putRaw(bad, KEY_END, new Packr({ useRecords: false }).pack({ lastSeq: -1 }));
  const refused = await toolbench(['replay', bad, '--verify']);
  t.is(refused.code, 2);
  t.regex(refused.stderr, /^toolbench: journal .* is unreadable: its end marker is invalid/);

  // A journal without a marker (a killed world, or a log cut short): --verify refuses it (exit 2,
  // one line); --allow-unclosed replays what it holds, with a note saying so.
  const killed = copyJournal(trial.journalDir);
  const db = new Level<string, Uint8Array>(killed, { keyEncoding: 'utf8', valueEncoding: 'view' });
  await db.open();
  await db.del(KEY_END);
  await db.close();
  const unclosed = await toolbench(['replay', killed, '--verify']);
  t.is(unclosed.code, 2, unclosed.stdout);
  t.regex(unclosed.stderr, /^toolbench: journal .* has no end marker: .* pass --allow-unclosed/);
  t.is(unclosed.stderr.split('\n').filter(Boolean).length, 1);
  const replayed = await toolbench(['replay', killed, '--verify', '--allow-unclosed']);
  t.is(replayed.code, 0, replayed.stderr);
  t.regex(replayed.stdout, /note +journal .* was not closed cleanly/);
});
