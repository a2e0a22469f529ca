import { emptyResponse, jsonResponse, ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { LoadContext, ServiceContext } from '../core/service.js';
import { decodeBody } from '../kit/bodies.js';
import type { Fallback } from '../kit/define.js';
import { ServiceError } from '../kit/errors.js';
import { lazySpec } from '../kit/openapi.js';
import { specFallback, type OpenApiDocument, type Schema, type SpecFallback, type SpecOperation } from '../kit/spec-fallback.js';
import type { TwilioCtx } from './context.js';
import { listPage, missingParam, notFound, rfc2822, twilioSid, type TwilioDoc } from './model.js';

/**
 * The long tail of the 2010-04-01 API (every operation of Twilio's own description no handler
 * takes: queues, applications, addresses, conferences, recordings, SIP, usage…), answered by the
 * kit's spec fallback and kept as state. Twilio's spec does not fit the kit's conventions as it
 * stands, so this module adapts it:
 * - paths end in `.json`: the spec's templates lose it here, as requests do in the service's
 *   `rewrite` (mocks/twilio/index.ts);
 * - parameters are PascalCase form fields (`FriendlyName`) while resources are snake_case JSON
 *   (`friendly_name`), and the schemas require nothing: so a new resource is built here, every
 *   property of its schema filled (its SID in the schema's pattern, `account_sid` and other
 *   parents from the path, RFC 2822 times, its `uri`, the form's values, null for the rest), and
 *   handed to the kit as the document to store; an update hands it the form's values snake_cased;
 * - a resource under a parent (a call's recordings, a queue's members) needs that parent to exist,
 *   in the handlers' collections (messages, calls, numbers) or in the fallback's;
 * - lists page as Twilio's do (model.ts `listPage`), deletes answer 204 with no body.
 * The spec (0.5 MB) is parsed on the first request that reaches the fallback.
 */
const spec = lazySpec(import.meta.url, './spec/twilio_api_v2010.json');

/** The spec with `.json` cut from its path templates. */
function withoutJson(doc: OpenApiDocument): OpenApiDocument {
  return { ...doc, paths: Object.fromEntries(Object.entries(doc.paths).map(([template, item]) => [template.replace(/\.json$/, ''), item])) };
}

/** `FriendlyName` → `friendly_name`, `VoiceCallerIdLookup` → `voice_caller_id_lookup`, `SIPDomain` → `sip_domain`. */
export function snake(name: string): string {
  return name.replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Collections the handlers keep, by the path segment that names them under an account. */
const HANDLED: Record<string, 'messages' | 'calls' | 'incoming_phone_numbers'> = { Messages: 'messages', Calls: 'calls', IncomingPhoneNumbers: 'incoming_phone_numbers' };

interface Built {
  fallback: SpecFallback<TwilioCtx>;
  doc: OpenApiDocument;
  byId: Map<string, SpecOperation>;
}

let built: Built | undefined;
const MISSING = '\u0000';

function resolve(doc: OpenApiDocument, schema: Schema | null | undefined): Schema {
  let current: Schema = schema ?? {};
  for (let hops = 0; typeof current.$ref === 'string' && hops < 16; hops++) current = doc.components?.schemas?.[current.$ref.split('/').at(-1)!] ?? {};
  return current;
}

function build(): Built {
  if (built) return built;
  const doc = withoutJson(spec());
  const fallback = specFallback<TwilioCtx>({
    spec: doc,
    // The kit does not know the request's path, which Twilio's 404 names: `handle` puts it in.
    notFound: () => notFound(MISSING),
    paginate: (items, page) => {
      const key = Object.entries(resolve(doc, page.schema).properties ?? {}).find(([, p]) => resolve(doc, p as Schema).type === 'array')?.[0] ?? 'items';
      return listPage(items as TwilioDoc[], key, page.path, page.query, {});
    },
  });
  built = { fallback, doc, byId: new Map(fallback.operations.map((op) => [op.id, op])) };
  return built;
}

/** Every operation of the description (for the conformance sweep and tests). */
export function twilioSpecOperations(): readonly SpecOperation[] {
  return build().fallback.operations;
}

/** The parsed description, templates without `.json` (for tests that validate answers). */
export function twilioSpec(): OpenApiDocument {
  return build().doc;
}

/** The values of a request's path parameters, by name, from the op's template. */
function pathParams(template: string, path: string): Record<string, string> {
  const t = template.split('/');
  const p = path.split('/');
  const out: Record<string, string> = {};
  t.forEach((segment, i) => { if (/^\{.+\}$/.test(segment)) out[segment.slice(1, -1)] = p[i] ?? ''; });
  return out;
}

/** The SID prefix a schema's pattern gives a field (`^(SM|MM)[0-9a-fA-F]{32}$` → SM), else from the parameter's name. */
function prefixOf(property: Schema | undefined, param: string): string {
  const m = typeof property?.pattern === 'string' ? /^\^\(?([A-Z]{2})/.exec(property.pattern) : null;
  if (m) return m[1]!;
  const known: Record<string, string> = { CallSid: 'CA', ConferenceSid: 'CF', QueueSid: 'QU', MessageSid: 'SM', RecordingSid: 'RE' };
  return known[param] ?? 'XX';
}

/**
 * A full resource of `schema`: the given values, then the path's parent SIDs, the key field
 * (`keyField` = `id`), RFC 2822 times, the `uri`, and null (or the type's zero) for the rest.
 */
function complete(doc: OpenApiDocument, schema: Schema, given: Record<string, unknown>, at: { params: Record<string, string>; keyField: string | null; id: string; nowMs: number; uri: string }): Record<string, unknown> {
  const resolved = resolve(doc, schema);
  const out: Record<string, unknown> = {};
  const fromPath = Object.fromEntries(Object.entries(at.params).map(([name, value]) => [snake(name), value]));
  for (const [name, raw] of Object.entries((resolved.properties ?? {}) as Record<string, Schema>)) {
    const property = resolve(doc, raw);
    if (name === at.keyField) out[name] = at.id;
    else if (given[name] !== undefined) out[name] = coerce(property, given[name]);
    else if (name !== 'sid' && fromPath[name] !== undefined) out[name] = fromPath[name];
    else if (property.format === 'date-time-rfc-2822' && /^date_(created|updated)$/.test(name)) out[name] = rfc2822(at.nowMs);
    else if (name === 'uri') out[name] = at.uri;
    else if (name === 'api_version') out[name] = '2010-04-01';
    else if (Array.isArray(property.enum) && property.enum.length > 0 && property.nullable !== true) out[name] = property.enum[0];
    else if (property.nullable === true) out[name] = null;
    else out[name] = property.type === 'array' ? [] : property.type === 'boolean' ? false : property.type === 'integer' || property.type === 'number' ? 0 : property.type === 'object' ? {} : '';
  }
  return out;
}

/** A form value as the property's type wants it (form fields are strings). */
function coerce(property: Schema, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (property.type === 'integer' || property.type === 'number') return Number.isFinite(Number(value)) && value.trim() !== '' ? Number(value) : value;
  if (property.type === 'boolean') return value.toLowerCase() === 'true' ? true : value.toLowerCase() === 'false' ? false : value;
  return value;
}

/** The form body decoded, keys snake_cased (the MCP server also sends path parameters: they are left out). */
function formOf(req: ServiceRequest, params: Record<string, string>): { raw: Record<string, unknown>; snake: Record<string, unknown> } {
  let raw: Record<string, unknown> = {};
  try {
    const decoded = decodeBody(req.headers, req.body);
    if (decoded.value && typeof decoded.value === 'object' && !Array.isArray(decoded.value)) raw = decoded.value as Record<string, unknown>;
  } catch {
    raw = {};
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (!(key in params)) out[snake(key)] = value;
  return { raw, snake: out };
}

function asJson(req: ServiceRequest, value: unknown): ServiceRequest {
  return new ServiceRequest(req.method, req.target, [['Content-Type', 'application/json']], new TextEncoder().encode(JSON.stringify(value)));
}

/** Every parent item on the path exists (a handler's message, call or number, or a fallback document). */
function checkParents(op: SpecOperation, path: string, c: TwilioCtx, ctx: ServiceContext): void {
  const t = op.template.split('/');
  const p = path.split('/');
  // The item itself is the kit's to find (its 404); parents are the segments before it.
  const last = op.kind === 'read' || op.kind === 'update' || op.kind === 'delete' ? t.length - 1 : t.length;
  for (let i = 5; i < last; i++) {
    if (!/^\{.+\}$/.test(t[i]!)) continue;
    const collection = t[i - 1]!;
    const handled = i === 5 ? HANDLED[collection] : undefined;
    const exists = handled
      ? c.db[handled].get(p[i]!)?.account_sid === p[3]
      : ctx.store.collection<unknown>(`spec:${t.slice(0, i).join('/')}`).has(p.slice(0, i + 1).join('/'));
    if (!exists) throw notFound(`${p.slice(0, i + 1).join('/')}.json`);
  }
}

/** The fallback's answer to a rewritten request (see the module's comment). */
function answer(req: ServiceRequest, name: string, c: TwilioCtx, ctx: ServiceContext): ServiceResponse {
  const { fallback, doc, byId } = build();
  const op = byId.get(name);
  if (!op) throw notFound(`${req.path}.json`);
  const params = pathParams(op.template, req.path);
  checkParents(op, req.path, c, ctx);
  const form = formOf(req, params);
  const request = resolve(doc, op.request);
  for (const field of (request.required ?? []) as string[]) {
    if (form.raw[field] === undefined || form.raw[field] === '') throw missingParam(field);
  }
  switch (op.kind) {
    case 'create': {
      const itemTemplate = [...byId.values()].find((other) => other.collection === op.collection && other.kind === 'read')?.template;
      const keyParam = itemTemplate ? itemTemplate.split('/').at(-1)!.slice(1, -1) : 'Sid';
      const keyField = snake(keyParam);
      const schema = resolve(doc, op.response);
      // A POST whose answer is not the collection's item (a caller ID's validation request) keeps nothing.
      if (!(keyField in (schema.properties ?? {}))) {
        return jsonResponse(op.status, complete(doc, schema, form.snake, { params, keyField: null, id: '', nowMs: ctx.nowMs, uri: `${req.path}.json` }));
      }
      const id = twilioSid(ctx, prefixOf(resolve(doc, schema.properties?.[keyField]), keyParam));
      const value = complete(doc, schema, form.snake, { params, keyField, id, nowMs: ctx.nowMs, uri: `${req.path}/${id}.json` });
      // Object.assign on the fresh record, not `{ ...value, id }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
      return fallback.handle(asJson(req, Object.assign(value, { id })), name, c, ctx);
    }
    case 'update':
      return fallback.handle(asJson(req, { ...form.snake, date_updated: rfc2822(ctx.nowMs) }), name, c, ctx);
    case 'delete': {
      const answered = fallback.handle(req, name, c, ctx);
      return answered.status === 204 ? emptyResponse(204) : answered;
    }
    case 'action': {
      // Singletons (Balance) and actions that make something not kept in a list (feedback, a
      // caller-ID validation): a full document of the answer's schema, not stored.
      if (!op.response) return jsonResponse(op.status === 302 ? 200 : op.status, {});
      const value = complete(doc, op.response, form.snake, { params, keyField: null, id: '', nowMs: ctx.nowMs, uri: `${req.path}.json` });
      return jsonResponse(op.status, value);
    }
    default:
      return fallback.handle(req, name, c, ctx);
  }

}

/** The fallback as the service uses it: requests arrive rewritten (no `.json`). */
export const twilioTail: Fallback<TwilioCtx> & { seedRecords(records: Readonly<Record<string, readonly Record<string, unknown>[]>>, ctx: LoadContext): void } = {
  operation: (req) => build().fallback.operation(req),
  operationNames: () => build().fallback.operationNames(),

  handle(req, name, c, ctx): ServiceResponse {
    try {
      return answer(req, name, c, ctx);
    } catch (error) {
      if (error instanceof ServiceError && error.message.includes(MISSING)) throw notFound(`${req.path}.json`);
      throw error;
    }
  },

  /** Dataset records of long-tail collections (`{"/2010-04-01/Accounts/AC…/Queues": [{friendly_name: …}]}`), completed like creates. */
  seedRecords(records, ctx) {
    if (Object.keys(records).length === 0) return;
    const { fallback, doc } = build();
    const out: Record<string, Record<string, unknown>[]> = {};
    for (const [path, list] of Object.entries(records)) {
      const matches = (o: SpecOperation) => new RegExp(`^${o.template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path);
      const op = fallback.operations.find((o) => o.kind === 'list' && matches(o));
      if (!op) throw new Error(`dataset/twilio.json: field spec: ${path} is no collection of the 2010-04-01 API this mock keeps`);
      const params = pathParams(op.template, path);
      // The item's key is its path's last parameter (`{Sid}`, `{CountryCode}`); its schema the read's, else the list's items.
      const read = fallback.operations.find((o) => o.kind === 'read' && o.collection === op.collection);
      const keyParam = read ? read.template.split('/').at(-1)!.slice(1, -1) : 'Sid';
      const keyField = snake(keyParam);
      const envelope = resolve(doc, op.response);
      const listed = Object.values((envelope.properties ?? {}) as Record<string, Schema>).map((p) => resolve(doc, p)).find((p) => p.type === 'array')?.items;
      const schema = resolve(doc, read?.response ?? listed);
      out[path] = list.map((record) => {
        const given = record[keyField];
        const id = typeof given === 'string' ? given : twilioSid(ctx, prefixOf(resolve(doc, schema.properties?.[keyField]), keyParam));
        return { ...complete(doc, schema, record, { params, keyField, id, nowMs: ctx.epochMs, uri: `${path}/${id}.json` }), id };
      });
    }
    fallback.seed(out, ctx);
  },
};
