import type { ServiceContext, LoadContext } from '../core/service.js';
import type { Collection, DocumentStore } from '../core/store.js';
import { uuidId } from '../kit/index.js';
import type { BlockInput, NotionDataset, PropertyValueInput } from './dataset.js';
import { emptyValue, iso, normalizeId, notFound, pageUrl, parseValue, plainText, validation, propertySchema, richText, titleOf, userRef, type Obj } from './model.js';

/**
 * The Notion world's collections (each document is the API's object; fields starting with `_`
 * are the mock's own and never answered), the per-request context, and the dataset loader.
 */
export const users = (store: DocumentStore) => store.collection<Obj>('users');
export const databases = (store: DocumentStore) => store.collection<Obj>('databases');
export const dataSources = (store: DocumentStore) => store.collection<Obj>('data_sources');
export const pages = (store: DocumentStore) => store.collection<Obj>('pages');
export const blocks = (store: DocumentStore) => store.collection<Obj>('blocks');
export const comments = (store: DocumentStore) => store.collection<Obj>('comments');
const tokens = (store: DocumentStore) => store.collection<{ token: string; bot: string }>('tokens');

export interface NotionCollections {
  readonly users: Collection<Obj>;
  readonly databases: Collection<Obj>;
  readonly dataSources: Collection<Obj>;
  readonly pages: Collection<Obj>;
  readonly blocks: Collection<Obj>;
  readonly comments: Collection<Obj>;
}

export const collectionsOf = (store: DocumentStore): NotionCollections => ({
  users: users(store), databases: databases(store), dataSources: dataSources(store), pages: pages(store), blocks: blocks(store), comments: comments(store),
});

export interface NotionContext extends NotionCollections {
  /** The integration's bot user ID, when the bearer token is one the dataset lists. */
  readonly caller: string | null;
  readonly ctx: ServiceContext;
}

export function notionContext(authorization: string | undefined, ctx: ServiceContext): NotionContext {
  const token = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? null;
  const known = token === null ? undefined : tokens(ctx.store).get(token);
  // Object.assign on the fresh collections, not `{ ...collectionsOf(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  return Object.assign(collectionsOf(ctx.store), { caller: known?.bot ?? null, ctx });
}

/** Without the mock's own fields. */
export function render(doc: Obj): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(doc)) if (!key.startsWith('_')) out[key] = value;
  return out;
}

/** A document by ID given with or without dashes, or Notion's 404 for `kind`. */
export function lookup(collection: Collection<Obj>, id: string, kind: string): Obj {
  const key = normalizeId(id);
  const doc = key === null ? undefined : collection.get(key);
  if (!doc) {
    if (key === null) throw validation(`path failed validation: ${kind}_id should be a valid uuid, instead was \`"${id}"\`.`);
    throw notFound(kind, key);
  }
  return doc;
}

/** The user object people properties and GET /v1/users answer. */
export function userObject(doc: Obj): Obj {
  return render(doc);
}

/** The stored value for a user ID, or null. */
export const userLookup = (c: Pick<NotionContext, 'users'>) => (id: string): Obj | null => {
  const doc = c.users.get(id);
  return doc ? userObject(doc) : null;
};

/** A page's parent, block ordering and timestamps are kept up to date by these. */
export function touch(doc: Obj, nowMs: number, by: string): Obj {
  const time = iso(nowMs);
  const properties = doc.properties as Record<string, Obj> | undefined;
  const touched = properties && Object.fromEntries(Object.entries(properties).map(([name, value]) =>
    [name, value.type === 'last_edited_time' ? { ...value, last_edited_time: time } : value]));
  return { ...doc, last_edited_time: time, last_edited_by: userRef(by), ...(touched ? { properties: touched } : {}) };
}

/** The data source a page is a row of, or null for a standalone page. */
export function sourceOf(c: Pick<NotionContext, 'dataSources'>, page: Obj): Obj | null {
  const parent = page.parent as Obj;
  return parent.type === 'data_source_id' ? c.dataSources.get(String(parent.data_source_id)) ?? null : null;
}

/** The children of a page or block, in order (trashed ones left out unless asked). */
export function childrenOf(c: Pick<NotionContext, 'blocks'>, parentId: string, withTrashed = false): Obj[] {
  return c.blocks.filter((b) => b._parent === parentId && (withTrashed || b.in_trash !== true))
    .sort((a, b) => (a._position as number) - (b._position as number));
}

/** Stores blocks from their request or dataset form under `parentId`, after `after` (or at the end). */
export function insertBlocks(c: Pick<NotionContext, 'blocks'> & { ctx: LoadContext }, parentId: string, parentType: 'page_id' | 'block_id', page: string,
  contents: { type: string; content: Obj; children: unknown[]; id?: string | undefined }[], nowMs: number, by: string, after?: string, toTree?: (child: unknown) => { type: string; content: Obj; children: unknown[]; id?: string | undefined }): Obj[] {
  const siblings = childrenOf(c, parentId, true);
  let low = siblings.length ? (siblings[siblings.length - 1]!._position as number) : 0;
  let high = low + contents.length + 1;
  if (after !== undefined) {
    const at = siblings.findIndex((s) => s.id === after);
    low = siblings[at]!._position as number;
    high = at + 1 < siblings.length ? siblings[at + 1]!._position as number : low + contents.length + 1;
  }
  const step = (high - low) / (contents.length + 1);
  const time = iso(nowMs);
  return contents.map((block, i) => {
    const id = block.id ?? uuidId(c.ctx, 'block');
    const doc: Obj = {
      object: 'block', id, parent: parentType === 'page_id' ? { type: 'page_id', page_id: parentId } : { type: 'block_id', block_id: parentId },
      created_time: time, last_edited_time: time, created_by: userRef(by), last_edited_by: userRef(by),
      has_children: block.children.length > 0, archived: false, in_trash: false, type: block.type, [block.type]: block.content,
      _parent: parentId, _page: page, _position: low + step * (i + 1),
    };
    c.blocks.put(id, doc);
    if (block.children.length && toTree) insertBlocks(c, id, 'block_id', page, block.children.map(toTree), nowMs, by, undefined, toTree);
    return doc;
  });
}

/** A block's content object from the dataset's short form. */
export function blockContent(type: string, text: string, checked?: boolean): Obj {
  if (type === 'divider') return {};
  const content: Obj = { rich_text: richText(text), color: 'default' };
  if (type === 'to_do') content.checked = checked ?? false;
  if (type === 'code') Object.assign(content, { caption: [], language: 'plain text' });
  if (type === 'callout') content.icon = null;
  if (type.startsWith('heading_')) content.is_toggleable = false;
  return content;
}

const datasetBlock = (block: BlockInput): { type: string; content: Obj; children: unknown[]; id?: string | undefined } =>
  ({ type: block.type, content: blockContent(block.type, block.text, block.checked), children: block.children, id: block.id });

export function loadDataset(data: NotionDataset, ctx: LoadContext): void {
  const store = ctx.store;
  const epoch = iso(ctx.epochMs);
  const bot = { object: 'user', id: data.bot.id, name: data.bot.name, avatar_url: null, type: 'bot', bot: { owner: { type: 'workspace', workspace: true }, workspace_name: data.bot.workspace_name } };
  users(store).put(bot.id, bot);
  for (const token of data.tokens) tokens(store).put(token, { token, bot: data.bot.id });
  for (const user of data.users) {
    users(store).put(user.id, { object: 'user', id: user.id, name: user.name, avatar_url: user.avatar_url, type: 'person', person: user.email ? { email: user.email } : {} });
  }
  const defaultAuthor = data.users[0]?.id ?? data.bot.id;
  for (const db of data.databases) {
    const created = db.created_time ?? epoch;
    const edited = db.last_edited_time ?? created;
    const parent = db.parent_page_id ? { type: 'page_id', page_id: db.parent_page_id } : { type: 'workspace', workspace: true };
    databases(store).put(db.id, {
      object: 'database', id: db.id, title: richText(db.title), description: [], icon: null, cover: null, parent, is_inline: db.is_inline,
      in_trash: db.in_trash, is_locked: false, created_time: created, last_edited_time: edited,
      data_sources: db.data_sources.map((ds) => ({ id: ds.id, name: ds.title ?? db.title })), url: pageUrl(db.id, db.title), public_url: null,
    });
    for (const ds of db.data_sources) {
      const title = ds.title ?? db.title;
      dataSources(store).put(ds.id, {
        object: 'data_source', id: ds.id, created_time: created, last_edited_time: edited, created_by: userRef(defaultAuthor), last_edited_by: userRef(defaultAuthor),
        title: richText(title), description: [], icon: null,
        properties: Object.fromEntries(Object.entries(ds.properties).map(([name, p]) =>
          [name, propertySchema(name, p.type, (p.options ?? []).map((o) => (typeof o === 'string' ? { name: o } : o)))])),
        parent: { type: 'database_id', database_id: db.id }, database_parent: parent, is_inline: db.is_inline, archived: db.in_trash, in_trash: db.in_trash,
        url: pageUrl(ds.id, title), public_url: null,
      });
    }
  }
  const lookupUser = userLookup({ users: users(store) });
  for (const page of data.pages) {
    const created = page.created_time ?? epoch;
    const edited = page.last_edited_time ?? created;
    const author = page.created_by ?? defaultAuthor;
    let parent: Obj;
    let properties: Record<string, Obj>;
    if ('data_source_id' in page.parent) {
      const ds = dataSources(store).get(page.parent.data_source_id);
      if (!ds) throw new Error(`pages: ${page.id}: no data source ${page.parent.data_source_id}`);
      parent = { type: 'data_source_id', data_source_id: ds.id, database_id: (ds.parent as Obj).database_id };
      properties = rowProperties(ds, page.properties, page.id, lookupUser, created, edited, author);
    } else {
      parent = 'page_id' in page.parent ? { type: 'page_id', page_id: page.parent.page_id } : { type: 'workspace', workspace: true };
      properties = { title: { id: 'title', type: 'title', title: richText(page.title ?? '') } };
    }
    const doc: Obj = {
      object: 'page', id: page.id, created_time: created, last_edited_time: edited, created_by: userRef(author), last_edited_by: userRef(author),
      cover: null, icon: page.icon ? { type: 'emoji', emoji: page.icon } : null, parent, archived: page.in_trash, in_trash: page.in_trash, is_locked: false,
      properties, url: '', public_url: null,
    };
    pages(store).put(page.id, { ...doc, url: pageUrl(page.id, titleOf(doc)) });
    const c = { blocks: blocks(store), ctx };
    insertBlocks(c, page.id, 'page_id', page.id, page.blocks.map(datasetBlock), Date.parse(created), author, undefined, (b) => datasetBlock(b as BlockInput));
  }
  for (const comment of data.comments) {
    const on = comment.on;
    const target = pages(store).get(on) ?? blocks(store).get(on);
    if (!target) throw new Error(`comments: no page or block ${on}`);
    const id = comment.id ?? uuidId(ctx, 'comment');
    const time = comment.created_time ?? epoch;
    comments(store).put(id, {
      object: 'comment', id, parent: target.object === 'page' ? { type: 'page_id', page_id: on } : { type: 'block_id', block_id: on },
      discussion_id: comment.discussion_id ?? uuidId(ctx, 'discussion'), created_time: time, last_edited_time: time,
      created_by: userRef(comment.created_by), rich_text: richText(comment.text),
    });
  }
}

/** A row's properties: every property of the source, from the dataset's short values. */
function rowProperties(ds: Obj, values: Record<string, PropertyValueInput>, pageId: string, lookupUser: (id: string) => Obj | null, created: string, edited: string, author: string): Record<string, Obj> {
  const schema = ds.properties as Record<string, Obj>;
  for (const name of Object.keys(values)) if (!(name in schema)) throw new Error(`pages: ${pageId}: ${name} is not a property of data source ${String(ds.id)}`);
  return Object.fromEntries(Object.entries(schema).map(([name, s]) => {
    const type = s.type as string;
    if (type === 'created_time' || type === 'last_edited_time') return [name, { id: s.id, type, [type]: type === 'created_time' ? created : edited }];
    if (type === 'created_by') return [name, { id: s.id, type, created_by: userRef(author) }];
    const value = values[name];
    if (value === undefined) return [name, { id: s.id, type, [type]: emptyValue(type) }];
    try {
      return [name, parseValue(name, s, value, lookupUser, () => { throw new Error(`no option`); })];
    } catch (error) {
      throw new Error(`pages: ${pageId}: ${name}: ${(error as Error).message}`);
    }
  }));
}

/** A page's or data source's title, for search and views. */
export const titleText = (doc: Obj) => (doc.object === 'page' ? titleOf(doc) : plainText(doc.title));
