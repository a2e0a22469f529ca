import { jsonResponse } from '../core/http.js';
import { operation, rest, uuidId } from '../kit/index.js';
import type { PropertyType } from './dataset.js';
import { PROPERTY_TYPES } from './dataset.js';
import { Body, appendChildren } from './blocks.js';
import { emptyValue, iso, normalizeId, notFound, pageUrl, parseRichText, parseValue, propertySchema, richText, titleOf, userRef, validation, type Obj, type OptionDef } from './model.js';
import { compileFilter, pageOf, sortPages } from './query.js';
import { lookup, render, sourceOf, touch, userLookup, userObject, type NotionContext } from './store.js';

/** Pages, data sources and databases, users, and search. */

type Query = Record<string, string | string[]>;
const one = (q: string | string[] | undefined) => (Array.isArray(q) ? q[0] : q);

/** `filter_properties` (repeated, or `filter_properties[]` as axios sends it): only those properties, by ID or name. */
function onlyProperties(page: Obj, query: Query): Obj {
  const raw = query.filter_properties ?? query['filter_properties[]'];
  if (raw === undefined) return page;
  const wanted = new Set((Array.isArray(raw) ? raw : [raw]).map((v) => decodeURIComponent(v)));
  const properties = Object.fromEntries(Object.entries(page.properties as Record<string, Obj>).filter(([name, v]) => wanted.has(String(v.id)) || wanted.has(name)));
  return { ...page, properties };
}

const list = (type: string, page: { results: Obj[]; next_cursor: string | null; has_more: boolean }) =>
  ({ object: 'list', results: page.results.map(render), next_cursor: page.next_cursor, has_more: page.has_more, type, [type]: {} });

/** The properties of a request, by the source's names or IDs; new select options are added to the source. */
function parseProperties(c: NotionContext, source: Obj | null, given: unknown): { properties: Record<string, Obj>; source: Obj | null } {
  if (given === undefined) return { properties: {}, source };
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw validation('body failed validation: body.properties should be an object.');
  const schema: Record<string, Obj> = source ? { ...(source.properties as Record<string, Obj>) } : { title: { id: 'title', name: 'title', type: 'title', title: {} } };
  const out: Record<string, Obj> = {};
  let added = false;
  for (const [key, value] of Object.entries(given as Obj)) {
    const name = key in schema ? key : Object.entries(schema).find(([, s]) => s.id === key)?.[0];
    if (name === undefined) throw validation(`${key} is not a property that exists.`);
    const addOption = (option: OptionDef) => {
      const s = schema[name]!;
      const type = s.type as string;
      const config = s[type] as Obj;
      schema[name] = { ...s, [type]: { ...config, options: [...(config.options as OptionDef[]), option] } };
      added = true;
    };
    out[name] = parseValue(name, schema[name]!, value, userLookup(c), addOption);
  }
  return { properties: out, source: source && added ? { ...source, properties: schema } : source };
}

function parentOf(c: NotionContext, parent: unknown): { parent: Obj; source: Obj | null } {
  const p = parent as Obj | undefined;
  if (typeof p !== 'object' || p === null) throw validation('body failed validation: body.parent should be defined, instead was `undefined`.');
  if (typeof p.page_id === 'string') {
    const page = lookup(c.pages, p.page_id, 'page');
    if (page.in_trash === true) throw validation(`Can't edit block that is archived. You must unarchive the block before editing.`);
    return { parent: { type: 'page_id', page_id: page.id }, source: null };
  }
  let source: Obj | undefined;
  if (typeof p.data_source_id === 'string') source = lookup(c.dataSources, p.data_source_id, 'data_source');
  else if (typeof p.database_id === 'string') {
    const db = lookup(c.databases, p.database_id, 'database');
    const sources = db.data_sources as Obj[];
    if (sources.length !== 1) throw validation(`Database ${String(db.id)} has ${sources.length} data sources: give parent.data_source_id.`);
    source = c.dataSources.get(String(sources[0]!.id));
  } else if (p.workspace === true) {
    throw validation('Creating workspace-level pages is not supported by internal integrations: give parent.page_id or parent.data_source_id.');
  }
  if (!source) throw validation('body failed validation: body.parent should have `page_id`, `data_source_id` or `database_id`.');
  if (source.in_trash === true) throw validation(`Can't add pages to a data source that is in the trash.`);
  return { parent: { type: 'data_source_id', data_source_id: source.id, database_id: (source.parent as Obj).database_id }, source };
}

function icon(value: unknown): Obj | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const v = value as Obj;
  if (typeof v === 'object' && typeof v.emoji === 'string') return { type: 'emoji', emoji: v.emoji };
  if (typeof v === 'object' && typeof (v.external as Obj | undefined)?.url === 'string') return { type: 'external', external: { url: (v.external as Obj).url } };
  throw validation('body failed validation: body.icon should be an emoji or external file object.');
}

/** Completes a row's properties with every property of its source (empty or computed). */
function fillRow(source: Obj, given: Record<string, Obj>, time: string, by: string): Record<string, Obj> {
  return Object.fromEntries(Object.entries(source.properties as Record<string, Obj>).map(([name, s]) => {
    const type = s.type as string;
    if (type === 'created_time' || type === 'last_edited_time') return [name, { id: s.id, type, [type]: time }];
    if (type === 'created_by') return [name, { id: s.id, type, created_by: userRef(by) }];
    return [name, given[name] ?? { id: s.id, type, [type]: emptyValue(type) }];
  }));
}

/** A source's schema change: `{Name: {select: {options}}}` adds, `{Name: null}` removes, `{Name: {name}}` renames. */
function updateSchema(current: Record<string, Obj>, changes: unknown): Record<string, Obj> {
  if (typeof changes !== 'object' || changes === null) throw validation('body failed validation: body.properties should be an object.');
  const schema = { ...current };
  for (const [key, change] of Object.entries(changes as Obj)) {
    const name = key in schema ? key : Object.entries(schema).find(([, s]) => s.id === key)?.[0];
    if (change === null) {
      if (name === undefined) throw validation(`${key} is not a property that exists.`);
      if (schema[name]!.type === 'title') throw validation('Cannot delete the title property.');
      delete schema[name];
      continue;
    }
    const ch = change as Obj;
    const type = (Object.keys(ch).find((k) => (PROPERTY_TYPES as readonly string[]).includes(k)) ?? (name ? schema[name]!.type : undefined)) as PropertyType | undefined;
    if (type === undefined) throw validation(`body failed validation: body.properties.${key} should name a property type.`);
    const options = ((ch[type] as Obj | undefined)?.options as Obj[] | undefined)?.map((o) => ({ name: String(o.name), color: typeof o.color === 'string' ? o.color : 'default' }));
    const newName = typeof ch.name === 'string' ? ch.name : name ?? key;
    const base = propertySchema(newName, type, options ?? (name && schema[name]!.type === type ? (schema[name]![type] as Obj).options as OptionDef[] ?? [] : []));
    if (name !== undefined) {
      base.id = schema[name]!.id;
      delete schema[name];
    }
    schema[newName] = base;
  }
  if (Object.values(schema).filter((s) => s.type === 'title').length !== 1) throw validation('A data source must have exactly one title property.');
  return schema;
}

export const pageOperations = [
  operation<NotionContext, '/v1/pages', Query, Body>('pages.create', rest('POST', '/v1/pages'), (call, c) => {
    const body = call.body;
    const { parent, source } = parentOf(c, body.parent);
    if (body.properties === undefined) throw validation('body failed validation: body.properties should be defined, instead was `undefined`.');
    const parsed = parseProperties(c, source, body.properties);
    const id = uuidId(c.ctx, 'page');
    const time = iso(c.ctx.nowMs);
    const by = c.caller!;
    const properties = parsed.source ? fillRow(parsed.source, parsed.properties, time, by) : { title: parsed.properties.title ?? { id: 'title', type: 'title', title: [] } };
    const doc: Obj = {
      object: 'page', id, created_time: time, last_edited_time: time, created_by: userRef(by), last_edited_by: userRef(by),
      cover: null, icon: icon(body.icon) ?? null, parent, archived: false, in_trash: false, is_locked: false, properties, url: '', public_url: null,
    };
    if (parsed.source && parsed.source !== source) c.dataSources.put(String(parsed.source.id), parsed.source);
    c.pages.put(id, { ...doc, url: pageUrl(id, titleOf(doc)) });
    if (body.children !== undefined) appendChildren(c, id, body.children);
    return jsonResponse(200, render(c.pages.get(id)!));
  }, { input: { body: Body } }),

  operation<NotionContext, '/v1/pages/:page_id', Query>('pages.retrieve', rest('GET', '/v1/pages/:page_id'), (call, c) =>
    jsonResponse(200, onlyProperties(render(lookup(c.pages, call.params.page_id, 'page')), call.query))),

  operation<NotionContext, '/v1/pages/:page_id', Query, Body>('pages.update', rest('PATCH', '/v1/pages/:page_id'), (call, c) => {
    const page = lookup(c.pages, call.params.page_id, 'page');
    const body = call.body;
    const inTrash = typeof body.in_trash === 'boolean' ? body.in_trash : typeof body.archived === 'boolean' ? body.archived : undefined;
    if (page.in_trash === true && inTrash !== false) throw validation(`Can't edit page that is archived. You must unarchive the page before editing.`);
    const source = sourceOf(c, page);
    const parsed = parseProperties(c, source, body.properties);
    let updated: Obj = { ...touch(page, c.ctx.nowMs, c.caller!), properties: { ...(page.properties as Obj), ...parsed.properties } };
    const newIcon = icon(body.icon);
    if (newIcon !== undefined) updated.icon = newIcon;
    if (inTrash !== undefined) updated = { ...updated, archived: inTrash, in_trash: inTrash };
    if (parsed.source && parsed.source !== source) c.dataSources.put(String(parsed.source.id), parsed.source);
    updated.url = pageUrl(String(page.id), titleOf(updated));
    return jsonResponse(200, render(c.pages.put(String(page.id), updated)));
  }, { input: { body: Body } }),

  operation<NotionContext, '/v1/pages/:page_id/move', Query, Body>('pages.move', rest('POST', '/v1/pages/:page_id/move'), (call, c) => {
    const page = lookup(c.pages, call.params.page_id, 'page');
    const p = call.body.parent as Obj | undefined;
    if (p?.page_id !== undefined && normalizeId(String(p.page_id)) === page.id) throw validation('A page cannot be moved into itself.');
    const { parent, source } = parentOf(c, p);
    const current = sourceOf(c, page);
    let properties = page.properties as Record<string, Obj>;
    if (source && source !== current) {
      // Into another source: the title carries over; other properties only by the same name and type.
      const kept: Record<string, Obj> = {};
      for (const [name, s] of Object.entries(source.properties as Record<string, Obj>)) {
        const old = Object.entries(properties).find(([n, v]) => (s.type === 'title' ? v.type === 'title' : n === name && v.type === s.type));
        if (old) kept[name] = { ...old[1], id: s.id };
      }
      properties = fillRow(source, kept, String(page.created_time), String((page.created_by as Obj).id));
    } else if (!source) {
      properties = { title: { id: 'title', type: 'title', title: (Object.values(properties).find((v) => v.type === 'title')?.title as unknown[]) ?? [] } };
    }
    return jsonResponse(200, render(c.pages.put(String(page.id), { ...touch(page, c.ctx.nowMs, c.caller!), parent, properties })));
  }, { input: { body: Body } }),

  operation<NotionContext, '/v1/pages/:page_id/properties/:property_id', Query>('pages.properties.retrieve', rest('GET', '/v1/pages/:page_id/properties/:property_id'), (call, c) => {
    const page = lookup(c.pages, call.params.page_id, 'page');
    const wanted = decodeURIComponent(call.params.property_id);
    const entry = Object.entries(page.properties as Record<string, Obj>).find(([name, v]) => v.id === wanted || name === wanted);
    if (!entry) throw notFound('property', wanted);
    const value = entry[1];
    const type = value.type as string;
    if (type === 'title' || type === 'rich_text' || type === 'people') {
      // Cursors are item positions; each result is one element of the value.
      const items: Obj[] = (value[type] as Obj[]).map((item, i) => ({ id: String(i), item }));
      const page_ = pageOf(items, one(call.query.start_cursor), one(call.query.page_size));
      return jsonResponse(200, {
        object: 'list', results: page_.results.map((entry) => ({ object: 'property_item', id: value.id, type, [type]: entry.item })),
        next_cursor: page_.next_cursor, has_more: page_.has_more, type: 'property_item', property_item: { id: value.id, next_url: null, type, [type]: {} },
      });
    }
    return jsonResponse(200, { object: 'property_item', id: value.id, type, [type]: value[type] });
  }),

  operation<NotionContext, '/v1/databases/:database_id'>('databases.retrieve', rest('GET', '/v1/databases/:database_id'), (call, c) =>
    jsonResponse(200, render(lookup(c.databases, call.params.database_id, 'database')))),

  operation<NotionContext, '/v1/data_sources/:data_source_id'>('dataSources.retrieve', rest('GET', '/v1/data_sources/:data_source_id'), (call, c) =>
    jsonResponse(200, render(lookup(c.dataSources, call.params.data_source_id, 'data_source')))),

  operation<NotionContext, '/v1/data_sources/:data_source_id/query', Query, Body>('dataSources.query', rest('POST', '/v1/data_sources/:data_source_id/query'), (call, c) => {
    const source = lookup(c.dataSources, call.params.data_source_id, 'data_source');
    const schema = source.properties as Record<string, Obj>;
    const body = call.body;
    const trashed = body.in_trash === true || body.archived === true;
    let rows = c.pages.filter((p) => (p.parent as Obj).data_source_id === source.id && (p.in_trash === true) === trashed);
    if (body.filter !== undefined) rows = rows.filter(compileFilter(body.filter, schema));
    rows = sortPages(rows, body.sorts, schema);
    const page = pageOf(rows, body.start_cursor, body.page_size);
    return jsonResponse(200, list('page_or_data_source', { ...page, results: page.results.map((row) => onlyProperties(row, call.query)) }));
  }, { input: { body: Body } }),

  operation<NotionContext, '/v1/data_sources', Query, Body>('dataSources.create', rest('POST', '/v1/data_sources'), (call, c) => {
    const body = call.body;
    const p = body.parent as Obj | undefined;
    if (typeof p?.database_id !== 'string') throw validation('body failed validation: body.parent.database_id should be defined, instead was `undefined`.');
    const db = lookup(c.databases, p.database_id, 'database');
    const schema = updateSchema({}, body.properties);
    const id = uuidId(c.ctx, 'data_source');
    const time = iso(c.ctx.nowMs);
    const title = body.title === undefined ? [] : parseRichText(body.title, 'body.title');
    const name = title.map((t) => String(t.plain_text)).join('');
    const doc = {
      object: 'data_source', id, created_time: time, last_edited_time: time, created_by: userRef(c.caller!), last_edited_by: userRef(c.caller!),
      title, description: [], icon: null, properties: schema, parent: { type: 'database_id', database_id: db.id }, database_parent: db.parent,
      is_inline: db.is_inline, archived: false, in_trash: false, url: pageUrl(id, name), public_url: null,
    };
    c.dataSources.put(id, doc);
    c.databases.put(String(db.id), { ...db, data_sources: [...(db.data_sources as Obj[]), { id, name }], last_edited_time: time });
    return jsonResponse(200, doc);
  }, { input: { body: Body } }),

  operation<NotionContext, '/v1/data_sources/:data_source_id', Query, Body>('dataSources.update', rest('PATCH', '/v1/data_sources/:data_source_id'), (call, c) => {
    const source = lookup(c.dataSources, call.params.data_source_id, 'data_source');
    const body = call.body;
    let updated: Obj = touch(source, c.ctx.nowMs, c.caller!);
    if (body.title !== undefined) updated.title = parseRichText(body.title, 'body.title');
    if (body.description !== undefined) updated.description = parseRichText(body.description, 'body.description');
    if (typeof body.in_trash === 'boolean') updated = { ...updated, in_trash: body.in_trash, archived: body.in_trash };
    if (body.properties !== undefined) updated.properties = updateSchema(source.properties as Record<string, Obj>, body.properties);
    c.dataSources.put(String(source.id), updated);
    // Rows follow the schema: removed properties go, new ones start empty, renamed ones keep their value.
    if (body.properties !== undefined) {
      const schema = updated.properties as Record<string, Obj>;
      for (const row of c.pages.filter((p) => (p.parent as Obj).data_source_id === source.id)) {
        const byId = new Map(Object.values(row.properties as Record<string, Obj>).map((v) => [v.id, v]));
        const properties = Object.fromEntries(Object.entries(schema).map(([name, s]) => {
          const old = byId.get(s.id);
          return [name, old && old.type === s.type ? old : { id: s.id, type: s.type, [s.type as string]: emptyValue(s.type as string) }];
        }));
        c.pages.put(String(row.id), { ...row, properties });
      }
    }
    return jsonResponse(200, render(updated));
  }, { input: { body: Body } }),

  operation<NotionContext, '/v1/users', Query>('users.list', rest('GET', '/v1/users'), (call, c) =>
    jsonResponse(200, list('user', pageOf(c.users.values(), one(call.query.start_cursor), one(call.query.page_size))))),

  operation<NotionContext, '/v1/users/me'>('users.me', rest('GET', '/v1/users/me'), (_call, c) => {
    const bot = userObject(c.users.get(c.caller!)!);
    return jsonResponse(200, bot);
  }),

  operation<NotionContext, '/v1/users/:user_id'>('users.retrieve', rest('GET', '/v1/users/:user_id'), (call, c) =>
    jsonResponse(200, userObject(lookup(c.users, call.params.user_id, 'user')))),

  operation<NotionContext, '/v1/search', Query, Body>('search', rest('POST', '/v1/search'), (call, c) => {
    const body = call.body;
    const filter = body.filter as Obj | undefined;
    if (filter !== undefined && (filter.property !== 'object' || (filter.value !== 'page' && filter.value !== 'data_source'))) {
      throw validation('body failed validation: body.filter.value should be `"page"` or `"data_source"`, and body.filter.property `"object"`.');
    }
    const sort = body.sort as Obj | undefined;
    if (sort !== undefined && (sort.timestamp !== 'last_edited_time' || (sort.direction !== 'ascending' && sort.direction !== 'descending'))) {
      throw validation('body failed validation: body.sort should be {timestamp: "last_edited_time", direction: "ascending" | "descending"}.');
    }
    const terms = typeof body.query === 'string' ? body.query.toLowerCase().split(/\s+/).filter(Boolean) : [];
    const candidates = [
      ...(filter?.value === 'data_source' ? [] : c.pages.values()),
      ...(filter?.value === 'page' ? [] : c.dataSources.values()),
    ].filter((doc) => doc.in_trash !== true && terms.every((term: string) => titleOf(doc).toLowerCase().includes(term)));
    // Most recently edited first (or as asked); ties keep pages before data sources, each in dataset order.
    const sign = sort?.direction === 'ascending' ? 1 : -1;
    const ordered = [...candidates].sort((a, b) => sign * (Date.parse(String(a.last_edited_time)) - Date.parse(String(b.last_edited_time))));
    return jsonResponse(200, list('page_or_data_source', pageOf(ordered, body.start_cursor, body.page_size)));
  }, { input: { body: Body } }),
];


