import type { ToolArm } from '../mcp-config.js';
import type { JournalEntry, McpRecord } from '../../mocks/core/journal-format.js';
import { alternatives, type RequiredCall } from '../expectations.js';
import type { ScenarioManifest } from '../manifest.js';
import { gradeAnswer } from './answer.js';
import { gradeForbidden, gradeRequired } from './calls.js';
import { OVERFLOW_MARKER, type TrialResult } from './result.js';
import { gradeState, volatileProblems, type CheckResult, type ServiceStates, type VolatileFields } from './state.js';

export interface GradeInput {
  scenario: ScenarioManifest;
  seed: number;
  agent: string;
  initial: ServiceStates;
  final: ServiceStates;
  /** The services' declared volatile fields. */
  volatile: VolatileFields;
  entries: readonly JournalEntry[];
  mcp: readonly McpRecord[];
  /** The answer file's text; null when the agent wrote none. */
  answer: string | null;
  /** What the agent printed (for the overflow marker). */
  agentOutput: string;
  agentExit: { code: number | null; signal: string | null };
  interrupted: boolean;
  /** Stopped at its timeout (a failure, reported apart from an interruption). */
  timedOut?: boolean;
  /** Fail the trial when any API call bypassed MCP (also the scenario's `strict = true`). */
  strict?: boolean;
  /** The tool arm the agent was given (default all). */
  tools?: ToolArm;
}

export class GradingError extends Error {
  override name = 'GradingError';
}

/** Merges the scenario's `expect.ignore` (`service.collection.field`) into the services' volatile fields. */
export function withIgnores(volatile: VolatileFields, ignore: readonly string[]): { merged: VolatileFields; scenarioOnly: VolatileFields } {
  const merged: VolatileFields = structuredClone(volatile) as VolatileFields;
  const scenarioOnly: VolatileFields = {};
  for (const item of ignore) {
    const [service, collection, ...rest] = item.split('.');
    const field = rest.join('.');
    for (const target of [merged, scenarioOnly]) {
      const collections = (target[service!] ??= {});
      const current = collections[collection!];
      if (field === '*') collections[collection!] = '*';
      else if (current !== '*') collections[collection!] = [...(current ?? []), field];
    }
  }
  return { merged, scenarioOnly };
}

/** One check per required call; an `any_of` passes when one of its alternatives does. */
export function gradeRequiredCalls(calls: readonly RequiredCall[], entries: readonly JournalEntry[], mcp: readonly McpRecord[]): CheckResult[] {
  return calls.map((call) => {
    const tried = gradeRequired(alternatives(call), entries, mcp);
    if (!('any_of' in call)) return tried[0]!;
    const met = tried.find((c) => c.ok);
    const description = call.description || tried.map((c) => c.description).join(' or ');
    return { kind: 'required_call', ok: met !== undefined, description, detail: met ? met.detail : tried.map((c) => c.detail).join('; ') };
  });
}

/** The grade of one trial, from the world's state and the journal only: no model in the loop. */
export function gradeTrial(input: GradeInput): TrialResult {
  const { scenario } = input;
  const { merged, scenarioOnly } = withIgnores(input.volatile, scenario.expect.ignore);
  const problems = [
    ...volatileProblems(input.volatile, [input.initial, input.final], { strict: false }),
    ...volatileProblems(scenarioOnly, [input.initial, input.final], { strict: true }),
  ];
  if (problems.length > 0) throw new GradingError(`cannot grade ${scenario.id}: ignored fields that do not exist:\n  ${problems.join('\n  ')}`);

  const state = gradeState(scenario.expect.state, input.initial, input.final, merged, new Set(scenario.services));
  const http = input.entries.filter((e) => e.kind === 'http');
  const required = gradeRequiredCalls(scenario.expect.required_calls, http, input.mcp);
  const forbidden = gradeForbidden(scenario.expect.forbidden_calls, http, input.mcp);
  const answer = gradeAnswer(scenario.expect.answer, input.answer);
  const ok = (checks: { ok: boolean }[]) => checks.every((c) => c.ok);
  const flags = { state_ok: state.state_ok, required_calls_ok: ok(required), forbidden_calls_ok: ok(forbidden), answer_ok: ok(answer) };
  const bypass = http.filter((e) => e.attribution?.kind === 'direct');
  const strict = (input.strict ?? false) || scenario.strict;
  const bypassCheck = strict
    ? [{ kind: 'bypass' as const, ok: bypass.length === 0, description: 'no API call bypasses MCP (strict)',
      detail: bypass.length === 0 ? 'none' : `${bypass.length} direct: ${bypass.slice(0, 3).map((e) => `#${e.seq} ${e.method} ${e.target}`).join(', ')}` }]
    : [];
  const timedOut = input.timedOut ?? false;
  const pass = Object.values(flags).every(Boolean) && ok(bypassCheck) && !input.interrupted && !timedOut;
  const mcpCalls = input.mcp.filter((r) => r.kind === 'call').length;
  const overflow = (input.answer ?? '').includes(OVERFLOW_MARKER) || (mcpCalls === 0 && input.agentOutput.includes(OVERFLOW_MARKER));
  return {
    format: 1,
    scenario: scenario.id,
    seed: input.seed,
    agent: input.agent,
    ...flags,
    reward: pass ? 1 : 0,
    outcome_code: overflow ? 2 : pass ? 0 : 1,
    // Neither a server's start nor its own background work between tool calls (client-go's
    // discovery refresh in kubernetes-mcp-server): no agent asked for those.
    api_calls: http.filter((e) => e.attribution?.kind !== 'startup' && !(e.attribution?.kind === 'mcp' && e.attribution.callId === null)).length,
    mcp_bypass: bypass.length,
    mcp_calls: mcpCalls,
    r_c: state.r_c,
    r_b: state.r_b,
    unintended_changes: state.unintended_changes,
    unintended: state.unintended.slice(0, 50),
    checks: [...state.checks, ...required, ...forbidden, ...answer, ...bypassCheck],
    interrupted: input.interrupted,
    timed_out: timedOut,
    strict,
    agent_exit: input.agentExit,
    tools: input.tools ?? 'all',
    world_requests: input.entries.at(-1)?.seq ?? 0,
  };
}
