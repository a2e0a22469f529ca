import { createHash } from 'node:crypto';
import { ServiceError } from '../kit/index.js';
import type { PropertyType } from './dataset.js';

/**
 * Notion's objects as the API answers them (API version 2025-09-03), and the conversions between
 * request values, stored values and the flat values graders and filters read. Pure functions.
 */

export type Obj = Record<string, unknown>;
export type RichText = Obj[];

/** Notion's error, `{object: "error", status, code, message}`. */
export const notionError = (status: number, code: string, message: string, headers: [string, string][] = []) =>
  new ServiceError(status, code, message, {}, headers);
export const validation = (message: string) => notionError(400, 'validation_error', message);
export const notFound = (kind: string, id: string) =>
  notionError(404, 'object_not_found', `Could not find ${kind} with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`);

/** Notion keeps times to the minute. */
export const iso = (ms: number) => new Date(Math.floor(ms / 60000) * 60000).toISOString();

/** The dashed form of an ID given with or without dashes; null when it is no UUID. */
export function normalizeId(id: string): string | null {
  const hex = id.toLowerCase().replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function pageUrl(id: string, title: string): string {
  const slug = title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `https://www.notion.so/${slug ? `${slug}-` : ''}${id.replace(/-/g, '')}`;
}

const PLAIN = { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: 'default' };

export function richText(content: string): RichText {
  return content === '' ? [] : [{ type: 'text', text: { content, link: null }, annotations: { ...PLAIN }, plain_text: content, href: null }];
}

export const plainText = (rt: unknown): string =>
  Array.isArray(rt) ? rt.map((item) => String((item as Obj).plain_text ?? '')).join('') : '';

/** A request's rich text array (text items; mentions and equations keep their plain text). */
export function parseRichText(value: unknown, path: string): RichText {
  if (!Array.isArray(value)) throw validation(`body failed validation: ${path} should be an array, instead was \`${JSON.stringify(value)}\`.`);
  return value.map((item, i) => {
    const at = `${path}[${i}]`;
    if (typeof item !== 'object' || item === null) throw validation(`body failed validation: ${at} should be an object.`);
    const it = item as Obj;
    const text = it.text as Obj | undefined;
    const content = typeof text?.content === 'string' ? text.content : typeof it.plain_text === 'string' ? it.plain_text : null;
    if (content === null) throw validation(`body failed validation: ${at}.text should be defined, instead was \`undefined\`.`);
    if (content.length > 2000) throw validation(`body failed validation: ${at}.text.content.length should be ≤ \`2000\`, instead was \`${content.length}\`.`);
    const link = typeof text?.link === 'object' && text.link !== null ? text.link : null;
    const annotations = { ...PLAIN, ...(typeof it.annotations === 'object' && it.annotations !== null ? it.annotations as Obj : {}) };
    return { type: 'text', text: { content, link }, annotations, plain_text: content, href: link ? String((link as Obj).url ?? '') || null : null };
  });
}

/** Short, stable IDs as Notion gives properties and options (from the name, so no seed changes them). */
export function shortId(...parts: string[]): string {
  const bytes = createHash('sha256').update(parts.join('\u0000')).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; i < 4; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}

export const userRef = (id: string) => ({ object: 'user', id });

export interface OptionDef { id: string; name: string; color: string }

/** A property of a data source's schema, as the API answers it. */
export function propertySchema(name: string, type: PropertyType, options: readonly { name: string; color?: string }[] = []): Obj {
  const id = type === 'title' ? 'title' : shortId('property', name);
  const opts = options.map((o) => ({ id: shortId('option', name, o.name), name: o.name, color: o.color ?? 'default' }));
  const config: Obj = type === 'select' || type === 'multi_select' ? { options: opts }
    : type === 'status' ? { options: opts, groups: [] }
    : type === 'number' ? { format: 'number' } : {};
  return { id, name, type, description: null, [type]: config };
}

export const optionsOf = (schema: Obj): OptionDef[] => ((schema[schema.type as string] as Obj | undefined)?.options as OptionDef[] | undefined) ?? [];

/** The value of an empty property of this type. */
export function emptyValue(type: string): unknown {
  switch (type) {
    case 'title': case 'rich_text': case 'multi_select': case 'people': return [];
    case 'checkbox': return false;
    default: return null;
  }
}

/**
 * A property value from a request (`{status: {name}}`, `{people: [{id}]}`, `{title: [...]}`, or
 * the value itself under the property's type), checked against the data source's schema. New
 * select and multi-select options are added to the schema, as Notion does; statuses must exist.
 */
export function parseValue(name: string, schema: Obj, input: unknown, users: (id: string) => Obj | null, addOption: (option: OptionDef) => void): Obj {
  const type = schema.type as string;
  const path = `body.properties.${name}`;
  const raw = typeof input === 'object' && input !== null && !Array.isArray(input) && type in input ? (input as Obj)[type] : input;
  const value = parseRaw(name, type, schema, raw, path, users, addOption);
  return { id: schema.id, type, [type]: value };
}

function parseRaw(name: string, type: string, schema: Obj, raw: unknown, path: string, users: (id: string) => Obj | null, addOption: (option: OptionDef) => void): unknown {
  const fail = (should: string) => validation(`body failed validation: ${path}.${type} should be ${should}, instead was \`${JSON.stringify(raw)}\`.`);
  switch (type) {
    case 'title': case 'rich_text':
      return typeof raw === 'string' ? richText(raw) : parseRichText(raw, `${path}.${type}`);
    case 'number':
      if (raw !== null && typeof raw !== 'number') throw fail('a number or `null`');
      return raw;
    case 'checkbox':
      if (typeof raw !== 'boolean') throw fail('a boolean');
      return raw;
    case 'url': case 'email':
      if (raw !== null && typeof raw !== 'string') throw fail('a string or `null`');
      return raw;
    case 'select': case 'status': {
      if (raw === null) return null;
      const wanted = typeof raw === 'string' ? { name: raw } : raw as Obj;
      if (typeof wanted !== 'object' || (typeof wanted.name !== 'string' && typeof wanted.id !== 'string')) throw fail('an object with `name` or `id`');
      return option(name, type, schema, wanted, addOption);
    }
    case 'multi_select': {
      if (!Array.isArray(raw)) throw fail('an array');
      return raw.map((item) => option(name, type, schema, typeof item === 'string' ? { name: item } : item as Obj, addOption));
    }
    case 'people': {
      if (!Array.isArray(raw)) throw fail('an array');
      return raw.map((item) => {
        const id = normalizeId(String(typeof item === 'string' ? item : (item as Obj)?.id ?? ''));
        const user = id === null ? null : users(id);
        if (user === null) throw validation(`body failed validation: ${path}.people should contain existing user IDs, instead was \`${JSON.stringify(item)}\`.`);
        return user;
      });
    }
    case 'date': {
      if (raw === null) return null;
      const date = typeof raw === 'string' ? { start: raw } : raw as Obj;
      if (typeof date !== 'object' || typeof date.start !== 'string' || Number.isNaN(Date.parse(date.start))) throw fail('an object with an ISO 8601 `start`');
      if (date.end !== undefined && date.end !== null && (typeof date.end !== 'string' || Number.isNaN(Date.parse(date.end)))) throw fail('an object whose `end` is an ISO 8601 date');
      return { start: date.start, end: date.end ?? null, time_zone: typeof date.time_zone === 'string' ? date.time_zone : null };
    }
    default:
      throw validation(`${name} is a ${type} property, which cannot be set through the API.`);
  }
}

function option(property: string, type: string, schema: Obj, wanted: Obj, addOption: (option: OptionDef) => void): OptionDef {
  const options = optionsOf(schema);
  const found = options.find((o) => (typeof wanted.id === 'string' && o.id === wanted.id) || (typeof wanted.name === 'string' && o.name === wanted.name));
  if (found) return { id: found.id, name: found.name, color: found.color };
  if (type === 'status' || typeof wanted.name !== 'string') {
    throw validation(`Invalid ${type === 'status' ? 'status' : 'select'} option, \`${String(wanted.name ?? wanted.id)}\` does not exist for property ${property}.`);
  }
  const created = { id: shortId('option', property, wanted.name), name: wanted.name, color: typeof wanted.color === 'string' ? wanted.color : 'default' };
  addOption(created);
  return created;
}

/** A stored property value, flat: text, a number, a boolean, an option's name, names of options, user IDs, a date's start. */
export function flatValue(value: Obj): unknown {
  const type = value.type as string;
  const v = value[type];
  switch (type) {
    case 'title': case 'rich_text': return plainText(v);
    case 'select': case 'status': return v === null ? null : (v as Obj).name;
    case 'multi_select': return (v as Obj[]).map((o) => o.name);
    case 'people': return (v as Obj[]).map((u) => u.id);
    case 'date': return v === null ? null : (v as Obj).start;
    default: return v ?? null;
  }
}

/** The title of a page or data source. */
export function titleOf(doc: Obj): string {
  if (doc.object === 'data_source' || doc.object === 'database') return plainText(doc.title);
  const props = (doc.properties ?? {}) as Record<string, Obj>;
  const title = Object.values(props).find((p) => p.type === 'title');
  return title ? plainText(title.title) : '';
}
