import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { startStack, type EndpointReadiness, type EndpointSelection } from '../catalog/stack.js';
import type { WarmLane } from '../catalog/warm.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import type { ChaosLevel } from '../mocks/core/fault-plan.js';
import { childEnvironment } from '../proxy/child-env.js';
import { resolveAgentCommand, runAgent, type AgentRun } from './agent-process.js';
import { builtInAgentCommand, type BuiltInAgent } from './agents/index.js';
import type { TrialResult } from './grade/result.js';
import { gradeWorld } from './grade-world.js';
import { armEndpoints, claudeMcpConfig, genericMcpConfig, type ToolArm } from './mcp-config.js';

export interface RecordOptions {
  scenarioDir: string;
  /** A new folder: journal/, result.json, mcp.json, logs/. */
  outDir: string;
  seed?: number;
  /** A built-in agent, or a command to run. */
  agent: BuiltInAgent | { command: string[] };
  caDir?: string;
  /** 0: no limit. */
  timeoutMs?: number;
  /** Where the agent runs (default: ours, so `-- node agent.mjs` finds agent.mjs). */
  cwd?: string;
  /** Fail the trial when any API call bypassed MCP (`mcp_bypass > 0`). */
  strict?: boolean;
  /** Abort (Ctrl-C): the agent is stopped and the result marked interrupted. */
  signal?: AbortSignal;
  /** Copy the agent's output to ours. */
  echo?: boolean;
  /** A fault preset on top of the scenario's own `[[faults]]` (docs/faults.md). */
  chaos?: ChaosLevel;
  /**
   * The MCP endpoints the agent gets (default `all`: every catalog endpoint, the services the
   * scenario does not name answering from the baseline dataset; docs/trials.md).
   */
  endpoints?: EndpointSelection;
  /** Which tools the agent's MCP config offers: every endpoint (default) or only the router. */
  tools?: ToolArm;
  /** Per endpoint, how long its server may take to list its tools (default 120 s). */
  readyTimeoutMs?: number;
  /** Told as each endpoint becomes ready (its tool list answered). */
  onReady?: (ready: EndpointReadiness) => void;
  /** Take warm-safe endpoints from this lane and leave new ones there (`toolbench run`; catalog/warm.ts). */
  lane?: WarmLane;
}

/** `OUT/startup.json`: how the trial's endpoints came up (wall clock; `toolbench run` sums it up). */
export const TrialStartupSchema = z.object({
  /** From the start of the stack to every endpoint ready, in ms. */
  ready_ms: z.number().int().nonnegative(),
  /** In catalog order: each endpoint's time from spawn to its tool list, and its tool count. */
  endpoints: z.array(z.object({
    endpoint: z.string(), ready_ms: z.number().int().nonnegative(), tools: z.number().int().nonnegative(),
    /** Taken running from the run's warm lane (`ready_ms` is then its first start's). */
    warm: z.boolean().optional(),
  })),
});
export type TrialStartup = z.infer<typeof TrialStartupSchema>;

export interface RecordedTrial {
  result: TrialResult;
  outDir: string;
  journalDir: string;
  /** The last lines of the agent's stderr (printed when it failed). */
  agentStderr: string;
  /** How the endpoints came up (also in OUT/startup.json). */
  startup: TrialStartup;
}

/**
 * The environment an agent inherits: the caller's, less every `TOOLBENCH_*` variable (an admin
 * token or a scenario path of the caller's must not reach it).
 */
export function inheritedEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('TOOLBENCH_')));
}

/**
 * One trial: the scenario's world, proxy, MCP endpoints and bridges up; the agent run with the
 * MCP config and the proxy/CA environment (but no endpoint credential, so its own API calls are
 * `direct`); then graded from the final state and the journal, and everything closed.
 */
export async function recordTrial(options: RecordOptions): Promise<RecordedTrial> {
  const outDir = resolve(options.outDir);
  const outExisted = existsSync(outDir);
  if (outExisted && readdirSync(outDir).length > 0) {
    throw new ToolbenchError('TB_ERR_USAGE', `out folder ${outDir} exists and is not empty; choose a new one (a trial never overwrites another)`);
  }
  const timeoutMs = options.timeoutMs ?? 0;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0 || timeoutMs > 2 ** 31 - 1) {
    throw new ToolbenchError('TB_ERR_USAGE', `timeout ${timeoutMs / 1000} s: give a positive number of seconds (at most 24 days)`);
  }
  const instructionPath = join(resolve(options.scenarioDir), 'instruction.md');
  if (!existsSync(instructionPath)) throw new ToolbenchError('TB_ERR_SCENARIO', `${instructionPath}: file not found (every scenario has an instruction)`);
  const instruction = readFileSync(instructionPath, 'utf8');
  const cwd = resolve(options.cwd ?? process.cwd());
  const inherited = inheritedEnvironment(process.env);
  const command = typeof options.agent === 'string' ? builtInAgentCommand(options.agent) : options.agent.command;
  // A missing agent is a one-line usage error, before anything is started or written.
  resolveAgentCommand(command, cwd, inherited);
  mkdirSync(outDir, { recursive: true });
  const journalDir = join(outDir, 'journal');
  let ran = false;
  try {
    const began = performance.now();
    const stack = await startStack({
      scenarioDir: options.scenarioDir, seed: options.seed, journalDir, ports: 'ephemeral', caDir: options.caDir, chaos: options.chaos,
      endpoints: options.endpoints ?? 'all', logDir: join(outDir, 'logs'), router: options.tools === 'router', readyTimeoutMs: options.readyTimeoutMs, onReady: options.onReady, lane: options.lane,
    });
    try {
      const startup: TrialStartup = {
        ready_ms: Math.round(performance.now() - began),
        endpoints: [...stack.endpoints.values()].map(({ readiness }) => ({
          endpoint: readiness.endpoint, ready_ms: readiness.readyMs, tools: readiness.tools, ...(readiness.warm ? { warm: true } : {}),
        })),
      };
      writeFileSync(join(outDir, 'startup.json'), JSON.stringify(startup, null, 2) + '\n');
      const { world } = stack;
      const proxy = stack.proxy!;
      const mcp = armEndpoints(options.tools ?? 'all', stack.addresses());
      const mcpPath = join(outDir, 'mcp.json');
      writeFileSync(mcpPath, JSON.stringify(claudeMcpConfig(mcp), null, 2) + '\n');
      writeFileSync(join(outDir, 'mcp.generic.json'), JSON.stringify(genericMcpConfig(mcp), null, 2) + '\n');
      // The agent's own copy: a path into the scenario folder would hand it the expectations and the solution.
      const agentInstruction = join(outDir, 'instruction.md');
      writeFileSync(agentInstruction, instruction);
      const answerPath = join(outDir, 'answer.txt');
      const agentName = typeof options.agent === 'string' ? options.agent : options.agent.command.join(' ');
      const env: Record<string, string> = {
        ...inherited,
        // No credential: the agent's own API calls are `direct`. The preload joins the caller's Node options.
        ...childEnvironment({ proxyUrl: proxy.proxy.url, ca: proxy.certs.ca, nodeOptions: process.env.NODE_OPTIONS }),
        TOOLBENCH_OUT: outDir,
        TOOLBENCH_MCP_CONFIG: mcpPath,
        TOOLBENCH_INSTRUCTION: instruction,
        TOOLBENCH_INSTRUCTION_FILE: agentInstruction,
        TOOLBENCH_ANSWER_FILE: answerPath,
        // The oracle's privilege (it replays the scenario's solution); no other agent gets it.
        ...(options.agent === 'oracle' ? { TOOLBENCH_SCENARIO: resolve(options.scenarioDir) } : {}),
      };
      let run: AgentRun;
      if (options.signal?.aborted) run = { code: null, signal: null, output: '', stderrTail: '', timedOut: false, aborted: true };
      else run = await runAgent({ command, env, cwd, logPath: join(outDir, 'agent.log'), echo: options.echo ?? false, timeoutMs, signal: options.signal });
      ran = true;

      const result = await gradeWorld(stack, {
        agent: agentName, answer: existsSync(answerPath) ? readFileSync(answerPath, 'utf8') : null,
        output: run.output, exit: { code: run.code, signal: run.signal }, interrupted: run.aborted, timedOut: run.timedOut,
        strict: options.strict ?? false, tools: options.tools ?? 'all',
      });
      writeFileSync(join(outDir, 'result.json'), JSON.stringify(result, null, 2) + '\n');
      return { result, outDir, journalDir, agentStderr: run.stderrTail, startup };
    } finally {
      await stack.close();
    }
  } catch (error) {
    // Nothing ran: leave nothing behind, so the same --out can be used again.
    if (!ran) {
      rmSync(outDir, { recursive: true, force: true });
      if (outExisted) mkdirSync(outDir);
    }
    throw error;
  }
}
