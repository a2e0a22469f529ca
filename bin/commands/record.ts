import { existsSync } from 'node:fs';
import type { ChalkInstance } from 'chalk';
import type { CommandModule } from 'yargs';
import { DEFAULT_CA_DIR } from '../../certs/index.js';
import { BUILT_IN_AGENTS, type BuiltInAgent } from '../../scenarios/agents/index.js';
import type { TrialResult } from '../../scenarios/grade/result.js';
import { TOOL_ARMS, type ToolArm } from '../../scenarios/mcp-config.js';
import { recordTrial } from '../../scenarios/record.js';
import { ToolbenchError } from '../../mocks/core/errors.js';
import { CHAOS_LEVELS, type ChaosLevel } from '../../mocks/core/fault-plan.js';
import { colors } from '../../replay/colors.js';
import { parseEndpointSelection } from '../../catalog/endpoint-selection.js';
import { DEFAULT_SCENARIO, endpointsOption, readyTimeoutMs, readyTimeoutOption, seedOption } from '../shared.js';

interface RecordArgs {
  scenario: string;
  out?: string;
  seed?: number;
  agent?: BuiltInAgent;
  'ca-dir': string;
  timeout: number;
  chaos: ChaosLevel;
  json: boolean;
  quiet: boolean;
  strict: boolean;
  endpoints: string;
  tools: ToolArm;
  'ready-timeout': number;
  '--'?: (string | number)[];
}

export const recordCommand: CommandModule<{}, RecordArgs> = {
  command: 'record [options] [-- AGENT...]',
  describe: 'Run one trial: world, proxy and MCP endpoints up, the agent run, the result graded and journaled',
  builder: (y) => y
    .parserConfiguration({ 'populate--': true })
    .option('scenario', { type: 'string', default: DEFAULT_SCENARIO, describe: 'Scenario directory' })
    .option('out', { type: 'string', describe: 'New folder for journal/, result.json, mcp.json, logs/ (default: runs/<scenario>-<agent>-<n>)' })
    .option('seed', seedOption)
    .option('agent', { choices: BUILT_IN_AGENTS, describe: 'A built-in agent (oracle: the scenario\'s solution; nop: nothing); default oracle unless a command follows --' })
    .option('ca-dir', { type: 'string', default: DEFAULT_CA_DIR, describe: 'CA directory (made if missing)' })
    .option('timeout', { type: 'number', default: 1800, describe: 'Seconds before the agent (its whole process group) is stopped; the result says timed_out' })
    .option('strict', { type: 'boolean', default: false, describe: 'Fail the trial when any API call bypassed MCP (mcp_bypass > 0)' })
    .option('chaos', { choices: CHAOS_LEVELS, default: 'none' as ChaosLevel, describe: 'Fault preset added to the scenario\'s [[faults]] (docs/faults.md)' })
    .option('endpoints', endpointsOption)
    .option('tools', { choices: TOOL_ARMS, default: 'all' as ToolArm, describe: 'The agent\'s MCP config: every endpoint\'s tools upfront (all), or only the router\'s search_tools and call_tool (router)' })
    .option('ready-timeout', readyTimeoutOption)
    .option('json', { type: 'boolean', default: false, describe: 'Print result.json instead of the summary' })
    .option('quiet', { type: 'boolean', default: false, describe: 'Do not echo the agent\'s output' })
    .example('$0 record --agent oracle', 'the example scenario, solved by its oracle')
    .example('$0 record --scenario scenarios/code/github/fix-typo-release-branch -- node my-agent.mjs', 'your own agent (docs/agents.md)')
    .epilogue('The agent runs in the current folder, in its own process group, with the environment of docs/trials.md. '
      + 'Exit status: 0 when the trial was graded (whatever its reward), 2 for bad input (nothing is left behind), '
      + '130 when interrupted (Ctrl-C: the agent is stopped, the journal and result.json are still written; a second Ctrl-C quits at once).'),
  handler: async (args) => {
    if (!Number.isFinite(args.timeout) || args.timeout <= 0) {
      throw new ToolbenchError('TB_ERR_USAGE', `--timeout ${args.timeout}: give a positive number of seconds`);
    }
    const command = (args['--'] ?? []).map(String);
    if (command.length > 0 && args.agent) throw new ToolbenchError('TB_ERR_USAGE', 'give either --agent or a command after --, not both');
    const agent = command.length > 0 ? { command } : (args.agent ?? 'oracle');
    const label = typeof agent === 'string' ? agent : 'agent';
    const out = args.out ?? defaultOut(args.scenario, label);
    const abort = new AbortController();
    let interrupts = 0;
    const onSignal = () => {
      interrupts += 1;
      if (interrupts > 1) process.exit(130);
      process.stderr.write('toolbench record: stopping the agent; the journal and an interrupted result will still be written (Ctrl-C again to quit at once)\n');
      abort.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const { result, outDir, agentStderr } = await recordTrial({
        scenarioDir: args.scenario, outDir: out, seed: args.seed, agent, caDir: args['ca-dir'], strict: args.strict,
        timeoutMs: args.timeout * 1000, signal: abort.signal, chaos: args.chaos, echo: !args.quiet && !args.json,
        endpoints: parseEndpointSelection(args.endpoints), tools: args.tools, readyTimeoutMs: readyTimeoutMs(args['ready-timeout']),
      });
      if (args.json) process.stdout.write(JSON.stringify(result) + '\n');
      else process.stdout.write(summary(result, outDir, colors(process.env.NO_COLOR)));
      const exit = result.agent_exit;
      if (!result.interrupted && !result.timed_out && (exit.signal !== null || (exit.code !== null && exit.code !== 0))) {
        process.stderr.write(`toolbench record: the agent exited with ${exit.signal ?? `code ${exit.code}`}`
          + (agentStderr ? `; the last lines of its stderr (all of it in ${outDir}/agent.log):\n${agentStderr.replace(/^/gm, '  ')}\n` : ' and wrote nothing to stderr\n'));
      }
      if (result.interrupted) process.exitCode = 130;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};

function defaultOut(scenario: string, agent: string): string {
  const name = scenario.replace(/\/+$/, '').split('/').slice(-2).join('-');
  let n = 1;
  // A fresh folder each time: runs/<scenario>-<agent>-<n>.
  for (;; n++) {
    const candidate = `runs/${name}-${agent}-${n}`;
    if (!existsSync(candidate)) return candidate;
  }
}

export function summary(result: TrialResult, outDir: string, chalk: ChalkInstance): string {
  const mark = (ok: boolean) => (ok ? chalk.green('pass') : chalk.red('FAIL'));
  const lines = [
    '',
    `${chalk.bold(result.scenario)}  agent ${result.agent}  seed ${result.seed}${result.interrupted ? chalk.yellow('  (interrupted)') : ''}`
      + `${result.timed_out ? chalk.yellow('  (timed out)') : ''}${result.strict ? '  strict' : ''}`,
    `  reward ${result.reward === 1 ? chalk.green('1') : chalk.red('0')}  outcome ${result.outcome_code}  R_c ${result.r_c.toFixed(2)}  R_b ${result.r_b.toFixed(4)}`,
    `  state ${mark(result.state_ok)}  required calls ${mark(result.required_calls_ok)}  forbidden calls ${mark(result.forbidden_calls_ok)}  answer ${mark(result.answer_ok)}`,
    `  api_calls ${result.api_calls}  mcp_bypass ${result.mcp_bypass}  mcp tool calls ${result.mcp_calls}  world requests ${result.world_requests}`
      + `  agent exit ${result.agent_exit.signal ?? result.agent_exit.code}`,
    ...result.checks.filter((c) => !c.ok).map((c) => `  ${chalk.red('✗')} ${c.kind}: ${c.description} (${c.detail})`),
    ...result.unintended.slice(0, 5).map((u) => `  ${chalk.yellow('!')} unintended: ${u}`),
    `  ${outDir}/result.json, journal at ${outDir}/journal`,
    '',
  ];
  return lines.join('\n');
}
