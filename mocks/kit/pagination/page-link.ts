import type { HeaderList } from '../../core/http.js';

/**
 * Page-number pagination with RFC 8288 `Link` headers, as GitHub (and GitLab, Gitea, many REST
 * APIs) do it: `?page=N&per_page=M`, and `Link: <…page=2>; rel="next", <…page=5>; rel="last"`.
 */
export interface PageParams {
  page: number;
  perPage: number;
}

export interface PageOptions {
  /** `per_page` when absent or nonsense (GitHub: 30). */
  defaultPerPage?: number;
  /** The largest `per_page` honoured (GitHub: 100); more is clamped. */
  maxPerPage?: number;
  pageParam?: string;
  perPageParam?: string;
}

/** `per_page` (a positive integer, clamped) and `page` (from 1); nonsense falls back to the defaults. */
export function pageParams(query: URLSearchParams, options: PageOptions = {}): PageParams {
  const perPage = Number.parseInt(query.get(options.perPageParam ?? 'per_page') ?? '', 10);
  const page = Number.parseInt(query.get(options.pageParam ?? 'page') ?? '', 10);
  return {
    perPage: Number.isFinite(perPage) && perPage > 0 ? Math.min(perPage, options.maxPerPage ?? 100) : options.defaultPerPage ?? 30,
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

export interface LinkTarget {
  /** Scheme and host the links name (`https://api.github.com`). */
  origin: string;
  /** The path the links name (the request's, or an alias of it). */
  path: string;
  /** The request's query; kept in order with the page parameter replaced. */
  query: URLSearchParams;
}

/**
 * One page of `items` and its `Link` header: `rel` in the order prev, next, last, first (GitHub's
 * order); none on a single page. `cap` limits how many items can be reached at all (GitHub's
 * search stops at 1,000). A page past the end is empty and links back (`prev` to the last page).
 */
export function pageLinks<T>(items: readonly T[], target: LinkTarget, options: PageOptions & { cap?: number } = {}): { items: T[]; headers: HeaderList; page: number; last: number } {
  const { page, perPage } = pageParams(target.query, options);
  const total = Math.min(items.length, options.cap ?? Infinity);
  const last = Math.max(1, Math.ceil(total / perPage));
  const start = (page - 1) * perPage;
  const slice = start >= total ? [] : items.slice(start, Math.min(start + perPage, total));
  const pageParam = options.pageParam ?? 'page';
  const url = (n: number) => {
    const query = new URLSearchParams(target.query);
    query.set(pageParam, String(n));
    return `<${target.origin}${target.path}?${query.toString()}>`;
  };
  const rels: string[] = [];
  if (page > 1) rels.push(`${url(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) rels.push(`${url(page + 1)}; rel="next"`, `${url(last)}; rel="last"`);
  if (page > 1) rels.push(`${url(1)}; rel="first"`);
  return { items: slice, headers: rels.length > 0 ? [['Link', rels.join(', ')]] : [], page, last };
}
