/**
 * Opaque cursor pagination (Slack's `cursor` / `response_metadata.next_cursor`, and any API that
 * hands back a token naming where the next page starts). The cursor is base64 of
 * `<kind>:<key of the next page's first item>`, the form Slack's own cursors take
 * (`dGVhbTpDMDYxRkE1UEI=` is `team:C061FA5PB`), so a cursor stays valid while items before it
 * change, and one from another list is refused rather than misread.
 */
export interface CursorOptions<T> {
  /** The cursor the client sent; empty or absent for the first page. */
  cursor?: string | undefined;
  /** Page size the client asked for; absent or 0 takes `defaultLimit`; above `maxLimit` is capped. */
  limit?: number | undefined;
  defaultLimit: number;
  maxLimit: number;
  /** What the cursor names (`channel`, `user`): a cursor of another kind is invalid here. */
  kind: string;
  /** The stable key of an item (its ID or timestamp). */
  keyOf(item: T): string;
}

export interface CursorPage<T> {
  items: T[];
  /** The cursor of the next page, or null on the last page. */
  next: string | null;
}

/** A cursor that does not decode, is of another kind, or names no item of the list. */
export class InvalidCursorError extends Error {
  override name = 'InvalidCursorError';
}

export function encodeCursor(kind: string, key: string): string {
  return Buffer.from(`${kind}:${key}`, 'utf8').toString('base64');
}

/** The key a cursor names, or null when it is not a cursor of `kind`. */
export function decodeCursor(kind: string, cursor: string): string | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  if (encodeCursor(kind, text.slice(kind.length + 1)) !== cursor || !text.startsWith(`${kind}:`)) return null;
  return text.slice(kind.length + 1);
}

/** One page of `items` (already in the list's order) from the cursor on. */
export function cursorPage<T>(items: readonly T[], options: CursorOptions<T>): CursorPage<T> {
  const limit = Math.min(options.limit && options.limit > 0 ? Math.floor(options.limit) : options.defaultLimit, options.maxLimit);
  let start = 0;
  if (options.cursor) {
    const key = decodeCursor(options.kind, options.cursor);
    start = key === null ? -1 : items.findIndex((item) => options.keyOf(item) === key);
    if (start === -1) throw new InvalidCursorError(`cursor ${JSON.stringify(options.cursor)} names no ${options.kind} of this list`);
  }
  const page = items.slice(start, start + limit);
  const following = items[start + limit];
  return { items: page, next: following === undefined ? null : encodeCursor(options.kind, options.keyOf(following)) };
}
