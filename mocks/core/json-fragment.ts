/**
 * A rendered value that one answer holds more than once (the same repository under each pull
 * request of a list): serialised once, and its text spliced into the answer wherever it appears.
 * Node 20 has no `JSON.rawJSON`, so `serializeJson` lets `JSON.stringify` write a marker string
 * for each fragment (through `toJSON`) and then replaces the markers with the fragments' text.
 *
 * The output is byte for byte `JSON.stringify` of the plain value. A string in the data that
 * happens to look like a marker is caught: the markers found must be exactly those written, in
 * order; otherwise the answer is serialised again with every fragment expanded in place.
 */
export class JsonFragment<T = unknown> {
  #text: string | undefined;

  constructor(readonly value: T) {}

  /** The value's JSON text, serialised on first use. */
  get text(): string {
    return (this.#text ??= serializeJson(this.value));
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

/** The fragments written by the `JSON.stringify` running now; null when no splice is under way. */
let splicing: JsonFragment[] | null = null;

/** `JSON.stringify(value)`, with the text of each JsonFragment inside it serialised only once. */
export function serializeJson(value: unknown): string {
  const outer = splicing;
  const written: JsonFragment[] = [];
  splicing = written;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    splicing = outer;
  }
  if (written.length === 0) return text;
  let next = 0;
  let exact = true;
  const spliced = text.replace(FOUND, (_, n: string) => {
    const fragment = written[next];
    if (Number(n) !== next++ || !fragment) {
      exact = false;
      return '';
    }
    return fragment.text;
  });
  if (exact && next === written.length) return spliced;
  // A string in the data looked like a marker: serialise again, fragments expanded as values.
  splicing = null;
  try {
    return JSON.stringify(value);
  } finally {
    splicing = outer;
  }
}
