import { jsonPathDiff, parseJsonBody, type JsonChange } from './json-diff.js';

/**
 * How two response bodies differ. Where both are JSON documents, the paths that differ; when
 * they hold the same JSON value in different bytes (key order, spacing), or are not JSON, the
 * first differing byte with an excerpt of each side around it.
 */
export type BodyDiff =
  | { kind: 'json'; recordedSize: number; replayedSize: number; paths: JsonChange[]; totalPaths: number }
  | {
    kind: 'bytes';
    recordedSize: number;
    replayedSize: number;
    /** First byte offset that differs (the shorter length when one is a prefix of the other). */
    offset: number;
    /** The same JSON value in different bytes. */
    sameJson: boolean;
    /** `text` excerpts are JSON-escaped strings; `hex` excerpts are byte pairs. */
    excerpt: { encoding: 'text' | 'hex'; recorded: string; replayed: string };
  };

const EXCERPT_BYTES = 24;

export function bodyDiff(recorded: Uint8Array, replayed: Uint8Array, pathLimit = 20): BodyDiff | null {
  if (Buffer.compare(recorded, replayed) === 0) return null;
  const a = parseJsonBody(recorded);
  const b = parseJsonBody(replayed);
  if (a !== undefined && b !== undefined) {
    const { changes, total } = jsonPathDiff(a, b, pathLimit);
    if (total > 0) return { kind: 'json', recordedSize: recorded.length, replayedSize: replayed.length, paths: changes, totalPaths: total };
    return bytesDiff(recorded, replayed, true);
  }
  return bytesDiff(recorded, replayed, false);
}

function bytesDiff(a: Uint8Array, b: Uint8Array, sameJson: boolean): BodyDiff {
  let offset = 0;
  const shorter = Math.min(a.length, b.length);
  while (offset < shorter && a[offset] === b[offset]) offset++;
  const start = Math.max(0, offset - EXCERPT_BYTES);
  const sliceA = a.subarray(start, Math.min(a.length, offset + EXCERPT_BYTES));
  const sliceB = b.subarray(start, Math.min(b.length, offset + EXCERPT_BYTES));
  const textA = asText(sliceA);
  const textB = asText(sliceB);
  const text = textA !== null && textB !== null;
  const ellipsis = start > 0 ? '…' : '';
  return {
    kind: 'bytes',
    recordedSize: a.length,
    replayedSize: b.length,
    offset,
    sameJson,
    excerpt: text
      ? { encoding: 'text', recorded: ellipsis + JSON.stringify(textA), replayed: ellipsis + JSON.stringify(textB) }
      : { encoding: 'hex', recorded: ellipsis + Buffer.from(sliceA).toString('hex'), replayed: ellipsis + Buffer.from(sliceB).toString('hex') },
  };
}

/** The bytes as text when they are printable UTF-8 (a cut multi-byte character at the edges is allowed). */
function asText(bytes: Uint8Array): string | null {
  const text = Buffer.from(bytes).toString('utf8');
  // Replacement characters away from the edges mean binary, not a character cut by the excerpt.
  const inner = text.slice(1, -1);
  if (inner.includes('\uFFFD')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000e-\u001f]/.test(text)) return null;
  return text;
}
