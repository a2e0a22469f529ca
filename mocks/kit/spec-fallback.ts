import { BodyParseError, jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import { route, Router, type Route } from '../core/router.js';
import type { LoadContext, ServiceContext } from '../core/service.js';
import { decodeBody } from './bodies.js';
import { queryObject, type Fallback } from './define.js';
import type { ServiceError } from './errors.js';
import { numericId } from './ids.js';

/**
 * The long tail from the spec: requests no hand-written operation takes are answered from the
 * service's (pruned) OpenAPI 3 document, in the real shape and statefully.
 *
 * - The request is named by the spec's `operationId` (the journal says `via: 'spec'`).
 * - A create (POST to a collection that has an item path) stores a document built from the body
 *   and the response schema (required fields filled deterministically: a seeded ID in the
 *   service's style, logical time for timestamps, an enum's first value, null where nullable)
 *   and answers it; a read by id returns it; an unknown id is the service's own 404.
 * - A list answers the collection's documents (what the dataset seeded, then what was created)
 *   in the service's pagination style; update and delete work on the stored document.
 * - Anything else (a singleton, an action the spec describes) answers a document built from its
 *   response schema; an action on an item (`POST /v1/refunds/{refund}/cancel`) answers, and
 *   updates, the stored item when the response is that item's schema.
 *
 * RPC APIs (Slack's Web API: `POST /api/chat.delete`) use the `method` style instead: the
 * request's path names the spec's path (`/chat.delete`) whatever its HTTP method, the operation
 * is named by it (`chat.delete`), its arguments are the query and the body together (a missing
 * required one is `invalid`), and it answers a document of its success schema built from them.
 *
 * Pure and synchronous, like every handler: IDs from the world's seeded counters, time from the
 * request's logical clock.
 */
export type Schema = { [key: string]: any };

export interface OpenApiDocument {
  openapi: string;
  info?: Schema;
  servers?: { url: string }[];
  paths: Record<string, Record<string, Schema>>;
  components?: { schemas?: Record<string, Schema> };
}

/** What the pagination style gets: the items of the collection, in order, and the request. */
export interface ListPage {
  readonly req: ServiceRequest;
  readonly query: Record<string, string | string[]>;
  /** The concrete collection path (`/v1/customers/cus_1/tax_ids`). */
  readonly path: string;
  /** The list response's schema (resolved), to fill the envelope's other fields. */
  readonly schema: Schema;
  /** A value for `schema` with `items` in its array property: the default envelope. */
  envelope(items: readonly unknown[]): unknown;
}

export interface SpecFallbackOptions<C> {
  readonly spec: OpenApiDocument;
  /** The service's own 404 for an id the collection does not hold (`No such tax_rate: 'txr_x'`). */
  notFound(resource: string, id: string, context: C): ServiceError;
  /** The service's error for a body that does not parse as its content type says; without it, such a body reads as empty. */
  malformed?(message: string, context: C): ServiceError;
  /** The service's validation error for a missing required body parameter; without it, none is checked. */
  invalid?(param: string, message: string, context: C): ServiceError;
  /**
   * A new document's ID in the service's style (`prefixedId(ctx, 'txr_')`); `object` is the
   * schema's `object` enum value or its title. Default: increasing numbers per collection.
   */
  id?(ctx: LoadContext, info: { collection: string; object: string | null }): string;
  /** The service's pagination style (Stripe's `starting_after`, Link headers); default: every item in the envelope. */
  paginate?(items: readonly unknown[], page: ListPage): ServiceResponse | unknown;
  /** Items a list shows before the stored ones (documents the service keeps in its own collections). */
  listed?(collection: string, path: string, context: C): readonly unknown[];
  /** Leading path the spec's paths leave out (`/api/v3` when the server URL ends in it). */
  readonly basePath?: string;
  /** `rest` (default): method + path template; `method`: RPC, one path per operation (see above). */
  readonly style?: 'rest' | 'method';
  /**
   * A value for a string field the builder would leave `''` (one with a `pattern`, say: Slack's
   * `^[UW][A-Z0-9]{8,}$` user IDs); undefined keeps the default. `name` is the field's name.
   */
  sample?(schema: Schema, name: string, context: C, ctx: ServiceContext): unknown;
  /**
   * `method` style only: keep state by the naming convention of `<family>.<verb>` (see
   * `methodState`); `missing` is the service's error for an unknown id (`code` is the family's
   * `*_not_found` from the error schema, or null: then `invalid` answers).
   */
  readonly stateful?: boolean;
  /**
   * Families whose success schemas name no object (a bare `{ok: true}` template that allows more):
   * the field their answers carry, its schema and the list's array field
   * (`'files.remote': {field: 'file', schema: {$ref: …objs_file}, list: 'files'}`).
   */
  readonly objects?: Readonly<Record<string, { field: string; schema: Schema; list: string }>>;
  missing?(code: string, context: C): ServiceError;
}

export type SpecKind = 'create' | 'list' | 'read' | 'update' | 'delete' | 'action';

/** One operation of the spec, classified. */
export interface SpecOperation {
  readonly id: string;
  readonly method: string;
  /** The spec's path template (`/v1/customers/{customer}/tax_ids`). */
  readonly template: string;
  readonly kind: SpecKind;
  /** The collection template it works on (`/v1/customers/{customer}/tax_ids`), or null. */
  readonly collection: string | null;
  readonly status: number;
  readonly response: Schema | null;
  readonly request: Schema | null;
  /** `method` style: the arguments a call must give (query parameters and body properties). */
  readonly required?: readonly string[];
}

export interface SpecFallback<C> extends Fallback<C> {
  readonly operations: readonly SpecOperation[];
  /** Stores dataset records in collections (`{"/v1/tax_rates": [{display_name: …}]}`), as created at load time. */
  seed(records: Readonly<Record<string, readonly Record<string, unknown>[]>>, ctx: LoadContext): void;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const isParam = (segment: string) => /^\{[^}]+\}$/.test(segment);

/** A `Fallback` answering every operation of `spec` no handler takes. */
export function specFallback<C>(options: SpecFallbackOptions<C>): SpecFallback<C> {
  const schemas = new SchemaSet(options.spec);
  const base = options.basePath ?? '';
  if (options.style === 'method') return methodFallback(options, schemas, base);
  const operations = classify(options.spec, schemas);
  // Fewer parameters first: `/v1/customers/search` before `/v1/customers/{customer}`.
  const ordered = [...operations].sort((a, b) => paramCount(a.template) - paramCount(b.template));
  const routes: Route<SpecOperation>[] = [];
  const byRoute = new Map<Route<SpecOperation>, SpecOperation>();
  for (const op of ordered) {
    const r = route<SpecOperation, string>(op.method, toPattern(op.template), () => { throw new Error('not called'); });
    routes.push(r);
    byRoute.set(r, op);
  }
  const router = new Router(routes);
  const find = (req: ServiceRequest) => {
    if (!req.path.startsWith(base)) return null;
    const match = router.match(req.method === 'HEAD' ? 'GET' : req.method, req.path.slice(base.length) || '/');
    return match.kind === 'found' ? { op: byRoute.get(match.route)!, params: match.params, path: req.path.slice(base.length) } : null;
  };
  const itemSchemaOf = (collection: string): Schema | null => {
    const item = operations.find((op) => op.collection === collection && (op.kind === 'read' || op.kind === 'create') && op.response);
    return item?.response ?? null;
  };
  // What the collection's list holds: a create answering a union (Stripe's `payment_source` for a
  // card) stores the kind its list and reads show.
  const listedSchemaOf = (collection: string): Schema | null => {
    const list = operations.find((op) => op.collection === collection && op.kind === 'list' && op.response);
    if (!list) return null;
    const envelope = schemas.resolve(list.response!);
    const property = envelope.type === 'array' ? null : listProperty(envelope, schemas);
    const items = envelope.type === 'array' ? envelope.items : property ? schemas.resolve(envelope.properties[property]).items : undefined;
    return items ?? null;
  };
  const isUnion = (schema: Schema) => { const r = schemas.resolve(schema); return !r.properties && Boolean(r.anyOf ?? r.oneOf); };
  const newId = (ctx: LoadContext, collection: string, schema: Schema): string => {
    const object = objectName(schema, schemas);
    return options.id ? options.id(ctx, { collection, object }) : String(numericId(ctx, `spec:${collection}`));
  };
  const build = new Builder(schemas);

  return {
    operations,
    operationNames: () => operations.map((op) => op.id),
    operation: (req) => find(req)?.op.id ?? null,

    handle(req, name, context, ctx) {
      const found = find(req);
      if (!found || found.op.id !== name) throw options.notFound('operation', req.path, context);
      const { op, params, path } = found;
      const store = ctx.store.collection<unknown>(`spec:${op.collection ?? op.template}`);
      const body = bodyOf(req, (message) => options.malformed?.(message, context));
      const segments = path.split('/');
      const answer = (value: unknown) => jsonResponse(op.status, value);
      switch (op.kind) {
        case 'create': {
          if (options.invalid && op.request) {
            for (const param of (schemas.resolve(op.request).required ?? []) as string[]) {
              if (body[param] === undefined) throw options.invalid(param, `Missing required param: ${param}.`, context);
            }
          }
          const answered = op.response ?? itemSchemaOf(op.collection!) ?? {};
          const schema = isUnion(answered) ? listedSchemaOf(op.collection!) ?? answered : answered;
          const id = typeof body.id === 'string' && body.id !== '' ? body.id : newId(ctx, op.collection!, schema);
          const doc = build.document(schema, body, { id, nowMs: ctx.nowMs });
          store.put(`${path}/${id}`, doc);
          return answer(doc);
        }
        case 'read':
        case 'update':
        case 'delete': {
          const id = params[lastParam(op.template)]!;
          const key = segments.join('/');
          const doc = store.get(key);
          if (doc === undefined) throw options.notFound(resourceOf(op, schemas), id, context);
          if (op.kind === 'read') return answer(doc);
          if (op.kind === 'delete') {
            store.delete(key);
            return answer(op.response ? build.document(op.response, { id, deleted: true }, { id, nowMs: ctx.nowMs }) : {});
          }
          const updated = build.merge(op.response ?? itemSchemaOf(op.collection!) ?? {}, doc as Record<string, unknown>, body);
          store.put(key, updated);
          return answer(updated);
        }
        case 'list': {
          const collectionPath = op.collection === op.template ? path : segments.slice(0, -1).join('/');
          const stored = store.entries().filter(([key]) => key.startsWith(`${collectionPath}/`) && !key.slice(collectionPath.length + 1).includes('/')).map(([, doc]) => doc);
          const items = [...(options.listed?.(op.collection!, collectionPath, context) ?? []), ...stored];
          const schema = op.response ?? {};
          const page: ListPage = { req, query: queryObject(req), path: base + path, schema, envelope: (list) => build.list(schema, list, base + path, ctx.nowMs) };
          const out = options.paginate ? options.paginate(items, page) : page.envelope(items);
          return isResponse(out) ? out : answer(out);
        }
        case 'action': {
          // An action on a stored item whose answer is that item: it changes the item.
          if (op.collection) {
            const key = segments.slice(0, -1).join('/');
            const item = ctx.store.collection<unknown>(`spec:${op.collection}`).get(key);
            if (item === undefined) throw options.notFound(resourceOf(op, schemas), segments.at(-2)!, context);
            if (op.response && sameSchema(op.response, itemSchemaOf(op.collection), schemas)) {
              const updated = build.merge(op.response, item as Record<string, unknown>, body);
              ctx.store.collection<unknown>(`spec:${op.collection}`).put(key, updated);
              return answer(updated);
            }
          }
          return answer(op.response ? build.document(op.response, body, { id: newId(ctx, op.template, op.response), nowMs: ctx.nowMs }) : {});
        }
      }
    },

    seed(records, ctx) {
      for (const [path, list] of Object.entries(records)) {
        const op = find({ method: 'GET', path: base + path } as ServiceRequest);
        const collection = op?.op.kind === 'list' ? op.op.collection : null;
        if (!collection) throw new Error(`spec seed: ${path} is not a collection the spec lists`);
        const schema = itemSchemaOf(collection) ?? {};
        const store = ctx.store.collection<unknown>(`spec:${collection}`);
        for (const record of list) {
          const id = typeof record.id === 'string' ? record.id : newId(ctx, collection, schema);
          store.put(`${path}/${id}`, build.document(schema, record, { id, nowMs: ctx.epochMs }));
        }
      }
    },
  };
}

/** The `method` style: one operation per spec path, named by it, at `<basePath>/<name>`. */
function methodFallback<C>(options: SpecFallbackOptions<C>, schemas: SchemaSet, base: string): SpecFallback<C> {
  const operations: SpecOperation[] = [];
  for (const [template, item] of Object.entries(options.spec.paths)) {
    const op = METHODS.map((method) => item[method]).find((candidate) => typeof candidate?.operationId === 'string');
    if (!op) continue;
    const [status, response] = successResponse(op, schemas);
    const body = schemas.resolve(schemas.resolve(op.requestBody ?? {}).content?.['application/x-www-form-urlencoded']?.schema
      ?? schemas.resolve(op.requestBody ?? {}).content?.['application/json']?.schema ?? {});
    const parameters = ((op.parameters ?? []) as Schema[]).map((parameter) => schemas.resolve(parameter));
    const required = [...new Set([
      ...parameters.filter((parameter) => parameter.required === true && parameter.in !== 'header').map((parameter) => String(parameter.name)),
      ...((body.required ?? []) as string[]),
    ])].filter((name) => name !== 'token');
    operations.push({ id: template.replace(/^\//, ''), method: 'POST', template: base + template, kind: 'action', collection: null, status, response, request: body, required });
  }
  const byPath = new Map(operations.map((op) => [op.template, op]));
  const build = new Builder(schemas);
  const state = new MethodState(operations, schemas, build, options.spec, options.objects ?? {});
  return {
    operations,
    operationNames: () => operations.map((op) => op.id),
    operation: (req) => byPath.get(req.path)?.id ?? null,
    handle(req, name, context, ctx) {
      const op = byPath.get(req.path);
      if (!op || op.id !== name) throw options.notFound('operation', req.path, context);
      const args: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(queryObject(req))) args[key] = Array.isArray(value) ? value[0] : value;
      Object.assign(args, bodyOf(req, (message) => options.malformed?.(message, context)));
      for (const param of options.invalid ? op.required ?? [] : []) {
        if (args[param] === undefined || args[param] === '') throw options.invalid!(param, `missing required field: ${param}`, context);
      }
      const sample = options.sample && ((schema: Schema, field: string) => options.sample!(schema, field, context, ctx));
      const at: At = { id: '', nowMs: ctx.nowMs, ...(sample ? { sample } : {}) };
      const stateful = options.stateful ? state.answer(op, args, at, ctx, (code) => {
        if (code && options.missing) return options.missing(code, context);
        return options.invalid ? options.invalid('id', 'no such object', context) : options.notFound('object', op.id, context);
      }) : undefined;
      if (stateful !== undefined) return jsonResponse(op.status, stateful);
      return jsonResponse(op.status, op.response ? build.document(op.response, args, at) : {});
    },
    seed(records) {
      if (Object.keys(records).length > 0) throw new Error('spec seed: the method style keeps no collections (write handlers for stateful methods)');
    },
  };
}

const CREATE = ['create', 'add'];
const READ = ['info', 'get'];
const UPDATE = ['update', 'edit', 'rename'];
const REMOVE = ['delete', 'remove', 'disable', 'end'];
/** Fields that mark an object disabled or ended instead of removing it (Slack's usergroup `date_delete`). */
const MARKS: Record<string, readonly string[]> = { disable: ['date_delete', 'is_disabled', 'disabled'], end: ['date_end', 'is_ended', 'ended'] };

/** A stateful family of methods: `usergroups.*` keeps `usergroup` objects. */
interface Family {
  readonly field: string;
  readonly schema: Schema;
  readonly notFound: string | null;
  readonly list?: string;
}

/**
 * The `method` style's state, by Slack's naming convention: for `<prefix>.<verb>` whose
 * `create`/`add` answers an object with an `id` (the success schema's main object field),
 * `create`/`add` stores it in `spec:<prefix>`, `list` adds the stored ones to its array field,
 * `info`/`get` find it by the id argument, `update`/`edit`/`rename` merge the arguments into it,
 * `delete`/`remove` drop it and `disable`/`end` mark it where it has such a field (`enable`
 * clears the mark; a list leaves disabled ones out unless `include_disabled`). An unknown
 * id is the family's `*_not_found` error when its error schema lists one.
 */
class MethodState {
  private readonly families = new Map<string, Family>();

  constructor(operations: readonly SpecOperation[], private readonly schemas: SchemaSet, private readonly build: Builder, spec: OpenApiDocument,
    objects: Readonly<Record<string, { field: string; schema: Schema; list: string }>>) {
    for (const op of operations) {
      const { prefix, verb } = splitMethod(op.id);
      if (!CREATE.includes(verb) || !op.response) continue;
      const field = this.objectField(op.response);
      const given = objects[prefix];
      if (!field && !given) continue;
      const errors = operations.filter((other) => splitMethod(other.id).prefix === prefix).flatMap((other) => errorCodes(spec, other.id, schemas));
      const notFound = errors.find((code) => code.endsWith('_not_found')) ?? null;
      this.families.set(prefix, field ? { field, schema: this.schemas.resolve(op.response).properties[field], notFound } : { ...given!, notFound });
    }
  }

  /** The answer when the method is one of a stateful family's, else undefined. */
  answer(op: SpecOperation, args: Record<string, unknown>, at: At, ctx: ServiceContext, missing: (code: string | null) => ServiceError): unknown {
    const { prefix, verb } = splitMethod(op.id);
    const family = this.families.get(prefix);
    if (!family || !op.response) return undefined;
    const store = ctx.store.collection<Record<string, unknown>>(`spec:${prefix}`);
    const respond = (object: Record<string, unknown>) => {
      const out = this.build.document(op.response!, { ...args, [family.field]: object }, at);
      const resolved = this.schemas.resolve(op.response!);
      if (family.field in (resolved.properties ?? {}) || resolved.additionalProperties !== false) out[family.field] = object;
      return out;
    };
    if (CREATE.includes(verb)) {
      // The id is filled even where the object schema leaves it optional (Slack's `objs_file`).
      const schema = this.schemas.resolve(family.schema);
      const object = this.build.document({ ...schema, required: [...new Set([...((schema.required ?? []) as string[]), 'id'])] }, args, at);
      if (typeof object.id !== 'string' || object.id === '') object.id = String(numericId(ctx, `spec:${prefix}`));
      store.put(object.id as string, object);
      return respond(object);
    }
    if (verb === 'list') {
      const out = this.build.document(op.response, args, at);
      const field = family.list ?? this.listField(op.response, prefix);
      if (!field) return undefined;
      const shown = store.entries().map(([, object]) => object)
        .filter((object) => args.include_disabled === true || args.include_disabled === 'true' || !MARKS.disable!.some((mark) => object[mark]));
      out[field] = [...((out[field] as unknown[] | undefined) ?? []), ...shown];
      return out;
    }
    if (![...READ, ...UPDATE, ...REMOVE, 'enable'].includes(verb)) return undefined;
    const found = this.find(family, args, store.entries());
    if (found === null) return undefined;
    const [key, object, idArg] = found;
    if (object === undefined) throw missing(family.notFound);
    if (READ.includes(verb)) return respond(object);
    if (UPDATE.includes(verb)) {
      const { [idArg]: _id, ...changes } = args;
      const updated = this.build.merge(family.schema, object, changes);
      store.put(key, updated);
      return respond(updated);
    }
    const properties = (this.schemas.resolve(family.schema).properties ?? {}) as Record<string, Schema>;
    if (verb === 'enable') {
      // Undoes `disable`: the marks back to their unset values.
      const enabled = { ...object };
      for (const mark of MARKS.disable!.filter((name) => name in properties)) enabled[mark] = this.schemas.resolve(properties[mark]!).type === 'boolean' ? false : 0;
      store.put(key, enabled);
      return respond(enabled);
    }
    const marks = (MARKS[verb] ?? []).filter((mark) => mark in properties);
    if (marks.length === 0) {
      store.delete(key);
      return respond(object);
    }
    const marked = { ...object };
    for (const mark of marks) marked[mark] = this.schemas.resolve(properties[mark]!).type === 'boolean' ? true : Math.floor(at.nowMs / 1000);
    store.put(key, marked);
    return respond(marked);
  }

  /** The object an id argument names: `[key, object or undefined, argument]`, or null without one. */
  private find(family: Family, args: Record<string, unknown>, entries: readonly [string, Record<string, unknown>][]): [string, Record<string, unknown> | undefined, string] | null {
    const named = [`${family.field}_id`, family.field, 'id'].find((name) => typeof args[name] === 'string' && args[name] !== '');
    if (named) {
      const id = args[named] as string;
      return [id, entries.find(([key]) => key === id)?.[1], named];
    }
    // Another id the object carries (`files.remote.info`'s `external_id`).
    const other = Object.keys(args).find((name) => name.endsWith('id') && typeof args[name] === 'string' && name in ((this.schemas.resolve(family.schema).properties ?? {}) as Schema));
    if (!other) return null;
    const hit = entries.find(([, object]) => object[other] === args[other]);
    return [hit?.[0] ?? '', hit?.[1], other];
  }

  /** The success schema's field holding an object with an `id` (required ones first). */
  private objectField(response: Schema): string | null {
    const resolved = this.schemas.resolve(response);
    const properties = (resolved.properties ?? {}) as Record<string, Schema>;
    const names = [...new Set([...((resolved.required ?? []) as string[]), ...Object.keys(properties)])];
    return names.find((name) => name !== 'ok' && properties[name] && this.schemas.resolve(properties[name]!).properties?.id) ?? null;
  }

  /** A list's array field: the one named after the family (`usergroups`), else the first. */
  private listField(response: Schema, prefix: string): string | null {
    const resolved = this.schemas.resolve(response);
    const last = prefix.split('.').at(-1)!;
    const properties = (resolved.properties ?? {}) as Record<string, Schema>;
    if (properties[last] && this.schemas.resolve(properties[last]!).type === 'array') return last;
    return listProperty(resolved, this.schemas);
  }
}

function splitMethod(id: string): { prefix: string; verb: string } {
  const dot = id.lastIndexOf('.');
  return { prefix: id.slice(0, dot), verb: id.slice(dot + 1) };
}

/** The `error` enum of a method's error schema (its `default` response). */
function errorCodes(spec: OpenApiDocument, id: string, schemas: SchemaSet): string[] {
  const item = spec.paths[`/${id}`] ?? {};
  const op = METHODS.map((method) => item[method]).find(Boolean);
  const schema = schemas.resolve(schemas.resolve(op?.responses?.default ?? {}).content?.['application/json']?.schema ?? {});
  const error = schemas.resolve(schema.properties?.error ?? {});
  return Array.isArray(error.enum) ? error.enum.filter((code: unknown): code is string => typeof code === 'string') : [];
}

/** The one path a `pattern` such as `^/v1/financial_connections/accounts` allows, or null. */
export function pinnedPath(pattern: unknown): string | null {
  return typeof pattern === 'string' && /^\^\/[\w/:.-]*$/.test(pattern) ? pattern.slice(1) : null;
}

function isResponse(value: unknown): value is ServiceResponse {
  return typeof value === 'object' && value !== null && 'status' in value && 'body' in value && (value as ServiceResponse).body instanceof Uint8Array;
}

function bodyOf(req: ServiceRequest, malformed: (message: string) => ServiceError | undefined): Record<string, unknown> {
  if (req.body.length === 0) return {};
  let decoded;
  try {
    decoded = decodeBody(req.headers, req.body);
  } catch (error) {
    if (!(error instanceof BodyParseError)) throw error;
    const refusal = malformed(error.message);
    if (refusal) throw refusal;
    return {};
  }
  return decoded.value && typeof decoded.value === 'object' && !Array.isArray(decoded.value) ? decoded.value as Record<string, unknown> : {};
}

function paramCount(template: string): number {
  return template.split('/').filter(isParam).length;
}

function toPattern(template: string): string {
  return template.split('/').map((segment) => (isParam(segment) ? `:${segment.slice(1, -1)}` : segment)).join('/');
}

function lastParam(template: string): string {
  return template.split('/').at(-1)!.slice(1, -1);
}

function resourceOf(op: SpecOperation, schemas: SchemaSet): string {
  const name = op.response ? objectName(op.response, schemas) : null;
  return name ?? op.collection?.split('/').filter((s) => !isParam(s)).at(-1) ?? op.template;
}

/** The schema's `object` enum value (Stripe's `tax_rate`), or its title. */
function objectName(schema: Schema, schemas: SchemaSet): string | null {
  const resolved = schemas.resolve(schema);
  const object = schemas.resolve(resolved.properties?.object ?? {});
  if (Array.isArray(object.enum) && typeof object.enum[0] === 'string') return object.enum[0];
  return typeof resolved.title === 'string' ? resolved.title : null;
}

function sameSchema(a: Schema, b: Schema | null, schemas: SchemaSet): boolean {
  if (!b) return false;
  if (a.$ref && b.$ref) return a.$ref === b.$ref;
  return schemas.resolve(a) === schemas.resolve(b);
}

/** Sorts the spec's operations into creates, lists, reads, updates, deletes and actions. */
function classify(spec: OpenApiDocument, schemas: SchemaSet): SpecOperation[] {
  const templates = new Set(Object.keys(spec.paths));
  const hasItem = (collection: string) => [...templates].some((t) => t.startsWith(`${collection}/{`) && !t.slice(collection.length + 1).includes('/'));
  const out: SpecOperation[] = [];
  for (const [template, item] of Object.entries(spec.paths)) {
    const segments = template.split('/');
    const last = segments.at(-1) ?? '';
    const parent = segments.slice(0, -1).join('/');
    for (const method of METHODS) {
      const op = item[method];
      if (!op || typeof op.operationId !== 'string') continue;
      const [status, response] = successResponse(op, schemas);
      const requestSchema = requestSchemaOf(op);
      let kind: SpecKind;
      let collection: string | null = null;
      if (isParam(last)) {
        kind = method === 'get' ? 'read' : method === 'delete' ? 'delete' : 'update';
        collection = parent;
      } else if (method === 'get' && response && isListSchema(response, schemas)) {
        kind = 'list';
        collection = hasItem(template) ? template : hasItem(parent) ? parent : template;
      } else if (method === 'post' && hasItem(template)) {
        kind = 'create';
        collection = template;
      } else {
        kind = 'action';
        // `POST /v1/refunds/{refund}/cancel`: an action on an item of `/v1/refunds`.
        const itemParent = segments.slice(0, -2).join('/');
        collection = isParam(segments.at(-2) ?? '') && hasItem(itemParent) ? itemParent : null;
      }
      out.push({ id: op.operationId, method: method.toUpperCase(), template, kind, collection, status, response, request: requestSchema });
    }
  }
  return out;
}

function successResponse(op: Schema, schemas: SchemaSet): [number, Schema | null] {
  const codes = Object.keys(op.responses ?? {}).filter((code) => /^2\d\d$/.test(code)).sort();
  const code = codes[0] ?? '200';
  const response = schemas.resolve(op.responses?.[code] ?? {});
  const content = response.content ?? {};
  const json = content['application/json'] ?? Object.entries(content).find(([type]) => type.includes('json'))?.[1];
  return [Number(code), json?.schema ?? null];
}

function requestSchemaOf(op: Schema): Schema | null {
  const content = op.requestBody?.content ?? {};
  const first = content['application/json'] ?? content['application/x-www-form-urlencoded'] ?? Object.values(content)[0];
  return (first as Schema | undefined)?.schema ?? null;
}

/** A list envelope: an array, or an object whose first required array property holds the items. */
function isListSchema(schema: Schema, schemas: SchemaSet): boolean {
  const resolved = schemas.resolve(schema);
  // An object with an array and no `id` is an envelope; one with an `id` (a dispute's
  // `balance_transactions`) is a document.
  return resolved.type === 'array' || (listProperty(resolved, schemas) !== null && !resolved.properties?.id);
}

function listProperty(schema: Schema, schemas: SchemaSet): string | null {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const names = [...new Set([...((schema.required ?? []) as string[]), ...Object.keys(properties)])];
  return names.find((name) => properties[name] && schemas.resolve(properties[name]!).type === 'array') ?? null;
}

/** `$ref`s within the one document. */
class SchemaSet {
  constructor(private readonly spec: OpenApiDocument) {}

  resolve(schema: Schema): Schema {
    let current = schema;
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 32; hops++) {
      const path = (current.$ref as string).replace(/^#\//, '').split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
      let target: any = this.spec;
      for (const part of path) target = target?.[part];
      if (target === undefined) throw new Error(`spec: unresolved $ref ${current.$ref}`);
      current = target;
    }
    return current;
  }
}

/** What a built document's defaults come from: its ID, the logical time, the service's samples. */
interface At {
  id: string;
  nowMs: number;
  sample?: (schema: Schema, name: string) => unknown;
}

/** Builds documents from a schema and a request body, deterministically. */
class Builder {
  constructor(private readonly schemas: SchemaSet) {}

  /** A document of `schema`: the body's values where they fit, every required field filled. */
  document(schema: Schema, body: Record<string, unknown>, at: At): Record<string, unknown> {
    const value = this.fill(schema, body, 'document', 0, at);
    return (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  }

  /** `doc` with the body's values for the schema's properties (maps merged, `''` removes a key). */
  merge(schema: Schema, doc: Record<string, unknown>, body: Record<string, unknown>): Record<string, unknown> {
    const resolved = this.object(schema);
    const properties = (resolved?.properties ?? {}) as Record<string, Schema>;
    const out: Record<string, unknown> = { ...doc };
    for (const [name, value] of Object.entries(body)) {
      if (name === 'id' || !(name in properties)) continue;
      const property = this.schemas.resolve(properties[name]!);
      if (value === '' && property.nullable) {
        out[name] = null;
        continue;
      }
      if (isMap(property) && value && typeof value === 'object' && !Array.isArray(value)) {
        const merged: Record<string, unknown> = { ...(out[name] as Record<string, unknown> | null ?? {}) };
        for (const [key, item] of Object.entries(value)) {
          if (item === '') delete merged[key];
          else merged[key] = item;
        }
        out[name] = merged;
        continue;
      }
      const coerced = this.coerce(properties[name]!, value);
      if (coerced !== undefined) out[name] = coerced;
    }
    return out;
  }

  /** The list envelope of `schema` around `items`. */
  list(schema: Schema, items: readonly unknown[], url: string, nowMs: number): unknown {
    const resolved = this.schemas.resolve(schema);
    if (resolved.type === 'array') return [...items];
    const property = listProperty(resolved, this.schemas);
    const out = this.fill(resolved, { ...(property ? { [property]: [] } : {}) }, 'list', 0, { id: '', nowMs }) as Record<string, unknown>;
    if (property) out[property] = [...items];
    if ('url' in out && typeof out.url === 'string') out.url = url;
    return out;
  }

  private object(schema: Schema): Schema | null {
    const resolved = this.schemas.resolve(schema);
    if (resolved.properties) return resolved;
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const options = resolved[key] as Schema[] | undefined;
      const found = options?.map((option) => this.schemas.resolve(option)).find((option) => option.properties);
      if (found) return key === 'allOf' ? { ...found, properties: Object.assign({}, ...options!.map((o) => this.schemas.resolve(o).properties ?? {})), required: options!.flatMap((o) => this.schemas.resolve(o).required ?? []) } : found;
    }
    return null;
  }

  /** The body's value for `schema` when it fits, else a default; `name` guides IDs and timestamps. */
  private fill(schema: Schema, given: unknown, name: string, depth: number, at: At): unknown {
    if (given !== undefined) {
      const coerced = this.coerce(schema, given, depth, at);
      if (coerced !== undefined) return coerced;
    }
    return this.defaultFor(schema, name, depth, at);
  }

  private defaultFor(schema: Schema, name: string, depth: number, at: At): unknown {
    const resolved = this.schemas.resolve(schema);
    if (resolved.nullable === true && name !== 'document' && name !== 'list') return null;
    if ('default' in resolved) return resolved.default;
    if (Array.isArray(resolved.enum) && resolved.enum.length > 0) return resolved.enum[0];
    const options = (resolved.anyOf ?? resolved.oneOf) as Schema[] | undefined;
    if (options && !resolved.properties) {
      if (options.some((o) => this.schemas.resolve(o).nullable)) return null;
      return this.defaultFor(options[0]!, name, depth, at);
    }
    const object = this.object(resolved);
    if (object) {
      if (depth > 8) return {};
      const out: Record<string, unknown> = {};
      const required = new Set((object.required ?? []) as string[]);
      for (const [key, property] of Object.entries(object.properties as Record<string, Schema>)) {
        if (!required.has(key)) continue;
        out[key] = key === 'id' && depth === 0 && at.id !== '' ? at.id : this.defaultFor(property, key, depth + 1, at);
      }
      return out;
    }
    if (resolved.type === 'string' && at.sample) {
      const sampled = at.sample(resolved, name);
      if (sampled !== undefined) return sampled;
    }
    switch (resolved.type) {
      case 'array': return [];
      case 'object': return {};
      case 'boolean': return false;
      case 'integer':
      case 'number':
        if (resolved.format === 'unix-time' || /^(created|updated)(_at)?$/.test(name)) return Math.floor(at.nowMs / 1000);
        return typeof resolved.minimum === 'number' ? Math.max(0, resolved.minimum) : 0;
      case 'string':
        if (resolved.format === 'date-time') return new Date(at.nowMs).toISOString();
        if (resolved.format === 'date') return new Date(at.nowMs).toISOString().slice(0, 10);
        if (resolved.format === 'currency' || name === 'currency') return 'usd';
        // A fixed value the spec pins by pattern (a list's `url`: `^/v1/financial_connections/accounts`).
        const pinned = pinnedPath(resolved.pattern);
        if (pinned !== null) return pinned;
        return '';
      default:
        return null;
    }
  }

  /** `value` as `schema` wants it (form bodies send strings), or undefined when it does not fit. */
  private coerce(schema: Schema, value: unknown, depth = 0, at: At = { id: '', nowMs: 0 }): unknown {
    const resolved = this.schemas.resolve(schema);
    if (value === null) return resolved.nullable ? null : undefined;
    if (value === '' && resolved.nullable && resolved.type !== 'string') return null;
    const options = (resolved.anyOf ?? resolved.oneOf) as Schema[] | undefined;
    if (options && !resolved.properties) {
      for (const option of options) {
        const coerced = this.coerce(option, value, depth, at);
        if (coerced !== undefined) return coerced;
      }
      return undefined;
    }
    if (Array.isArray(resolved.enum) && !resolved.enum.includes(value)) {
      const asBool = value === 'true' ? true : value === 'false' ? false : value;
      return resolved.enum.includes(asBool) ? asBool : undefined;
    }
    const object = this.object(resolved);
    if (object && !isMap(object)) {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
      const source = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      const required = new Set((object.required ?? []) as string[]);
      for (const [key, property] of Object.entries(object.properties as Record<string, Schema>)) {
        if (key in source) {
          const coerced = this.coerce(property, source[key], depth + 1, at);
          if (coerced !== undefined) {
            out[key] = coerced;
            continue;
          }
        }
        if (required.has(key)) out[key] = key === 'id' && depth === 0 && at.id !== '' ? at.id : this.defaultFor(property, key, depth + 1, at);
      }
      return out;
    }
    switch (resolved.type) {
      case 'integer':
      case 'number': {
        const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
        if (!Number.isFinite(n) || (resolved.type === 'integer' && !Number.isInteger(n))) return undefined;
        return n;
      }
      case 'boolean':
        return typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : undefined;
      case 'string': {
        const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
        // A value the schema's pattern refuses (a name where an ID belongs) is not used.
        return text !== undefined && typeof resolved.pattern === 'string' && !new RegExp(resolved.pattern).test(text) ? undefined : text;
      }
      case 'array': {
        const list = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : undefined;
        if (!list) return undefined;
        const items = list.map((item) => this.coerce(resolved.items ?? {}, item, depth + 1, at));
        return items.some((item) => item === undefined) ? undefined : items;
      }
      case 'object':
        return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
      default:
        return value;
    }
  }
}

function isMap(schema: Schema): boolean {
  return !schema.properties && (schema.additionalProperties !== undefined || schema.type === 'object');
}
