/**
 * Replay speed, in requests per second: records a trial (N requests from C concurrent Octokit
 * clients on the example scenario's GitHub mock), then replays it in process and over HTTP,
 * `--runs` times each, and prints the best and median rates. Reported, never asserted.
 *
 *   node --import tsx bench/replay.ts [--requests 2000] [--clients 8] [--runs 3] [--json]
 */
import { parseArgs } from 'node:util';
import { recordGithubTrial } from '../test/helpers/replay-github.js';
import { verifyJournal } from '../replay/verify.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    clients: { type: 'string', default: '8' },
    runs: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
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

const recording = { requests: trial.requests, clients, requestsPerSecond: Math.round(trial.requests / (recordMs / 1000)) };
if (values.json) {
  process.stdout.write(JSON.stringify({ recording, replay: results, node: process.version }) + '\n');
} else {
  process.stdout.write(`recorded ${recording.requests} requests from ${clients} clients over HTTP: ${recording.requestsPerSecond} requests/s\n`);
  for (const [via, r] of Object.entries(results)) {
    process.stdout.write(`replay --via ${via.padEnd(7)} ${r.entries} entries: best ${r.best} requests/s, median ${r.median} (${runs} runs)\n`);
  }
}
