import { ServiceError } from '../errors.js';

/**
 * Stripe's list pagination: newest first, `limit` (1..100, default 10), a cursor that is an
 * object ID (`starting_after` for the next page, `ending_before` for the previous one), and a list
 * object `{object: 'list', data, has_more, url}`. Services with the same style (Stripe-alikes,
 * Lemon Squeezy's `starting_after`) use it as is.
 */
export interface StripeList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

export interface StartingAfterQuery {
  limit?: number | undefined;
  starting_after?: string | undefined;
  ending_before?: string | undefined;
}

export interface StartingAfterOptions<T> {
  /** The list's own URL without query (`/v1/customers`). */
  url: string;
  id(item: T): string;
  defaultLimit?: number;
  maxLimit?: number;
  /** The error for a cursor that names no item of the list (default: Stripe's `resource_missing`). */
  unknownCursor?(id: string, param: 'starting_after' | 'ending_before'): ServiceError;
}

/**
 * One page of `items` (already in list order, newest first). `starting_after=X`: the `limit` items
 * after X, `has_more` when more follow. `ending_before=X`: the `limit` items just before X, still
 * in list order, `has_more` when more precede them. Both at once is an error, as on Stripe.
 */
export function startingAfterPage<T>(items: readonly T[], query: StartingAfterQuery, options: StartingAfterOptions<T>): StripeList<T> {
  const maxLimit = options.maxLimit ?? 100;
  const limit = query.limit ?? options.defaultLimit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    throw new ServiceError(400, 'parameter_invalid_integer', `Invalid limit: must be an integer between 1 and ${maxLimit}`, { param: 'limit', type: 'invalid_request_error' });
  }
  if (query.starting_after !== undefined && query.ending_before !== undefined) {
    throw new ServiceError(400, 'parameters_exclusive', 'You may only specify one of these parameters: ending_before, starting_after.', { param: 'ending_before', type: 'invalid_request_error' });
  }
  const indexOf = (id: string, param: 'starting_after' | 'ending_before'): number => {
    const index = items.findIndex((item) => options.id(item) === id);
    if (index === -1) {
      throw options.unknownCursor?.(id, param)
        ?? new ServiceError(400, 'resource_missing', `No such object: '${id}'`, { param, type: 'invalid_request_error' });
    }
    return index;
  };
  if (query.ending_before !== undefined) {
    const end = indexOf(query.ending_before, 'ending_before');
    const start = Math.max(0, end - limit);
    return { object: 'list', data: items.slice(start, end), has_more: start > 0, url: options.url };
  }
  const start = query.starting_after === undefined ? 0 : indexOf(query.starting_after, 'starting_after') + 1;
  return { object: 'list', data: items.slice(start, start + limit), has_more: start + limit < items.length, url: options.url };
}
