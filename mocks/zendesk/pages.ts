import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import { ServiceError } from '../kit/errors.js';
import type { ZendeskCtx } from './context.js';

/**
 * Zendesk's two ways to page a list, chosen by the request as Zendesk does:
 * - cursor pagination (`page[size]`, `page[after]`, `page[before]`; what node-zendesk asks for):
 *   `{meta: {has_more, after_cursor, before_cursor}, links: {prev, next}}`;
 * - offset pagination (`page`, `per_page`; the default): `{next_page, previous_page, count}` with
 *   absolute URLs of the neighbouring pages.
 * The list's other query parameters carry over into the links.
 */
export function listAnswer(c: ZendeskCtx, req: ServiceRequest, key: string, items: readonly unknown[], extra: Record<string, unknown> = {}): ServiceResponse {
  const q = req.query;
  const cursor = q.has('page[size]') || q.has('page[after]') || q.has('page[before]');
  const base = `${c.origin}${req.path.replace(/\.json$/, '')}.json`;
  if (cursor) {
    const size = intParam(q.get('page[size]'), 100, 'page[size]');
    if (size > 100) throw new ServiceError(400, 'InvalidPaginationParameter', 'page[size] must be less than or equal to 100');
    const after = q.get('page[after]');
    const before = q.get('page[before]');
    let start = after ? decodeCursor(after) : 0;
    let end = start + size;
    if (before && !after) {
      end = decodeCursor(before);
      start = Math.max(0, end - size);
    }
    const page = items.slice(start, Math.min(end, items.length));
    const stop = start + page.length;
    const hasMore = before && !after ? start > 0 : stop < items.length;
    const link = (name: 'page[after]' | 'page[before]', value: string) => {
      const params = new URLSearchParams(q);
      params.delete('page[after]');
      params.delete('page[before]');
      params.set(name, value);
      params.set('page[size]', String(size));
      return `${base}?${params.toString()}`;
    };
    const afterCursor = page.length ? encodeCursor(stop) : null;
    const beforeCursor = page.length ? encodeCursor(start) : null;
    return jsonResponse(200, {
      [key]: page, ...extra,
      meta: { has_more: hasMore, after_cursor: afterCursor, before_cursor: beforeCursor },
      links: { prev: beforeCursor && start > 0 ? link('page[before]', beforeCursor) : null, next: afterCursor && stop < items.length ? link('page[after]', afterCursor) : null },
    });
  }
  const perPage = Math.min(intParam(q.get('per_page'), 100, 'per_page'), 100);
  const pageNo = intParam(q.get('page'), 1, 'page');
  const page = items.slice((pageNo - 1) * perPage, pageNo * perPage);
  const link = (n: number) => {
    const params = new URLSearchParams(q);
    params.set('page', String(n));
    params.set('per_page', String(perPage));
    return `${base}?${params.toString()}`;
  };
  return jsonResponse(200, {
    [key]: page, ...extra,
    next_page: pageNo * perPage < items.length ? link(pageNo + 1) : null,
    previous_page: pageNo > 1 ? link(pageNo - 1) : null,
    count: items.length,
  });
}

function intParam(value: string | null, fallback: number, name: string): number {
  if (value === null || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new ServiceError(400, 'InvalidPaginationParameter', `${name} must be a positive integer`);
  return Number(value);
}

/** Cursors are opaque to clients; here, the offset they stand for. */
function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^o:(\d+)$/.exec(text);
  if (!match) throw new ServiceError(400, 'InvalidPaginationParameter', 'page[after] or page[before] is not a valid cursor');
  return Number(match[1]);
}

/** Sorting of `sort_by`/`sort_order` on lists (Zendesk's default: by id, ascending). */
export function sorted<T extends Record<string, unknown>>(items: readonly T[], sortBy: string | null, sortOrder: string | null, allowed: readonly string[]): T[] {
  const by = sortBy && allowed.includes(sortBy) ? sortBy : 'id';
  const desc = sortOrder === 'desc';
  const rank = (v: unknown) => (by === 'priority' ? PRIORITY.indexOf(String(v)) : by === 'status' ? STATUS.indexOf(String(v)) : v);
  return [...items].sort((a, b) => {
    const x = rank(a[by]);
    const y = rank(b[by]);
    const order = x === y ? (a.id as number) - (b.id as number) : (x as number | string) < (y as number | string) ? -1 : 1;
    return desc ? -order : order;
  });
}

const PRIORITY = ['low', 'normal', 'high', 'urgent'];
const STATUS = ['new', 'open', 'pending', 'hold', 'solved', 'closed'];
