/**
 * Relay connections (GraphQL's cursor pagination, as Linear, GitHub v4 and Shopify answer it):
 * `first`/`after` pages forward, `last`/`before` backward, each page is `{edges: [{node,
 * cursor}], nodes, pageInfo: {hasNextPage, hasPreviousPage, startCursor, endCursor}}`. Cursors
 * are opaque (base64url of the item's key), so a client can only hand back what it was given.
 */

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Connection<T> {
  edges: { node: T; cursor: string }[];
  nodes: T[];
  pageInfo: PageInfo;
}

export interface ConnectionOptions {
  /** Page size when neither `first` nor `last` is given (Linear: 50). */
  defaultFirst?: number;
  /** The largest `first`/`last` accepted (Linear: 250). */
  max?: number;
}

/** A client asked for an impossible page; the service renders it as its own input error. */
export class ConnectionArgumentError extends Error {
  override name = 'ConnectionArgumentError';
}

export function encodeCursor(key: string): string {
  return Buffer.from(key, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): string {
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (cursor.length === 0 || encodeCursor(key) !== cursor) throw new ConnectionArgumentError(`Invalid cursor: ${cursor}`);
  return key;
}

/**
 * One page of `items` (already filtered and in order) by the Relay algorithm: cut at `after`
 * and `before`, then keep the first `first`, then the last `last`. `keyOf` names an item for
 * its cursor; a cursor naming no item is an error (the item may have been deleted: as Relay
 * servers do, the client must start over).
 */
export function connection<T>(items: readonly T[], args: ConnectionArgs, keyOf: (item: T) => string, options: ConnectionOptions = {}): Connection<T> {
  const max = options.max ?? 250;
  const { first, last, after, before } = args;
  for (const [name, value] of [['first', first], ['last', last]] as const) {
    if (value === undefined || value === null) continue;
    if (!Number.isInteger(value) || value < 0) throw new ConnectionArgumentError(`${name} must be a non-negative integer`);
    if (value > max) throw new ConnectionArgumentError(`${name} must be at most ${max}`);
  }
  const keys = items.map(keyOf);
  let start = 0;
  let end = items.length;
  if (after !== undefined && after !== null) {
    const at = keys.indexOf(decodeCursor(after));
    if (at === -1) throw new ConnectionArgumentError(`Cursor not found: ${after}`);
    start = at + 1;
  }
  if (before !== undefined && before !== null) {
    const at = keys.indexOf(decodeCursor(before));
    if (at === -1) throw new ConnectionArgumentError(`Cursor not found: ${before}`);
    end = Math.min(end, at);
  }
  if (end < start) end = start;
  const cutStart = start;
  const cutEnd = end;
  const hasLimit = (first ?? null) !== null || (last ?? null) !== null;
  const pageFirst = first ?? (hasLimit ? null : options.defaultFirst ?? 50);
  if (pageFirst !== null && end - start > pageFirst) end = start + pageFirst;
  if (last !== undefined && last !== null && end - start > last) start = end - last;
  const page = items.slice(start, end);
  const edges = page.map((node, i) => ({ node, cursor: encodeCursor(keys[start + i]!) }));
  return {
    edges,
    nodes: page,
    pageInfo: {
      // As Relay specifies: backward paging knows of earlier items, forward paging of later ones;
      // a cut cursor also says there is more on its side.
      hasNextPage: end < cutEnd || (before !== undefined && before !== null && cutEnd < items.length),
      hasPreviousPage: start > cutStart || (after !== undefined && after !== null && cutStart > 0),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
