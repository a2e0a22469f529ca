import type { JournalEntry } from './journal-format.js';

/** A body as JSON can carry it: text when it is valid UTF-8, else base64. */
export interface JsonBody {
  encoding: 'utf8' | 'base64';
  data: string;
  size: number;
}

// ignoreBOM keeps a leading byte-order mark in the text, so the body round-trips exactly.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function bodyToJson(body: Uint8Array): JsonBody {
  try {
    return { encoding: 'utf8', data: strictUtf8.decode(body), size: body.length };
  } catch {
    return { encoding: 'base64', data: Buffer.from(body.buffer, body.byteOffset, body.length).toString('base64'), size: body.length };
  }
}

/** One journal entry as a JSON-safe object (the `/_bench/journal` line format). */
export function entryToJson(entry: JournalEntry) {
  return {
    ...entry,
    request: { ...entry.request, body: bodyToJson(entry.request.body) },
    response: { ...entry.response, body: bodyToJson(entry.response.body) },
  };
}
