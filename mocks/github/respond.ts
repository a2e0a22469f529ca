import { emptyResponse, jsonResponse, type HeaderList, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import { pageLinks } from '../kit/pagination/page-link.js';
import type { Gh } from './context.js';
import type { RepoDoc } from './model.js';

export const ok = (value: unknown, headers: HeaderList = []) => jsonResponse(200, value, headers);
export const created = (value: unknown, headers: HeaderList = []) => jsonResponse(201, value, headers);
export const accepted = (value: unknown) => jsonResponse(202, value);
export const noContent = (): ServiceResponse => emptyResponse(204);

/**
 * One page of `items` and GitHub's `Link` header (mocks/kit/pagination/page-link.ts), repository
 * lists linked through `/repositories/:id/…` as GitHub does.
 */
export function paginate<T>(gh: Gh, req: ServiceRequest, items: readonly T[], options: { repo?: RepoDoc; cap?: number } = {}) {
  const path = options.repo ? req.path.replace(/^\/repos\/[^/]+\/[^/]+/, `/repositories/${options.repo.id}`) : req.path;
  return pageLinks(items, { origin: gh.linkOrigin, path, query: req.query }, options.cap === undefined ? {} : { cap: options.cap });
}

/** A paginated JSON array answer. */
export function list<T>(gh: Gh, req: ServiceRequest, items: readonly T[], render: (item: T) => unknown, options: { repo?: RepoDoc; cap?: number } = {}): ServiceResponse {
  const page = paginate(gh, req, items, options);
  return ok(page.items.map(render), page.headers);
}
