import test from 'ava';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import type { ReplayReport } from '../replay/report.js';
import { openJournal } from '../replay/source.js';
import { verifyJournal } from '../replay/verify.js';
import { toolbench } from './helpers/replay-cli.js';
import { recordGithubTrial, type RecordedTrial } from './helpers/replay-github.js';

// Done when: 2,000 requests from 8 concurrent clients (mixed reads and writes on the GitHub
// mock, through @octokit/rest), then `replay --verify`: exit 0, every entry identical.
let trial: RecordedTrial;

test.before(async () => {
  trial = await recordGithubTrial({ total: 2000, clients: 8 });
});

async function recorded(): Promise<JournalEntry[]> {
  const journal = await openJournal(trial.journalDir);
  const entries: JournalEntry[] = [];
  for await (const entry of journal.entries()) entries.push(entry);
  await journal.close();
  return entries;
}

test('the recording is what it claims: 2,000+ requests, mixed reads and writes, from 8 interleaved clients', async (t) => {
  const entries = await recorded();
  t.true(entries.length >= 2000);
  t.is(entries.length, trial.requests);
  const methods = new Set(entries.map((e) => e.method));
  for (const method of ['GET', 'POST', 'PATCH']) t.true(methods.has(method), method);
  const writes = entries.filter((e) => e.method !== 'GET' && e.response.status < 300).length;
  t.true(writes > 400, `${writes} successful writes`);
  // Concurrency: the clients (and their users' tokens) interleave rather than run one after another.
  const tokens = entries.slice(0, 40).map((e) => e.request.headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1]);
  t.true(new Set(tokens).size >= 3);
});

test('toolbench replay --verify: exit 0, every entry identical', async (t) => {
  const text = await toolbench(['replay', trial.journalDir, '--verify']);
  t.is(text.code, 0, text.stdout + text.stderr);
  t.regex(text.stdout, new RegExp(`^identical: ${trial.requests} entries replayed in process, every response byte-identical`));
  t.is(text.stderr, '', 'no progress bar when stderr is not a terminal');

  const json = await toolbench(['replay', trial.journalDir, '--verify', '--json']);
  t.is(json.code, 0);
  const report = JSON.parse(json.stdout) as ReplayReport;
  t.like(report, { verdict: 'identical', entries: trial.requests, identical: trial.requests, divergent: 0, firstDivergence: null, via: 'process' });
  t.deepEqual(report.checks.map((c) => [c.name, c.status]), [['scenario', 'ok'], ['dataset', 'ok'], ['baseline', 'ok'], ['catalog', 'ok'], ['mocks', 'ok'], ['seed', 'ok']]);
  t.is(report.handlerErrors.count, 0);
  t.is(json.stdout.trim().split('\n').length, 1, 'one JSON object');
});

test('--via http re-issues every request over the world\'s port: identical too', async (t) => {
  const report = await verifyJournal(trial.journalDir, { via: 'http' });
  t.like(report, { verdict: 'identical', entries: trial.requests, divergent: 0, via: 'http', inProcess: 0 });
});
