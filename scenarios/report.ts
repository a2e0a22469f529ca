import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ToolbenchError } from '../mocks/core/errors.js';
import { TrialResultSchema, type TrialResult } from './grade/result.js';

/** Every `result.json` under `root` (a run folder, or a folder of runs), parsed and validated. */
export function readResults(root: string): TrialResult[] {
  if (!existsSync(root)) throw new ToolbenchError('TB_ERR_USAGE', `no results at ${root}`);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (name === 'result.json') files.push(path);
      else if (name !== 'journal' && statSync(path).isDirectory()) walk(path);
    }
  };
  if (statSync(root).isFile()) files.push(root);
  else walk(root);
  if (files.length === 0) throw new ToolbenchError('TB_ERR_USAGE', `no result.json under ${root}`);
  return files.map((file) => {
    const parsed = TrialResultSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) throw new ToolbenchError('TB_ERR_USAGE', `${file}: not a toolbench result (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
    return parsed.data;
  });
}

export interface ScenarioSummary {
  scenario: string;
  trials: number;
  passes: number;
  pass_rate: number;
  mean_r_c: number;
  mean_r_b: number;
}

export interface RunSummary {
  trials: number;
  passes: number;
  pass_rate: number;
  /** pass^k for k = 1..(fewest trials of any scenario): the chance that k trials of a scenario all pass, averaged. */
  pass_hat_k: Record<string, number>;
  api_calls: number;
  mcp_bypass: number;
  scenarios: ScenarioSummary[];
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let out = 1;
  for (let i = 1; i <= k; i++) out = (out * (n - k + i)) / i;
  return out;
}

export function summarise(results: readonly TrialResult[]): RunSummary {
  const by = new Map<string, TrialResult[]>();
  for (const result of results) by.set(result.scenario, [...(by.get(result.scenario) ?? []), result]);
  const scenarios = [...by].sort(([a], [b]) => (a < b ? -1 : 1)).map(([scenario, trials]): ScenarioSummary => {
    const passes = trials.filter((r) => r.reward === 1).length;
    const mean = (pick: (r: TrialResult) => number) => trials.reduce((n, r) => n + pick(r), 0) / trials.length;
    return { scenario, trials: trials.length, passes, pass_rate: passes / trials.length, mean_r_c: mean((r) => r.r_c), mean_r_b: mean((r) => r.r_b) };
  });
  const kMax = Math.min(...scenarios.map((s) => s.trials));
  const pass_hat_k: Record<string, number> = {};
  for (let k = 1; k <= kMax; k++) {
    pass_hat_k[String(k)] = scenarios.reduce((n, s) => n + choose(s.passes, k) / choose(s.trials, k), 0) / scenarios.length;
  }
  const passes = results.filter((r) => r.reward === 1).length;
  return {
    trials: results.length, passes, pass_rate: passes / results.length, pass_hat_k,
    api_calls: results.reduce((n, r) => n + r.api_calls, 0), mcp_bypass: results.reduce((n, r) => n + r.mcp_bypass, 0), scenarios,
  };
}

export interface Comparison {
  a: RunSummary;
  b: RunSummary;
  /** Scenarios whose pass rate moved, or that only one run has. */
  changes: { scenario: string; a: number | null; b: number | null; change: 'fixed' | 'broken' | 'better' | 'worse' | 'only in a' | 'only in b' }[];
}

export function compareRuns(a: readonly TrialResult[], b: readonly TrialResult[]): Comparison {
  const sa = summarise(a);
  const sb = summarise(b);
  const rate = (s: RunSummary) => new Map(s.scenarios.map((x) => [x.scenario, x.pass_rate]));
  const ra = rate(sa);
  const rb = rate(sb);
  const names = [...new Set([...ra.keys(), ...rb.keys()])].sort();
  const changes = names.flatMap((scenario): Comparison['changes'] => {
    const x = ra.get(scenario) ?? null;
    const y = rb.get(scenario) ?? null;
    if (x === null) return [{ scenario, a: x, b: y, change: 'only in b' }];
    if (y === null) return [{ scenario, a: x, b: y, change: 'only in a' }];
    if (x === y) return [];
    const change = x === 0 && y === 1 ? 'fixed' : x === 1 && y === 0 ? 'broken' : y > x ? 'better' : 'worse';
    return [{ scenario, a: x, b: y, change }];
  });
  return { a: sa, b: sb, changes };
}
