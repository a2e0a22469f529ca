/**
 * `toolbench run`: every scenario (or those a glob picks) as trials of one agent, N at a time,
 * each a `recordTrial` into a folder of its own under OUT; then OUT/run.json lists them all, with
 * the trials that could not start. `toolbench report A B` compares two such folders.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { EndpointSelection } from '../catalog/endpoint-selection.js';
import { loadCatalog } from '../catalog/load.js';
import { openLog } from '../catalog/stack.js';
import { WarmLane } from '../catalog/warm.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import type { BuiltInAgent } from './agents/index.js';
import type { TrialResult } from './grade/result.js';
import { loadScenarioManifest } from './manifest.js';
import { recordTrial } from './record.js';
import { TOOL_ARMS, type ToolArm } from './mcp-config.js';

/** One trial in `run.json`: its grade in short, or why it did not run. */
export const RunTrialSchema = z.object({
  scenario: z.string(),
  /** The trial's folder, relative to run.json's (absent when it never started). */
  dir: z.string().nullable(),
  reward: z.union([z.literal(0), z.literal(1)]).nullable(),
  outcome_code: z.union([z.literal(0), z.literal(1), z.literal(2)]).nullable(),
  r_c: z.number().nullable(),
  r_b: z.number().nullable(),
  api_calls: z.number().int().nullable(),
  mcp_bypass: z.number().int().nullable(),
  /** Wall-clock ms: the whole trial, and its endpoints' start within it. */
  wall_ms: z.number().int().nonnegative(),
  ready_ms: z.number().int().nonnegative().nullable(),
  endpoints: z.number().int().nonnegative().nullable(),
  /** Of those, how many were taken running from the worker's warm lane. */
  warm: z.number().int().nonnegative().nullable().default(null),
  /** Why the trial did not run (an endpoint that never got ready, a scenario that does not load). */
  error: z.string().nullable(),
});
export type RunTrial = z.infer<typeof RunTrialSchema>;

/** `OUT/run.json`. */
export const RunManifestSchema = z.object({
  format: z.literal(1),
  agent: z.string(),
  tools: z.enum(TOOL_ARMS),
  endpoints: z.union([z.enum(['all', 'scenario']), z.array(z.string())]),
  jobs: z.number().int().positive(),
  /**
   * Warm lanes (one per job): each kept its proxy and its warm-safe endpoints' servers across its
   * trials. `strays`: requests that reached a lane between trials (answered 503, in no journal):
   * a server that is not really warm-safe. Null: every trial started its own (`--no-warm`).
   */
  warm: z.object({ lanes: z.number().int().nonnegative(), strays: z.array(z.string()) }).nullable().default(null),
  /** The run was stopped (Ctrl-C) before every trial ran. */
  interrupted: z.boolean(),
  wall_ms: z.number().int().nonnegative(),
  trials: z.array(RunTrialSchema),
});
export type RunManifest = z.infer<typeof RunManifestSchema>;

export interface RunOptions {
  scenarioDirs: readonly string[];
  outDir: string;
  agent: BuiltInAgent | { command: string[] };
  /** Trials at once (default 1). */
  jobs?: number;
  /** Trials per scenario (for pass^k; default 1). */
  repeat?: number;
  endpoints?: EndpointSelection;
  tools?: ToolArm;
  /** Keep warm-safe endpoints' servers running across each worker's trials (default true). */
  warm?: boolean;
  caDir?: string;
  timeoutMs?: number;
  readyTimeoutMs?: number;
  strict?: boolean;
  cwd?: string;
  signal?: AbortSignal;
  /** Told when a trial starts and when it ends (a progress bar). */
  onTrialStart?: (scenario: string) => void;
  onTrialEnd?: (trial: RunTrial) => void;
}

/** A scenario folder → its trial folder's name (`code/github/fix-typo` → `code-github-fix-typo`). */
export function trialFolderName(scenarioId: string, repeat: number, of: number): string {
  const base = scenarioId.replaceAll('/', '-');
  return of > 1 ? `${base}-${repeat}` : base;
}

/** `*` (within a path segment), `**` (across them) and `?` over scenario ids such as `code/github/fix-typo`. */
export function globMatcher(glob: string): (id: string) => boolean {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      pattern += '.*';
      i++;
    } else if (c === '*') pattern += '[^/]*';
    else if (c === '?') pattern += '[^/]';
    else pattern += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const re = new RegExp(`^${pattern}$`);
  // A glob without a slash may name a scenario by its last part alone (`fix-*`).
  return (id) => re.test(id) || (!glob.includes('/') && re.test(id.split('/').at(-1)!));
}

/** Every trial of the run, N at a time; returns what run.json holds. */
export async function runTrials(options: RunOptions): Promise<RunManifest> {
  const jobs = options.jobs ?? 1;
  const repeat = options.repeat ?? 1;
  if (!Number.isInteger(jobs) || jobs < 1) throw new ToolbenchError('TB_ERR_USAGE', `--jobs takes a whole number ≥ 1, not ${jobs}`);
  if (!Number.isInteger(repeat) || repeat < 1) throw new ToolbenchError('TB_ERR_USAGE', `--trials takes a whole number ≥ 1, not ${repeat}`);
  if (options.scenarioDirs.length === 0) throw new ToolbenchError('TB_ERR_USAGE', 'no scenarios to run (check --filter)');
  const outDir = resolve(options.outDir);
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    throw new ToolbenchError('TB_ERR_USAGE', `out folder ${outDir} exists and is not empty; choose a new one (a run never overwrites another)`);
  }
  // Every scenario loads before the first trial starts: a broken one is a usage error, not a failed trial.
  const planned = options.scenarioDirs.flatMap((dir) => {
    const id = loadScenarioManifest(dir).id;
    return Array.from({ length: repeat }, (_, k) => ({ dir, id, folder: trialFolderName(id, k + 1, repeat) }));
  });
  mkdirSync(outDir, { recursive: true });
  const began = performance.now();
  const trials: (RunTrial | undefined)[] = new Array(planned.length);
  const warm = (options.warm ?? true) && options.endpoints !== 'scenario';
  const lanes: WarmLane[] = [];
  let next = 0;
  const worker = async (k: number) => {
    // Opened on the worker's first trial: a run of one trial gets no lane folder it did not need.
    let lane: WarmLane | undefined;
    while (next < planned.length && !options.signal?.aborted) {
      const index = next++;
      const plan = planned[index]!;
      options.onTrialStart?.(plan.id);
      if (warm && !lane) lanes.push(lane = await openLane(join(outDir, '.warm', `lane-${k + 1}`), options.caDir));
      const trial = await runOne(plan, join(outDir, plan.folder), options, lane);
      trials[index] = trial;
      options.onTrialEnd?.(trial);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(jobs, planned.length) }, (_, k) => worker(k)));
  } finally {
    await Promise.all(lanes.map((lane) => lane.close()));
  }
  const manifest: RunManifest = {
    format: 1,
    agent: typeof options.agent === 'string' ? options.agent : options.agent.command.join(' '),
    tools: options.tools ?? 'all',
    endpoints: options.endpoints === undefined ? 'all' : typeof options.endpoints === 'string' ? options.endpoints : [...options.endpoints],
    jobs,
    warm: warm ? { lanes: lanes.length, strays: lanes.flatMap((lane) => lane.strays) } : null,
    interrupted: options.signal?.aborted ?? false,
    wall_ms: Math.round(performance.now() - began),
    trials: trials.filter((t): t is RunTrial => t !== undefined),
  };
  writeFileSync(join(outDir, 'run.json'), JSON.stringify(RunManifestSchema.parse(manifest), null, 2) + '\n');
  return manifest;
}

/** A worker's lane; its warm servers' stderr goes to `dir` (they outlive every trial folder). */
async function openLane(dir: string, caDir: string | undefined): Promise<WarmLane> {
  mkdirSync(dir, { recursive: true });
  return WarmLane.open({
    catalog: loadCatalog(), caDir,
    openLog: (endpoint) => openLog(join(dir, `${endpoint}.stderr.log`)),
  });
}

async function runOne(plan: { dir: string; id: string; folder: string }, trialDir: string, options: RunOptions, lane: WarmLane | undefined): Promise<RunTrial> {
  const began = performance.now();
  const wall = () => Math.round(performance.now() - began);
  try {
    const { result, startup } = await recordTrial({
      scenarioDir: plan.dir, outDir: trialDir, agent: options.agent, caDir: options.caDir, timeoutMs: options.timeoutMs,
      strict: options.strict, endpoints: options.endpoints, tools: options.tools, readyTimeoutMs: options.readyTimeoutMs,
      cwd: options.cwd, signal: options.signal, echo: false, lane,
    });
    return graded(plan, result, wall(), startup.ready_ms, startup.endpoints.length, startup.endpoints.filter((e) => e.warm).length);
  } catch (error) {
    // A bug is not a failed trial: let it end the run.
    if (!(error instanceof ToolbenchError)) throw error;
    return {
      scenario: plan.id, dir: null, reward: null, outcome_code: null, r_c: null, r_b: null, api_calls: null, mcp_bypass: null,
      wall_ms: wall(), ready_ms: null, endpoints: null, warm: null, error: error.message,
    };
  }
}

function graded(plan: { folder: string }, result: TrialResult, wallMs: number, readyMs: number, endpoints: number, warm: number): RunTrial {
  return {
    scenario: result.scenario, dir: plan.folder, reward: result.reward, outcome_code: result.outcome_code, r_c: result.r_c, r_b: result.r_b,
    api_calls: result.api_calls, mcp_bypass: result.mcp_bypass, wall_ms: wallMs, ready_ms: readyMs, endpoints, warm, error: null,
  };
}

/** The trials of every `run.json` under `root` that could not start (`toolbench report` counts them apart). */
export function readRunErrors(root: string): RunTrial[] {
  const out: RunTrial[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (name === 'run.json') {
        const parsed = RunManifestSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
        if (!parsed.success) throw new ToolbenchError('TB_ERR_USAGE', `${path}: not a toolbench run.json (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
        out.push(...parsed.data.trials.filter((t) => t.error !== null));
      } else if (name !== 'journal' && statSync(path).isDirectory()) walk(path);
    }
  };
  if (existsSync(root) && statSync(root).isDirectory()) walk(root);
  return out;
}
