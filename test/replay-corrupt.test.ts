import test from 'ava';
import { readdirSync, rmSync, statSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { Packr } from 'msgpackr';
import { entryKey } from '../mocks/core/journal-format.js';
import { tempDir } from './helpers/journal.js';
import { copyJournal, putRaw } from './helpers/replay.js';
import { toolbench } from './helpers/replay-cli.js';
import { recordGithubTrial, type RecordedTrial } from './helpers/replay-github.js';

// Done when: truncated and corrupt journals (deleted files, garbage in the LevelDB dir, a value
// that is not msgpack) exit 2 with a one-line reason and no stack trace.
let trial: RecordedTrial;

test.before(async () => {
  trial = await recordGithubTrial({ total: 120, clients: 4 });
});

const file = (dir: string, pattern: RegExp) => join(dir, readdirSync(dir).find((name) => pattern.test(name))!);

/** Overwrites `length` bytes in the middle of `path` with a fixed garbage pattern. */
function scribble(path: string, at: number, length: number): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(length, 0xa5), 0, length, at);
  closeSync(fd);
}

const EVERY_READER = (dir: string) => [['replay', dir, '--verify'], ['audit', dir], ['journal', dir], ['export', dir, '--har']];

async function expectUnusable(t: import('ava').ExecutionContext, dir: string, reason: RegExp, commands = [['replay', dir, '--verify']]) {
  const results = await Promise.all(commands.map((command) => toolbench(command)));
  for (const [i, command] of commands.entries()) {
    const { code, stderr } = results[i]!;
    t.is(code, 2, `${command[0]}: ${stderr}`);
    t.is(stderr.split('\n').filter(Boolean).length, 1, `${command[0]}: one line`);
    t.regex(stderr, reason, command[0]);
    t.notRegex(stderr, /\n\s+at /, 'no stack trace');
  }
}

test('deleted files: CURRENT, the manifest, the log', async (t) => {
  for (const [name, pattern, reason] of [
    ['CURRENT', /^CURRENT$/, /^toolbench: journal .* is unreadable: LevelDB cannot open it/],
    ['manifest', /^MANIFEST-/, /^toolbench: journal .* is unreadable: LevelDB cannot open it: .*MANIFEST-\d+: No such file/],
    ['log', /\.log$/, /^toolbench: journal .* is unreadable: it has no format record/],
  ] as const) {
    const copy = copyJournal(trial.journalDir);
    rmSync(file(copy, pattern));
    await expectUnusable(t, copy, reason);
    t.log(`${name}: ok`);
  }
});

test('garbage in the LevelDB directory: in the log, in CURRENT, an empty directory, a file', async (t) => {
  const scribbled = copyJournal(trial.journalDir);
  const log = file(scribbled, /\.log$/);
  scribble(log, Math.floor(statSync(log).size / 3), 4096);
  // LevelDB drops the log block that fails its checksum and reads on: a hole every reader refuses.
  await expectUnusable(t, scribbled, /^toolbench: journal .* is damaged: after seq \d+ the next entry is seq \d+ \(seq \d+(\.\.\d+)? missing\)$/m, EVERY_READER(scribbled));

  const current = copyJournal(trial.journalDir);
  writeFileSync(join(current, 'CURRENT'), Buffer.alloc(300, 0xa5));
  await expectUnusable(t, current, /^toolbench: journal .* is unreadable: LevelDB cannot open it: Corruption: CURRENT file does not end with newline$/m);

  await expectUnusable(t, tempDir(), /^toolbench: journal .* is unreadable: LevelDB cannot open it/);
  const plain = join(tempDir(), 'not-a-journal');
  writeFileSync(plain, 'hello');
  await expectUnusable(t, plain, /^toolbench: .*not-a-journal is a file, not a journal directory$/m);
});

test('a value that is not msgpack, and one that is msgpack but not an entry', async (t) => {
  const garbage = copyJournal(trial.journalDir);
  await putRaw(garbage, entryKey(50), new Uint8Array([0xc1, 0xc1, 0xc1]));
  await expectUnusable(t, garbage, /^toolbench: journal .* is unreadable: its req:000000000050 cannot be decoded$/m);

  const foreign = copyJournal(trial.journalDir);
  await putRaw(foreign, entryKey(60), new Packr({ useRecords: false }).pack({ seq: 60, hello: 'world' }));
  await expectUnusable(t, foreign, /^toolbench: journal .* is unreadable: entry req:000000000060 is invalid \(/m);
});

test('a missing journal', async (t) => {
  await expectUnusable(t, join(tempDir(), 'nothing-here'), /^toolbench: no journal at .*nothing-here$/m);
});
