import { Buffer } from 'node:buffer';
import { z } from 'zod';
import { emptyResponse, jsonResponse, type ServiceRequest } from '../../core/http.js';
import { operation, rest, type Operation } from '../../kit/operation.js';
import { me, type AtlassianCtx } from '../context.js';
import { findUser } from '../model.js';
import { runCql } from './cql.js';
import { confluenceError } from './errors.js';
import { confluenceDb, confluenceTime, type ContentDoc } from './model.js';
import { content, cUser, excerpt, label, listOf, space } from './render.js';

/** Confluence REST v1 (`/wiki/rest/api`): content (pages, blog posts, comments, attachments), CQL search, spaces, labels, users. */
const API = '/wiki/rest/api';

function expandOf(req: ServiceRequest): Set<string> {
  return new Set((req.query.get('expand') ?? '').split(',').map((e) => e.trim()).filter(Boolean));
}

function paging(req: ServiceRequest, defaultLimit = 25, max = 250): { start: number; limit: number } {
  const num = (name: string, fallback: number) => {
    const raw = req.query.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^\d+$/.test(raw)) throw confluenceError(400, `${name} must be a non-negative integer`);
    return Number(raw);
  };
  return { start: num('start', 0), limit: Math.min(num('limit', defaultLimit), max) || defaultLimit };
}

function contentOf(c: AtlassianCtx, id: string): ContentDoc {
  const doc = /^\d+$/.test(id) ? confluenceDb(c.ctx.store).content.get(id) : undefined;
  if (!doc || doc.status === 'trashed') throw confluenceError(404, `No content found with id : ContentId{id=${id}}`);
  return doc;
}

const Body = z.object({ storage: z.object({ value: z.string(), representation: z.literal('storage') }).passthrough() }).passthrough();
const ContentBody = z.object({
  type: z.enum(['page', 'blogpost', 'comment']),
  title: z.string().max(255).optional(),
  space: z.object({ key: z.string() }).passthrough().optional(),
  status: z.enum(['current', 'draft']).optional(),
  ancestors: z.array(z.object({ id: z.union([z.string(), z.number()]).transform(String) }).passthrough()).optional(),
  container: z.object({ id: z.union([z.string(), z.number()]).transform(String), type: z.string().optional() }).passthrough().optional(),
  body: Body.optional(),
}).passthrough();
const UpdateBody = z.object({
  type: z.string().optional(),
  title: z.string().max(255).optional(),
  status: z.enum(['current', 'draft', 'trashed', 'archived']).optional(),
  version: z.object({ number: z.number().int(), message: z.string().optional(), minorEdit: z.boolean().optional() }).passthrough(),
  body: Body.optional(),
  ancestors: z.array(z.object({ id: z.union([z.string(), z.number()]).transform(String) }).passthrough()).optional(),
}).passthrough();

function titleTaken(c: AtlassianCtx, spaceKey: string, title: string, except: string | null): boolean {
  return confluenceDb(c.ctx.store).content.find((d) => (d.type === 'page' || d.type === 'blogpost') && d.status === 'current' && d.space === spaceKey && d.title === title && d.id !== except) !== undefined;
}

export const confluenceOperations: Operation<AtlassianCtx>[] = [
  operation('confluence.content.list', rest('GET', `${API}/content`), (call, c: AtlassianCtx) => {
    const q = call.req.query;
    const { start, limit } = paging(call.req);
    const type = q.get('type') ?? 'page';
    const list = confluenceDb(c.ctx.store).content.filter((d) => d.type === type && d.status === (q.get('status') ?? 'current')
      && (q.get('spaceKey') === null || d.space === q.get('spaceKey')) && (q.get('title') === null || d.title === q.get('title')));
    return jsonResponse(200, listOf(c, `/rest/api/content`, list.map((d) => content(c, d, expandOf(call.req))), start, limit));
  }),

  operation('confluence.content.search', rest('GET', `${API}/content/search`), (call, c: AtlassianCtx) => {
    const cql = call.req.query.get('cql');
    if (!cql) throw confluenceError(400, 'The CQL query parameter is required.');
    const { start, limit } = paging(call.req);
    const found = runCql(c, cql, me(c).accountId);
    return jsonResponse(200, listOf(c, `/rest/api/content/search?cql=${encodeURIComponent(cql)}`, found.map((d) => content(c, d, expandOf(call.req))), start, limit, { totalSize: found.length, cqlQuery: cql, searchDuration: 12 }));
  }),

  operation('confluence.content.get', rest('GET', `${API}/content/:id`), (call, c: AtlassianCtx) => {
    const doc = contentOf(c, call.params.id);
    const version = call.req.query.get('version');
    if (version !== null && Number(version) !== doc.version.number) throw confluenceError(404, `No content found with id ${doc.id} and version ${version}`);
    return jsonResponse(200, content(c, doc, expandOf(call.req)));
  }),

  operation('confluence.content.create', rest('POST', `${API}/content`), (call, c: AtlassianCtx) => {
    const body = call.body as z.infer<typeof ContentBody>;
    const db = confluenceDb(c.ctx.store);
    const caller = me(c).accountId;
    const now = confluenceTime(c.ctx.nowMs);
    const id = String(c.ctx.ids.next('confluence-content'));
    if (body.type === 'comment') {
      if (!body.container) throw confluenceError(400, 'A comment must have a container.');
      const page = contentOf(c, body.container.id);
      if (!body.body) throw confluenceError(400, 'A comment must have a body.');
      const parent = body.ancestors?.[0]?.id ?? null;
      if (parent !== null) { const p = contentOf(c, parent); if (p.type !== 'comment' || p.container !== page.id) throw confluenceError(400, `Parent comment ${parent} is not on page ${page.id}.`); }
      const doc = db.content.put(id, {
        id, type: 'comment', status: 'current', title: `Re: ${page.title}`, space: page.space, parent, container: page.id, body: body.body.storage.value, creator: caller, created: now,
        version: { number: 1, when: now, by: caller, message: '', minorEdit: false }, labels: [], mediaType: null, data: null, position: db.content.filter((x) => x.container === page.id).length,
      });
      return jsonResponse(200, content(c, doc, new Set(['version', 'body.storage', 'container', 'space'])));
    }
    if (!body.space) throw confluenceError(400, 'Could not create content with no space');
    const s = db.spaces.get(body.space.key);
    if (!s) throw confluenceError(404, `No space with key : ${body.space.key}`);
    if (!body.title || body.title.trim() === '') throw confluenceError(400, "Content must have a non-empty title");
    if (titleTaken(c, s.key, body.title, null)) throw confluenceError(400, `A page with this title already exists: A page already exists with the same TITLE in this space`);
    let parent: string | null = null;
    if (body.ancestors?.length) {
      const p = contentOf(c, body.ancestors[body.ancestors.length - 1]!.id);
      if (p.space !== s.key || p.type !== 'page') throw confluenceError(400, `The parent page ${p.id} is not a page in space ${s.key}.`);
      parent = p.id;
    }
    const doc = db.content.put(id, {
      id, type: body.type, status: body.status ?? 'current', title: body.title, space: s.key, parent: body.type === 'page' ? parent ?? s.homepage : null, container: null,
      body: body.body?.storage.value ?? '', creator: caller, created: now, version: { number: 1, when: now, by: caller, message: '', minorEdit: false }, labels: [], mediaType: null, data: null,
      position: db.content.size,
    });
    return jsonResponse(200, content(c, doc, new Set(['space', 'history', 'version', 'ancestors', 'body.storage', 'container'])));
  }, { input: { body: ContentBody } }),

  operation('confluence.content.update', rest('PUT', `${API}/content/:id`), (call, c: AtlassianCtx) => {
    const body = call.body as z.infer<typeof UpdateBody>;
    const doc = contentOf(c, call.params.id);
    if (body.version.number !== doc.version.number + 1) {
      throw confluenceError(409, `Version must be incremented on update. Current version is: ${doc.version.number}`);
    }
    const title = body.title ?? doc.title;
    if ((doc.type === 'page' || doc.type === 'blogpost') && title !== doc.title && titleTaken(c, doc.space, title, doc.id)) throw confluenceError(400, 'A page with this title already exists: A page already exists with the same TITLE in this space');
    let parent = doc.parent;
    if (body.ancestors?.length && doc.type === 'page') {
      const p = contentOf(c, body.ancestors[body.ancestors.length - 1]!.id);
      if (p.id === doc.id) throw confluenceError(400, 'A page cannot be its own parent.');
      parent = p.id;
    }
    const caller = me(c).accountId;
    const next = confluenceDb(c.ctx.store).content.put(doc.id, {
      ...doc, title, parent, body: body.body?.storage.value ?? doc.body, status: body.status === 'trashed' ? 'trashed' : body.status === 'archived' ? 'archived' : doc.status,
      version: { number: body.version.number, when: confluenceTime(c.ctx.nowMs), by: caller, message: body.version.message ?? '', minorEdit: body.version.minorEdit ?? false },
    });
    return jsonResponse(200, content(c, next, new Set(['space', 'history', 'version', 'ancestors', 'body.storage'])));
  }, { input: { body: UpdateBody } }),

  operation('confluence.content.delete', rest('DELETE', `${API}/content/:id`), (call, c: AtlassianCtx) => {
    const doc = contentOf(c, call.params.id);
    confluenceDb(c.ctx.store).content.put(doc.id, { ...doc, status: 'trashed' });
    return emptyResponse(204);
  }),

  operation('confluence.search', rest('GET', `${API}/search`), (call, c: AtlassianCtx) => {
    const cql = call.req.query.get('cql');
    if (!cql) throw confluenceError(400, 'The CQL query parameter is required.');
    const { start, limit } = paging(call.req);
    const db = confluenceDb(c.ctx.store);
    const found = runCql(c, cql, me(c).accountId);
    const results = found.map((d) => ({
      content: content(c, d, new Set(['space'])), title: d.title, excerpt: excerpt(d), url: (content(c, d, new Set()) as { _links: { webui: string } })._links.webui,
      resultGlobalContainer: { title: db.spaces.get(d.space)!.name, displayUrl: `/spaces/${d.space}` }, breadcrumbs: [], entityType: 'content', iconCssClass: `aui-icon content-type-${d.type}`,
      lastModified: d.version.when, friendlyLastModified: d.version.when.slice(0, 10), score: 1,
    }));
    return jsonResponse(200, listOf(c, `/rest/api/search?cql=${encodeURIComponent(cql)}`, results, start, limit, { totalSize: found.length, cqlQuery: cql, searchDuration: 15 }));
  }),

  operation('confluence.content.children', rest('GET', `${API}/content/:id/child/:type`), (call, c: AtlassianCtx) => {
    const doc = contentOf(c, call.params.id);
    const type = call.params.type;
    if (!['page', 'comment', 'attachment'].includes(type)) throw confluenceError(400, `Unsupported child type: ${type}`);
    const { start, limit } = paging(call.req, type === 'attachment' ? 50 : 25);
    const db = confluenceDb(c.ctx.store);
    const q = call.req.query;
    const kids = db.content.filter((x) => x.status === 'current' && (type === 'page' ? x.type === 'page' && x.parent === doc.id : x.type === type && x.container === doc.id)
      && (q.get('filename') === null || x.title === q.get('filename')) && (q.get('mediaType') === null || x.mediaType === q.get('mediaType')))
      .sort((a, b) => a.position - b.position);
    return jsonResponse(200, listOf(c, `/rest/api/content/${doc.id}/child/${type}`, kids.map((k) => content(c, k, expandOf(call.req))), start, limit));
  }),

  operation('confluence.content.attachments.create', rest('POST', `${API}/content/:id/child/attachment`), (call, c: AtlassianCtx) => {
    const page = contentOf(c, call.params.id);
    if ((call.req.header('x-atlassian-token') ?? '').toLowerCase() !== 'no-check') throw confluenceError(403, 'XSRF check failed');
    if (call.decoded.kind !== 'multipart' || call.decoded.value.file === undefined) throw confluenceError(400, 'No file was attached: send a part named "file".');
    const parts = Array.isArray(call.decoded.value.file) ? call.decoded.value.file : [call.decoded.value.file];
    const db = confluenceDb(c.ctx.store);
    const caller = me(c).accountId;
    const now = confluenceTime(c.ctx.nowMs);
    const docs = parts.map((part) => {
      const filename = part.filename ?? 'file';
      if (db.content.find((x) => x.type === 'attachment' && x.container === page.id && x.title === filename && x.status === 'current')) throw confluenceError(400, `Cannot add a new attachment with same file name as an existing attachment: ${filename}`);
      const id = String(c.ctx.ids.next('confluence-content'));
      return db.content.put(id, {
        id, type: 'attachment', status: 'current', title: filename, space: page.space, parent: null, container: page.id, body: '', creator: caller, created: now,
        version: { number: 1, when: now, by: caller, message: '', minorEdit: false }, labels: [], mediaType: part.contentType ?? 'application/octet-stream', data: Buffer.from(part.bytes).toString('base64'), position: db.content.size,
      });
    });
    return jsonResponse(200, listOf(c, `/rest/api/content/${page.id}/child/attachment`, docs.map((d) => content(c, d, new Set(['version', 'container']))), 0, 50));
  }),

  operation('confluence.download', rest('GET', '/wiki/download/attachments/:pageId/:filename'), (call, c: AtlassianCtx) => {
    const page = contentOf(c, call.params.pageId);
    const name = decodeURIComponent(call.params.filename);
    const a = confluenceDb(c.ctx.store).content.find((x) => x.type === 'attachment' && x.container === page.id && x.title === name && x.status === 'current');
    if (!a) throw confluenceError(404, `No attachment ${name} on page ${page.id}`);
    return { status: 200, headers: [['Content-Type', a.mediaType ?? 'application/octet-stream']], body: new Uint8Array(Buffer.from(a.data ?? '', 'base64')) };
  }),

  operation('confluence.labels.get', rest('GET', `${API}/content/:id/label`), (call, c: AtlassianCtx) => {
    const doc = contentOf(c, call.params.id);
    const { start, limit } = paging(call.req, 200);
    const prefix = call.req.query.get('prefix');
    const labels = prefix !== null && prefix !== 'global' ? [] : doc.labels;
    return jsonResponse(200, listOf(c, `/rest/api/content/${doc.id}/label`, labels.map((n) => label(doc, n)), start, limit));
  }),

  operation('confluence.labels.add', rest('POST', `${API}/content/:id/label`), (call, c: AtlassianCtx) => {
    const doc = contentOf(c, call.params.id);
    const body = call.body as { prefix?: string; name: string }[] | { prefix?: string; name: string };
    const list = Array.isArray(body) ? body : [body];
    for (const l of list) {
      if (!l || typeof l.name !== 'string' || l.name === '' || /[\s:]/.test(l.name)) throw confluenceError(400, `Label name is invalid: ${JSON.stringify(l?.name)}`);
      if (l.prefix !== undefined && !['global', 'my', 'team'].includes(l.prefix)) throw confluenceError(400, `Invalid label prefix: ${l.prefix}`);
    }
    const labels = [...doc.labels];
    for (const l of list) if (!labels.includes(l.name.toLowerCase())) labels.push(l.name.toLowerCase());
    const next = confluenceDb(c.ctx.store).content.put(doc.id, { ...doc, labels });
    return jsonResponse(200, listOf(c, `/rest/api/content/${doc.id}/label`, next.labels.map((n) => label(next, n)), 0, 200));
  }),

  operation('confluence.labels.remove', rest('DELETE', `${API}/content/:id/label/:label`), (call, c: AtlassianCtx) => {
    const doc = contentOf(c, call.params.id);
    if (!doc.labels.includes(call.params.label)) throw confluenceError(404, `Label ${call.params.label} not found on content ${doc.id}`);
    confluenceDb(c.ctx.store).content.put(doc.id, { ...doc, labels: doc.labels.filter((l) => l !== call.params.label) });
    return emptyResponse(204);
  }),

  operation('confluence.space.list', rest('GET', `${API}/space`), (call, c: AtlassianCtx) => {
    const q = call.req.query;
    const { start, limit } = paging(call.req);
    const keys = q.getAll('spaceKey');
    const list = confluenceDb(c.ctx.store).spaces.filter((s) => (q.get('type') === null || s.type === q.get('type')) && (q.get('status') === null || s.status === q.get('status')) && (keys.length === 0 || keys.includes(s.key)));
    return jsonResponse(200, listOf(c, '/rest/api/space', list.map((s) => space(c, s, expandOf(call.req))), start, limit));
  }),

  operation('confluence.space.get', rest('GET', `${API}/space/:spaceKey`), (call, c: AtlassianCtx) => {
    const s = confluenceDb(c.ctx.store).spaces.get(call.params.spaceKey);
    if (!s) throw confluenceError(404, `No space found with key : ${call.params.spaceKey}`);
    return jsonResponse(200, space(c, s, expandOf(call.req)));
  }),

  operation('confluence.space.content', rest('GET', `${API}/space/:spaceKey/content`), (call, c: AtlassianCtx) => {
    const s = confluenceDb(c.ctx.store).spaces.get(call.params.spaceKey);
    if (!s) throw confluenceError(404, `No space found with key : ${call.params.spaceKey}`);
    const { start, limit } = paging(call.req);
    const pages = confluenceDb(c.ctx.store).content.filter((d) => d.space === s.key && d.type === 'page' && d.status === 'current');
    const blogs = confluenceDb(c.ctx.store).content.filter((d) => d.space === s.key && d.type === 'blogpost' && d.status === 'current');
    return jsonResponse(200, { page: listOf(c, `/rest/api/space/${s.key}/content/page`, pages.map((d) => content(c, d, expandOf(call.req))), start, limit), blogpost: listOf(c, `/rest/api/space/${s.key}/content/blogpost`, blogs.map((d) => content(c, d, expandOf(call.req))), start, limit), _links: { base: `${c.site.base_url}/wiki`, context: '/wiki' } });
  }),

  operation('confluence.user.current', rest('GET', `${API}/user/current`), (_call, c: AtlassianCtx) => jsonResponse(200, cUser(c, me(c).accountId))),

  operation('confluence.user.get', rest('GET', `${API}/user`), (call, c: AtlassianCtx) => {
    const id = call.req.query.get('accountId');
    if (!id) throw confluenceError(400, 'accountId is required');
    if (!c.tenant.users.has(id)) throw confluenceError(404, `No user found with accountId : ${id}`);
    return jsonResponse(200, cUser(c, id));
  }),

  operation('confluence.search.user', rest('GET', `${API}/search/user`), (call, c: AtlassianCtx) => {
    const cql = call.req.query.get('cql') ?? '';
    const { start, limit } = paging(call.req);
    const m = /user(?:\.fullname)?\s*(~|=)\s*["']?([^"']+)["']?/i.exec(cql);
    if (!m) throw confluenceError(400, `Could not parse cql : ${cql}. User searches take user.fullname ~ "name" or user = "accountId".`);
    const term = m[2]!.trim().toLowerCase();
    const users = c.tenant.users.filter((u) => u.active && (m[1] === '=' ? u.accountId === m[2]!.trim() || findUser(c.tenant, m[2]!.trim())?.accountId === u.accountId : u.displayName.toLowerCase().includes(term) || u.emailAddress.toLowerCase().startsWith(term)));
    const results = users.map((u) => ({ user: cUser(c, u.accountId), title: u.displayName, excerpt: '', url: `/people/${u.accountId}`, entityType: 'user', lastModified: confluenceTime(c.ctx.epochMs), score: 1 }));
    return jsonResponse(200, listOf(c, `/rest/api/search/user?cql=${encodeURIComponent(cql)}`, results, start, limit, { totalSize: results.length, cqlQuery: cql }));
  }),
];

/**
 * Paths of the site no API answers (mcp-atlassian's tools call some relative to the site root:
 * `/api/user/current`, `/api/content/…`; and `/wiki/rest/api/user/search`, which Confluence does
 * not have): Atlassian's 404, named so the journal and coverage say which tool asked.
 */
export const siteNotFound: Operation<AtlassianCtx>[] = [
  operation('site.notFound', rest('GET', '/api/*rest'), () => { throw confluenceError(404, 'Page Not Found'); }),
  operation('site.notFound.post', rest('POST', '/api/*rest'), () => { throw confluenceError(404, 'Page Not Found'); }),
  operation('confluence.notFound', rest('GET', `${API}/user/search`), () => { throw confluenceError(404, 'null for uri: /wiki/rest/api/user/search'); }),
];

