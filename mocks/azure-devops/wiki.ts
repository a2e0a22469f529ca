import { jsonResponse, type ServiceResponse } from '../core/http.js';
import { operation, type Operation } from '../kit/operation.js';
import { optionalProject, projectOf, projectRef, q, type AdoCtx } from './context.js';
import { ado } from './locations.js';
import { adoError, badRequest, list, type PageDoc, type ProjectDoc, type WikiDoc } from './model.js';

/**
 * Wiki (`_apis/wiki`): wikis, pages by path (metadata with an ETag, content, sub-pages), pages by
 * id, the pages batch, and create/update by `PUT` (a new page without `If-Match`; an existing one
 * only with its current ETag, else ADO's 409/412).
 */

const WIKI_NS = 'Microsoft.TeamFoundation.Wiki.Server';

function wikiOf(c: AdoCtx, p: ProjectDoc | null, key: string): WikiDoc {
  const k = decodeURIComponent(key).toLowerCase();
  const w = c.db.wikis.values().find((x) => (x.id === k || x.name.toLowerCase() === k) && (p === null || x.project === p.id));
  if (!w) throw adoError(404, 'WikiNotFoundException', `The wiki ${decodeURIComponent(key)} does not exist.`, { namespace: WIKI_NS });
  return w;
}

function renderWiki(c: AdoCtx, w: WikiDoc) {
  const p = c.db.projects.get(w.project)!;
  return {
    id: w.id, versions: [{ version: 'wikiMaster' }], url: `${c.base}/${p.id}/_apis/wiki/wikis/${w.id}`, remoteUrl: `${c.base}/${encodeURIComponent(p.name)}/_wiki/wikis/${encodeURIComponent(w.name)}`,
    type: w.type, name: w.name, projectId: p.id, repositoryId: w.repositoryId, mappedPath: '/', project: projectRef(c, p),
  };
}

const normalise = (path: string) => (`/${path.replace(/^\/+|\/+$/g, '')}`).replace(/\s*\/\s*/g, '/');
const pagesOf = (c: AdoCtx, w: WikiDoc) => c.db.pages.values().filter((x) => x.wiki === w.id).sort((a, b) => a.path.localeCompare(b.path));

function renderPage(c: AdoCtx, w: WikiDoc, page: PageDoc | null, path: string, options: { content: boolean; recursion: string }) {
  const p = c.db.projects.get(w.project)!;
  const sub = (prefix: string, depth: number): unknown[] => {
    const direct = pagesOf(c, w).filter((x) => x.path.startsWith(prefix === '/' ? '/' : `${prefix}/`) && x.path !== prefix && !x.path.slice(prefix === '/' ? 1 : prefix.length + 1).includes('/'));
    return direct.map((x) => ({ path: x.path, order: x.order, gitItemPath: `${x.path.replace(/ /g, '-')}.md`, isParentPage: pagesOf(c, w).some((y) => y.path.startsWith(`${x.path}/`)),
      ...(depth > 1 ? { subPages: sub(x.path, depth - 1) } : {}), id: x.id, url: `${c.base}/${p.id}/_apis/wiki/wikis/${w.id}/pages/${encodeURIComponent(x.path)}` }));
  };
  const level = options.recursion.toLowerCase();
  const depth = level === 'full' ? 20 : level === 'onelevel' || level === 'onelevelpluscontents' ? 1 : 0;
  return {
    path, order: page?.order ?? 0, gitItemPath: path === '/' ? '/' : `${path.replace(/ /g, '-')}.md`, subPages: depth > 0 ? sub(path, depth) : [],
    isParentPage: pagesOf(c, w).some((y) => y.path.startsWith(path === '/' ? '/' : `${path}/`) && y.path !== path),
    ...(page ? { id: page.id } : {}), url: `${c.base}/${p.id}/_apis/wiki/wikis/${w.id}/pages/${encodeURIComponent(path)}`,
    remoteUrl: `${c.base}/${encodeURIComponent(p.name)}/_wiki/wikis/${encodeURIComponent(w.name)}?pagePath=${encodeURIComponent(path)}`,
    ...(options.content && page ? { content: page.content } : {}),
  };
}

function pageAt(c: AdoCtx, w: WikiDoc, path: string): PageDoc | null {
  if (path === '/') return null;
  const page = c.db.pages.get(`${w.id}:${path.toLowerCase()}`);
  if (!page) throw adoError(404, 'WikiPageNotFoundException', `The page '${path}' specified in the add operation doesn't exist in the wiki. Please specify a valid page path.`, { namespace: WIKI_NS });
  return page;
}

function pageResponse(c: AdoCtx, w: WikiDoc, page: PageDoc | null, path: string, req: { header(n: string): string | undefined; query: URLSearchParams }, status = 200): ServiceResponse {
  const accept = (req.header('accept') ?? '').toLowerCase();
  if (page && (accept.includes('text/plain') || accept.includes('application/octet-stream'))) {
    return { status, headers: [['Content-Type', 'text/plain; charset=utf-8'], ['ETag', `"${page.eTag}"`]], body: new TextEncoder().encode(page.content) };
  }
  const content = (q(req, 'includeContent') ?? '').toLowerCase() === 'true';
  return jsonResponse(status, renderPage(c, w, page, path, { content, recursion: q(req, 'recursionLevel') ?? 'none' }), page ? [['ETag', `"${page.eTag}"`]] : []);
}

export const wikiOperations: Operation<AdoCtx>[] = [
  operation<AdoCtx, '/:org/:project/:team/_apis/wiki/wikis'>('wiki.getAllWikis', ado('GET', '/wiki/wikis'), (call, c) => {
    const p = optionalProject(c, call.params.project);
    return list(c.db.wikis.values().filter((w) => p === null || w.project === p.id).map((w) => renderWiki(c, w)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wiki/wikis/:wiki'>('wiki.getWiki', ado('GET', '/wiki/wikis/:wiki'), (call, c) =>
    jsonResponse(200, renderWiki(c, wikiOf(c, optionalProject(c, call.params.project), call.params.wiki)))),
  operation<AdoCtx, '/:org/:project/:team/_apis/wiki/wikis/:wiki/pages'>('wiki.getPage', ado('GET', '/wiki/wikis/:wiki/pages'), (call, c) => {
    const w = wikiOf(c, projectOf(c, call.params.project), call.params.wiki);
    const path = normalise(q(call.req, 'path') ?? '/');
    return pageResponse(c, w, pageAt(c, w, path), path, call.req);
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wiki/wikis/:wiki/pages/:id'>('wiki.getPageById', ado('GET', '/wiki/wikis/:wiki/pages/:id'), (call, c) => {
    const w = wikiOf(c, projectOf(c, call.params.project), call.params.wiki);
    const page = pagesOf(c, w).find((x) => String(x.id) === call.params.id || x.path.toLowerCase() === normalise(decodeURIComponent(call.params.id)).toLowerCase());
    if (!page) throw adoError(404, 'WikiPageNotFoundException', `The wiki page with id ${call.params.id} does not exist.`, { namespace: WIKI_NS });
    return pageResponse(c, w, page, page.path, call.req);
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wiki/wikis/:wiki/pages'>('wiki.createOrUpdatePage', ado('PUT', '/wiki/wikis/:wiki/pages'), (call, c) => {
    const w = wikiOf(c, projectOf(c, call.params.project), call.params.wiki);
    const path = normalise(q(call.req, 'path') ?? '');
    if (path === '/') throw badRequest('The page path is required.');
    const body = (call.req.json() ?? {}) as { content?: unknown };
    if (typeof body.content !== 'string') throw badRequest('The page content is required.');
    const key = `${w.id}:${path.toLowerCase()}`;
    const existing = c.db.pages.get(key);
    const ifMatch = call.req.header('if-match')?.replace(/"/g, '');
    if (existing && ifMatch === undefined) throw adoError(409, 'WikiPageAlreadyExistsException', `The page '${path}' specified in the add operation already exists in the wiki. Please specify a new page path.`, { namespace: WIKI_NS });
    if (existing && ifMatch !== existing.eTag) throw adoError(412, 'WikiPageStaleException', `The page '${path}' has been modified since it was read. Please re-read the page and try again.`, { namespace: WIKI_NS });
    if (!existing && ifMatch !== undefined) throw adoError(404, 'WikiPageNotFoundException', `The page '${path}' specified in the edit operation doesn't exist in the wiki.`, { namespace: WIKI_NS });
    const parent = path.slice(0, path.lastIndexOf('/'));
    if (parent !== '' && !c.db.pages.has(`${w.id}:${parent.toLowerCase()}`)) throw adoError(404, 'WikiPageNotFoundException', `The parent page '${parent}' of '${path}' doesn't exist in the wiki.`, { namespace: WIKI_NS });
    const id = existing?.id ?? c.ctx.ids.next('wikipage', 1);
    const eTag = c.ctx.ids.opaque(`etag:${w.id}:${path}:${body.content}`, c.ctx.seq, 40);
    const siblings = pagesOf(c, w).filter((x) => x.path.slice(0, x.path.lastIndexOf('/')) === parent);
    const page = c.db.pages.put(key, { wiki: w.id, path, id, content: body.content, order: existing?.order ?? siblings.length, eTag });
    return pageResponse(c, w, page, path, { header: () => 'application/json', query: new URLSearchParams() }, existing ? 200 : 201);
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/wiki/wikis/:wiki/pagesBatch'>('wiki.getPagesBatch', ado('POST', '/wiki/wikis/:wiki/pagesBatch'), (call, c) => {
    const w = wikiOf(c, projectOf(c, call.params.project), call.params.wiki);
    const body = (call.req.json() ?? {}) as { top?: number; continuationToken?: string };
    const top = Math.min(Number(body.top ?? 20), 100);
    const start = Number(body.continuationToken ?? 0);
    const all = pagesOf(c, w);
    const page = all.slice(start, start + top);
    return list(page.map((x) => ({ id: x.id, path: x.path, viewStats: [] })), start + top < all.length ? [['x-ms-continuationtoken', String(start + top)]] : []);
  }),
];
