import type { JournalEntry, OperationRef } from '../mocks/core/journal-format.js';
import { ServiceRequest } from '../mocks/core/http.js';
import type { ServiceDefinition } from '../mocks/core/service.js';
import { collapseIds } from './route.js';

/**
 * Coverage: per MCP endpoint and tool, the operations its calls reached, each marked by what
 * answered it: a hand-written handler, the spec fallback, or nothing (`unmatched`: the mock has no
 * operation for that request, so the agent saw the service's 404 for an API call the real
 * service answers). Read from journals, or from the every-tool sweep (catalog/sweep.ts).
 */
export type Reach = 'handler' | 'spec' | 'unmatched';

export interface CoverageRow {
  /** The MCP endpoint the call came through; `(direct)` for a call made outside MCP. */
  endpoint: string;
  /** The tool; null for an endpoint's startup requests and direct calls. */
  tool: string | null;
  service: string | null;
  /** The operation's name; for an unmatched request, `METHOD /path` with ids collapsed. */
  operation: string;
  reach: Reach;
  calls: number;
  /** The statuses seen, ascending, each once. */
  statuses: number[];
}

export interface CoverageReport {
  rows: CoverageRow[];
  /** Every unmatched row (also in `rows`). */
  unmatched: CoverageRow[];
  /** Tools of the sweep that made no world request (answered by the server alone, or refused before calling). */
  silentTools?: { endpoint: string; tool: string }[];
}

/**
 * The operation an entry reached. Journals name it (format 2). A format-1 journal names nothing:
 * with `unnamed: 'rename'` today's mock names its requests (its naming is a pure function of the
 * request).
 */
export function operationOf(entry: JournalEntry, definition: ServiceDefinition | undefined, unnamed: 'unmatched' | 'rename' = 'unmatched'): OperationRef | null {
  if (entry.operation !== null || unnamed === 'unmatched' || !definition?.operation) return entry.operation;
  return definition.operation(new ServiceRequest(entry.method, entry.target, entry.request.headers, entry.request.body));
}

/** The coverage of a set of journal entries (a journal, a sweep); reset and blocked entries are left out. */
export function coverageOf(entries: Iterable<JournalEntry>, definitions: ReadonlyMap<string, ServiceDefinition>, unnamed: 'unmatched' | 'rename' = 'unmatched'): CoverageReport {
  const rows = new Map<string, CoverageRow & { seen: Set<number> }>();
  for (const entry of entries) {
    if (entry.kind !== 'http' || entry.service === null || entry.attribution?.kind === 'blocked') continue;
    const ref = operationOf(entry, definitions.get(entry.service), unnamed);
    const endpoint = entry.attribution?.endpoint ?? '(direct)';
    const tool = entry.attribution?.kind === 'mcp' ? entry.attribution.tool : null;
    const q = entry.target.indexOf('?');
    const operation = ref?.name ?? `${entry.method} ${collapseIds(q === -1 ? entry.target : entry.target.slice(0, q))}`;
    const reach: Reach = ref?.via ?? 'unmatched';
    const key = JSON.stringify([endpoint, tool, entry.service, operation, reach]);
    let row = rows.get(key);
    if (!row) rows.set(key, row = { endpoint, tool, service: entry.service, operation, reach, calls: 0, statuses: [], seen: new Set() });
    row.calls++;
    row.seen.add(entry.response.status);
  }
  const out = [...rows.values()].map(({ seen, ...row }) => ({ ...row, statuses: [...seen].sort((a, b) => a - b) }));
  out.sort((a, b) => cmp(a.endpoint, b.endpoint) || cmp(a.tool ?? '', b.tool ?? '') || cmp(a.operation, b.operation) || cmp(a.reach, b.reach));
  return { rows: out, unmatched: out.filter((row) => row.reach === 'unmatched') };
}

/** Merges reports (several journals, several services' sweeps). */
export function mergeCoverage(reports: readonly CoverageReport[]): CoverageReport {
  const byKey = new Map<string, CoverageRow>();
  for (const row of reports.flatMap((r) => r.rows)) {
    const key = JSON.stringify([row.endpoint, row.tool, row.service, row.operation, row.reach]);
    const had = byKey.get(key);
    byKey.set(key, had ? { ...had, calls: had.calls + row.calls, statuses: [...new Set([...had.statuses, ...row.statuses])].sort((a, b) => a - b) } : row);
  }
  const rows = [...byKey.values()].sort((a, b) => cmp(a.endpoint, b.endpoint) || cmp(a.tool ?? '', b.tool ?? '') || cmp(a.operation, b.operation) || cmp(a.reach, b.reach));
  const silent = reports.flatMap((r) => r.silentTools ?? []);
  return { rows, unmatched: rows.filter((row) => row.reach === 'unmatched'), ...(silent.length ? { silentTools: silent } : {}) };
}

/** The human listing: one block per endpoint, one line per tool and operation. */
export function coverageLines(report: CoverageReport, paint: { red(s: string): string; dim(s: string): string } = { red: (s) => s, dim: (s) => s }): string[] {
  const lines: string[] = [];
  let endpoint: string | null = null;
  const width = Math.max(8, ...report.rows.map((row) => (row.tool ?? '(startup)').length));
  for (const row of report.rows) {
    if (row.endpoint !== endpoint) {
      endpoint = row.endpoint;
      lines.push(`${endpoint}`);
    }
    const reach = row.reach === 'unmatched' ? paint.red('unmatched') : row.reach === 'spec' ? 'spec     ' : 'handler  ';
    lines.push(`  ${(row.tool ?? (row.endpoint === '(direct)' ? '-' : '(startup)')).padEnd(width)}  ${reach}  ${row.operation}  ${paint.dim(`${row.calls}× ${row.statuses.join(',')}`)}`);
  }
  for (const silent of report.silentTools ?? []) lines.push(paint.dim(`  ${silent.endpoint} ${silent.tool}: made no API request`));
  const count = (reach: Reach) => new Set(report.rows.filter((r) => r.reach === reach).map((r) => `${r.service} ${r.operation}`)).size;
  lines.push(`${count('handler')} operations by handlers, ${count('spec')} by the spec fallback, ${count('unmatched')} unmatched`);
  return lines;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
