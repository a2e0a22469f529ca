import type { JournalEntry, McpRecord } from '../../mocks/core/journal-format.js';
import { attributionLabel } from '../attribution.js';
import { routeOf, type RouteResolver } from '../route.js';
import type { EntryRow, Origin, TimelineRow } from './api.js';

/**
 * The timeline: MCP tool calls in the order they started, each followed by the world requests it
 * caused; requests no call caused (bypasses, blocked egress, resets) at their own place; runs of
 * startup requests folded into one row. Built from a compact index held in memory, so any filter
 * over 10,000 entries is a linear pass, and pages are slices.
 */
export interface IndexedEntry extends Omit<EntryRow, 'type' | 'depth' | 'divergent'> {
  /** Lower-case text the search box matches. */
  search: string;
}

export interface IndexedCall {
  record: McpRecord;
  search: string;
}

export interface TrialIndex {
  entries: IndexedEntry[];
  /** `call` records by `n`. */
  calls: IndexedCall[];
  crashes: McpRecord[];
  divergent: ReadonlySet<number>;
}

export interface TimelineFilter {
  service?: string;
  route?: string;
  tool?: string;
  origin?: Origin;
  /** `2xx`…`5xx`, or one status code. */
  status?: string;
  /** Case-insensitive text search. */
  q?: string;
}

/** The service name used for requests no catalog service answered. */
export const NO_SERVICE = '(none)';

/** The operation an entry names (`issues.create`, ` (spec)` when the spec fallback answered); null: none (format-1 journals, unmatched requests). */
export function operationOf(entry: JournalEntry): string | null {
  const operation = entry.operation;
  return operation ? `${operation.name}${operation.via === 'spec' ? ' (spec)' : ''}` : null;
}

export function originOf(entry: JournalEntry): Origin {
  if (entry.kind === 'reset') return 'reset';
  return entry.attribution?.kind ?? 'unattributed';
}

export function indexEntry(entry: JournalEntry, routes?: RouteResolver): IndexedEntry {
  const attribution = entry.attribution;
  const origin = originOf(entry);
  const operation = operationOf(entry);
  const route = entry.service === null ? `${entry.method} ${entry.host}` : routeOf(entry.service, entry.method, entry.target, routes);
  const fault = entry.fault ? { kind: entry.fault.kind, latencyMs: entry.fault.latencyMs } : null;
  return {
    seq: entry.seq,
    time: entry.time,
    method: entry.method,
    host: entry.host,
    target: entry.target,
    service: entry.service,
    route,
    status: entry.response.status,
    origin,
    tool: attribution?.kind === 'mcp' ? attribution.tool : null,
    mcpEndpoint: attribution?.kind === 'mcp' ? (attribution.endpoint ?? attribution.client) : null,
    callId: attribution?.callId ?? null,
    fault,
    requestBytes: entry.request.body.length,
    responseBytes: entry.response.body.length,
    operation,
    search: [entry.seq, entry.method, entry.host + entry.target, entry.response.status, origin, attributionLabel(attribution),
      operation ?? '', fault?.kind ?? '', route].join(' ').toLowerCase(),
  };
}

export function indexCall(record: McpRecord): IndexedCall {
  let args = '';
  try {
    args = JSON.stringify(record.arguments ?? null).slice(0, 2000);
  } catch { /* arguments are JSON from the journal */ }
  return { record, search: `${record.endpoint}/${record.tool ?? ''} ${record.tool ?? ''} ${record.error ?? ''} ${args}`.toLowerCase() };
}

function statusMatches(status: number, wanted: string): boolean {
  const match = /^([1-5])xx$/i.exec(wanted);
  return match ? Math.floor(status / 100) === Number(match[1]) : String(status) === wanted;
}

function entryMatches(entry: IndexedEntry, filter: TimelineFilter, q: string): boolean {
  if (filter.service !== undefined && (entry.service ?? NO_SERVICE) !== filter.service) return false;
  if (filter.route !== undefined && entry.route !== filter.route) return false;
  if (filter.tool !== undefined && entry.tool !== filter.tool) return false;
  if (filter.origin !== undefined && entry.origin !== filter.origin) return false;
  if (filter.status !== undefined && !statusMatches(entry.status, filter.status)) return false;
  return q === '' || entry.search.includes(q);
}

const isFiltered = (filter: TimelineFilter) => Object.values(filter).some((value) => value !== undefined && value !== '');

/**
 * Every row of the timeline under `filter`, in order. A call is shown when one of its requests
 * matches, or when it matches itself (tool and search only: a call has no service or status).
 */
export function buildTimeline(index: TrialIndex, filter: TimelineFilter = {}, unfoldStartup = false): TimelineRow[] {
  const q = (filter.q ?? '').trim().toLowerCase();
  const byCallId = new Map<string, IndexedCall>();
  for (const call of index.calls) if (call.record.callId) byCallId.set(call.record.callId, call);
  const children = new Map<IndexedCall, IndexedEntry[]>();
  const top: { key: number; order: number; item: IndexedEntry | IndexedCall | McpRecord }[] = [];
  for (const entry of index.entries) {
    const call = entry.origin === 'mcp' && entry.callId ? byCallId.get(entry.callId) : undefined;
    if (call) {
      const list = children.get(call) ?? [];
      if (list.length === 0) children.set(call, list);
      list.push(entry);
    } else {
      top.push({ key: entry.seq, order: 1, item: entry });
    }
  }
  // A call sits just after the last world request before it started.
  for (const call of index.calls) {
    const first = children.get(call)?.[0]?.seq;
    const key = Math.min(call.record.worldSeqBefore + 0.5, first === undefined ? Infinity : first - 0.5);
    top.push({ key, order: 0, item: call });
  }
  for (const crash of index.crashes) top.push({ key: crash.worldSeqAfter + 0.5, order: 2, item: crash });
  top.sort((a, b) => a.key - b.key || a.order - b.order || seqOrN(a.item) - seqOrN(b.item));

  const filtered = isFiltered(filter);
  const callOnlyFilter = filter.service === undefined && filter.route === undefined && filter.status === undefined
    && (filter.origin === undefined || filter.origin === 'mcp');
  const rows: TimelineRow[] = [];
  const entryRow = (entry: IndexedEntry, depth: 0 | 1): EntryRow => {
    const { search: _search, ...rest } = entry;
    return { type: 'entry', depth, ...rest, divergent: index.divergent.has(entry.seq) };
  };
  let startup: IndexedEntry[] = [];
  const flushStartup = () => {
    if (startup.length === 0) return;
    rows.push({ type: 'fold', depth: 0, count: startup.length, firstSeq: startup[0]!.seq, lastSeq: startup.at(-1)!.seq, folded: !unfoldStartup });
    if (unfoldStartup) for (const entry of startup) rows.push(entryRow(entry, 1));
    startup = [];
  };
  for (const { item } of top) {
    if ('search' in item && 'seq' in item) {
      if (!entryMatches(item, filter, q)) continue;
      if (item.origin === 'startup' && !filtered) {
        startup.push(item);
        continue;
      }
      flushStartup();
      rows.push(entryRow(item, 0));
    } else if ('search' in item) {
      const record = item.record;
      const all = children.get(item) ?? [];
      const matching = filtered ? all.filter((entry) => entryMatches(entry, filter, q)) : all;
      const selfMatch = callOnlyFilter && (filter.tool === undefined || record.tool === filter.tool) && (q === '' || item.search.includes(q));
      if (matching.length === 0 && !selfMatch) continue;
      flushStartup();
      rows.push({
        type: 'call', depth: 0, n: record.n, endpoint: record.endpoint, tool: record.tool ?? '?', callId: record.callId,
        isError: record.isError, error: record.error, requests: all.length,
      });
      for (const entry of matching) rows.push(entryRow(entry, 1));
    } else {
      if (filtered) continue;
      flushStartup();
      rows.push({ type: 'crash', depth: 0, n: item.n, endpoint: item.endpoint, error: item.error });
    }
  }
  flushStartup();
  return rows;
}

function seqOrN(item: IndexedEntry | IndexedCall | McpRecord): number {
  if ('record' in item) return item.record.n;
  return 'seq' in item ? item.seq : item.n;
}

/** The row index showing entry `seq`, or its startup fold when folded. */
export function findRow(rows: readonly TimelineRow[], seq: number): number | null {
  const index = rows.findIndex((row) => (row.type === 'entry' && row.seq === seq) || (row.type === 'fold' && row.folded && row.firstSeq <= seq && seq <= row.lastSeq));
  return index === -1 ? null : index;
}
