import test from 'ava';
import { cpSync, mkdirSync, readdirSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { resolveJournalPath } from '../replay/journal-path.js';
import { tempDir } from './helpers/journal.js';
import { copyJournal } from './helpers/replay.js';
import { toolbench } from './helpers/replay-cli.js';
import { recordGithubTrial } from './helpers/replay-github.js';

// Issue 13, item 5: a damaged journal never verifies silently, and a run folder (or a near miss)
// is understood wherever a journal is expected.

const trial = recordGithubTrial({ total: 40, clients: 2 });

test('a journal whose log is cut to half its size: replay --verify exits 2 (no end marker); --allow-unclosed replays what is left', async (t) => {
  const cut = copyJournal((await trial).journalDir);
  const log = readdirSync(cut).filter((name) => name.endsWith('.log')).map((name) => join(cut, name))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  truncateSync(log, Math.floor(statSync(log).size / 2));
  const refused = await toolbench(['replay', cut, '--verify']);
  t.is(refused.code, 2, refused.stdout);
  t.regex(refused.stderr, /^toolbench: journal .* has no end marker/);
  const json = await toolbench(['replay', cut, '--verify', '--json']);
  t.is(json.code, 2);
  t.is(JSON.parse(json.stdout).verdict, 'unusable');
  const allowed = await toolbench(['replay', cut, '--verify', '--allow-unclosed']);
  t.is(allowed.code, 0, allowed.stderr);
  t.regex(allowed.stdout, /not closed cleanly/);
});

test('a run folder stands for its journal in replay, audit, journal and export', async (t) => {
  const run = join(tempDir(), 'runs', 'example-oracle-1');
  mkdirSync(run, { recursive: true });
  cpSync((await trial).journalDir, join(run, 'journal'), { recursive: true });
  t.is(resolveJournalPath(run), join(run, 'journal'));
  t.is(resolveJournalPath(`${run}/`), join(run, 'journal'));
  t.is(resolveJournalPath(join(run, 'journal')), join(run, 'journal'));
  const commands = [['replay', run, '--verify'], ['audit', run], ['journal', run, '--seq', '1'], ['export', run, '--har']];
  for (const command of commands) {
    const result = await toolbench(command);
    t.is(result.code, 0, `${command.join(' ')}: ${result.stderr}`);
  }
});

test('a path that does not exist: exit 2, "did you mean" the nearest name', async (t) => {
  const runs = join(tempDir(), 'runs');
  mkdirSync(join(runs, 'demo-13', 'journal'), { recursive: true });
  mkdirSync(join(runs, 'code-github-merge-ready-pr-agent-2'), { recursive: true });
  t.throws(() => resolveJournalPath(join(runs, 'demo-31')), { message: `no journal at ${join(runs, 'demo-31')}; did you mean ${join(runs, 'demo-13')}?` });
  t.throws(() => resolveJournalPath(join(runs, 'code-github-merge-ready-pr-agnet-2', 'journal')),
    { message: /did you mean .*code-github-merge-ready-pr-agent-2\/journal\?$/ });
  t.throws(() => resolveJournalPath(join(runs, 'something-else-entirely')), { message: /^no journal at [^;]*$/ });
  for (const command of ['replay', 'audit', 'journal', 'export']) {
    const result = await toolbench([command, join(runs, 'demo-31'), ...(command === 'export' ? ['--har'] : [])]);
    t.is(result.code, 2, command);
    t.regex(result.stderr, /^toolbench: no journal at .*demo-31; did you mean .*demo-13\?\n$/, command);
  }
});
