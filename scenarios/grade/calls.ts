import type { JournalEntry, McpRecord } from '../../mocks/core/journal-format.js';
import type { CallMatcher } from '../expectations.js';
import { compileNameGlob, compilePathPattern } from '../../mocks/core/patterns.js';
import { bodyForPredicates } from '../../mocks/kit/bodies.js';
import { matches } from '../predicates.js';
import type { CheckResult } from './state.js';


/** A path pattern as a test (mocks/core/patterns.ts: `:x` and `*` one segment, `**` any number). */
export const pathPattern = compilePathPattern;

function statusMatches(status: number, want: CallMatcher['status'], fallback: 'any' | '2xx'): boolean {
  const expected = want ?? fallback;
  if (expected === 'any') return true;
  if (typeof expected === 'number') return status === expected;
  return Math.floor(status / 100) === Number(expected[0]);
}


function toolMatches(matcher: NonNullable<CallMatcher['tool']>, endpoint: string | null, tool: string | null, args: unknown): boolean {
  if (matcher.endpoint !== undefined && matcher.endpoint !== endpoint) return false;
  if (matcher.name !== undefined && matcher.name !== tool) return false;
  return matches(args ?? {}, matcher.arguments);
}

/** World requests (and, for tool-only matchers, MCP calls) that a matcher selects. */
export function matchingCalls(matcher: CallMatcher, entries: readonly JournalEntry[], mcp: readonly McpRecord[], fallbackStatus: 'any' | '2xx'): string[] {
  const calls = mcp.filter((r) => r.kind === 'call');
  if (matcher.method === undefined && matcher.path === undefined && matcher.host === undefined && matcher.operation === undefined && matcher.tool) {
    return calls
      .filter((r) => (fallbackStatus === 'any' || !r.isError) && toolMatches(matcher.tool!, r.endpoint, r.tool, r.arguments))
      .map((r) => `${r.callId} ${r.tool}`);
  }
  const path = matcher.path === undefined ? null : compilePathPattern(matcher.path);
  const operation = matcher.operation === undefined ? null : compileNameGlob(matcher.operation);
  const argsOf = new Map(calls.map((r) => [r.callId, r.arguments]));
  return entries.filter((entry) => {
    if (entry.kind !== 'http') return false;
    if (matcher.method !== undefined && entry.method !== matcher.method) return false;
    if (matcher.host !== undefined && entry.host !== matcher.host) return false;
    const [pathPart, query = ''] = entry.target.split('?', 2) as [string, string?];
    if (path && !path(pathPart)) return false;
    if (operation && !operation(entry.operation?.name)) return false;
    if (Object.keys(matcher.query).length > 0 && !matches(Object.fromEntries(new URLSearchParams(query)), matcher.query)) return false;
    // The body decoded by its content type: JSON, forms (nested), multipart, GraphQL.
    if (matcher.body !== undefined && !matches(bodyForPredicates(entry.request.headers, entry.request.body), matcher.body)) return false;
    if (!statusMatches(entry.response.status, matcher.status, fallbackStatus)) return false;
    if (matcher.tool) {
      const a = entry.attribution;
      if (!a || !toolMatches(matcher.tool, a.endpoint, a.tool, a.callId ? argsOf.get(a.callId) : undefined)) return false;
    }
    return true;
  }).map((entry) => `#${entry.seq} ${entry.method} ${entry.target} → ${entry.response.status}`);
}

function describe(matcher: CallMatcher): string {
  if (matcher.description) return matcher.description;
  const parts = [matcher.method, matcher.host, matcher.path, matcher.operation].filter(Boolean).join(' ');
  const tool = matcher.tool ? ` via ${matcher.tool.endpoint ?? '*'}.${matcher.tool.name ?? '*'}` : '';
  return `${parts}${tool}`.trim();
}

export function gradeRequired(matchers: readonly CallMatcher[], entries: readonly JournalEntry[], mcp: readonly McpRecord[]): CheckResult[] {
  return matchers.map((matcher) => {
    const found = matchingCalls(matcher, entries, mcp, '2xx');
    return { kind: 'required_call', ok: found.length >= matcher.min, description: describe(matcher), detail: `${found.length} of ${matcher.min} required${found.length ? `: ${found.slice(0, 3).join(', ')}` : ''}` };
  });
}

export function gradeForbidden(matchers: readonly CallMatcher[], entries: readonly JournalEntry[], mcp: readonly McpRecord[]): CheckResult[] {
  // What a server asks while starting (before the agent has any tool) is not the agent's doing:
  // with every catalog endpoint attached, a host-less `path = "/v1/**"` would otherwise catch a
  // distractor's startup reads.
  const agents = entries.filter((entry) => entry.attribution?.kind !== 'startup');
  return matchers.map((matcher) => {
    const found = matchingCalls(matcher, agents, mcp, 'any');
    return { kind: 'forbidden_call', ok: found.length === 0, description: describe(matcher), detail: found.length === 0 ? 'not made' : `made: ${found.slice(0, 3).join(', ')}` };
  });
}
