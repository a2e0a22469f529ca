/**
 * A rendered value that one answer holds more than once (the same repository under each pull
 * request of a list): serialised once, and its text spliced into the answer wherever it appears.
 * Node 20 has no `JSON.rawJSON`, so `serializeJson` lets `JSON.stringify` write a marker string
 * for each fragment (through `toJSON`) and then puts the fragments' bytes where the markers are.
 *
 * The output is byte for byte `JSON.stringify` of the plain value. A string in the data that
 * happens to look like a marker is caught: the markers found must be exactly those written, in
 * order; otherwise the answer is serialised again with every fragment expanded in place.
 */
export class JsonFragment<T = unknown> {
  #bytes: Uint8Array | undefined;

  constructor(readonly value: T) {}

  /** The value's JSON text as UTF-8, serialised on first use. */
  get bytes(): Uint8Array {
    return (this.#bytes ??= serializeJson(this.value));
  }

  toJSON(): unknown {
    // JSON.stringify does not call toJSON on what toJSON returns: unwrap a fragment of a fragment.
    if (!splicing) return this.value instanceof JsonFragment ? this.value.toJSON() : this.value;
    splicing.push(this);
    return `${MARK}${splicing.length - 1}`;
  }
}

// A control character, which JSON.stringify always escapes: the marker reads `"\u0000tb:N"`.
const MARK = '\u0000tb:';
const FOUND = /"\\u0000tb:(\d+)"/g;
const encoder = new TextEncoder();

/** The fragments written by the `JSON.stringify` running now; null when no splice is under way. */
let splicing: JsonFragment[] | null = null;

/**
 * `JSON.stringify(value)` as UTF-8, with the bytes of each JsonFragment inside it serialised only
 * once. The text between fragments is encoded straight into the answer's bytes and each
 * fragment's bytes copied in: no spliced string is built, and no fragment encoded again.
 */
export function serializeJson(value: unknown): Uint8Array {
  const outer = splicing;
  const written: JsonFragment[] = [];
  splicing = written;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    splicing = outer;
  }
  if (written.length === 0) return encoder.encode(text);
  const pieces: (string | Uint8Array)[] = [];
  let size = 0;
  let at = 0;
  let next = 0;
  for (const found of text.matchAll(FOUND)) {
    const fragment = written[next];
    // A string in the data looked like a marker: serialise again, fragments expanded as values.
    if (Number(found[1]) !== next++ || !fragment) return expanded(value, outer);
    const between = text.slice(at, found.index);
    pieces.push(between, fragment.bytes);
    size += Buffer.byteLength(between) + fragment.bytes.length;
    at = found.index + found[0].length;
  }
  if (next !== written.length) return expanded(value, outer);
  const tail = text.slice(at);
  pieces.push(tail);
  size += Buffer.byteLength(tail);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const piece of pieces) {
    if (typeof piece === 'string') offset += encoder.encodeInto(piece, out.subarray(offset)).written;
    else {
      out.set(piece, offset);
      offset += piece.length;
    }
  }
  return out;
}

function expanded(value: unknown, outer: JsonFragment[] | null): Uint8Array {
  splicing = null;
  try {
    return encoder.encode(JSON.stringify(value));
  } finally {
    splicing = outer;
  }
}
