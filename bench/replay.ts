/**
 * Replay speed, in requests per second: records a trial (N requests from C concurrent Octokit
 * clients on the example scenario's GitHub mock), then replays it in process and over HTTP,
 * `--runs` times each, and prints the best and median rates. Reported, never asserted.
 *
 * With `--jobs-journals K`, also verifies K copies of the journal with `--jobs 1` (in process)
 * and `--jobs 2` (this process and a verifier child), for the scaling of `replay --verify DIR…
 * --jobs N`; then, when dist/ is built, the same with `toolbench replay` itself, a fresh process
 * for each (the figure users get: every lane pays its own start and JIT warm-up).
 *
 *   node --import tsx bench/replay.ts [--requests 2000] [--clients 8] [--runs 3] [--jobs-journals K] [--json]
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { openJournal } from '../replay/source.js';
import { verifyMany } from '../replay/verify-many.js';
import { contentAddressedEstimate } from './content-addressed.js';
import { recordGithubTrial } from '../test/helpers/replay-github.js';
import { verifyJournal } from '../replay/verify.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    clients: { type: 'string', default: '8' },
    runs: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
    /** Copies of the journal verified with --jobs 1, then --jobs 2 (0: skip). */
    'jobs-journals': { type: 'string', default: '0' },
  },
});
const requests = Number(values.requests);
const clients = Number(values.clients);
const runs = Number(values.runs);

const recordStart = performance.now();
const trial = await recordGithubTrial({ total: requests, clients });
const recordMs = performance.now() - recordStart;

const results: Record<string, { best: number; median: number; entries: number }> = {};
for (const via of ['process', 'http'] as const) {
  const rates: number[] = [];
  let entries = 0;
  for (let i = 0; i < runs; i++) {
    const report = await verifyJournal(trial.journalDir, { via });
    if (report.verdict !== 'identical') throw new Error(`replay via ${via} diverged at seq ${report.firstDivergence?.seq}`);
    entries = report.entries;
    rates.push(report.entries / (report.elapsedMs / 1000));
  }
  rates.sort((a, b) => a - b);
  results[via] = { best: Math.round(rates.at(-1)!), median: Math.round(rates[Math.floor(rates.length / 2)]!), entries };
}

// replay --verify DIR… --jobs N: the same journal K times (as CI verifies a suite), 1 then 2 jobs.
const jobsJournals = Number(values['jobs-journals']);
let jobs: { journals: number; entries: number; jobs1Ms: number; jobs2Ms: number; cliJobs1Ms: number | null; cliJobs2Ms: number | null } | null = null;
if (jobsJournals > 0) {
  const dirs = Array.from({ length: jobsJournals }, (_, i) => {
    const dir = join(dirname(trial.journalDir), `copy-${i}`);
    cpSync(trial.journalDir, dir, { recursive: true });
    return dir;
  });
  const timed = async (n: number) => {
    const start = performance.now();
    const results = await verifyMany(dirs, { jobs: n });
    if (results.some((r) => r.verdict !== 'identical')) throw new Error(`replay --jobs ${n}: not every journal replayed identically`);
    return performance.now() - start;
  };
  const jobs1Ms = await timed(1);
  const jobs2Ms = await timed(2);
  // The command as users run it: a fresh `toolbench replay` from dist/ for each figure, so every
  // lane starts cold (imports, JIT) where the in-process --jobs 1 above runs warm.
  const built = existsSync(join(process.cwd(), 'dist/bin/main.js'));
  const cliJobs1Ms = built ? await timedCli(dirs, 1) : null;
  const cliJobs2Ms = built ? await timedCli(dirs, 2) : null;
  jobs = { journals: jobsJournals, entries: trial.requests * jobsJournals, jobs1Ms, jobs2Ms, cliJobs1Ms, cliJobs2Ms };
}

/** ms from spawning `toolbench replay --verify DIR… --jobs N` to its exit (0: every journal identical). */
function timedCli(dirs: readonly string[], n: number): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['bin/toolbench.js', 'replay', '--verify', '--jobs', String(n), ...dirs], { maxBuffer: 16 << 20 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`toolbench replay --verify --jobs ${n} failed: ${stderr.trim() || error.message}`));
      else resolve(performance.now() - start);
    });
  });
}

// Would content-addressed bodies pay on this mixed workload (bench/content-addressed.ts)?
const source = await openJournal(trial.journalDir);
const recorded: JournalEntry[] = [];
for await (const entry of source.entries()) recorded.push(entry);
await source.close();
const contentAddressed = await contentAddressedEstimate(recorded);
recorded.length = 0;

const recording = { requests: trial.requests, clients, requestsPerSecond: Math.round(trial.requests / (recordMs / 1000)) };
if (values.json) {
  process.stdout.write(JSON.stringify({ recording, replay: results, jobs, contentAddressed, node: process.version }) + '\n');
} else {
  process.stdout.write(`recorded ${recording.requests} requests from ${clients} clients over HTTP: ${recording.requestsPerSecond} requests/s\n`);
  for (const [via, r] of Object.entries(results)) {
    process.stdout.write(`replay --via ${via.padEnd(7)} ${r.entries} entries: best ${r.best} requests/s, median ${r.median} (${runs} runs)\n`);
  }
  if (jobs) process.stdout.write(`replay --verify of ${jobs.journals} journals in process: --jobs 1 ${Math.round(jobs.jobs1Ms)} ms, --jobs 2 ${Math.round(jobs.jobs2Ms)} ms (${(jobs.jobs1Ms / jobs.jobs2Ms).toFixed(2)}×)\n`);
  if (jobs?.cliJobs1Ms && jobs.cliJobs2Ms) process.stdout.write(`toolbench replay --verify (dist/) of ${jobs.journals} journals: --jobs 1 ${Math.round(jobs.cliJobs1Ms)} ms, --jobs 2 ${Math.round(jobs.cliJobs2Ms)} ms (${(jobs.cliJobs1Ms / jobs.cliJobs2Ms).toFixed(2)}×)\n`);
}
