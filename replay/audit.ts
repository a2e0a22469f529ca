import type { JournalEntry, McpRecord } from '../mocks/core/journal-format.js';
import { attributionCategory, type AttributionCategory } from './attribution.js';
import { routeOf, type RouteResolver } from './route.js';
import type { JournalSource } from './source.js';

/**
 * The numbers a benchmark reports about one journal. Every service request counts once in
 * `requests` and in exactly one attribution column; resets are not requests.
 * - `api_calls`: every request except `startup` ones (blocked egress included: the agent tried).
 * - `mcp_bypass`: `direct` requests, made around the MCP servers.
 * - `unattributed`: requests on the plain per-service ports, where no proxy attributes them.
 * Noise (telemetry and update checks the catalog's `[[noise]]` answered) is no request: it is
 * counted apart, in `totals.noise`, and never in `api_calls` or `mcp_bypass`.
 */
export interface AuditCounts {
  requests: number;
  api_calls: number;
  mcp: number;
  mcp_bypass: number;
  startup: number;
  blocked: number;
  unattributed: number;
  /** Responses with status 400 or above. */
  errors: number;
}

export interface RouteRow extends AuditCounts {
  service: string;
  /** `GET /repos/:owner/:repo`: the method and route pattern (the path with ids collapsed when the service has none). */
  route: string;
  /** The service's operation name (`issues.create`), when the journal recorded one. */
  operation: string | null;
}

/** One MCP tool: world requests it caused (attribution) and its calls (MCP records). */
export interface ToolRow {
  endpoint: string;
  tool: string;
  requests: number;
  calls: number;
  failedCalls: number;
}

export interface Audit {
  journal: string;
  scenario: string;
  seed: number;
  /** `faults`: exchanges the fault plan answered instead of the service (latency alone is not one). */
  totals: AuditCounts & { resets: number; faults: number; noise: number };
  byAttribution: Record<AttributionCategory, number>;
  byService: Record<string, AuditCounts>;
  routes: RouteRow[];
  tools: ToolRow[];
  /** MCP-level records: tool calls, failed ones, endpoint crashes. */
  mcp: { calls: number; failedCalls: number; crashes: number };
}

/** `(outside the catalog)` for requests no service answered (blocked egress, unknown hosts). */
export const NO_SERVICE = '(none)';

const COLUMN_OF: Record<AttributionCategory, keyof AuditCounts> = {
  mcp: 'mcp', direct: 'mcp_bypass', startup: 'startup', blocked: 'blocked', unattributed: 'unattributed',
};

const zero = (): AuditCounts => ({ requests: 0, api_calls: 0, mcp: 0, mcp_bypass: 0, startup: 0, blocked: 0, unattributed: 0, errors: 0 });

function count(into: AuditCounts, entry: JournalEntry): void {
  const category = attributionCategory(entry.attribution);
  into.requests += 1;
  if (category !== 'startup') into.api_calls += 1;
  into[COLUMN_OF[category]] += 1;
  if (entry.response.status >= 400) into.errors += 1;
}

export async function auditJournal(journal: JournalSource, options: { routes?: RouteResolver } = {}): Promise<Audit> {
  const totals = { ...zero(), resets: 0, faults: 0, noise: 0 };
  const byAttribution: Record<AttributionCategory, number> = { mcp: 0, direct: 0, startup: 0, blocked: 0, unattributed: 0 };
  const byService = new Map<string, AuditCounts>();
  const routes = new Map<string, RouteRow>();
  const tools = new Map<string, ToolRow>();
  const tool = (endpoint: string, name: string) => {
    const key = `${endpoint}\0${name}`;
    let row = tools.get(key);
    if (!row) tools.set(key, row = { endpoint, tool: name, requests: 0, calls: 0, failedCalls: 0 });
    return row;
  };

  for await (const entry of journal.entries()) {
    if (entry.kind === 'reset') {
      totals.resets += 1;
      continue;
    }
    if (entry.kind === 'noise') {
      totals.noise += 1;
      continue;
    }
    count(totals, entry);
    if (entry.fault && entry.fault.kind !== 'latency') totals.faults += 1;
    byAttribution[attributionCategory(entry.attribution)] += 1;
    const service = entry.service ?? NO_SERVICE;
    if (!byService.has(service)) byService.set(service, zero());
    count(byService.get(service)!, entry);
    const name = entry.service === null ? `${entry.method} ${entry.host}` : routeOf(entry.service, entry.method, entry.target, options.routes);
    const operation = entry.operation?.name ?? null;
    const key = `${service}\0${name}\0${operation}`;
    if (!routes.has(key)) routes.set(key, { service, route: name, operation, ...zero() });
    count(routes.get(key)!, entry);
    const attribution = entry.attribution;
    if (attribution?.kind === 'mcp' && attribution.tool) tool(attribution.endpoint ?? attribution.client ?? '?', attribution.tool).requests += 1;
  }

  const mcp = { calls: 0, failedCalls: 0, crashes: 0 };
  for await (const record of journal.mcpRecords()) {
    if (record.kind === 'crash') mcp.crashes += 1;
    if (record.kind !== 'call') continue;
    const failed = isFailed(record);
    mcp.calls += 1;
    if (failed) mcp.failedCalls += 1;
    const row = tool(record.endpoint, record.tool ?? '?');
    row.calls += 1;
    if (failed) row.failedCalls += 1;
  }

  const byCount = <T extends { requests: number }>(a: T, b: T) => b.requests - a.requests;
  return {
    journal: journal.dir,
    scenario: journal.header.scenario,
    seed: journal.header.seed,
    totals,
    byAttribution,
    byService: Object.fromEntries([...byService].sort(([a], [b]) => a.localeCompare(b))),
    routes: [...routes.values()].sort((a, b) => byCount(a, b) || a.service.localeCompare(b.service) || a.route.localeCompare(b.route)),
    tools: [...tools.values()].sort((a, b) => (b.calls - a.calls) || byCount(a, b) || a.tool.localeCompare(b.tool)),
    mcp,
  };
}

function isFailed(record: McpRecord): boolean {
  return record.isError || record.error !== null;
}
