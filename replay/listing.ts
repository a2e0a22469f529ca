import type { ChalkInstance } from 'chalk';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { attributionLabel } from './attribution.js';
import type { JournalSource, SeqRange } from './source.js';

export interface ListingFilter {
  /** A catalog service id; `none` for requests no service answered. */
  service?: string;
  range?: SeqRange;
}

/** The entries a listing shows, in sequence order. */
export async function* selectEntries(journal: JournalSource, filter: ListingFilter = {}): AsyncIterable<JournalEntry> {
  for await (const entry of journal.entries(filter.range)) {
    if (filter.service !== undefined && (entry.service ?? 'none') !== filter.service) continue;
    yield entry;
  }
}

const HEAD = ['seq', 'time', 'attribution', 'method', 'host', 'target', 'operation', 'status', 'bytes (req → resp)'];

/**
 * One line per entry, fixed-width columns so the listing can stream: logical time, seq,
 * attribution, method, host, target, operation, status and body sizes.
 */
export async function* listingLines(entries: AsyncIterable<JournalEntry>, c: ChalkInstance): AsyncIterable<string> {
  yield c.dim(row(HEAD));
  for await (const entry of entries) {
    yield row([
      String(entry.seq),
      logicalTime(entry.time),
      attributionCell(entry, c),
      entry.method,
      entry.host,
      entry.target,
      entry.operation ? `${entry.operation.name}${entry.operation.via === 'spec' ? ' (spec)' : ''}` : '-',
      statusCell(entry.response.status, c),
      `${size(entry.request.body.length)} → ${size(entry.response.body.length)}${entry.request.oversize ? ' (oversize)' : ''}${faultNote(entry, c)}`,
    ]);
  }
}

const WIDTHS = [6, 19, 30, 7, 16, 48, 24, 6];

function row(cells: string[]): string {
  return cells.map((cell, i) => {
    const width = WIDTHS[i];
    if (width === undefined) return cell;
    const fitted = i === 5 || i === 6 ? fit(cell, width) : cell;
    const pad = ' '.repeat(Math.max(0, width - visible(fitted)));
    return i === 0 ? pad + fitted : fitted + pad;
  }).join('  ');
}

/** Plain text cut to `width` characters, with an ellipsis. */
function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

// eslint-disable-next-line no-control-regex
const visible = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '').length;

/** `2025-03-03 09:00:01` (milliseconds only when the tick has them). */
function logicalTime(iso: string): string {
  return iso.replace('T', ' ').replace(/\.000Z$/, '').replace(/Z$/, '');
}

function attributionCell(entry: JournalEntry, c: ChalkInstance): string {
  if (entry.kind === 'reset') return c.cyan('reset');
  if (entry.kind === 'noise') return c.dim(fit('noise', WIDTHS[2]!));
  const label = fit(attributionLabel(entry.attribution), WIDTHS[2]!);
  switch (entry.attribution?.kind) {
    case 'direct': return c.red(label);
    case 'blocked': return c.magenta(label);
    case 'startup': return c.dim(label);
    default: return label;
  }
}

/** ` fault 429 (rule r1)`, ` +120 ms`: what the fault plan did to this exchange. */
function faultNote(entry: JournalEntry, c: ChalkInstance): string {
  const fault = entry.fault;
  if (!fault) return '';
  const latency = fault.latencyMs > 0 ? ` +${fault.latencyMs} ms` : '';
  if (fault.kind === 'latency') return c.dim(latency);
  return c.magenta(` fault ${fault.kind}${fault.rule ? ` (${fault.rule})` : ''}`) + c.dim(latency);
}

function statusCell(status: number, c: ChalkInstance): string {
  const text = String(status);
  if (status >= 500) return c.red(text);
  if (status >= 400) return c.yellow(text);
  if (status >= 300) return c.cyan(text);
  return c.green(text);
}

function size(bytes: number): string {
  if (bytes < 10_000) return String(bytes);
  if (bytes < 10_000_000) return `${(bytes / 1000).toFixed(1)}k`;
  return `${(bytes / 1_000_000).toFixed(1)}M`;
}
