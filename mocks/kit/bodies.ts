import { BodyParseError, headerValue, type HeaderList } from '../core/http.js';

/**
 * Request bodies of every kind the real clients send, decoded the same way for handlers and for
 * grading predicates: JSON, form (`a=1&b=2`), nested form (Stripe's and Rails' `a[b][0]=x`),
 * multipart/form-data, and GraphQL (`{query, variables, operationName}` over JSON, or
 * `application/graphql`). Pure functions of the bytes and the content type.
 */
export type DecodedBody =
  | { kind: 'empty'; value: undefined }
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; value: FormValue }
  | { kind: 'multipart'; value: Record<string, MultipartPart | MultipartPart[]> }
  | { kind: 'graphql'; value: GraphQLBody }
  | { kind: 'text'; value: string }
  | { kind: 'binary'; value: Uint8Array };

/** A form decoded with nesting: `a[b][0]=x&c=y` → `{a: {b: ['x']}, c: 'y'}`. */
export type FormValue = { [key: string]: FormNode };
export type FormNode = string | FormNode[] | { [key: string]: FormNode };

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  /** UTF-8 text of the part (binary parts keep their bytes in `bytes`). */
  text: string;
  bytes: Uint8Array;
}

export interface GraphQLBody {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | null;
}

const utf8 = new TextDecoder('utf-8');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The media type of a `Content-Type` value, lower case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * Decodes a body by its content type. JSON that looks like a GraphQL request (a string `query`)
 * is reported as `graphql` only when `graphql` is true (the caller knows the endpoint speaks it).
 * Throws BodyParseError for malformed JSON or multipart.
 */
export function decodeBody(headers: HeaderList, body: Uint8Array, options: { graphql?: boolean } = {}): DecodedBody {
  if (body.length === 0) return { kind: 'empty', value: undefined };
  const contentType = headerValue(headers, 'content-type');
  const type = mediaType(contentType);
  if (type === 'application/graphql') return { kind: 'graphql', value: { query: utf8.decode(body), variables: {}, operationName: null } };
  if (type === 'application/x-www-form-urlencoded') return { kind: 'form', value: parseNestedForm(utf8.decode(body)) };
  if (type === 'multipart/form-data') return { kind: 'multipart', value: parseMultipart(body, contentType ?? '') };
  if (type === 'application/json' || type.endsWith('+json') || type === '') {
    const text = utf8.decode(body);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (type === '') return textOrBinary(body);
      throw new BodyParseError((error as Error).message);
    }
    if (options.graphql && isGraphQLBody(value)) return { kind: 'graphql', value: graphqlBody(value) };
    return { kind: 'json', value };
  }
  return textOrBinary(body);
}

function textOrBinary(body: Uint8Array): DecodedBody {
  try {
    return { kind: 'text', value: strictUtf8.decode(body) };
  } catch {
    return { kind: 'binary', value: body };
  }
}

function isGraphQLBody(value: unknown): value is { query: string; variables?: unknown; operationName?: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { query?: unknown }).query === 'string';
}

function graphqlBody(value: { query: string; variables?: unknown; operationName?: unknown }): GraphQLBody {
  const variables = typeof value.variables === 'object' && value.variables !== null && !Array.isArray(value.variables) ? value.variables as Record<string, unknown> : {};
  return { query: value.query, variables, operationName: typeof value.operationName === 'string' ? value.operationName : null };
}

/**
 * `a[b][0]=x&a[b][1]=y&c=z&d[]=1&d[]=2` → `{a: {b: ['x', 'y']}, c: 'z', d: ['1', '2']}`, as
 * Stripe (and qs, Rails, PHP) read forms. Numeric keys under a key make an array; `[]` appends.
 * A plain repeated key (`tag=a&tag=b`) becomes an array too. Key order is first appearance.
 */
export function parseNestedForm(text: string): FormValue {
  const root: Building = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const path = formKeyPath(rawKey);
    insert(root, path, value);
  }
  return finishArrays(root) as FormValue;
}

/** `a[b][0]` → `['a', 'b', '0']`; `d[]` → `['d', '']`; an unbalanced bracket keeps the key whole. */
export function formKeyPath(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0 || !key.endsWith(']')) return [key];
  const head = key.slice(0, open);
  const rest = key.slice(open);
  const parts: string[] = [];
  const pattern = /\[([^\[\]]*)\]/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = pattern.exec(rest)) !== null) {
    parts.push(match[1]!);
    consumed = pattern.lastIndex;
  }
  if (consumed !== rest.length) return [key];
  return [head, ...parts];
}

/** Nested objects while building; objects whose keys are all indices (or appends) become arrays at the end. */
type Building = { [key: string]: Building | string | string[] };
const APPEND = '\u0000append';

function insert(node: Building, path: string[], value: string): void {
  const [key, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) {
    const existing = node[key];
    if (existing === undefined) node[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else if (typeof existing === 'string') node[key] = [existing, value];
    return;
  }
  let child = node[key];
  if (typeof child !== 'object' || child === null || Array.isArray(child)) {
    child = {};
    node[key] = child;
  }
  const next = rest[0] === '' ? [`${APPEND}${Object.keys(child).length}`, ...rest.slice(1)] : rest;
  insert(child, next, value);
}

function finishArrays(node: Building | string | string[]): FormNode {
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return node;
  const keys = Object.keys(node);
  const entries = keys.map((key) => [key, finishArrays(node[key]!)] as const);
  const indexed = keys.length > 0 && keys.every((key) => /^\d+$/.test(key) || key.startsWith(APPEND));
  if (indexed) {
    const ordered = [...entries].sort(([a], [b]) => order(a) - order(b));
    return ordered.map(([, value]) => value);
  }
  return Object.fromEntries(entries);
}

function order(key: string): number {
  return key.startsWith(APPEND) ? Number(key.slice(APPEND.length)) : Number(key);
}

/** multipart/form-data by its boundary; a part without a name is skipped. */
export function parseMultipart(body: Uint8Array, contentType: string): Record<string, MultipartPart | MultipartPart[]> {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) throw new BodyParseError('multipart body without a boundary');
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const out: Record<string, MultipartPart | MultipartPart[]> = {};
  let start = buffer.indexOf(delimiter);
  if (start === -1) throw new BodyParseError('multipart body without its boundary');
  while (start !== -1) {
    const afterDelimiter = start + delimiter.length;
    if (buffer.subarray(afterDelimiter, afterDelimiter + 2).toString() === '--') break;
    const next = buffer.indexOf(delimiter, afterDelimiter);
    if (next === -1) throw new BodyParseError('multipart body ends without its closing boundary');
    const part = buffer.subarray(afterDelimiter + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split === -1) throw new BodyParseError('multipart part without headers');
    const headers = part.subarray(0, split).toString('utf8');
    const bytes = new Uint8Array(part.subarray(split + 4));
    const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name !== undefined) {
      const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
      const type = /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1];
      const decoded: MultipartPart = { name, text: utf8.decode(bytes), bytes, ...(filename !== undefined ? { filename } : {}), ...(type ? { contentType: type } : {}) };
      const existing = out[name];
      out[name] = existing === undefined ? decoded : Array.isArray(existing) ? [...existing, decoded] : [existing, decoded];
    }
    start = next;
  }
  return out;
}

/**
 * What grading predicates see of a request body: JSON as parsed, forms nested, multipart as
 * `{name: text}`, GraphQL as `{query, variables, operationName}`, text as a string; `undefined`
 * when empty or undecodable.
 */
export function bodyForPredicates(headers: HeaderList, body: Uint8Array): unknown {
  let decoded: DecodedBody;
  try {
    decoded = decodeBody(headers, body, { graphql: true });
  } catch {
    return undefined;
  }
  switch (decoded.kind) {
    case 'multipart':
      return Object.fromEntries(Object.entries(decoded.value).map(([name, part]) => [name, Array.isArray(part) ? part.map((p) => p.text) : part.text]));
    case 'binary':
      return undefined;
    default:
      return decoded.value;
  }
}
