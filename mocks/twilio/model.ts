import { createHash } from 'node:crypto';
import { jsonResponse, type ServiceResponse } from '../core/http.js';
import type { LoadContext } from '../core/service.js';
import type { Collection, DocumentStore } from '../core/store.js';
import { ServiceError } from '../kit/errors.js';

/** A Twilio resource as the API answers it (snake_case JSON). */
export type TwilioDoc = Record<string, unknown> & { sid: string };

/** An API key (`SK…`) and its secret, of one account. */
export interface ApiKey {
  sid: string;
  secret: string;
  account_sid: string;
  friendly_name: string;
}

/** The store's collections; graders name them (`messages`, `calls`, `incoming_phone_numbers`, `accounts`). */
export interface Db {
  accounts: Collection<TwilioDoc>;
  keys: Collection<ApiKey>;
  messages: Collection<TwilioDoc>;
  calls: Collection<TwilioDoc>;
  incoming_phone_numbers: Collection<TwilioDoc>;
}

export function dbOf(store: DocumentStore): Db {
  return {
    accounts: store.collection('accounts'),
    keys: store.collection('keys'),
    messages: store.collection('messages'),
    calls: store.collection('calls'),
    incoming_phone_numbers: store.collection('incoming_phone_numbers'),
  };
}

export const API = '/2010-04-01';
export const HEX_SID = /^[A-Z]{2}[0-9a-f]{32}$/;

/** A Twilio SID: two letters and 32 lower-case hex digits, seeded (same seed, same SIDs). */
export function twilioSid(ctx: Pick<LoadContext, 'ids'>, prefix: string): string {
  const n = ctx.ids.next(`twilio:${prefix}`);
  return prefix + createHash('sha256').update(`${ctx.ids.seed}/${ctx.ids.service}/sid:${prefix}/${n}`).digest('hex').slice(0, 32);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Twilio's RFC 2822 timestamps in GMT: `Tue, 01 Dec 2026 02:16:11 +0000`. */
export function rfc2822(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

/** The instant of an RFC 2822 (or ISO) timestamp, in ms; NaN when it is none. */
export function parseTime(value: unknown): number {
  return typeof value === 'string' ? Date.parse(value) : NaN;
}

/**
 * Twilio's JSON error body `{code, message, more_info, status}` (401s add `detail`); `code` is
 * Twilio's numeric error code (20404, 21211, 20429…), carried as the ServiceError's code.
 */
export function twilioError(status: number, code: number, message: string, headers: [string, string][] = [], detail?: string): ServiceError {
  return new ServiceError(status, String(code), message, detail === undefined ? {} : { detail }, headers);
}

export function twilioErrors(error: ServiceError): ServiceResponse {
  const code = /^\d+$/.test(error.code) ? Number(error.code) : error.status === 404 ? 20404 : error.status >= 500 ? 20500 : 20001;
  const detail = error.details.detail;
  return jsonResponse(error.status, {
    code,
    ...(typeof detail === 'string' ? { detail } : {}),
    message: error.message,
    more_info: `https://www.twilio.com/docs/errors/${code}`,
    status: error.status,
  }, [...error.headers]);
}

/** 20404, as Twilio words it: the path of the resource (with `.json`) that is not there. */
export function notFound(path: string): ServiceError {
  return twilioError(404, 20404, `The requested resource ${path} was not found`);
}

/** Twilio's 400 for a required parameter the request lacks (21xxx codes where Twilio has a specific one). */
export function missingParam(name: string, code = 20001): ServiceError {
  return twilioError(400, code, `Missing required parameter ${name} in the post body`);
}

/** The `uri` of a resource: the API path with `.json`. */
export function uriOf(...parts: string[]): string {
  return `${API}/${parts.join('/')}.json`;
}

/** E.164: `+` and 8 to 15 digits (channel addresses such as `whatsapp:+1…` carry one after the colon). */
export function isE164(value: string): boolean {
  return /^(?:[a-z]+:)?\+[1-9]\d{7,14}$/.test(value);
}

/** `+14155550123` → `(415) 555-0123` for North American numbers, as Twilio formats them. */
export function formatNumber(value: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(value);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : value;
}

/**
 * One page of a Twilio list: `PageSize` (default 50, at most 1000), `Page` and `PageToken`
 * (`PA` + the SID of the last item of the previous page, which wins over `Page`), and the
 * envelope's `first_page_uri`, `next_page_uri`, `previous_page_uri`, `start`, `end`, `uri`.
 */
export function listPage(items: readonly TwilioDoc[], key: string, path: string, query: Record<string, string | string[] | undefined>, filters: Record<string, string>): ServiceResponse {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const sizeText = one(query.PageSize);
  const pageText = one(query.Page);
  const pageSize = sizeText === undefined ? 50 : Number(sizeText);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw twilioError(400, 20001, `Invalid PageSize: ${sizeText ?? ''}. PageSize must be between 1 and 1000`);
  const page = pageText === undefined ? 0 : Number(pageText);
  if (!Number.isInteger(page) || page < 0) throw twilioError(400, 20001, `Invalid Page: ${pageText ?? ''}`);
  const token = one(query.PageToken);
  let start = page * pageSize;
  if (token !== undefined && token !== '') {
    const after = items.findIndex((item) => `PA${item.sid}` === token);
    if (after === -1) throw twilioError(400, 20001, `Invalid PageToken: ${token}`);
    start = after + 1;
  }
  const slice = items.slice(start, start + pageSize);
  const base = `${path}.json`;
  const params = (extra: Record<string, string>) => new URLSearchParams({ ...filters, PageSize: String(pageSize), ...extra }).toString();
  const more = start + pageSize < items.length;
  const last = slice.at(-1);
  return jsonResponse(200, {
    [key]: slice,
    end: Math.max(start, start + slice.length - 1),
    first_page_uri: `${base}?${params({ Page: '0' })}`,
    next_page_uri: more && last ? `${base}?${params({ Page: String(page + 1), PageToken: `PA${last.sid}` })}` : null,
    page,
    page_size: pageSize,
    previous_page_uri: page > 0 ? `${base}?${params({ Page: String(page - 1) })}` : null,
    start,
    uri: `${base}?${params({ Page: String(page) })}`,
  });
}

/** Newest first by `date_created`, the order Twilio lists in; ties by insertion, newest first. */
export function newestFirst<T extends TwilioDoc>(items: readonly T[]): T[] {
  return items.map((item, i) => [item, i] as const)
    .sort((a, b) => (parseTime(b[0].date_created) - parseTime(a[0].date_created)) || b[1] - a[1])
    .map(([item]) => item);
}

/** The query's first value of `name`. */
export function first(query: Record<string, string | string[]>, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A boolean form value as Twilio reads it (`true`/`True`). */
export function formBool(value: unknown): boolean | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

/** The path parameters of an item route (`/Accounts/:AccountSid/Messages/:Sid`). */
export type ItemParams = { AccountSid: string; Sid?: string };

/** The account's item a path names (`resource`: `Messages`, `Calls`…), or Twilio's 404 naming the path. */
export function itemOf(collection: Collection<TwilioDoc>, params: ItemParams, resource: string): TwilioDoc {
  const found = collection.get(params.Sid!);
  if (!found || found.account_sid !== params.AccountSid) throw notFound(uriOf('Accounts', params.AccountSid, resource, params.Sid!));
  return found;
}

/** A date filter's instant: a day (`2026-11-30`: its midnight UTC) or a timestamp; NaN when it is none. */
export function filterTime(value: string): number {
  return Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
}
