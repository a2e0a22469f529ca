import type { ToolArm } from './mcp-config.js';
import type { OpenedWorld } from './world.js';
import type { AdminRoutes } from '../mocks/core/admin.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import type { JournalEntry, McpRecord } from '../mocks/core/journal-format.js';
import { GradingError, gradeTrial } from './grade/index.js';
import { TrialResultSchema, type TrialResult } from './grade/result.js';
import type { ServiceStates, VolatileFields } from './grade/state.js';

export interface AgentOutcome {
  agent: string;
  answer: string | null;
  output: string;
  exit: { code: number | null; signal: string | null };
  interrupted: boolean;
  /** The agent ran past its timeout. */
  timedOut?: boolean;
  /** Fail on any MCP bypass (record --strict). */
  strict?: boolean;
  /** The tool arm the agent was given (record --tools). */
  tools?: ToolArm;
}

/**
 * Grades a running world: its state now against its state as loaded, its journal and MCP records,
 * the agent's outcome. Only the scenario's services and those the trial loaded are compared: a
 * service never loaded is as it would load (a baseline distractor no one called), so loading all
 * 29 to diff them against themselves would only cost a second per trial.
 */
export async function gradeWorld(opened: OpenedWorld, outcome: AgentOutcome): Promise<TrialResult> {
  const { world, manifest, header } = opened;
  await world.journal.flush();
  const entries: JournalEntry[] = [];
  for await (const entry of world.journal.entries()) entries.push(entry);
  const mcp: McpRecord[] = [];
  for await (const record of world.journal.mcpRecords()) mcp.push(record);
  const volatile: VolatileFields = {};
  for (const service of world.serviceIds) {
    const declared = world.definition(service)?.volatile;
    if (declared) volatile[service] = { ...declared };
  }
  const graded = [...new Set([...manifest.services, ...world.loadedServiceIds])];
  const final = world.gradingState('now', graded);
  const initial = world.gradingState('initial', graded);
  try {
    return TrialResultSchema.parse(gradeTrial({
      scenario: manifest, seed: header.seed, agent: outcome.agent, initial, final, volatile, entries, mcp,
      answer: outcome.answer, agentOutput: outcome.output, agentExit: outcome.exit, interrupted: outcome.interrupted,
      timedOut: outcome.timedOut, strict: outcome.strict, tools: outcome.tools,
    }));
  } catch (error) {
    if (error instanceof GradingError) throw new ToolbenchError('TB_ERR_SCENARIO', error.message);
    throw error;
  }
}

/**
 * `POST /_bench/grade` on the admin API: the body is the agent's answer (empty: none); the reply
 * is the trial's result.json. For worlds whose agent runs elsewhere (a Harbor task's verifier).
 */
export function gradingRoutes(opened: OpenedWorld): AdminRoutes {
  return {
    'POST /_bench/grade': async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      const agent = typeof req.headers['x-toolbench-agent'] === 'string' ? req.headers['x-toolbench-agent'] : 'external';
      const result = await gradeWorld(opened, { agent, answer: text.length > 0 ? text : null, output: '', exit: { code: null, signal: null }, interrupted: false });
      const body = JSON.stringify(result, null, 2) + '\n';
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    },
  };
}
