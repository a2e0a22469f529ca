import type { ChalkInstance } from 'chalk';
import type { Audit, AuditCounts } from './audit.js';
import { table } from './table.js';

const COLUMNS: (keyof AuditCounts)[] = ['requests', 'api_calls', 'mcp', 'mcp_bypass', 'startup', 'blocked', 'unattributed', 'errors'];

/** `toolbench audit` for a terminal: the headline numbers, then one table per grouping. */
export function formatAudit(audit: Audit, c: ChalkInstance): string {
  const t = audit.totals;
  const bypass = t.mcp_bypass > 0 ? c.red.bold(String(t.mcp_bypass)) : String(t.mcp_bypass);
  const lines = [
    `${c.bold('audit')} ${audit.journal} (${audit.scenario}, seed ${audit.seed})`,
    `  api_calls ${c.bold(String(t.api_calls))}   mcp_bypass ${bypass}   startup ${t.startup}   blocked ${t.blocked}   ` +
      `(${t.requests} requests, ${t.resets} reset${t.resets === 1 ? '' : 's'}, ${t.errors} error responses, ${t.faults} injected fault${t.faults === 1 ? '' : 's'}, ${t.noise} noise)`,
    '',
    c.bold('by attribution'),
    ...table(['attribution', 'requests'], Object.entries(audit.byAttribution).filter(([, n]) => n > 0)),
    '',
    c.bold('by service'),
    ...table(['service', ...COLUMNS], Object.entries(audit.byService).map(([service, row]) => [service, ...COLUMNS.map((k) => row[k])])),
    '',
    c.bold('by route'),
    ...table(['service', 'route', 'operation', ...COLUMNS], audit.routes.map((row) => [row.service, row.route, row.operation ?? '-', ...COLUMNS.map((k) => row[k])]), 3),
  ];
  if (audit.tools.length > 0) {
    lines.push('', c.bold('by MCP tool'),
      ...table(['endpoint/tool', 'calls', 'failed', 'requests'], audit.tools.map((row) => [`${row.endpoint}/${row.tool}`, row.calls, row.failedCalls, row.requests])));
  }
  if (audit.mcp.crashes > 0) lines.push('', c.red(`MCP endpoint crashes: ${audit.mcp.crashes}`));
  return lines.join('\n') + '\n';
}
