import { Buffer } from 'node:buffer';
import type { AtlassianCtx } from '../context.js';
import type { UserDoc } from '../model.js';
import { confluenceDb, slug, storageText, type ContentDoc, type SpaceDoc } from './model.js';

/** Confluence REST v1 JSON: users, spaces, content with `expand`, list envelopes. */
export function cUser(c: AtlassianCtx, accountId: string): Record<string, unknown> {
  const u: UserDoc | undefined = c.tenant.users.get(accountId);
  return {
    type: 'known', accountId, accountType: u?.accountType ?? 'atlassian', email: u?.emailAddress ?? '', publicName: u?.displayName ?? 'Former user',
    profilePicture: { path: `/wiki/aa-avatar/${accountId}`, width: 48, height: 48, isDefault: false }, displayName: u?.displayName ?? 'Former user',
    isExternalCollaborator: false, _expandable: { operations: '', personalSpace: '' },
    _links: { self: `${c.site.base_url}/wiki/rest/api/user?accountId=${accountId}` },
  };
}

export function space(c: AtlassianCtx, s: SpaceDoc, expand: Set<string> = new Set()): Record<string, unknown> {
  return {
    id: s.id, key: s.key, name: s.name, type: s.type, status: s.status,
    ...(expand.has('description') || expand.has('description.plain') ? { description: { plain: { value: s.description, representation: 'plain', embeddedContent: [] } } } : {}),
    ...(expand.has('homepage') && s.homepage ? { homepage: content(c, confluenceDb(c.ctx.store).content.get(s.homepage)!, new Set()) } : {}),
    _expandable: { settings: `/rest/api/space/${s.key}/settings`, metadata: '', operations: '', lookAndFeel: '', identifiers: '', permissions: '', icon: '', description: '', theme: '', history: '', homepage: s.homepage ? `/rest/api/content/${s.homepage}` : '' },
    _links: { webui: `/spaces/${s.key}`, self: `${c.site.base_url}/wiki/rest/api/space/${s.key}` },
  };
}

export function webui(doc: ContentDoc, db: ReturnType<typeof confluenceDb>): string {
  if (doc.type === 'page') return `/spaces/${doc.space}/pages/${doc.id}/${slug(doc.title)}`;
  if (doc.type === 'blogpost') return `/spaces/${doc.space}/blog/${doc.created.slice(0, 10).replace(/-/g, '/')}/${doc.id}/${slug(doc.title)}`;
  const page = doc.container ? db.content.get(doc.container) : undefined;
  if (doc.type === 'comment') return `/spaces/${doc.space}/pages/${doc.container}/${slug(page?.title ?? '')}?focusedCommentId=${doc.id}#comment-${doc.id}`;
  return `/pages/viewpageattachments.action?pageId=${doc.container}&preview=%2F${doc.container}%2F${doc.id}%2F${encodeURIComponent(doc.title)}`;
}

/** The chain of ancestor pages, root first. */
export function ancestors(db: ReturnType<typeof confluenceDb>, doc: ContentDoc): ContentDoc[] {
  const out: ContentDoc[] = [];
  let at = doc.type === 'page' || doc.type === 'blogpost' ? doc.parent : doc.container;
  while (at) {
    const p = db.content.get(at);
    if (!p) break;
    out.unshift(p);
    at = p.parent;
  }
  return out;
}

export function content(c: AtlassianCtx, doc: ContentDoc, expand: Set<string>): Record<string, unknown> {
  const db = confluenceDb(c.ctx.store);
  const has = (key: string) => expand.has(key) || [...expand].some((e) => e.startsWith(`${key}.`));
  const out: Record<string, unknown> = { id: doc.id, type: doc.type, status: doc.status, title: doc.title };
  if (has('space')) out.space = space(c, db.spaces.get(doc.space)!);
  if (has('history')) out.history = { latest: true, createdBy: cUser(c, doc.creator), createdDate: doc.created, _links: { self: `${c.site.base_url}/wiki/rest/api/content/${doc.id}/history` } };
  if (has('version')) out.version = { by: cUser(c, doc.version.by), when: doc.version.when, message: doc.version.message, number: doc.version.number, minorEdit: doc.version.minorEdit, _links: { self: `${c.site.base_url}/wiki/rest/api/content/${doc.id}/version/${doc.version.number}` } };
  if (has('ancestors')) out.ancestors = ancestors(db, doc).map((a) => content(c, a, new Set()));
  if (has('container') && doc.container) out.container = content(c, db.content.get(doc.container)!, new Set());
  if (has('body')) {
    const body: Record<string, unknown> = {};
    if (expand.has('body.storage') || expand.has('body')) body.storage = { value: doc.body, representation: 'storage', embeddedContent: [], _expandable: { content: `/rest/api/content/${doc.id}` } };
    if (expand.has('body.view')) body.view = { value: doc.body, representation: 'view', _expandable: { content: `/rest/api/content/${doc.id}` } };
    if (expand.has('body.export_view')) body.export_view = { value: doc.body, representation: 'export_view' };
    out.body = body;
  }
  if (has('metadata')) {
    out.metadata = {
      labels: { results: doc.labels.map((name) => label(doc, name)), start: 0, limit: 200, size: doc.labels.length },
      ...(doc.type === 'attachment' ? { mediaType: doc.mediaType } : {}),
    };
  }
  if (has('children.page')) {
    const kids = db.content.filter((x) => x.type === 'page' && x.parent === doc.id && x.status === 'current');
    out.children = { page: { results: kids.map((k) => content(c, k, new Set())), start: 0, limit: 25, size: kids.length } };
  }
  if (doc.type === 'attachment') out.extensions = { mediaType: doc.mediaType, fileSize: Buffer.from(doc.data ?? '', 'base64').length, comment: '' };
  out.macroRenderedOutput = {};
  out._expandable = { childTypes: '', container: doc.container ? `/rest/api/content/${doc.container}` : '', metadata: '', operations: '', children: `/rest/api/content/${doc.id}/child`, restrictions: `/rest/api/content/${doc.id}/restriction/byOperation`, history: `/rest/api/content/${doc.id}/history`, ancestors: '', body: '', version: '', descendants: `/rest/api/content/${doc.id}/descendant`, space: `/rest/api/space/${doc.space}` };
  out._links = {
    webui: webui(doc, db), ...(doc.type === 'page' ? { editui: `/pages/resumedraft.action?draftId=${doc.id}`, tinyui: `/x/${Buffer.from(doc.id).toString('base64url').slice(0, 6)}` } : {}),
    ...(doc.type === 'attachment' ? { download: `/download/attachments/${doc.container}/${encodeURIComponent(doc.title)}?version=${doc.version.number}&api=v2` } : {}),
    self: `${c.site.base_url}/wiki/rest/api/content/${doc.id}`,
  };
  return out;
}

export function label(doc: ContentDoc, name: string): Record<string, unknown> {
  return { prefix: 'global', name, id: String(hash(name)), label: name };
}

function hash(text: string): number {
  let h = 7;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) % 1_000_000_007;
  return 1000000 + (h % 9_000_000);
}

/** A list in Confluence's envelope: `{results, start, limit, size, _links}`. */
export function listOf(c: AtlassianCtx, path: string, items: readonly unknown[], start: number, limit: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const page = items.slice(start, start + limit);
  const more = start + page.length < items.length;
  return {
    results: page, start, limit, size: page.length, ...extra,
    _links: { base: `${c.site.base_url}/wiki`, context: '/wiki', self: `${c.site.base_url}/wiki${path}`, ...(more ? { next: `${path}${path.includes('?') ? '&' : '?'}start=${start + limit}&limit=${limit}` } : {}) },
  };
}

export function excerpt(doc: ContentDoc): string {
  return storageText(doc.body).slice(0, 200);
}
