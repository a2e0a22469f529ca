import type { JournalEntry, McpRecord } from '../../mocks/core/journal-format.js';
import type { CallMatcher } from '../expectations.js';
import { matches } from '../predicates.js';
import type { CheckResult } from './state.js';

const utf8 = new TextDecoder();

/**
 * `/repos/:owner/:repo/issues` → a regex: `:x` one segment, `*` the rest of a segment, `**`
 * anything; a final `/**` also matches the bare prefix (`/repos/acme/infra/**` matches `/repos/acme/infra`).
 */
export function pathPattern(pattern: string): RegExp {
  const source = pattern.split(/(\/\*\*$|\*\*|\*|:[A-Za-z_][A-Za-z0-9_]*)/).map((part) => {
    if (part === '/**') return '(?:/.*)?';
    if (part === '**') return '.*';
    if (part === '*') return '[^/]*';
    if (part.startsWith(':')) return '[^/]+';
    return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }).join('');
  return new RegExp(`^${source}$`);
}

function statusMatches(status: number, want: CallMatcher['status'], fallback: 'any' | '2xx'): boolean {
  const expected = want ?? fallback;
  if (expected === 'any') return true;
  if (typeof expected === 'number') return status === expected;
  return Math.floor(status / 100) === Number(expected[0]);
}

function jsonBody(entry: JournalEntry): unknown {
  if (entry.request.body.length === 0) return undefined;
  try {
    return JSON.parse(utf8.decode(entry.request.body));
  } catch {
    return undefined;
  }
}

function toolMatches(matcher: NonNullable<CallMatcher['tool']>, endpoint: string | null, tool: string | null, args: unknown): boolean {
  if (matcher.endpoint !== undefined && matcher.endpoint !== endpoint) return false;
  if (matcher.name !== undefined && matcher.name !== tool) return false;
  return matches(args ?? {}, matcher.arguments);
}

/** World requests (and, for tool-only matchers, MCP calls) that a matcher selects. */
export function matchingCalls(matcher: CallMatcher, entries: readonly JournalEntry[], mcp: readonly McpRecord[], fallbackStatus: 'any' | '2xx'): string[] {
  const calls = mcp.filter((r) => r.kind === 'call');
  if (matcher.method === undefined && matcher.path === undefined && matcher.host === undefined && matcher.tool) {
    return calls
      .filter((r) => (fallbackStatus === 'any' || !r.isError) && toolMatches(matcher.tool!, r.endpoint, r.tool, r.arguments))
      .map((r) => `${r.callId} ${r.tool}`);
  }
  const path = matcher.path === undefined ? null : pathPattern(matcher.path);
  const argsOf = new Map(calls.map((r) => [r.callId, r.arguments]));
  return entries.filter((entry) => {
    if (entry.kind !== 'http') return false;
    if (matcher.method !== undefined && entry.method !== matcher.method) return false;
    if (matcher.host !== undefined && entry.host !== matcher.host) return false;
    const [pathPart, query = ''] = entry.target.split('?', 2) as [string, string?];
    if (path && !path.test(pathPart)) return false;
    if (Object.keys(matcher.query).length > 0 && !matches(Object.fromEntries(new URLSearchParams(query)), matcher.query)) return false;
    if (matcher.body !== undefined && !matches(jsonBody(entry), matcher.body)) return false;
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
  const parts = [matcher.method, matcher.host, matcher.path].filter(Boolean).join(' ');
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
  return matchers.map((matcher) => {
    const found = matchingCalls(matcher, entries, mcp, 'any');
    return { kind: 'forbidden_call', ok: found.length === 0, description: describe(matcher), detail: found.length === 0 ? 'not made' : `made: ${found.slice(0, 3).join(', ')}` };
  });
}
