/**
 * Profiles `replay --verify` in process: records a mixed Octokit trial (as bench/replay.ts does),
 * then verifies it `--runs` times with the V8 profiler on (node:inspector) around the replays
 * only, and writes the profile (read it with bench/profile-summary.ts). `--keep DIR` copies the
 * journal and scenario there for other uses (bench/replay.ts --jobs).
 *
 *   node --import tsx bench/profile-replay.ts [--requests 3000] [--runs 3] [--out FILE] [--keep DIR]
 */
import { cpSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { verifyJournal } from '../replay/verify.js';
import { recordGithubTrial } from '../test/helpers/replay-github.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '3000' }, runs: { type: 'string', default: '3' }, out: { type: 'string' }, keep: { type: 'string' } } });
const trial = await recordGithubTrial({ total: Number(values.requests), clients: 8 });
if (values.keep) {
  cpSync(trial.journalDir, join(values.keep, 'journal'), { recursive: true });
}
const session = new Session();
session.connect();
if (values.out) {
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const rates: number[] = [];
for (let i = 0; i < Number(values.runs); i++) {
  const report = await verifyJournal(trial.journalDir);
  if (report.verdict !== 'identical') throw new Error(`diverged at ${report.firstDivergence?.seq}`);
  rates.push(Math.round(report.entries / (report.elapsedMs / 1000)));
}
if (values.out) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(values.out, JSON.stringify(profile));
}
process.stdout.write(JSON.stringify({ entries: trial.requests, rates }) + '\n');
