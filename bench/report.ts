/**
 * The benchmark's figures: medians over rounds, the ratios issue 9 names, the targets (reported,
 * never asserted) and the printed table.
 */
import type { LoadResult } from './load-client.js';

export type PathId = 'a0' | 'a' | 'b' | 'c' | 'd' | 'e';

export interface ThroughputCell {
  path: PathId;
  name: string;
  method: 'GET' | 'POST';
  connections: number;
  rounds: LoadResult[];
  /** Why the path was not measured (mitmdump could not be installed, `--only internal`). */
  unavailable: string | null;
}

export interface JournalRound {
  requests: number;
  appendPerSecond: number;
  /** LevelDB alone with the same bytes (bench/journal.ts): the yardstick for appendPerSecond. */
  levelDbPerSecond: number;
  dispatchPerSecond: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  journalMiB: number;
  /** The journal alone (no world state): RSS before and after its appends, after a GC. */
  appendRssBeforeMiB: number;
  appendRssAfterMiB: number;
  /** Mean packed entry (the LevelDB value), and the key, bytes. */
  valueBytesPerEntry: number;
  keyBytesPerEntry: number;
  contentAddressed: ContentAddressedEstimate;
}

/** What storing each distinct response body once (by sha256) would change, measured on real entries. */
export interface ContentAddressedEstimate {
  entries: number;
  /** Packed entries as journaled today. */
  packedBytes: number;
  /** The same entries with each body replaced by its 32-byte digest, plus every distinct body once. */
  contentAddressedBytes: number;
  /** Share of response-body bytes that repeat an earlier body. */
  repeatedBodyShare: number;
  /** sha256 of every request and response body, µs per entry (the extra work at append). */
  hashMicrosPerEntry: number;
  /** LevelDB alone writing each encoding's values (batches of 1,000), entries/s. */
  levelDbPerSecond: number;
  contentAddressedLevelDbPerSecond: number;
}

export interface ReplayJobsRun {
  journals: number;
  entries: number;
  /** Wall time to verify every journal with --jobs 1 and --jobs 2 (verifyMany in the bench's warm process), ms. */
  jobs1Ms: number;
  jobs2Ms: number;
  /** The same with `toolbench replay --verify` from dist/, spawn to exit (null: dist/ not built). */
  cliJobs1Ms?: number | null;
  cliJobs2Ms?: number | null;
}

export interface ReplayRun {
  recording: { requests: number; clients: number; requestsPerSecond: number };
  replay: Record<'process' | 'http', { best: number; median: number; entries: number }>;
  jobs: ReplayJobsRun | null;
  /** The estimate on this mixed journal (Octokit reads, lists, searches, writes). */
  contentAddressed?: ContentAddressedEstimate;
}

export interface BenchReport {
  date: string;
  machine: { nproc: number; cpu: string; memoryGiB: number; node: string; platform: string };
  versions: Record<string, string>;
  options: { quick: boolean; only: string; rounds: number; warmupMs: number; durationMs: number; maxRequests: number };
  throughput: ThroughputCell[];
  tlsConnections: { explicit: LoadResult[]; transparent: LoadResult[] };
  journal: JournalRound[];
  replay: ReplayRun;
  replayJobs: ReplayJobsRun[];
  coldStart: { totalMs: number; bootMs: number; importMs: number; startMs: number; services: number }[];
  /** `toolbench world` from dist/, spawn to ready line (ms); empty when dist/ is not built. */
  coldStartCli: number[];
  /** `toolbench --help` from dist/, spawn to exit (ms). */
  coldStartHelp: number[];
  toolmeter: { seconds: number; importMs: number; measureMs: number; endpoints: number; tools: number }[];
}

export interface Target {
  figure: string;
  target: string;
  value: number | null;
  /** null: not measured (a comparison path unavailable). */
  met: boolean | null;
}

export interface Summary {
  throughput: {
    path: PathId; name: string; method: string; connections: number; requestsPerSecond: number | null; p50Ms: number | null; p99Ms: number | null;
    /** CPU in % of one core: the load client, and the serving processes (world + proxy). */
    clientCpuPercent: number | null; serverCpuPercent: number | null; errors: number; unavailable: string | null;
  }[];
  ratios: { ratio: string; method: string; connections: number; value: number | null }[];
  p50AddedMs: { path: PathId; method: string; connections: number; value: number | null }[];
  tlsConnectionsPerSecond: { explicit: number; transparent: number };
  journal: {
    requests: number; appendPerSecond: number; levelDbPerSecond: number; dispatchPerSecond: number; rssBeforeMiB: number; rssAfterMiB: number; journalMiB: number;
    appendRssGrowthMiB: number; valueBytesPerEntry: number; keyBytesPerEntry: number; contentAddressed: ContentAddressedEstimate | null;
  };
  replay: { entries: number; processPerSecond: number; httpPerSecond: number };
  replayJobs: {
    journals: number; entries: number; jobs1Ms: number; jobs2Ms: number; scaling: number | null;
    cliJobs1Ms: number | null; cliJobs2Ms: number | null; cliScaling: number | null;
  };
  coldStartMs: { total: number; boot: number; import: number; start: number; services: number; cli: number | null; help: number | null };
  toolmeterSeconds: number;
  targets: Target[];
}

/** The CLI's --jobs figures, from the rounds that measured them (dist/ built). */
function cliJobs(runs: readonly ReplayJobsRun[]): { cliJobs1Ms: number | null; cliJobs2Ms: number | null; cliScaling: number | null } {
  const measured = runs.filter((r) => typeof r.cliJobs1Ms === 'number' && typeof r.cliJobs2Ms === 'number');
  if (measured.length === 0) return { cliJobs1Ms: null, cliJobs2Ms: null, cliScaling: null };
  return {
    cliJobs1Ms: median(measured.map((r) => r.cliJobs1Ms!)),
    cliJobs2Ms: median(measured.map((r) => r.cliJobs2Ms!)),
    cliScaling: finite(median(measured.map((r) => r.cliJobs1Ms! / r.cliJobs2Ms!))),
  };
}

export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);

export function summarize(report: BenchReport): Summary {
  const cell = (path: PathId, method: string, connections: number) =>
    report.throughput.find((c) => c.path === path && c.method === method && c.connections === connections);
  const measured = (c: ThroughputCell | undefined) => (c && !c.unavailable && c.rounds.length > 0 ? c : undefined);
  // Per-round ratios of measurements taken back to back, then their median.
  const ratioOf = (top: PathId, bottom: PathId, method: string, connections: number, pick: (r: LoadResult) => number, op: (x: number, y: number) => number) => {
    const x = measured(cell(top, method, connections));
    const y = measured(cell(bottom, method, connections));
    if (!x || !y) return null;
    return finite(median(x.rounds.map((r, i) => op(pick(r), pick(y.rounds[i]!)))));
  };
  const rps = (r: LoadResult) => r.requestsPerSecond;
  const p50 = (r: LoadResult) => r.p50Ms;

  const throughput = report.throughput.map((c) => ({
    path: c.path, name: c.name, method: c.method, connections: c.connections,
    requestsPerSecond: measured(c) ? finite(median(c.rounds.map(rps))) : null,
    p50Ms: measured(c) ? finite(median(c.rounds.map(p50))) : null,
    p99Ms: measured(c) ? finite(median(c.rounds.map((r) => r.p99Ms))) : null,
    clientCpuPercent: measured(c) ? finite(median(c.rounds.map((r) => r.clientCpuPercent))) : null,
    serverCpuPercent: measured(c) ? finite(median(c.rounds.map((r) => r.serverCpuPercent ?? NaN))) : null,
    errors: c.rounds.reduce((sum, r) => sum + r.errors, 0),
    unavailable: c.unavailable,
  }));
  const ratios: Summary['ratios'] = [];
  const p50AddedMs: Summary['p50AddedMs'] = [];
  for (const method of ['GET', 'POST']) {
    for (const connections of [1, 8]) {
      for (const [top, bottom] of [['a', 'a0'], ['b', 'a'], ['b', 'd'], ['b', 'e'], ['c', 'a']] as [PathId, PathId][]) {
        ratios.push({ ratio: `${top}/${bottom}`, method, connections, value: ratioOf(top, bottom, method, connections, rps, (x, y) => x / y) });
      }
      for (const path of ['b', 'c'] as PathId[]) {
        p50AddedMs.push({ path, method, connections, value: ratioOf(path, 'a', method, connections, p50, (x, y) => x - y) });
      }
    }
  }

  const journal = {
    requests: report.journal[0]?.requests ?? 0,
    appendPerSecond: median(report.journal.map((j) => j.appendPerSecond)),
    levelDbPerSecond: median(report.journal.map((j) => j.levelDbPerSecond)),
    dispatchPerSecond: median(report.journal.map((j) => j.dispatchPerSecond)),
    rssBeforeMiB: median(report.journal.map((j) => j.rssBeforeMiB)),
    rssAfterMiB: median(report.journal.map((j) => j.rssAfterMiB)),
    journalMiB: median(report.journal.map((j) => j.journalMiB)),
    appendRssGrowthMiB: median(report.journal.map((j) => j.appendRssAfterMiB - j.appendRssBeforeMiB)),
    valueBytesPerEntry: median(report.journal.map((j) => j.valueBytesPerEntry)),
    keyBytesPerEntry: median(report.journal.map((j) => j.keyBytesPerEntry)),
    contentAddressed: report.journal[0]?.contentAddressed ?? null,
  };
  const replayJobs = {
    journals: report.replayJobs[0]?.journals ?? 0,
    entries: report.replayJobs[0]?.entries ?? 0,
    jobs1Ms: median(report.replayJobs.map((r) => r.jobs1Ms)),
    jobs2Ms: median(report.replayJobs.map((r) => r.jobs2Ms)),
    scaling: finite(median(report.replayJobs.map((r) => r.jobs1Ms / r.jobs2Ms))),
    ...cliJobs(report.replayJobs),
  };
  const replay = {
    entries: report.replay.replay.process.entries,
    processPerSecond: report.replay.replay.process.median,
    httpPerSecond: report.replay.replay.http.median,
  };
  const coldStartMs = {
    total: median(report.coldStart.map((c) => c.totalMs)),
    boot: median(report.coldStart.map((c) => c.bootMs)),
    import: median(report.coldStart.map((c) => c.importMs)),
    start: median(report.coldStart.map((c) => c.startMs)),
    services: report.coldStart[0]?.services ?? 0,
    cli: report.coldStartCli.length > 0 ? median(report.coldStartCli) : null,
    help: report.coldStartHelp.length > 0 ? median(report.coldStartHelp) : null,
  };
  const tlsConnectionsPerSecond = {
    explicit: median(report.tlsConnections.explicit.map(rps)),
    transparent: median(report.tlsConnections.transparent.map(rps)),
  };

  const targets: Target[] = [];
  const atLeast = (figure: string, target: string, value: number | null, bound: number) =>
    targets.push({ figure, target, value, met: value === null ? null : value >= bound });
  const atMost = (figure: string, target: string, value: number | null, bound: number) =>
    targets.push({ figure, target, value, met: value === null ? null : value <= bound });
  // Issue 14's targets (the world's cost, the proxies at 8 connections), and issue 9's b/a and p50.
  for (const r of ratios) {
    const bound = r.connections === 8 ? { 'a/a0': 0.5, 'b/a': 0.6, 'b/d': 15, 'b/e': 5 }[r.ratio] : { 'b/a': 0.6 }[r.ratio];
    if (bound !== undefined) atLeast(`${r.ratio} ${r.method} ×${r.connections}`, `≥ ${bound}`, r.value, bound);
  }
  for (const p of p50AddedMs.filter((p) => p.path === 'b' && p.connections === 8)) {
    targets.push({ figure: `p50 added by the proxy (b − a) ${p.method} ×8, ms`, target: '< 1', value: p.value, met: p.value === null ? null : p.value < 1 });
  }
  atLeast('replay --verify in process, requests/s', '≥ 10,000', replay.processPerSecond, 10_000);
  atLeast('replay --verify --jobs 2 ÷ --jobs 1 (journals/s), lanes in the warm bench process', '≥ 1.7', replayJobs.scaling, 1.7);
  atLeast('toolbench replay --verify (dist/) --jobs 2 ÷ --jobs 1 (journals/s), fresh processes', '≥ 1.7', replayJobs.cliScaling, 1.7);
  atLeast('journal append ÷ LevelDB alone', '≥ 1.0', journal.appendPerSecond / journal.levelDbPerSecond, 1.0);
  atMost('journal alone: RSS growth over its appends, MiB', '≤ 20 (flat)', journal.appendRssGrowthMiB, 20);
  atMost('toolbench world (dist/) spawn to ready, ms', '≤ 400', coldStartMs.cli, 400);
  atMost('toolbench --help (dist/) spawn to exit, ms', '≤ 250', coldStartMs.help, 250);
  return { throughput, ratios, p50AddedMs, tlsConnectionsPerSecond, journal, replay, replayJobs, coldStartMs, toolmeterSeconds: median(report.toolmeter.map((t) => t.seconds)), targets };
}

const int = (n: number | null) => (n === null || !Number.isFinite(n) ? '—' : Math.round(n).toLocaleString('en-US'));
const fixed = (n: number | null, digits = 2) => (n === null || !Number.isFinite(n) ? '—' : n.toFixed(digits));

function table(header: string[], rows: string[][], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < leftColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

function contentAddressedRows(ca: ContentAddressedEstimate, what: string): string[][] {
  return [
    [`content-addressed bodies, ${what} (${int(ca.entries)} entries, ${fixed(ca.repeatedBodyShare * 100, 0)}% of response body bytes repeat): bytes per entry`,
      `${int(ca.packedBytes / ca.entries)} → ${int(ca.contentAddressedBytes / ca.entries)}`],
    [`  sha256 of the bodies, µs per entry; LevelDB alone, entries/s: today's values → content-addressed`,
      `${fixed(ca.hashMicrosPerEntry, 1)}; ${int(ca.levelDbPerSecond)} → ${int(ca.contentAddressedLevelDbPerSecond)}`],
  ];
}

export function formatReport(report: BenchReport, summary: Summary = summarize(report)): string {
  const m = report.machine;
  const out: string[] = [];
  out.push(`toolbench bench, ${report.date}\n`);
  out.push(`machine: ${m.nproc} × ${m.cpu}, ${m.memoryGiB} GiB, ${m.platform}, node ${m.node}; ${Object.entries(report.versions).filter(([k]) => k !== 'node').map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
  out.push(`median of ${report.options.rounds} round(s); each load ${report.options.durationMs} ms after ${report.options.warmupMs} ms warm-up${report.options.quick ? ' (--quick: indicative only)' : ''}\n\n`);

  out.push('1. GitHub mock through each path (undici, keep-alive, closed loop)\n');
  out.push(table(['path', 'method', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'client cpu%', 'server cpu%', 'errors'], summary.throughput.map((t) => [
    `${t.path} ${t.name}`, t.method, String(t.connections),
    t.unavailable ? 'n/a' : int(t.requestsPerSecond), t.unavailable ? '' : fixed(t.p50Ms), t.unavailable ? '' : fixed(t.p99Ms),
    t.unavailable ? '' : int(t.clientCpuPercent), t.unavailable ? '' : int(t.serverCpuPercent), t.unavailable ? t.unavailable : String(t.errors),
  ]), 1));
  out.push('(cpu%: of one core; server = this process (world, toolbench proxy) plus mitmdump or mockttp for d and e)\n');
  out.push('\nratios of req/s (per round, then median)\n');
  const ratioNames = ['a/a0', 'b/a', 'b/d', 'b/e', 'c/a'];
  const cellsOf = (method: string, connections: number) => ratioNames.map((name) => fixed(summary.ratios.find((r) => r.ratio === name && r.method === method && r.connections === connections)?.value ?? null));
  out.push(table(['method', 'conns', ...ratioNames, 'p50 added b−a ms', 'p50 added c−a ms'], ['GET', 'POST'].flatMap((method) => [1, 8].map((connections) => [
    method, String(connections), ...cellsOf(method, connections),
    fixed(summary.p50AddedMs.find((p) => p.path === 'b' && p.method === method && p.connections === connections)?.value ?? null, 3),
    fixed(summary.p50AddedMs.find((p) => p.path === 'c' && p.method === method && p.connections === connections)?.value ?? null, 3),
  ])), 2));

  out.push('\n2.–6. single figures\n');
  const j = summary.journal;
  out.push(table(['figure', 'value'], [
    ['new TLS connections/s, explicit proxy (CONNECT + full handshake + GET, 8 at a time)', int(summary.tlsConnectionsPerSecond.explicit)],
    ['new TLS connections/s, transparent TLS port (full handshake + GET, 8 at a time)', int(summary.tlsConnectionsPerSecond.transparent)],
    [`journal append, entries/s (LevelDB, group commit, ${int(j.requests)} entries; ${fixed(j.appendPerSecond / j.levelDbPerSecond)} × LevelDB alone)`, int(j.appendPerSecond)],
    [`LevelDB alone, same bytes in batches of 1,000, entries/s (the yardstick)`, int(j.levelDbPerSecond)],
    [`world dispatch + journal in process, requests/s (${int(j.requests)} requests)`, int(j.dispatchPerSecond)],
    [`RSS before → after ${int(j.requests)} journaled requests (the world's state grows: one comment per POST), MiB`, `${fixed(j.rssBeforeMiB, 0)} → ${fixed(j.rssAfterMiB, 0)}`],
    [`journal alone: RSS growth over ${int(j.requests)} appends, MiB`, fixed(j.appendRssGrowthMiB, 1)],
    ['journal bytes per entry: packed value + key (GET 5.4 KB / POST body mix)', `${int(j.valueBytesPerEntry)} + ${int(j.keyBytesPerEntry)}`],
    ...(j.contentAddressed ? contentAddressedRows(j.contentAddressed, 'GET/POST journal') : []),
    ...(report.replay.contentAddressed ? contentAddressedRows(report.replay.contentAddressed, 'mixed Octokit journal') : []),
    [`replay --verify in process, requests/s (${int(summary.replay.entries)} entries)`, int(summary.replay.processPerSecond)],
    [`replay --verify --via http, requests/s (${int(summary.replay.entries)} entries)`, int(summary.replay.httpPerSecond)],
    [`replay --verify --jobs 1 → --jobs 2 in the bench's process, ${summary.replayJobs.journals} journals of ${int(summary.replayJobs.entries / Math.max(1, summary.replayJobs.journals))} entries, ms (scaling)`,
      `${int(summary.replayJobs.jobs1Ms)} → ${int(summary.replayJobs.jobs2Ms)} (${fixed(summary.replayJobs.scaling)}×)`],
    ['toolbench replay --verify (dist/) --jobs 1 → --jobs 2, the same journals, spawn to exit, ms (scaling)', summary.replayJobs.cliScaling === null
      ? 'n/a (dist/ not built)' : `${int(summary.replayJobs.cliJobs1Ms)} → ${int(summary.replayJobs.cliJobs2Ms)} (${fixed(summary.replayJobs.cliScaling)}×)`],
    [`world cold start to ready through tsx, ms (${summary.coldStartMs.services} service(s); node+tsx boot ${int(summary.coldStartMs.boot)}, import ${int(summary.coldStartMs.import)}, start ${int(summary.coldStartMs.start)})`, int(summary.coldStartMs.total)],
    ['toolbench world (dist/) spawn to ready line, ms', summary.coldStartMs.cli === null ? 'n/a (dist/ not built)' : int(summary.coldStartMs.cli)],
    ['toolbench --help (dist/) spawn to exit, ms', summary.coldStartMs.help === null ? 'n/a (dist/ not built)' : int(summary.coldStartMs.help)],
    ['toolmeter over all snapshots, s', fixed(summary.toolmeterSeconds, 2)],
  ], 1));

  out.push('\ntargets (reported, not asserted)\n');
  out.push(table(['figure', 'target', 'measured', ''], summary.targets.map((t) => [
    t.figure, t.target, t.value === null ? 'n/a' : Math.abs(t.value) >= 100 ? int(t.value) : fixed(t.value),
    t.met === null ? 'not measured' : t.met ? 'met' : 'MISSED',
  ]), 1));
  return out.join('');
}
