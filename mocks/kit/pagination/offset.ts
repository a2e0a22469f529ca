import { ServiceError } from '../errors.js';

/**
 * Offset pagination (`offset`/`limit`, or `skip`/`take`): the page, the total, and where the next
 * page starts. How it is put on the wire (a `total_count` field, `X-Total-Count`, a `next` URL)
 * is the service's choice; this decides only what is on the page.
 */
export interface OffsetQuery {
  offset?: number | undefined;
  limit?: number | undefined;
}

export interface OffsetPage<T> {
  items: T[];
  offset: number;
  limit: number;
  total: number;
  has_more: boolean;
  /** The offset of the next page, or null on the last one. */
  next_offset: number | null;
}

export interface OffsetOptions {
  defaultLimit?: number;
  maxLimit?: number;
  /** Clamp a too-large limit to `maxLimit` (GitHub-style) instead of refusing it. */
  clamp?: boolean;
}

export function offsetPage<T>(items: readonly T[], query: OffsetQuery, options: OffsetOptions = {}): OffsetPage<T> {
  const maxLimit = options.maxLimit ?? 100;
  const offset = query.offset ?? 0;
  let limit = query.limit ?? options.defaultLimit ?? 20;
  if (!Number.isInteger(offset) || offset < 0) throw new ServiceError(400, 'invalid_offset', 'offset must be a non-negative integer', { param: 'offset' });
  if (!Number.isInteger(limit) || limit < 1) throw new ServiceError(400, 'invalid_limit', `limit must be an integer between 1 and ${maxLimit}`, { param: 'limit' });
  if (limit > maxLimit) {
    if (!options.clamp) throw new ServiceError(400, 'invalid_limit', `limit must be an integer between 1 and ${maxLimit}`, { param: 'limit' });
    limit = maxLimit;
  }
  const page = items.slice(offset, offset + limit);
  const next = offset + limit < items.length ? offset + limit : null;
  return { items: page, offset, limit, total: items.length, has_more: next !== null, next_offset: next };
}
