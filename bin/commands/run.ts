import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChalkInstance } from 'chalk';
import type { CommandModule } from 'yargs';
import { DEFAULT_CA_DIR } from '../../certs/index.js';
import { parseEndpointSelection } from '../../catalog/endpoint-selection.js';
import { TOOLBENCH_ROOT } from '../../catalog/paths.js';
import { ToolbenchError } from '../../mocks/core/errors.js';
import { colors, noColor } from '../../replay/colors.js';
import { BUILT_IN_AGENTS, type BuiltInAgent } from '../../scenarios/agents/index.js';
import { loadScenarioManifest } from '../../scenarios/manifest.js';
import { globMatcher, runTrials, type RunManifest, type RunTrial } from '../../scenarios/run.js';
import { findScenarios } from '../../scenarios/validate.js';
import { TOOL_ARMS, type ToolArm } from '../../scenarios/mcp-config.js';
import { endpointsOption, readyTimeoutMs, readyTimeoutOption } from '../shared.js';

interface RunArgs {
  scenarios: string[];
  agent?: BuiltInAgent;
  jobs: number;
  trials: number;
  tools: ToolArm;
  filter?: string;
  out?: string;
  endpoints: string;
  timeout: number;
  'ready-timeout': number;
  'ca-dir': string;
  strict: boolean;
  warm: boolean;
  json: boolean;
  'expect-reward'?: number;
  '--'?: (string | number)[];
}

export const runCommand: CommandModule<{}, RunArgs> = {
  command: 'run [scenarios..]',
  describe: 'Run every scenario (or a filter) as trials of one agent, N at a time; a summary table, and a folder `toolbench report` compares',
  builder: (y) => y
    .parserConfiguration({ 'populate--': true })
    .positional('scenarios', { type: 'string', array: true, default: [] as string[], describe: 'Scenario folders or folders to search (default: every shipped scenario)' })
    .option('agent', { choices: BUILT_IN_AGENTS, describe: 'A built-in agent (oracle, nop); default oracle unless a command follows --' })
    .option('jobs', { type: 'number', default: 1, describe: 'Trials at once (each starts its own world, proxy and MCP servers: about 3.4 GB with every endpoint)' })
    .option('trials', { type: 'number', default: 1, describe: 'Trials per scenario (pass^k needs k or more)' })
    .option('tools', { choices: TOOL_ARMS, default: 'all' as ToolArm, describe: 'The tools each agent sees: every endpoint\'s own (all), or the router\'s two (router); passed to record' })
    .option('filter', { type: 'string', describe: 'Only scenarios whose id matches this glob (`code/github/*`, `**/fix-*`; without a slash, the last part: `fix-*`)' })
    .option('out', { type: 'string', describe: 'New folder for the trials and run.json (default: runs/run-<agent>-<n>)' })
    .option('endpoints', endpointsOption)
    .option('timeout', { type: 'number', default: 1800, describe: 'Seconds before each trial\'s agent is stopped' })
    .option('ready-timeout', readyTimeoutOption)
    .option('ca-dir', { type: 'string', default: DEFAULT_CA_DIR, describe: 'CA directory (made if missing)' })
    .option('strict', { type: 'boolean', default: false, describe: 'Fail every trial that bypassed MCP' })
    .option('warm', { type: 'boolean', default: true, describe: 'Keep warm_safe endpoints\' servers running across each job\'s trials (--no-warm: every trial starts all its own; docs/trials.md)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print run.json instead of the table' })
    .option('expect-reward', { choices: [0, 1], type: 'number', describe: 'Exit 1 unless every trial scored this (npm run suite: the oracle 1, the nop agent 0)' })
    .example('$0 run --agent oracle --jobs 2 --out runs/oracle', 'every shipped scenario solved by its oracle')
    .example('$0 run --filter \'code/github/*\' --out runs/mine -- node my-agent.mjs', 'your agent on the GitHub scenarios')
    .epilogue('Each trial is `toolbench record` into OUT/<scenario id with dashes>/ (docs/trials.md); OUT/run.json lists them, with any that could not start. '
      + 'Compare two runs with `toolbench report A B`; verify their journals with `toolbench replay --verify OUT/*/ --jobs N`. '
      + 'Exit status: 0 when every trial was graded (whatever its reward, unless --expect-reward), 1 when one could not start or missed --expect-reward, 2 for bad input, 130 when interrupted.'),
  handler: async (args) => {
    if (!Number.isFinite(args.timeout) || args.timeout <= 0) throw new ToolbenchError('TB_ERR_USAGE', `--timeout ${args.timeout}: give a positive number of seconds`);
    const command = (args['--'] ?? []).map(String);
    if (command.length > 0 && args.agent) throw new ToolbenchError('TB_ERR_USAGE', 'give either --agent or a command after --, not both');
    const agent = command.length > 0 ? { command } : (args.agent ?? 'oracle');
    const roots = args.scenarios.length > 0 ? args.scenarios : [join(TOOLBENCH_ROOT, 'scenarios')];
    let dirs = roots.flatMap((root) => findScenarios(root));
    if (args.filter !== undefined) {
      const matches = globMatcher(args.filter);
      dirs = dirs.filter((dir) => matches(loadScenarioManifest(dir).id));
      if (dirs.length === 0) throw new ToolbenchError('TB_ERR_USAGE', `--filter ${args.filter}: no scenario matches`);
    }
    const out = args.out ?? defaultOut(typeof agent === 'string' ? agent : 'agent');
    const total = dirs.length * args.trials;
    const chalk = colors(process.env.NO_COLOR);
    const bar = !args.json && process.stderr.isTTY && !noColor(process.env.NO_COLOR) ? await trialBar(total) : null;
    const abort = new AbortController();
    let interrupts = 0;
    const onSignal = () => {
      interrupts += 1;
      if (interrupts > 1) process.exit(130);
      process.stderr.write('\ntoolbench run: stopping the running trials (they are still graded); no new one starts (Ctrl-C again to quit at once)\n');
      abort.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    let done = 0;
    try {
      if (!args.json) process.stderr.write(`toolbench run: ${total} trials, ${args.jobs} at a time, into ${out}\n`);
      const manifest = await runTrials({
        scenarioDirs: dirs, outDir: out, agent, jobs: args.jobs, repeat: args.trials, tools: args.tools,
        endpoints: parseEndpointSelection(args.endpoints), caDir: args['ca-dir'], timeoutMs: args.timeout * 1000,
        readyTimeoutMs: readyTimeoutMs(args['ready-timeout']), strict: args.strict, warm: args.warm, signal: abort.signal,
        onTrialEnd: (trial) => {
          done += 1;
          if (bar) bar.update(done, trial);
          else if (!args.json) process.stderr.write(`  [${done}/${total}] ${line(trial, chalk)}\n`);
        },
      });
      bar?.stop();
      if (args.json) process.stdout.write(JSON.stringify(manifest) + '\n');
      else process.stdout.write(summaryTable(manifest, out, chalk));
      if (manifest.interrupted) process.exitCode = 130;
      else if (manifest.trials.some((t) => t.error !== null)) process.exitCode = 1;
      else if (args['expect-reward'] !== undefined) {
        const off = manifest.trials.filter((t) => t.reward !== args['expect-reward']);
        for (const t of off) process.stderr.write(`toolbench run: ${t.scenario} scored ${t.reward}, not ${args['expect-reward']} (${join(out, t.dir ?? '')})\n`);
        if (off.length > 0) process.exitCode = 1;
      }
    } finally {
      bar?.stop();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};

function defaultOut(agent: string): string {
  for (let n = 1; ; n++) {
    const candidate = `runs/run-${agent}-${n}`;
    if (!existsSync(candidate)) return candidate;
  }
}

/** A cli-progress bar over the trials, with the last one finished beside it. */
async function trialBar(total: number): Promise<{ update(done: number, trial: RunTrial): void; stop(): void }> {
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar({
    stream: process.stderr, format: 'run [{bar}] {value}/{total} trials | {passed} passed | {eta_formatted} | {last}', hideCursor: true, fps: 5,
  }, cliProgress.Presets.shades_classic);
  bar.start(total, 0, { passed: 0, last: '' });
  let passed = 0;
  let stopped = false;
  return {
    update(done, trial) {
      if (trial.reward === 1) passed += 1;
      bar.update(done, { passed, last: trial.scenario });
    },
    stop() {
      if (!stopped) bar.stop();
      stopped = true;
    },
  };
}

const seconds = (ms: number | null) => (ms === null ? '—' : (ms / 1000).toFixed(1));

function line(trial: RunTrial, chalk: ChalkInstance): string {
  if (trial.error !== null) return `${chalk.red('ERROR')} ${trial.scenario}: ${trial.error.split('\n')[0]}`;
  return `${trial.reward === 1 ? chalk.green('pass ') : chalk.red('FAIL ')} ${trial.scenario}  (${seconds(trial.wall_ms)} s)`;
}

/** The table `toolbench run` ends with: one row per trial, then the totals. */
export function summaryTable(manifest: RunManifest, out: string, chalk: ChalkInstance): string {
  const rows = manifest.trials.map((t) => [
    t.scenario,
    t.error !== null ? chalk.red('error') : t.reward === 1 ? chalk.green('1') : chalk.red('0'),
    t.outcome_code === null ? '—' : String(t.outcome_code),
    t.r_c === null ? '—' : t.r_c.toFixed(2),
    t.r_b === null ? '—' : t.r_b.toFixed(4),
    t.api_calls === null ? '—' : String(t.api_calls),
    t.mcp_bypass === null ? '—' : String(t.mcp_bypass),
    t.endpoints === null ? '—' : String(t.endpoints),
    t.warm === null ? '—' : String(t.warm),
    seconds(t.ready_ms),
    seconds(t.wall_ms),
  ]);
  const header = ['scenario', 'reward', 'outcome', 'R_c', 'R_b', 'api_calls', 'bypass', 'endpoints', 'warm', 'ready s', 'wall s'];
  // Widths from the text without colour codes.
  const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => plain(r[i]!).length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c + ' '.repeat(widths[i]! - plain(c).length) : ' '.repeat(widths[i]! - plain(c).length) + c)).join('  ');
  const graded = manifest.trials.filter((t) => t.error === null);
  const passes = graded.filter((t) => t.reward === 1).length;
  const errors = manifest.trials.length - graded.length;
  const mean = (pick: (t: RunTrial) => number) => (graded.length === 0 ? null : graded.reduce((n, t) => n + pick(t), 0) / graded.length);
  const lines = [
    '',
    chalk.bold(format(header)),
    ...rows.map(format),
    '',
    `${chalk.bold('agent')} ${manifest.agent}  tools ${manifest.tools}  endpoints ${typeof manifest.endpoints === 'string' ? manifest.endpoints : manifest.endpoints.join(',')}  jobs ${manifest.jobs}${manifest.interrupted ? chalk.yellow('  (interrupted)') : ''}`,
    `  ${passes}/${graded.length} graded trials passed${errors > 0 ? chalk.red(`, ${errors} could not start`) : ''}; `
      + `mean per trial: ${seconds(mean((t) => t.wall_ms))} s wall, ${seconds(mean((t) => t.ready_ms ?? 0))} s to ready; run ${seconds(manifest.wall_ms)} s`,
    ...manifest.trials.filter((t) => t.error !== null).map((t) => `  ${chalk.red('✗')} ${t.scenario}: ${t.error}`),
    ...(manifest.warm === null ? [] : [`  warm lanes ${manifest.warm.lanes}${manifest.warm.strays.length > 0
      ? chalk.red(`; ${manifest.warm.strays.length} requests came between trials (a server kept warm is not warm-safe): ${manifest.warm.strays[0]}`) : ''}`]),
    `  ${join(out, 'run.json')}; compare with \`toolbench report ${out} OTHER\`, verify with \`toolbench replay --verify ${out}/*/\``,
    '',
  ];
  return lines.join('\n');
}
