import { z } from 'zod';
import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { Collection } from '../core/store.js';
import type { ServiceContext } from '../core/service.js';
import { basic, bearer, readCredential } from '../kit/auth.js';
import { parseNestedForm } from '../kit/bodies.js';
import { stripeError, stripeParamError } from '../kit/envelopes/stripe.js';
import { startingAfterPage } from '../kit/pagination/starting-after.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { dbOf, type Account, type Db, type Maker, type StripeObject } from './model.js';

/** What a Stripe handler gets: the store's collections, seeded IDs, the time, the account. */
export interface StripeCtx extends Maker {
  ctx: ServiceContext;
  /** The secret key the request authenticated with (set by the auth middleware's check). */
  key: string | null;
}

export function stripeContext(req: ServiceRequest, ctx: ServiceContext): StripeCtx {
  const db = dbOf(ctx.store);
  const account: Account = db.account.get('account') ?? { id: 'acct_1ToolbenchTest00', api_keys: [], api_version: '2025-02-24.acacia' };
  return { ctx, db, ids: ctx, now: Math.floor(ctx.nowMs / 1000), account, key: apiKeyOf(req) };
}

/** Stripe takes its secret key as a bearer token or as the user name of basic auth (`curl -u sk_test_…:`). */
const KEY_STYLES = [bearer(), basic('user')];

/** The key the request presents; '' for an Authorization header that carries none (an invalid key). */
export function apiKeyOf(req: ServiceRequest): string | null {
  const presented = readCredential(req, KEY_STYLES);
  return presented.kind === 'credential' ? presented.secret : presented.kind === 'malformed' ? '' : null;
}

// Form values arrive as strings: numbers and booleans are read the way Stripe reads them.
export const int = z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v), z.number().int());
export const decimal = z.preprocess((v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v), z.number());
export const bool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());
/** `metadata[k]=v`; `metadata=` (empty) clears it. */
export const metadata = z.union([z.record(z.string()), z.literal('')]).optional();
export const expand = z.array(z.string()).optional();
export const currency = z.string().regex(/^[A-Za-z]{3}$/).transform((c) => c.toLowerCase());

export function mergeMetadata(old: Record<string, string> | undefined, patch: Record<string, string> | '' | undefined): Record<string, string> {
  if (patch === undefined) return old ?? {};
  if (patch === '') return {};
  const out = { ...(old ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === '') delete out[key];
    else out[key] = value;
  }
  return out;
}

/** The list parameters every list takes, and the filters of this one; unknown ones are Stripe's parameter_unknown. */
export function listQuery<S extends z.ZodRawShape>(filters: S) {
  return z.object({ limit: int.optional(), starting_after: z.string().optional(), ending_before: z.string().optional(), expand, ...filters }).strict();
}

/** The query string decoded as Stripe reads it (`expand[]=a&created[gte]=1` nests), then checked. */
export function parseQuery<T extends z.ZodTypeAny>(req: ServiceRequest, schema: T): z.infer<T> {
  const q = req.target.indexOf('?');
  const raw = q === -1 ? {} : parseNestedForm(req.target.slice(q + 1));
  const result = schema.safeParse(raw);
  if (!result.success) throw stripeParamError(result.error.issues[0]!);
  return result.data;
}

/** A list in Stripe's order (newest first; insertion order breaks ties) as one page. */
export function listPage<T extends StripeObject>(c: StripeCtx, items: readonly T[], query: { limit?: number; starting_after?: string; ending_before?: string; expand?: string[] }, url: string): ServiceResponse {
  const ordered = items.map((item, i) => [item, i] as const).sort((a, b) => b[0].created - a[0].created || b[1] - a[1]).map(([item]) => item);
  const page = startingAfterPage(ordered, query, { url, id: (item) => item.id });
  return ok(c, page, query.expand);
}

/** 200 with `value`, its `expand` paths expanded. */
export function ok(c: StripeCtx, value: unknown, expandPaths: readonly string[] | undefined): ServiceResponse {
  return jsonResponse(200, expandPaths?.length ? expandAll(c, value, expandPaths) : value);
}

const BY_PREFIX: [string, keyof Db][] = [
  ['cus_', 'customers'], ['prod_', 'products'], ['price_', 'prices'], ['pi_', 'payment_intents'], ['ch_', 'charges'],
  ['re_', 'refunds'], ['in_', 'invoices'], ['ii_', 'invoiceitems'], ['sub_', 'subscriptions'], ['dp_', 'disputes'], ['plink_', 'payment_links'],
];

/** The stored object an ID names, by its prefix (for `expand[]`). */
function lookup(c: StripeCtx, id: string): StripeObject | undefined {
  const entry = BY_PREFIX.find(([prefix]) => id.startsWith(prefix));
  return entry ? (c.db[entry[1]] as Collection<StripeObject>).get(id) : undefined;
}

/** Expands `customer`, `data.customer`, `latest_charge.customer`… up to four levels, as Stripe allows. */
function expandAll(c: StripeCtx, value: unknown, paths: readonly string[]): unknown {
  let out = structuredClone(value);
  for (const path of paths) {
    const parts = path.split('.');
    if (parts.length > 4) throw stripeError(400, 'invalid_request_error', '', `You cannot expand more than 4 levels of a property. Property: ${path}`, 'expand');
    out = expandPath(c, out, parts, path);
  }
  return out;
}

function expandPath(c: StripeCtx, value: unknown, parts: string[], whole: string): unknown {
  if (value === null || typeof value !== 'object') return value;
  const [head, ...rest] = parts as [string, ...string[]];
  if (Array.isArray(value)) return value.map((v) => expandPath(c, v, parts, whole));
  const record = value as Record<string, unknown>;
  if (!(head in record)) throw stripeError(400, 'invalid_request_error', '', `This property cannot be expanded (${whole}).`, 'expand');
  let field = record[head];
  if (typeof field === 'string') {
    const found = lookup(c, field);
    if (!found) throw stripeError(400, 'invalid_request_error', '', `This property cannot be expanded (${whole}).`, 'expand');
    field = structuredClone(found);
  }
  return { ...record, [head]: rest.length ? expandPath(c, field, rest, whole) : field };
}

/**
 * `GET /v1/<things>/:id`: the stored object, `expand[]` applied, or Stripe's 404. The path's last
 * parameter is the ID.
 */
export function retrieveOperation(name: string, pattern: string, kind: string, collection: (db: Db) => Collection<StripeObject>): Operation<StripeCtx> {
  const param = pattern.slice(pattern.lastIndexOf(':') + 1);
  return operation(name, rest('GET', pattern), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, z.object({ expand }).strict());
    const id = (call.params as Record<string, string>)[param]!;
    return ok(c, collection(c.db).get(id) ?? noSuch(kind, id), query.expand);
  });
}

/** A list filter: every given query field equals the object's field of the same name. */
export function matching<T extends object>(query: Partial<Record<string, unknown>>, fields: readonly (keyof T & string)[]): (item: T) => boolean {
  return (item) => fields.every((field) => query[field] === undefined || (item as Record<string, unknown>)[field] === query[field]);
}

/** Stripe's 404 for an unknown ID in the path (Stripe names the parameter `id` whatever the path calls it). */
export function noSuch(kind: string, id: string, param = 'id'): never {
  throw stripeError(404, 'invalid_request_error', 'resource_missing', `No such ${kind}: '${id}'`, param);
}

/** Stripe's 400 for an unknown ID in a parameter. */
export function noSuchParam(kind: string, id: string, param: string): never {
  throw stripeError(400, 'invalid_request_error', 'resource_missing', `No such ${kind}: '${id}'`, param);
}
