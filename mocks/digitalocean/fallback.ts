import { emptyResponse, jsonResponse, ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { LoadContext } from '../core/service.js';
import { decodeBody } from '../kit/bodies.js';
import type { Fallback } from '../kit/define.js';
import { uuidId } from '../kit/ids.js';
import { lazySpec } from '../kit/openapi.js';
import { specFallback, type OpenApiDocument, type Schema, type SpecFallback, type SpecOperation } from '../kit/spec-fallback.js';
import type { DoCtx } from './context.js';
import { badRequest, iso, nextId, notFound, pageOf, unprocessable } from './model.js';

/**
 * The long tail of the API v2 (apps, databases, Kubernetes, load balancers, registries, GenAI,
 * functions, monitoring, VPCs, …: every operation of DigitalOcean's own description no handler
 * takes), answered by the kit's spec fallback and kept as state. DigitalOcean wraps each
 * resource in its singular name (`{"load_balancer": {…}}`) and takes it flat in requests, so this
 * module adapts:
 * - a create stores the wrapper with the body inside it, the new item's id (an integer or a UUID,
 *   as the schema's `id` says) as its key; reads answer the wrapper;
 * - an update merges the body into the wrapped resource;
 * - lists unwrap the stored resources into DigitalOcean's page (`links.pages`, `meta.total`);
 * - answers with no body (204) have none.
 * Top-level `allOf`s of the answers (a list's items, `links` and `meta` in three parts) are merged
 * so the kit can tell lists from resources. The spec (2 MB) is parsed on the first request that
 * reaches the fallback.
 */
const spec = lazySpec(import.meta.url, './spec/digitalocean.json');

interface Built {
  fallback: SpecFallback<DoCtx>;
  doc: OpenApiDocument;
  byId: Map<string, SpecOperation>;
}
let built: Built | undefined;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** An `allOf` of objects as one object (properties and required merged). */
function flat(schema: Schema): Schema {
  if (!schema || typeof schema !== 'object') return schema;
  if (!Array.isArray(schema.allOf)) return schema;
  const parts = (schema.allOf as Schema[]).map(flat);
  if (!parts.every((p) => !p || p.type === 'object' || p.properties || Object.keys(p).length === 0)) return schema;
  const properties = Object.assign({}, ...parts.map((p) => p?.properties ?? {}));
  const required = [...new Set(parts.flatMap((p) => (p?.required ?? []) as string[]))];
  const { allOf: _a, ...rest } = schema;
  return { ...rest, type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

function withFlatAnswers(doc: OpenApiDocument): OpenApiDocument {
  const paths: Record<string, Schema> = {};
  for (const [template, item] of Object.entries(doc.paths)) {
    const out: Schema = { ...item };
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.responses) continue;
      const responses: Schema = {};
      for (const [code, response] of Object.entries(op.responses as Schema)) {
        const json = response?.content?.['application/json'];
        responses[code] = json?.schema ? { ...response, content: { ...response.content, 'application/json': { ...json, schema: flat(json.schema) } } } : response;
      }
      out[method] = { ...op, responses };
    }
    paths[template] = out;
  }
  return { ...doc, paths };
}

/** The one object property a resource answer wraps its resource in (`droplet`, `load_balancer`), and its schema. */
function wrapperOf(schema: Schema | null): { key: string; inner: Schema } | null {
  if (!schema) return null;
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>).filter(([name]) => name !== 'links' && name !== 'meta');
  if (properties.length !== 1) return null;
  const [key, inner] = properties[0]!;
  const resolved = flat(inner);
  return resolved.type === 'object' || resolved.properties ? { key, inner: resolved } : null;
}

function build(): Built {
  if (built) return built;
  const doc = withFlatAnswers(spec());
  const fallback = specFallback<DoCtx>({
    spec: doc,
    notFound: () => notFound(),
    malformed: () => badRequest('unable to parse the request body as JSON'),
    paginate: (items, page) => {
      // The inference API (`/v1/…`) lists OpenAI's way, in the spec's own envelope.
      if (page.path.startsWith('/v1/')) return page.envelope(items);
      const key = Object.entries((page.schema.properties ?? {}) as Record<string, Schema>).find(([, p]) => flat(p).type === 'array')?.[0] ?? 'items';
      return pageOf(items.map(unwrap), key, page.path, page.query);
    },
  });
  built = { fallback, doc, byId: new Map(fallback.operations.map((op) => [op.id, op])) };
  return built;
}

/** A stored wrapper's resource. */
function unwrap(doc: unknown): unknown {
  if (!doc || typeof doc !== 'object') return doc;
  const values = Object.entries(doc as Record<string, unknown>).filter(([k]) => k !== 'links' && k !== 'meta');
  return values.length === 1 && values[0]![1] && typeof values[0]![1] === 'object' ? values[0]![1] : doc;
}

/** Every operation of the description (for the conformance sweep and tests). */
export function doSpecOperations(): readonly SpecOperation[] {
  return build().fallback.operations;
}

/** The parsed description, answers' top-level `allOf`s merged (for tests that validate answers). */
export function doSpec(): OpenApiDocument {
  return build().doc;
}

function bodyOf(req: ServiceRequest): Record<string, unknown> {
  if (req.body.length === 0) return {};
  try {
    const decoded = decodeBody(req.headers, req.body);
    return decoded.value && typeof decoded.value === 'object' && !Array.isArray(decoded.value) ? decoded.value as Record<string, unknown> : {};
  } catch {
    throw badRequest('unable to parse the request body as JSON');
  }
}

function asJson(req: ServiceRequest, value: unknown): ServiceRequest {
  return new ServiceRequest(req.method, req.target, [['Content-Type', 'application/json']], new TextEncoder().encode(JSON.stringify(value)));
}

/** The key field and a new value for a resource of `inner`: its `id` (integer or UUID), else `uuid`, `name` or `slug`. */
function newKey(inner: Schema, body: Record<string, unknown>, ctx: LoadContext, collection: string): { field: string | null; value: string | number } {
  const properties = (inner.properties ?? {}) as Record<string, Schema>;
  const id = properties.id ? flat(properties.id) : null;
  if (id) return { field: 'id', value: id.type === 'integer' || id.type === 'number' ? nextId(ctx, `spec:${collection}`) : uuidId(ctx, `spec:${collection}`) };
  if (properties.uuid) return { field: 'uuid', value: uuidId(ctx, `spec:${collection}`) };
  for (const field of ['name', 'slug']) if (typeof body[field] === 'string' && body[field] !== '') return { field, value: body[field] as string };
  return { field: null, value: uuidId(ctx, `spec:${collection}`) };
}

/** Timestamps a new resource carries, from the logical clock. */
function stamped(inner: Schema, nowMs: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['created_at', 'updated_at']) if ((inner.properties ?? {})[name]) out[name] = iso(nowMs);
  return out;
}

function answer(req: ServiceRequest, name: string, c: DoCtx): ServiceResponse {
  const { fallback, byId } = build();
  const op = byId.get(name);
  if (!op) throw notFound();
  const ctx = c.ctx;
  const empty = (response: ServiceResponse) => (op.status === 204 ? emptyResponse(204) : response);
  switch (op.kind) {
    case 'create': {
      const wrapper = wrapperOf(op.response);
      const body = bodyOf(req);
      if (!wrapper) return fallback.handle(req, name, c, ctx);
      const key = newKey(wrapper.inner, body, ctx, op.collection!);
      const inner = { ...body, ...stamped(wrapper.inner, ctx.nowMs), ...(key.field ? { [key.field]: key.value } : {}) };
      // Required body fields, on the flat body (the kit sees the wrapped one).
      const checked = fallback.operations.find((o) => o.id === name)!;
      for (const param of (flat(checked.request ?? {}).required ?? []) as string[]) if (body[param] === undefined) throw unprocessable(`${param} is required`);
      return fallback.handle(asJson(req, { id: String(key.value), [wrapper.key]: inner }), name, c, ctx);
    }
    case 'update': {
      const wrapper = wrapperOf(op.response);
      if (!wrapper) return empty(fallback.handle(req, name, c, ctx));
      const stored = ctx.store.collection<Record<string, unknown>>(`spec:${op.collection}`).get(req.path);
      if (stored === undefined) throw notFound();
      const current = (stored[wrapper.key] ?? {}) as Record<string, unknown>;
      const body = bodyOf(req);
      const known = (wrapper.inner.properties ?? {}) as Record<string, Schema>;
      const merged = { ...current, ...Object.fromEntries(Object.entries(body).filter(([k]) => k in known && k !== 'id')), ...('updated_at' in known ? { updated_at: iso(ctx.nowMs) } : {}) };
      return fallback.handle(asJson(req, { [wrapper.key]: merged }), name, c, ctx);
    }
    default:
      return empty(fallback.handle(req, name, c, ctx));
  }
}

/** The fallback as the service uses it. */
export const doTail: Fallback<DoCtx> & { seedRecords(records: Readonly<Record<string, readonly Record<string, unknown>[]>>, ctx: LoadContext): void } = {
  operation: (req) => build().fallback.operation(req),
  operationNames: () => build().fallback.operationNames(),
  handle: (req, name, c) => answer(req, name, c),

  /** Dataset records of long-tail collections (`{"/v2/load_balancers": [{name: …}]}`), wrapped and keyed like creates. */
  seedRecords(records, ctx) {
    if (Object.keys(records).length === 0) return;
    const { fallback } = build();
    const out: Record<string, Record<string, unknown>[]> = {};
    for (const [path, list] of Object.entries(records)) {
      const matches = (o: SpecOperation) => new RegExp(`^${o.template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path);
      const op = fallback.operations.find((o) => o.kind === 'list' && matches(o));
      if (!op) throw new Error(`dataset/digitalocean.json: field spec: ${path} is no collection of the API v2 this mock keeps`);
      const item = fallback.operations.find((o) => o.collection === op.collection && (o.kind === 'read' || o.kind === 'create') && wrapperOf(o.response));
      const wrapper = wrapperOf(item?.response ?? null);
      if (!wrapper) throw new Error(`dataset/digitalocean.json: field spec: ${path} has no resource schema`);
      out[path] = list.map((record) => {
        const given = record.id ?? record.uuid ?? record.name;
        const key = given === undefined ? newKey(wrapper.inner, record, ctx, op.collection!) : { field: null, value: given as string | number };
        const inner = { ...stamped(wrapper.inner, ctx.epochMs), ...record, ...(key.field ? { [key.field]: key.value } : {}) };
        return { id: String(key.value), [wrapper.key]: inner };
      });
    }
    fallback.seed(out, ctx);
  },
};
