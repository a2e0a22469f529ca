import { resetPart } from '../mocks/core/faults.js';
import type { HeaderList } from '../mocks/core/http.js';
import type { Fault, JournalEntry } from '../mocks/core/journal-format.js';
import { attributionLabel } from './attribution.js';
import { bodyDiff, type BodyDiff } from './body-diff.js';
import { headerDiff, type HeaderChange } from './header-diff.js';
import { REQUEST_IDENTITY, comparedHeaders, isTransportHeader, type RequestIdentityField } from './identity.js';

/** What a replay got back for one journal entry. `fault` is unknown when re-issued over HTTP. */
export interface ReplayedResponse {
  seq: number;
  status: number;
  headers: HeaderList;
  body: Uint8Array;
  fault?: Fault | null;
  /** Over HTTP: whether the connection closed mid-answer (a reset fault); unknown in process. */
  cut?: boolean;
}

export type DiffField = 'missing' | 'seq' | 'request' | 'status' | 'headers' | 'body' | 'fault';

/** The request an entry records, as a report shows it. */
export interface RequestLine {
  kind: JournalEntry['kind'];
  method: string;
  host: string;
  target: string;
  service: string | null;
  attribution: string;
}

/** How one entry's replay differs from its recording; `fields` lists the parts, in report order. */
export interface EntryDiff {
  /** The recorded entry's sequence number (the replayed one's when only it exists). */
  seq: number;
  request: RequestLine;
  fields: DiffField[];
  /** Which side has no entry at this position (journal against journal only). */
  missing?: 'recorded' | 'replayed';
  seqs?: { recorded: number; replayed: number };
  requestChanges?: { field: RequestIdentityField; recorded: string; replayed: string }[];
  status?: { recorded: number; replayed: number };
  headers?: HeaderChange[];
  body?: BodyDiff;
  fault?: { recorded: string | null; replayed: string | null };
}

export function requestLine(entry: JournalEntry): RequestLine {
  return {
    kind: entry.kind,
    method: entry.method,
    host: entry.host,
    target: entry.target,
    service: entry.service,
    attribution: attributionLabel(entry.attribution),
  };
}

/** Compares a recorded entry's response with what the fresh world answered. */
export function diffResponse(recorded: JournalEntry, replayed: ReplayedResponse): EntryDiff | null {
  if (agrees(recorded, replayed)) return null;
  const diff: EntryDiff = { seq: recorded.seq, request: requestLine(recorded), fields: [] };
  // A reset over HTTP delivers only the start of the answer (faults.ts): compare with that part.
  const expected = replayed.cut ? resetPart(recorded.response) : recorded.response;
  if (recorded.seq !== replayed.seq) {
    diff.fields.push('seq');
    diff.seqs = { recorded: recorded.seq, replayed: replayed.seq };
  }
  if (expected.status !== replayed.status) {
    diff.fields.push('status');
    diff.status = { recorded: expected.status, replayed: replayed.status };
  }
  const headers = headerDiff(comparedHeaders(expected.headers), comparedHeaders(replayed.headers));
  if (headers.length > 0) {
    diff.fields.push('headers');
    diff.headers = headers;
  }
  const body = bodyDiff(expected.body, replayed.body);
  if (body) {
    diff.fields.push('body');
    diff.body = body;
  }
  if (replayed.fault !== undefined && (recorded.fault?.kind ?? null) !== (replayed.fault?.kind ?? null)) {
    diff.fields.push('fault');
    diff.fault = { recorded: recorded.fault?.kind ?? null, replayed: replayed.fault?.kind ?? null };
  } else if (replayed.fault === undefined && replayed.cut !== undefined && replayed.cut !== (recorded.fault?.kind === 'reset')) {
    diff.fields.push('fault');
    diff.fault = { recorded: recorded.fault?.kind ?? null, replayed: replayed.cut ? 'reset' : 'not reset' };
  }
  return diff.fields.length > 0 ? diff : null;
}

/**
 * The common case, every entry of a replay that agrees, decided without building a report: the
 * same seq, status, fault, header lines (transport headers skipped) and body bytes. False sends
 * the entry through the full comparison, which has the last word.
 */
function agrees(recorded: JournalEntry, replayed: ReplayedResponse): boolean {
  const expected = recorded.response;
  // A cut answer is compared with the start of the recorded one: the full path's business.
  if (replayed.cut === true || recorded.seq !== replayed.seq || expected.status !== replayed.status) return false;
  if (replayed.fault !== undefined ? (recorded.fault?.kind ?? null) !== (replayed.fault?.kind ?? null)
    : replayed.cut === false && recorded.fault?.kind === 'reset') return false;
  return sameComparedHeaders(expected.headers, replayed.headers) && Buffer.compare(expected.body, replayed.body) === 0;
}

/** `comparedHeaders(a)` and `comparedHeaders(b)` are the same lines, in order (without building them). */
function sameComparedHeaders(a: HeaderList, b: HeaderList): boolean {
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && isTransportHeader(a[i]![0])) i++;
    while (j < b.length && isTransportHeader(b[j]![0])) j++;
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    if (a[i]![0] !== b[j]![0] || a[i]![1] !== b[j]![1]) return false;
    i++;
    j++;
  }
}

/**
 * Compares two journal entries at the same position: request identity (REQUEST_IDENTITY) first,
 * then the response as `diffResponse` does.
 */
export function diffEntries(recorded: JournalEntry | undefined, replayed: JournalEntry | undefined): EntryDiff | null {
  if (!recorded || !replayed) {
    const present = (recorded ?? replayed)!;
    return { seq: present.seq, request: requestLine(present), fields: ['missing'], missing: recorded ? 'replayed' : 'recorded' };
  }
  const requestChanges = REQUEST_IDENTITY.flatMap((field) => {
    const a = identityValue(recorded, field);
    const b = identityValue(replayed, field);
    return a === b || field === 'seq' ? [] : [{ field, recorded: a, replayed: b }];
  });
  const response = diffResponse(recorded, { ...replayed.response, seq: replayed.seq, fault: replayed.fault });
  if (requestChanges.length === 0) return response;
  const diff = response ?? { seq: recorded.seq, request: requestLine(recorded), fields: [] };
  diff.requestChanges = requestChanges;
  diff.fields = ['request', ...diff.fields];
  return diff;
}

function identityValue(entry: JournalEntry, field: RequestIdentityField): string {
  switch (field) {
    case 'request.body': return Buffer.from(entry.request.body).toString('base64');
    case 'seq': return String(entry.seq);
    default: return String(entry[field]);
  }
}

export interface DivergenceSummary {
  entries: number;
  identical: number;
  divergent: number;
  /** The first divergent entry, in full. */
  first: EntryDiff | null;
  /** Sequence numbers of divergent entries, the first MAX_LISTED of them. */
  divergentSeqs: number[];
  /** Which fields diverged, and how often. */
  byField: Partial<Record<DiffField, number>>;
}

const MAX_LISTED = 1000;

/** Counts entries as they are compared and keeps the first divergence. */
export class DivergenceTally {
  private entries = 0;
  private divergent = 0;
  private first: EntryDiff | null = null;
  private readonly seqs: number[] = [];
  private readonly byField: Partial<Record<DiffField, number>> = {};

  add(diff: EntryDiff | null): void {
    this.entries += 1;
    if (!diff) return;
    this.divergent += 1;
    this.first ??= diff;
    if (this.seqs.length < MAX_LISTED) this.seqs.push(diff.seq);
    for (const field of diff.fields) this.byField[field] = (this.byField[field] ?? 0) + 1;
  }

  summary(): DivergenceSummary {
    return {
      entries: this.entries,
      identical: this.entries - this.divergent,
      divergent: this.divergent,
      first: this.first,
      divergentSeqs: [...this.seqs],
      byField: { ...this.byField },
    };
  }
}

/** A journal-level diff: two entry streams compared position by position. */
export async function diffJournals(recorded: AsyncIterable<JournalEntry>, replayed: AsyncIterable<JournalEntry>): Promise<DivergenceSummary> {
  const tally = new DivergenceTally();
  const a = recorded[Symbol.asyncIterator]();
  const b = replayed[Symbol.asyncIterator]();
  for (;;) {
    const [x, y] = await Promise.all([a.next(), b.next()]);
    if (x.done && y.done) break;
    tally.add(diffEntries(x.done ? undefined : x.value, y.done ? undefined : y.value));
  }
  return tally.summary();
}
