import { z } from 'zod';
import { TOOL_ARMS } from '../mcp-config.js';

/** `result.json`: one trial's grade. Its zod schema is the format's single source of truth. */
export const CheckResultSchema = z.object({
  /** `bypass`: a strict trial (record --strict, or the scenario's `strict = true`) made API calls outside MCP. */
  kind: z.enum(['state', 'required_call', 'forbidden_call', 'answer', 'bypass']),
  ok: z.boolean(),
  description: z.string(),
  detail: z.string(),
});

export const TrialResultSchema = z.object({
  format: z.literal(1),
  scenario: z.string(),
  seed: z.number().int(),
  agent: z.string(),
  state_ok: z.boolean(),
  required_calls_ok: z.boolean(),
  forbidden_calls_ok: z.boolean(),
  answer_ok: z.boolean(),
  /** 1 when all four checks pass (and, when strict, nothing bypassed MCP) and the agent was neither timed out nor interrupted, else 0. */
  reward: z.union([z.literal(0), z.literal(1)]),
  /** 0 pass, 1 fail, 2 context overflow. */
  outcome_code: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  api_calls: z.number().int().nonnegative(),
  mcp_bypass: z.number().int().nonnegative(),
  mcp_calls: z.number().int().nonnegative(),
  r_c: z.number().min(0).max(1),
  r_b: z.number().min(0),
  unintended_changes: z.number().int().nonnegative(),
  unintended: z.array(z.string()),
  checks: z.array(CheckResultSchema),
  /** The trial was stopped by Ctrl-C (or SIGTERM to toolbench). */
  interrupted: z.boolean(),
  /** The agent was stopped because it ran past --timeout. */
  timed_out: z.boolean().default(false),
  /** Graded strictly: any call that bypassed MCP fails the trial. */
  strict: z.boolean().default(false),
  agent_exit: z.object({ code: z.number().int().nullable(), signal: z.string().nullable() }),
  /** The tool arm the agent was given (`record --tools`): every endpoint's tools, or only the router's. */
  tools: z.enum(TOOL_ARMS).default('all'),
  /** The last world sequence number: the journal's length. */
  world_requests: z.number().int().nonnegative(),
});
export type TrialResult = z.infer<typeof TrialResultSchema>;

/** What an agent writes (to its answer file or its output) when its context overflowed. */
export const OVERFLOW_MARKER = 'TOOLBENCH_CONTEXT_OVERFLOW';
