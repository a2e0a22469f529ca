import type { HeaderList } from '../../mocks/core/http.js';
import type { McpRecord } from '../../mocks/core/journal-format.js';
import { isSecretHeader, redactHeaderValue } from '../redact.js';
import { bodyBytes } from '../report-file.js';
import type { CallDetail, Divergence, EntryDetail, Origin, Summary } from './api.js';
import { prettyBody } from './pretty.js';
import { NO_SERVICE, type IndexedEntry } from './timeline.js';
import type { LoadedTrial } from './trial.js';

/** The bodies of the viewer's API, built from a loaded trial (server.ts only routes). */

export function summary(trial: LoadedTrial): Summary {
  const { index, journal, paths, report } = trial;
  const count = (origin: Origin) => index.entries.filter((entry) => entry.origin === origin).length;
  let replay: Summary['replay'] = null;
  if (report) {
    const { firstDivergence, ...rest } = report;
    replay = { ...rest, firstSeq: firstDivergence?.seq ?? null };
  }
  return {
    source: { path: paths.path, journal: paths.journal, result: paths.result, report: paths.report },
    header: journal.header,
    end: journal.end,
    warnings: journal.warnings,
    counts: {
      entries: index.entries.length,
      calls: index.calls.length,
      failedCalls: index.calls.filter(({ record }) => record.isError || record.error !== null).length,
      crashes: index.crashes.length,
      direct: count('direct'),
      blocked: count('blocked'),
      startup: count('startup'),
      faults: index.entries.filter((entry) => entry.fault && entry.fault.kind !== 'latency').length,
    },
    facets: facets(index.entries, trial.calls),
    result: trial.result,
    replay,
  };
}

function facets(entries: readonly IndexedEntry[], calls: readonly McpRecord[]): Summary['facets'] {
  const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));
  const codes = [...new Set(entries.map((entry) => entry.status))].sort((a, b) => a - b);
  const classes = [...new Set(codes.map((code) => `${Math.floor(code / 100)}xx`))];
  const origins = new Set(entries.map((entry) => entry.origin));
  return {
    services: sorted(entries.map((entry) => entry.service ?? NO_SERVICE)),
    routes: sorted(entries.map((entry) => entry.route)),
    tools: sorted([...calls.map((call) => call.tool ?? '?'), ...entries.flatMap((entry) => (entry.tool ? [entry.tool] : []))]),
    origins: (['mcp', 'direct', 'startup', 'blocked', 'unattributed', 'reset'] as const).filter((origin) => origins.has(origin)),
    statuses: [...classes, ...codes.map(String)],
  };
}

export function callDetail(trial: LoadedTrial, record: McpRecord): CallDetail {
  const { kind: _kind, ...call } = record;
  return {
    ...call,
    seqs: record.callId === null ? [] : trial.index.entries.filter((entry) => entry.origin === 'mcp' && entry.callId === record.callId).map((entry) => entry.seq),
  };
}

export async function entryDetail(trial: LoadedTrial, seq: number, showSecrets: boolean): Promise<EntryDetail | null> {
  const entry = await trial.entry(seq);
  const indexed = trial.index.entries[seq - 1];
  if (!entry || !indexed) return null;
  const { search: _search, ...row } = indexed;
  const headers = (list: HeaderList): HeaderList => showSecrets ? list : list.map(([name, value]) => [name, isSecretHeader(name) ? redactHeaderValue(name, value) : value]);
  const call = entry.attribution?.callId ? trial.calls.find((record) => record.callId === entry.attribution!.callId) : undefined;
  return {
    row: { type: 'entry', depth: 0, ...row, divergent: trial.index.divergent.has(seq) },
    kind: entry.kind,
    attribution: entry.attribution,
    fault: entry.fault,
    request: { headers: headers(entry.request.headers), body: prettyBody(entry.request.headers, entry.request.body), oversize: entry.request.oversize },
    response: { status: entry.response.status, headers: headers(entry.response.headers), body: prettyBody(entry.response.headers, entry.response.body) },
    call: call ? callDetail(trial, call) : null,
    redacted: !showSecrets,
  };
}

/** Characters of agreeing text kept on each side of the differing run. */
const CONTEXT = 2000;

export function divergence(trial: LoadedTrial): Divergence | null {
  const report = trial.report;
  if (!report) return null;
  const first = report.firstDivergence;
  let sides: Divergence['first'] = null;
  if (first) {
    const { responses, ...diff } = first;
    const a = bodyBytes(responses.recorded.body);
    const b = bodyBytes(responses.replayed.body);
    const [left, right] = bodySides(a, b);
    sides = {
      ...diff,
      recorded: { status: responses.recorded.status, headers: responses.recorded.headers, body: left },
      replayed: { status: responses.replayed.status, headers: responses.replayed.headers, body: right },
    };
  }
  return { verdict: report.verdict, entries: report.entries, divergent: report.divergent, divergentSeqs: report.divergentSeqs, first: sides };
}

type Side = NonNullable<Divergence['first']>['recorded']['body'];
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Both bodies split into the common prefix, the differing run and the common suffix, as text
 * when both are UTF-8 (the cut moved to character boundaries), else as hex.
 */
export function bodySides(a: Uint8Array, b: Uint8Array): [Side, Side] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const text = isUtf8(a) && isUtf8(b);
  if (text) {
    // Never split a UTF-8 sequence: continuation bytes (10xxxxxx) belong to the differing run.
    while (prefix > 0 && ((a[prefix] ?? 0) & 0xc0) === 0x80) prefix--;
    while (suffix > 0 && (((a[a.length - suffix] ?? 0) & 0xc0) === 0x80 || ((b[b.length - suffix] ?? 0) & 0xc0) === 0x80)) suffix--;
  }
  const side = (bytes: Uint8Array): Side => {
    const end = bytes.length - suffix;
    const show = (part: Uint8Array) => (text ? Buffer.from(part).toString('utf8') : Buffer.from(part).toString('hex').replace(/(..)(?!$)/g, '$1 '));
    const limit = text ? CONTEXT : CONTEXT / 3;
    const before = show(bytes.subarray(0, prefix));
    const after = show(bytes.subarray(end));
    return {
      encoding: text ? 'text' : 'hex', start: prefix, end,
      before: before.length > limit ? before.slice(before.length - limit) : before,
      differs: show(bytes.subarray(prefix, end)),
      after: after.length > limit ? after.slice(0, limit) : after,
      cutBefore: before.length > limit,
      cutAfter: after.length > limit,
    };
  };
  return [side(a), side(b)];
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

