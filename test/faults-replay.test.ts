import test from 'ava';
import { join } from 'node:path';
import { resetPart } from '../mocks/core/faults.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { diffResponse } from '../replay/diff.js';
import { freshWorld, rebuildWorld } from '../replay/rebuild.js';
import { replayJournal } from '../replay/run.js';
import { openJournal } from '../replay/source.js';
import { verifyJournal } from '../replay/verify.js';
import { faultyScenario } from './helpers/faults.js';
import { TOKENS } from './helpers/github-requests.js';
import { tempDir } from './helpers/journal.js';
import { toolbench } from './helpers/replay-cli.js';
import { recordGithubTrial, type RecordedTrial } from './helpers/replay-github.js';
import { startWorld } from './helpers/world.js';

// Done when: a recorded run with faults replays with `--verify` exit 0, in process and over HTTP;
// reset and timeout outcomes are journaled and reproduced; replay never waits out latency.

const PLAN = `
[[faults]]
kind = 429
rate = 0.05
retry_after = 1

[[faults]]
kind = 503
rate = 0.03

[[faults]]
kind = "reset"
rate = 0.05

[[faults]]
kind = "timeout"
rate = 0.02
hold_ms = 300

[[faults]]
route = "/repos/:owner/:repo/issues"
method = "POST"
kind = 500
nth = [1, 3]

[[faults]]
latency = { dist = "uniform", min_ms = 0, max_ms = 10 }
`;

let trial: RecordedTrial;
let entries: JournalEntry[];

test.before(async () => {
  trial = await recordGithubTrial({ total: 400, clients: 8, scenarioDir: faultyScenario(PLAN) });
  const journal = await openJournal(trial.journalDir);
  entries = [];
  for await (const entry of journal.entries()) entries.push(entry);
  await journal.close();
});

test('the recording met every kind of fault, and journaled each', (t) => {
  t.is(entries.length, trial.requests);
  const kinds = new Set<string>(entries.map((e) => e.fault?.kind ?? 'none'));
  for (const kind of ['429', '500', '503', 'reset', 'timeout', 'latency']) t.true(kinds.has(kind), kind);
  for (const e of entries.filter((e) => e.fault?.kind === 'timeout')) t.like(e, { response: { status: 504 }, fault: { latencyMs: 300 } });
  for (const e of entries.filter((e) => e.fault?.kind === 'reset')) t.is(e.response.status, 502);
});

test('toolbench replay --verify: exit 0, every entry identical, faults included', async (t) => {
  const result = await toolbench(['replay', trial.journalDir, '--verify']);
  t.is(result.code, 0, result.stdout + result.stderr);
  t.regex(result.stdout, new RegExp(`^identical: ${trial.requests} entries replayed in process, every response byte-identical`));
});

test('--via http: identical too; resets are cut at the same byte and timeouts answer at once', async (t) => {
  const report = await verifyJournal(trial.journalDir, { via: 'http' });
  t.like(report, { verdict: 'identical', entries: trial.requests, divergent: 0, via: 'http', inProcess: 0 });
  const cli = await toolbench(['replay', trial.journalDir, '--verify', '--via', 'http']);
  t.is(cli.code, 0, cli.stdout + cli.stderr);
});

test('replay never sleeps: a journal of slow answers replays at once, in process and over HTTP', async (t) => {
  const scenario = faultyScenario('[[faults]]\nroute = "/user"\nlatency = { dist = "fixed", ms = 1500 }\n\n[[faults]]\nroute = "/orgs/acme"\nkind = "timeout"\nhold_ms = 1500');
  const journalDir = join(tempDir(), 'journal');
  const w = await startWorld({ scenario, journalDir });
  const started = performance.now();
  const statuses = await Promise.all([...Array(4).fill('/user'), ...Array(2).fill('/orgs/acme')].map(async (path: string) =>
    (await fetch(`${w.urls.github}${path}`, { headers: { Authorization: `Bearer ${TOKENS.alice}` } })).status));
  const recordedMs = performance.now() - started;
  await w.close();
  t.deepEqual(statuses.sort(), [200, 200, 200, 200, 504, 504]);
  t.true(recordedMs >= 1450, `recorded in ${Math.round(recordedMs)} ms`);
  for (const via of ['process', 'http'] as const) {
    const report = await verifyJournal(journalDir, { via });
    t.like(report, { verdict: 'identical', entries: 6, divergent: 0 });
    // One slept fault alone would take 1,500 ms; the world's build under a loaded machine's
    // suite has taken ~760, so the bound sits below one sleep, not near the build's time.
    t.true(report.elapsedMs < 1400, `${via}: replayed in ${Math.round(report.elapsedMs)} ms`);
  }
});

test('a replay that does not meet the recorded faults diverges, and says so', async (t) => {
  const journal = await openJournal(trial.journalDir);
  try {
    const { world } = await rebuildWorld(journal);
    const noFaults = freshWorld({ ...journal.header, faults: undefined }, world.config.services);
    const outcome = await replayJournal(journal, noFaults);
    t.true(outcome.divergent > 0);
    const firstFault = entries.find((e) => e.fault !== null && e.fault.kind !== 'latency')!;
    t.true(outcome.divergentSeqs[0]! <= firstFault.seq);
    t.true((outcome.byField.fault ?? 0) > 0);
  } finally {
    await journal.close();
  }
});

test('comparing a reset over HTTP: the cut part must match, and a cut where none was recorded (or none where one was) is a divergence', (t) => {
  const reset = entries.find((e) => e.fault?.kind === 'reset')!;
  const plain = entries.find((e) => e.fault === null || e.fault.kind === 'latency')!;
  const part = resetPart(reset.response);
  t.is(diffResponse(reset, { seq: reset.seq, ...part, cut: true }), null);
  t.deepEqual(diffResponse(reset, { seq: reset.seq, ...reset.response, cut: false })?.fields, ['fault']);
  t.deepEqual(diffResponse(reset, { seq: reset.seq, ...part, body: part.body.subarray(1), cut: true })?.fields, ['body']);
  t.deepEqual(diffResponse(plain, { seq: plain.seq, ...resetPart(plain.response), cut: true })?.fault, { recorded: plain.fault?.kind ?? null, replayed: 'reset' });
  t.deepEqual(diffResponse(reset, { seq: reset.seq, ...reset.response, fault: { kind: 'reset', latencyMs: 0 } }), null, 'in process: the whole answer and the fault kind');
  t.deepEqual(diffResponse(reset, { seq: reset.seq, ...reset.response, fault: null })?.fields, ['fault']);
});
