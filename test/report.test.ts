import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TrialResult } from '../scenarios/grade/result.js';
import { compareRuns, readResults, summarise } from '../scenarios/report.js';
import { tempDir } from './helpers/journal.js';
import { CLI_ARGS } from './helpers/cli.js';

const run = promisify(execFile);

function result(scenario: string, reward: 0 | 1): TrialResult {
  const ok = reward === 1;
  return {
    format: 1, scenario, seed: 1, agent: 'test', state_ok: ok, required_calls_ok: ok, forbidden_calls_ok: true, answer_ok: ok, reward,
    outcome_code: ok ? 0 : 1, api_calls: 3, mcp_bypass: ok ? 0 : 1, mcp_calls: 2, r_c: ok ? 1 : 0.5, r_b: 0, unintended_changes: 0, unintended: [],
    checks: [], interrupted: false, timed_out: false, strict: false, agent_exit: { code: 0, signal: null }, tools: 'all', world_requests: 3,
  };
}

function writeRun(results: TrialResult[]): string {
  const dir = tempDir();
  results.forEach((r, i) => {
    mkdirSync(join(dir, `trial-${i}`));
    writeFileSync(join(dir, `trial-${i}`, 'result.json'), JSON.stringify(r));
  });
  return dir;
}

test('pass rate and pass^k: the chance k trials of a scenario all pass, averaged over scenarios', (t) => {
  const s = summarise([result('a', 1), result('a', 1), result('a', 0), result('b', 1), result('b', 0), result('b', 0)]);
  t.is(s.trials, 6);
  t.is(s.passes, 3);
  t.is(s.pass_hat_k['1'], (2 / 3 + 1 / 3) / 2);
  t.is(s.pass_hat_k['2'], (1 / 3 + 0) / 2);
  t.is(s.pass_hat_k['3'], 0);
  t.is(s.mcp_bypass, 3);
});

test('report compares two result folders: per-scenario changes, CLI text and --json', async (t) => {
  const a = writeRun([result('fixed', 0), result('broken', 1), result('same', 1), result('gone', 1)]);
  const b = writeRun([result('fixed', 1), result('broken', 0), result('same', 1), result('new', 0)]);
  const comparison = compareRuns(readResults(a), readResults(b));
  t.deepEqual(comparison.changes.map((c) => [c.scenario, c.change]), [['broken', 'broken'], ['fixed', 'fixed'], ['gone', 'only in a'], ['new', 'only in b']]);
  const text = (await run(process.execPath, [...CLI_ARGS, 'report', a, b])).stdout;
  t.regex(text, /A .*: 3\/4 trials passed \(75\.0%\)/);
  t.regex(text, /fixed\s+fixed\s+0\.0% → 100\.0%/);
  const json = JSON.parse((await run(process.execPath, [...CLI_ARGS, 'report', a, b, '--json'])).stdout) as { b: { pass_rate: number } };
  t.is(json.b.pass_rate, 0.5);
});

test('a folder without results, or a foreign result.json, is a clear error', (t) => {
  t.throws(() => readResults(tempDir()), { message: /no result\.json under/ });
  const dir = tempDir();
  writeFileSync(join(dir, 'result.json'), '{"hello": 1}');
  t.throws(() => readResults(dir), { message: /not a toolbench result/ });
});
