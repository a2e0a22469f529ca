import test from 'ava';
import { join } from 'node:path';
import { Level } from 'level';
import { LevelJournal } from '../mocks/core/journal.js';
import { KEY_END } from '../mocks/core/journal-format.js';
import { tempDir, testHeader } from './helpers/journal.js';
import { toolbench } from './helpers/replay-cli.js';
import { counterWorld, listItems, postItem } from './helpers/replay.js';

let journalDir: string;

test.before(async () => {
  journalDir = join(tempDir(), 'journal');
  const journal = await LevelJournal.create(journalDir, testHeader());
  const world = counterWorld(journal);
  await world.dispatch(postItem('a', { attribution: { kind: 'mcp', client: null, endpoint: 'counter-mcp', tool: 'create_item', callId: 'c1' } }));
  await world.dispatch(listItems({ attribution: { kind: 'direct', client: 'agent', endpoint: null, tool: null, callId: null } }));
  await world.dispatch(listItems({ target: '/nothing' }));
  await world.reset();
  await world.dispatch(listItems({ host: 'nowhere.test', service: null }));
  await journal.close();
});

test('the listing shows time, seq, attribution, method, host, target, operation, status and sizes', async (t) => {
  const { code, stdout, stderr } = await toolbench(['journal', journalDir]);
  t.is(code, 0, stderr);
  const lines = stdout.trimEnd().split('\n');
  t.is(lines.length, 6);
  t.regex(lines[0]!, /seq\s+time\s+attribution\s+method\s+host\s+target\s+operation\s+status\s+bytes/);
  t.regex(lines[1]!, /^\s+1 {2}2025-01-01 00:00:01 {2}mcp counter-mcp\/create_item\s+POST\s+counter\.test\s+\/items\s+-\s+201\s+12 → \d+$/);
  t.regex(lines[2]!, /^\s+2 .* direct\s+GET\s+counter\.test\s+\/items\s+-\s+200/);
  t.regex(lines[3]!, /^\s+3 .*\/nothing\s+-\s+404/);
  t.regex(lines[4]!, /^\s+4 .* reset\s+POST\s+toolbench\s+\/_bench\/reset\s+-\s+200/);
  t.regex(lines[5]!, /^\s+5 .* nowhere\.test\s+\/items\s+-\s+421/);
  t.false(stdout.includes('\u001b['));
});

test('--service and --seq select entries; --json prints one entry per line', async (t) => {
  const counter = await toolbench(['journal', journalDir, '--service', 'counter', '--seq', '2..5']);
  t.deepEqual(counter.stdout.trimEnd().split('\n').slice(1).map((line) => Number(line.trim().split(/\s+/)[0])), [2, 3]);
  const none = await toolbench(['journal', journalDir, '--service', 'none']);
  t.deepEqual(none.stdout.trimEnd().split('\n').slice(1).map((line) => Number(line.trim().split(/\s+/)[0])), [4, 5]);
  const json = await toolbench(['journal', journalDir, '--json', '--seq', '..2']);
  const entries = json.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { seq: number; response: { body: { encoding: string; data: string } } });
  t.deepEqual(entries.map((e) => e.seq), [1, 2]);
  t.is(entries[0]!.response.body.encoding, 'utf8');
  t.regex(entries[0]!.response.body.data, /"name":"a"/);
});

test('colour when forced, none with NO_COLOR even when forced', async (t) => {
  const forced = await toolbench(['journal', journalDir], { FORCE_COLOR: '1' });
  t.true(forced.stdout.includes('\u001b['));
  const noColor = await toolbench(['journal', journalDir], { FORCE_COLOR: '1', NO_COLOR: '1' });
  t.false(noColor.stdout.includes('\u001b['));
});

test('a bad --seq or a missing journal: exit 2 with one line', async (t) => {
  const bad = await toolbench(['journal', journalDir, '--seq', '9..3']);
  t.is(bad.code, 2);
  t.regex(bad.stderr, /^toolbench: --seq "9\.\.3": expected N, A\.\.B/);
  const missing = await toolbench(['journal', join(tempDir(), 'none')]);
  t.is(missing.code, 2);
  t.regex(missing.stderr, /^toolbench: no journal at .*\n$/);
});

test('audit, journal and export say when a journal was not closed cleanly (a killed world), and still read it', async (t) => {
  const dir = join(tempDir(), 'journal');
  await (await LevelJournal.create(dir, testHeader())).close();
  const raw = new Level<string, Uint8Array>(dir, { valueEncoding: 'view' });
  await raw.del(KEY_END);
  await raw.close();
  for (const command of [['audit', dir], ['journal', dir], ['export', dir, '--har']]) {
    const { stderr } = await toolbench(command);
    t.regex(stderr, /toolbench: note: .*not closed cleanly/, command[0]);
  }
});
