import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { caTrustEnvironment } from '../certs/index.js';
import { startStack } from '../catalog/stack.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import type { ChaosLevel } from '../mocks/core/fault-plan.js';
import { proxyEnvironment } from '../proxy/child-env.js';
import { runAgent, type AgentRun } from './agent-process.js';
import { builtInAgentCommand, type BuiltInAgent } from './agents/index.js';
import type { TrialResult } from './grade/result.js';
import { gradeWorld } from './grade-world.js';
import { claudeMcpConfig, genericMcpConfig } from './mcp-config.js';

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
  /** Abort (Ctrl-C): the agent is stopped and the result marked interrupted. */
  signal?: AbortSignal;
  /** Copy the agent's output to ours. */
  echo?: boolean;
  /** A fault preset on top of the scenario's own `[[faults]]` (docs/faults.md). */
  chaos?: ChaosLevel;
}

export interface RecordedTrial {
  result: TrialResult;
  outDir: string;
  journalDir: string;
}

/**
 * One trial: the scenario's world, proxy, MCP endpoints and bridges up; the agent run with the
 * MCP config and the proxy/CA environment (but no endpoint credential, so its own API calls are
 * `direct`); then graded from the final state and the journal, and everything closed.
 */
export async function recordTrial(options: RecordOptions): Promise<RecordedTrial> {
  const outDir = resolve(options.outDir);
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    throw new ToolbenchError('TB_ERR_USAGE', `out folder ${outDir} exists and is not empty; choose a new one (a trial never overwrites another)`);
  }
  const instructionPath = join(resolve(options.scenarioDir), 'instruction.md');
  if (!existsSync(instructionPath)) throw new ToolbenchError('TB_ERR_SCENARIO', `${instructionPath}: file not found (every scenario has an instruction)`);
  const instruction = readFileSync(instructionPath, 'utf8');
  mkdirSync(outDir, { recursive: true });
  const journalDir = join(outDir, 'journal');
  const stack = await startStack({
    scenarioDir: options.scenarioDir, seed: options.seed, journalDir, ports: 'ephemeral', caDir: options.caDir, chaos: options.chaos,
    endpoints: true, logDir: join(outDir, 'logs'),
  });
  try {
    const { world } = stack;
    const proxy = stack.proxy!;
    const initial = world.gradingState('initial');
    const addresses = stack.addresses();
    const mcpPath = join(outDir, 'mcp.json');
    writeFileSync(mcpPath, JSON.stringify(claudeMcpConfig(addresses.mcp), null, 2) + '\n');
    writeFileSync(join(outDir, 'mcp.generic.json'), JSON.stringify(genericMcpConfig(addresses.mcp), null, 2) + '\n');
    const answerPath = join(outDir, 'answer.txt');
    const agentName = typeof options.agent === 'string' ? options.agent : options.agent.command.join(' ');
    const command = typeof options.agent === 'string' ? builtInAgentCommand(options.agent) : options.agent.command;
    const proxyEnv = proxyEnvironment(proxy.proxy.url);
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      ...proxyEnv,
      // The preload joins the caller's own Node options rather than replacing them.
      NODE_OPTIONS: [process.env.NODE_OPTIONS, proxyEnv.NODE_OPTIONS].filter(Boolean).join(' '),
      ...caTrustEnvironment(proxy.certs.ca),
      TOOLBENCH_MCP_CONFIG: mcpPath,
      TOOLBENCH_INSTRUCTION: instruction,
      TOOLBENCH_INSTRUCTION_FILE: instructionPath,
      TOOLBENCH_ANSWER_FILE: answerPath,
      ...(options.agent === 'oracle' ? { TOOLBENCH_SCENARIO: resolve(options.scenarioDir) } : {}),
    };
    let run: AgentRun;
    if (options.signal?.aborted) run = { code: null, signal: null, output: '', timedOut: false, aborted: true };
    else run = await runAgent({ command, env, cwd: outDir, logPath: join(outDir, 'agent.log'), echo: options.echo ?? false, timeoutMs: options.timeoutMs ?? 0, signal: options.signal });

    const result = await gradeWorld(stack, initial, {
      agent: agentName, answer: existsSync(answerPath) ? readFileSync(answerPath, 'utf8') : null,
      output: run.output, exit: { code: run.code, signal: run.signal }, interrupted: run.aborted || run.timedOut,
    });
    writeFileSync(join(outDir, 'result.json'), JSON.stringify(result, null, 2) + '\n');
    return { result, outDir, journalDir };
  } finally {
    await stack.close();
  }
}
