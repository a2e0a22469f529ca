import test from 'ava';
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Level } from 'level';
import { KEY_END } from '../mocks/core/journal-format.js';
import type { ReplayReport } from '../replay/report.js';
import { readReportFile } from '../replay/report-file.js';
import { verifyMany } from '../replay/verify-many.js';
import { tempDir } from './helpers/journal.js';
import { copyJournal, readRawEntry, rewriteEntry } from './helpers/replay.js';
import { toolbench } from './helpers/replay-cli.js';
import { recordGithubTrial, type RecordedTrial } from './helpers/replay-github.js';

// `replay --verify DIR… --jobs N`: several journals at once, in child processes, one combined
// report and exit code (0 all identical, 1 any divergent, 2 any unusable).
let trial: RecordedTrial;
let divergent: string;
let divergentSeq: number;
let runFolder: string;
let unclosed: string;

test.before(async () => {
  trial = await recordGithubTrial({ total: 120, clients: 3 });
  divergent = copyJournal(trial.journalDir);
  divergentSeq = 60;
  await rewriteEntry(divergent, divergentSeq, (entry) => { entry.response.status = entry.response.status === 200 ? 201 : 200; });
  runFolder = join(tempDir('toolbench-run-'), 'trial-7');
  mkdirSync(runFolder);
  cpSync(trial.journalDir, join(runFolder, 'journal'), { recursive: true });
  unclosed = copyJournal(trial.journalDir);
  const raw = new Level<string, Uint8Array>(unclosed, { valueEncoding: 'view' });
  await raw.del(KEY_END);
  await raw.close();
});

interface ManyJson {
  verdict: string; identical: number; divergent: number; unusable: number; entries: number; jobs: number;
  journals: (ReplayReport | { verdict: 'unusable'; journal: string; error: { code: string; message: string } })[];
}
const timeless = (report: unknown) => ({ ...(report as object), elapsedMs: 0, requestsPerSecond: 0 });

test('identical, a run folder and a divergent journal with --jobs 2: exit 1, every report as one journal gives it, --report DIR', async (t) => {
  const reports = tempDir('toolbench-reports-');
  const { code, stdout, stderr } = await toolbench(['replay', trial.journalDir, runFolder, divergent, '--verify', '--jobs', '2', '--json', '--report', reports]);
  t.is(code, 1, stderr);
  const many = JSON.parse(stdout) as ManyJson;
  t.like(many, { verdict: 'divergent', identical: 2, divergent: 1, unusable: 0, jobs: 2, entries: trial.requests * 3 });
  t.deepEqual(many.journals.map((j) => j.verdict), ['identical', 'identical', 'divergent']);
  t.is((many.journals[1] as ReplayReport).journal, join(runFolder, 'journal'));
  t.is((many.journals[2] as ReplayReport).firstDivergence?.seq, divergentSeq);
  t.deepEqual((many.journals[2] as ReplayReport).firstDivergence?.fields, ['status']);

  // Each journal's report is the one `replay JOURNAL --json` prints for it alone.
  const alone = await toolbench(['replay', divergent, '--json']);
  t.deepEqual(timeless(many.journals[2]), timeless(JSON.parse(alone.stdout)));

  // One report file per journal, in the order given, named after the folder holding journal/,
  // each readable as with one journal.
  const third = `03-${basename(dirname(divergent))}.json`;
  t.deepEqual(readdirSync(reports).sort(), [`01-${basename(dirname(trial.journalDir))}.json`, '02-trial-7.json', third]);
  const file = readReportFile(join(reports, third));
  t.is(file.verdict, 'divergent');
  t.is(file.firstDivergence?.responses.recorded.status, (await readRawEntry(divergent, divergentSeq)).response.status);
  t.is(readReportFile(join(reports, '02-trial-7.json')).verdict, 'identical');

  // --jobs 1 (in this process) reports the same, and the text form has one line per journal and a total.
  const serial = JSON.parse((await toolbench(['replay', trial.journalDir, runFolder, divergent, '--json'])).stdout) as ManyJson;
  t.deepEqual(serial.journals.map(timeless), many.journals.map(timeless));
  const text = await toolbench(['replay', trial.journalDir, divergent, '--verify', '--jobs', '2']);
  t.is(text.code, 1);
  t.regex(text.stdout, /^identical .*: \d+ entries\ndivergent .*: 1 of \d+ entries differ; first at seq 60\n/);
  t.regex(text.stdout, /\n2 journals: 1 identical, 1 divergent, 0 unusable; \d+ entries in \d+ ms with 2 jobs\n$/);
});

test('an unusable journal among good ones: exit 2, named on stderr, the others still verified; --allow-unclosed accepts it', async (t) => {
  const notAJournal = tempDir('toolbench-empty-');
  const { code, stdout, stderr } = await toolbench(['replay', trial.journalDir, unclosed, notAJournal, '--verify', '--jobs', '2', '--json']);
  t.is(code, 2);
  const many = JSON.parse(stdout) as ManyJson;
  t.like(many, { verdict: 'unusable', identical: 1, divergent: 0, unusable: 2 });
  t.regex(stderr, new RegExp(`toolbench: journal ${unclosed} has no end marker`));
  t.regex(stderr, new RegExp(`toolbench: journal ${notAJournal} is unreadable`));
  t.notRegex(stderr, /at .*\.ts:\d+/, 'no stack trace');

  const allowed = await verifyMany([trial.journalDir, unclosed], { jobs: 2, requireEnd: false });
  t.deepEqual(allowed.map((r) => r.verdict), ['identical', 'identical']);
  const cli = await toolbench(['replay', trial.journalDir, unclosed, '--verify', '--allow-unclosed', '--jobs', '2']);
  t.is(cli.code, 0, cli.stderr);

  const typo = await toolbench(['replay', trial.journalDir, `${trial.journalDir}-typo`, '--verify', '--jobs', '2']);
  t.is(typo.code, 2);
  t.regex(typo.stderr, /^toolbench: no journal at .*-typo/);
  t.is(typo.stdout, '', 'a path that does not exist fails before any replay');
});

test('--jobs must be a whole number ≥ 1', async (t) => {
  const { code, stderr } = await toolbench(['replay', trial.journalDir, '--jobs', '0']);
  t.is(code, 2);
  t.regex(stderr, /--jobs takes a whole number ≥ 1/);
});
