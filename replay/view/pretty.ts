import { parse as parseGraphql, print as printGraphql } from 'graphql';
import type { HeaderList } from '../../mocks/core/http.js';

/**
 * A body as the viewer shows it: pretty-printed by what it holds (JSON, an HTML form, a GraphQL
 * request, XML), else as text, else as hex. `raw` is the body as text when it is UTF-8.
 */
export type BodyType = 'empty' | 'json' | 'form' | 'graphql' | 'xml' | 'text' | 'binary';

export interface PrettyBody {
  type: BodyType;
  contentType: string | null;
  size: number;
  /** The pretty form (for `graphql`: the query, formatted). */
  text: string;
  /** GraphQL only: the variables (and operation name), as indented JSON. */
  variables?: string;
  raw: string | null;
  /** The text was cut at MAX_TEXT characters. */
  truncated: boolean;
}

const MAX_TEXT = 256 * 1024;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function headerValue(headers: HeaderList, name: string): string | null {
  const wanted = name.toLowerCase();
  return headers.find(([key]) => key.toLowerCase() === wanted)?.[1] ?? null;
}

export function prettyBody(headers: HeaderList, body: Uint8Array): PrettyBody {
  const contentType = headerValue(headers, 'content-type');
  const base = { contentType, size: body.length };
  if (body.length === 0) return { ...base, type: 'empty', text: '', raw: '', truncated: false };
  let raw: string;
  try {
    raw = strictUtf8.decode(body);
  } catch {
    return { ...base, ...cut(hexDump(body.subarray(0, MAX_TEXT / 4))), type: 'binary', raw: null, truncated: body.length > MAX_TEXT / 4 };
  }
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const done = (type: BodyType, text: string, extra: Partial<PrettyBody> = {}): PrettyBody =>
    ({ ...base, type, ...cut(text), raw: cut(raw).text, ...extra });

  if (media === 'application/graphql') return done('graphql', formatGraphql(raw));
  if (media === 'application/x-www-form-urlencoded') return done('form', JSON.stringify(parseForm(raw), null, 2));
  const json = tryJson(raw);
  if (json !== undefined) {
    const graphql = graphqlRequest(json);
    if (graphql) return done('graphql', formatGraphql(graphql.query), { variables: graphql.rest === null ? undefined : JSON.stringify(graphql.rest, null, 2) });
    return done('json', JSON.stringify(json, null, 2));
  }
  if (/[/+]xml$/.test(media) || (media === '' && raw.trimStart().startsWith('<'))) return done('xml', formatXml(raw));
  if (media === '' && /^[\w.~%+-]+=[^&\s]*(&[\w.~%+\[\]-]+=[^&\s]*)*$/.test(raw) && raw.includes('=')) {
    return done('form', JSON.stringify(parseForm(raw), null, 2));
  }
  return done('text', raw);
}

function cut(text: string): { text: string; truncated: boolean } {
  return text.length > MAX_TEXT ? { text: text.slice(0, MAX_TEXT), truncated: true } : { text, truncated: false };
}

function tryJson(text: string): unknown {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[' && start !== '"') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `{query, variables?, operationName?}`: a GraphQL request over HTTP. */
function graphqlRequest(value: unknown): { query: string; rest: Record<string, unknown> | null } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { query, ...rest } = value as Record<string, unknown>;
  if (typeof query !== 'string' || !/^\s*(query|mutation|subscription|fragment|\{)/.test(query)) return null;
  if (Object.keys(rest).some((key) => !['variables', 'operationName', 'extensions'].includes(key))) return null;
  return { query, rest: Object.keys(rest).length > 0 ? rest : null };
}

function formatGraphql(query: string): string {
  try {
    return printGraphql(parseGraphql(query));
  } catch {
    return query;
  }
}

/**
 * `a=1&b[c]=2&b[d][]=3&e[0][f]=4` as nested data, the way Rails, PHP and Stripe read it:
 * `[]` appends, a numeric key indexes a list, any other key names a field. Order is kept.
 */
export function parseForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decodeForm(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decodeForm(pair.slice(eq + 1));
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    const path = match ? [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)] : [key];
    assign(root, path, value);
  }
  return root;
}

function assign(container: Record<string, unknown> | unknown[], path: string[], value: string): void {
  const [head, ...rest] = path;
  const key = head === '' && Array.isArray(container) ? container.length : head!;
  if (rest.length === 0) {
    if (Array.isArray(container) && typeof key === 'number') container.push(value);
    else setField(container, key, value);
    return;
  }
  const wantsList = rest[0] === '' || /^\d+$/.test(rest[0]!);
  let child = getField(container, key);
  if (typeof child !== 'object' || child === null) {
    child = wantsList ? [] : {};
    setField(container, key, child);
  }
  // A list given a named key becomes an object, so nothing is lost.
  if (Array.isArray(child) && !wantsList) {
    const asObject = Object.fromEntries(child.map((item, i) => [String(i), item]));
    setField(container, key, asObject);
    child = asObject;
  }
  assign(child as Record<string, unknown> | unknown[], rest, value);
}

function getField(container: Record<string, unknown> | unknown[], key: string | number): unknown {
  return Array.isArray(container) ? container[Number(key)] : Object.hasOwn(container, key) ? container[key] : undefined;
}

function setField(container: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  if (Array.isArray(container)) container[Number(key)] = value;
  else Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
}

function decodeForm(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Indents XML one element per line; text, comments, CDATA and processing instructions kept as they are. */
export function formatXml(xml: string): string {
  const tokens = xml.match(/<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<[^>]+>|[^<]+/g) ?? [];
  const lines: string[] = [];
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const pad = '  '.repeat(depth);
    if (/^<\//.test(token)) {
      depth = Math.max(0, depth - 1);
      lines.push('  '.repeat(depth) + token);
    } else if (/^<[^!?]/.test(token) && !/\/>$/.test(token)) {
      // `<a>text</a>` stays on one line.
      const text = tokens[i + 1];
      const close = tokens[i + 2];
      if (text !== undefined && !text.startsWith('<') && close?.startsWith('</')) {
        lines.push(pad + token + text.trim() + close);
        i += 2;
        continue;
      }
      lines.push(pad + token);
      depth += 1;
    } else if (token.startsWith('<')) {
      lines.push(pad + token);
    } else if (token.trim() !== '') {
      lines.push(pad + token.trim());
    }
  }
  return lines.join('\n');
}

function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += 16) {
    const row = bytes.subarray(offset, offset + 16);
    const hex = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines.join('\n');
}
