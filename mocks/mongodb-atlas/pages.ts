import { z } from 'zod';
import { BASE, type Json } from './model.js';

/** Atlas's list envelope: `itemsPerPage` (1–500, default 100), `pageNum` from 1, `includeCount` (default true). */
export const PageQuery = z.object({
  itemsPerPage: z.coerce.number().int().min(1).max(500).default(100),
  pageNum: z.coerce.number().int().min(1).default(1),
  includeCount: z.enum(['true', 'false']).default('true'),
  pretty: z.enum(['true', 'false']).optional(),
  envelope: z.enum(['true', 'false']).optional(),
}).passthrough();
export type PageQuery = z.infer<typeof PageQuery>;

/** `{links, results, totalCount}` with `self` and, where there are more pages, `next` and `previous` links. */
export function page(path: string, items: readonly Json[], q: PageQuery): Json {
  const start = (q.pageNum - 1) * q.itemsPerPage;
  const results = items.slice(start, start + q.itemsPerPage);
  const href = (n: number) => `${BASE}${path}?includeCount=${q.includeCount}&itemsPerPage=${q.itemsPerPage}&pageNum=${n}`;
  const links = [
    ...(q.pageNum > 1 ? [{ href: href(q.pageNum - 1), rel: 'previous' }] : []),
    { href: href(q.pageNum), rel: 'self' },
    ...(start + q.itemsPerPage < items.length ? [{ href: href(q.pageNum + 1), rel: 'next' }] : []),
  ];
  return { links, results, ...(q.includeCount === 'true' ? { totalCount: items.length } : {}) };
}
