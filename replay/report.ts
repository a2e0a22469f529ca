import type { ChalkInstance } from 'chalk';
import type { JournalHeader } from '../mocks/core/journal-format.js';
import type { BodyDiff } from './body-diff.js';
import type { CompatCheck } from './compat.js';
import type { EntryDiff } from './diff.js';
import type { HandlerErrors } from './rebuild.js';
import type { ReplayOutcome } from './run.js';

/** What `toolbench replay` reports; `--json` prints exactly this object. */
export interface ReplayReport {
  verdict: 'identical' | 'divergent';
  journal: string;
  scenario: string;
  seed: number;
  recordedWith: string;
  via: 'process' | 'http';
  checks: CompatCheck[];
  entries: number;
  identical: number;
  divergent: number;
  /** The first divergent entry: its seq, request line and what differs. */
  firstDivergence: EntryDiff | null;
  /** The first 1,000 divergent sequence numbers. */
  divergentSeqs: number[];
  byField: ReplayOutcome['byField'];
  inProcess: number;
  handlerErrors: HandlerErrors;
  elapsedMs: number;
  requestsPerSecond: number;
}

export function buildReport(journal: string, header: JournalHeader, checks: CompatCheck[], outcome: ReplayOutcome, handlerErrors: HandlerErrors): ReplayReport {
  return {
    verdict: outcome.divergent === 0 ? 'identical' : 'divergent',
    journal,
    scenario: header.scenario,
    seed: header.seed,
    recordedWith: header.toolbench,
    via: outcome.via,
    checks,
    entries: outcome.entries,
    identical: outcome.identical,
    divergent: outcome.divergent,
    firstDivergence: outcome.first,
    divergentSeqs: outcome.divergentSeqs,
    byField: outcome.byField,
    inProcess: outcome.inProcess,
    handlerErrors,
    elapsedMs: Math.round(outcome.elapsedMs),
    requestsPerSecond: outcome.elapsedMs > 0 ? Math.round(outcome.entries / (outcome.elapsedMs / 1000)) : 0,
  };
}

/** The report for a terminal or a CI log: a verdict line, the checks, the first divergence. */
export function formatReport(report: ReplayReport, c: ChalkInstance): string {
  const lines: string[] = [];
  const where = `${report.scenario}, seed ${report.seed}, recorded with toolbench ${report.recordedWith}`;
  if (report.verdict === 'identical') {
    lines.push(`${c.green.bold('identical')}: ${report.entries} entries replayed ${report.via === 'http' ? 'over HTTP' : 'in process'}, every response byte-identical`);
  } else {
    const first = report.firstDivergence!;
    lines.push(`${c.red.bold('divergent')}: ${report.divergent} of ${report.entries} entries differ; first at seq ${first.seq}`);
  }
  lines.push(`  journal  ${report.journal} (${where})`);
  for (const check of report.checks.filter((check) => check.status !== 'ok')) {
    lines.push(`  ${check.status === 'allowed' ? c.yellow('allowed') : c.dim('note')}    ${check.message}`);
  }
  if (report.handlerErrors.count > 0) {
    lines.push(`  ${c.yellow('note')}    ${report.handlerErrors.count} handler failure(s) while replaying (a bug in a mock); first: ${report.handlerErrors.first}`);
  }
  if (report.firstDivergence) {
    lines.push('', ...formatEntryDiff(report.firstDivergence, c));
    const listed = report.divergentSeqs.slice(0, 20).join(', ');
    const more = report.divergent - Math.min(20, report.divergentSeqs.length);
    lines.push('', `divergent seqs: ${listed}${more > 0 ? ` … and ${more} more` : ''}`);
    const fields = Object.entries(report.byField).map(([field, count]) => `${field} ${count}`).join(', ');
    lines.push(`divergent fields: ${fields}`);
  }
  lines.push(c.dim(`${report.entries} entries in ${report.elapsedMs} ms (${report.requestsPerSecond} requests/s)`));
  return lines.join('\n') + '\n';
}

/** One entry's differences, recorded → replayed, one line per field (more for paths). */
export function formatEntryDiff(diff: EntryDiff, c: ChalkInstance): string[] {
  const r = diff.request;
  const origin = r.kind === 'reset' ? 'reset' : r.attribution === '-' ? null : r.attribution;
  const lines = [`${c.bold(`seq ${diff.seq}`)}  ${r.method} ${r.host}${r.target}${origin ? `  ${c.dim(`[${origin}]`)}` : ''}`];
  const was = (value: string) => c.red(value);
  const now = (value: string) => c.green(value);
  const row = (label: string, text: string) => lines.push(`  ${label.padEnd(8)} ${text}`);
  if (diff.missing) row('entry', `only in the ${diff.missing === 'recorded' ? 'replayed' : 'recorded'} journal`);
  if (diff.seqs) row('seq', `${was(String(diff.seqs.recorded))} → ${now(String(diff.seqs.replayed))} (entries out of order or missing)`);
  for (const change of diff.requestChanges ?? []) row('request', `${change.field}: ${was(cut(change.recorded))} → ${now(cut(change.replayed))}`);
  if (diff.status) row('status', `${was(String(diff.status.recorded))} → ${now(String(diff.status.replayed))}`);
  for (const change of diff.headers ?? []) {
    switch (change.op) {
      case 'changed': row('header', `${change.name}: ${was(change.recorded)} → ${change.replayedName ? `${change.replayedName}: ` : ''}${now(change.replayed)}`); break;
      case 'removed': row('header', `${was(`- ${change.name}: ${change.recorded}`)}`); break;
      case 'added': row('header', `${now(`+ ${change.name}: ${change.replayed}`)}`); break;
      case 'moved': row('header', `${change.name}: same value, other position`); break;
    }
  }
  if (diff.body) lines.push(...formatBodyDiff(diff.body, c).map((text, i) => `  ${(i === 0 ? 'body' : '').padEnd(8)} ${text}`));
  if (diff.fault) row('fault', `${was(String(diff.fault.recorded))} → ${now(String(diff.fault.replayed))}`);
  lines.push(c.dim('  (recorded → replayed)'));
  return lines;
}

function formatBodyDiff(body: BodyDiff, c: ChalkInstance): string[] {
  const sizes = body.recordedSize === body.replayedSize ? `${body.recordedSize} bytes` : `${body.recordedSize} → ${body.replayedSize} bytes`;
  if (body.kind === 'json') {
    const out = body.paths.map((change) => {
      switch (change.op) {
        case 'changed': return `${change.path}: ${c.red(change.recorded!)} → ${c.green(change.replayed!)}`;
        case 'removed': return `${change.path}: ${c.red(change.recorded!)} → ${c.green('(absent)')}`;
        case 'added': return `${change.path}: ${c.red('(absent)')} → ${c.green(change.replayed!)}`;
      }
    });
    const more = body.totalPaths - body.paths.length;
    if (more > 0) out.push(`… and ${more} more path(s)`);
    out.push(c.dim(`(JSON, ${body.totalPaths} path(s) differ; ${sizes})`));
    return out;
  }
  return [
    `${body.sameJson ? 'same JSON value, other bytes; ' : ''}first difference at byte ${body.offset} (${sizes})`,
    `${c.red(body.excerpt.recorded)}`,
    `${c.green(body.excerpt.replayed)}`,
  ];
}

function cut(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
