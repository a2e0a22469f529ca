import { emptyResponse, jsonResponse, type HeaderList, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { Gh } from './context.js';
import type { RepoDoc } from './model.js';

export const ok = (value: unknown, headers: HeaderList = []) => jsonResponse(200, value, headers);
export const created = (value: unknown, headers: HeaderList = []) => jsonResponse(201, value, headers);
export const accepted = (value: unknown) => jsonResponse(202, value);
export const noContent = (): ServiceResponse => emptyResponse(204);

export interface PageParams {
  page: number;
  perPage: number;
}

/** `per_page` (default 30, at most 100) and `page` (from 1); nonsense falls back as GitHub does. */
export function pageParams(req: ServiceRequest, defaultPerPage = 30): PageParams {
  const perPage = Number.parseInt(req.query.get('per_page') ?? '', 10);
  const page = Number.parseInt(req.query.get('page') ?? '', 10);
  return {
    perPage: Number.isFinite(perPage) && perPage > 0 ? Math.min(perPage, 100) : defaultPerPage,
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

/**
 * One page of `items` and GitHub's `Link` header: `rel` in the order prev, next, last, first; the
 * request's query kept in order with `page` replaced; repository lists linked through
 * `/repositories/:id/…` as GitHub does.
 */
export function paginate<T>(gh: Gh, req: ServiceRequest, items: readonly T[], options: { repo?: RepoDoc; cap?: number } = {}) {
  const { page, perPage } = pageParams(req);
  const total = Math.min(items.length, options.cap ?? Infinity);
  const last = Math.max(1, Math.ceil(total / perPage));
  const start = (page - 1) * perPage;
  const slice = start >= total ? [] : items.slice(start, Math.min(start + perPage, total));
  const path = options.repo ? req.path.replace(/^\/repos\/[^/]+\/[^/]+/, `/repositories/${options.repo.id}`) : req.path;
  const url = (n: number) => {
    const query = new URLSearchParams(req.query);
    query.set('page', String(n));
    return `<${gh.linkOrigin}${path}?${query.toString()}>`;
  };
  const rels: string[] = [];
  if (page > 1) rels.push(`${url(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) rels.push(`${url(page + 1)}; rel="next"`, `${url(last)}; rel="last"`);
  if (page > 1) rels.push(`${url(1)}; rel="first"`);
  const headers: HeaderList = rels.length > 0 ? [['Link', rels.join(', ')]] : [];
  return { items: slice, headers };
}

/** A paginated JSON array answer. */
export function list<T>(gh: Gh, req: ServiceRequest, items: readonly T[], render: (item: T) => unknown, options: { repo?: RepoDoc; cap?: number } = {}): ServiceResponse {
  const page = paginate(gh, req, items, options);
  return ok(page.items.map(render), page.headers);
}
