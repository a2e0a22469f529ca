import { jsonResponse, type ServiceResponse } from '../core/http.js';
import type { Collection, DocumentStore } from '../core/store.js';
import type { LoadContext } from '../core/service.js';
import { ServiceError } from '../kit/errors.js';
import { slackStyleId } from '../kit/ids.js';
import { offsetPage } from '../kit/pagination/offset.js';

/**
 * The store's documents, kept in PagerDuty's own representations (an incident is the object
 * `GET /incidents/{id}` answers), so handlers render by picking, not by translating.
 */
export const API = 'https://api.pagerduty.com';
export const WEB = 'https://northwind.pagerduty.com';

export type Doc = Record<string, unknown> & { id: string };
export interface Ref { id: string; type: string; summary: string; self: string; html_url: string | null }
export interface TokenDoc { token: string; user_id: string | null }
export interface NoteDoc { id: string; incident_id: string; seq: number; user: Ref; channel: { summary: string }; content: string; created_at: string }
export interface LogEntryDoc extends Doc { seq: number; incident_id: string | null }

export interface Db {
  tokens: Collection<TokenDoc>;
  users: Collection<Doc>;
  teams: Collection<Doc>;
  services: Collection<Doc>;
  escalation_policies: Collection<Doc>;
  schedules: Collection<Doc>;
  priorities: Collection<Doc>;
  incidents: Collection<Doc>;
  notes: Collection<NoteDoc>;
  alerts: Collection<Doc & { incident_id: string }>;
  log_entries: Collection<LogEntryDoc>;
  overrides: Collection<Doc & { schedule_id: string }>;
  status_updates: Collection<Doc & { incident_id: string }>;
}

export function dbOf(store: DocumentStore): Db {
  const c = <T>(name: string) => store.collection<T>(name);
  return {
    tokens: c('tokens'), users: c('users'), teams: c('teams'), services: c('services'), escalation_policies: c('escalation_policies'),
    schedules: c('schedules'), priorities: c('priorities'), incidents: c('incidents'), notes: c('notes'), alerts: c('alerts'),
    log_entries: c('log_entries'), overrides: c('overrides'), status_updates: c('status_updates'),
  };
}

/** PagerDuty's IDs: `P` and six upper-case alphanumerics (`PT4KHLK`), seeded per kind. */
export function pdId(ctx: Pick<LoadContext, 'ids'>, kind: string): string {
  return slackStyleId(ctx, 'P', `pd:${kind}`, 6);
}

export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');

const PLURAL: Record<string, string> = {
  user: 'users', team: 'teams', service: 'services', escalation_policy: 'escalation_policies', schedule: 'schedules',
  incident: 'incidents', priority: 'priorities', log_entry: 'log_entries', alert: 'alerts',
};
const WEB_PATH: Record<string, string> = { user: 'users', team: 'teams', service: 'service-directory', escalation_policy: 'escalation_policies', schedule: 'schedules', incident: 'incidents' };

/** A `<kind>_reference` as PagerDuty embeds one (`{id, type, summary, self, html_url}`). */
export function ref(kind: string, id: string, summary: string): Ref {
  return {
    id, type: `${kind}_reference`, summary, self: `${API}/${PLURAL[kind] ?? `${kind}s`}/${id}`,
    html_url: WEB_PATH[kind] ? `${WEB}/${WEB_PATH[kind]}/${id}` : null,
  };
}

export function refOf(kind: string, doc: Doc | undefined): Ref | null {
  return doc ? ref(kind, doc.id, String(doc.summary ?? doc.name ?? doc.id)) : null;
}

/**
 * PagerDuty's error body: `{"error": {"message", "code", "errors": [...]}}` (codes from its
 * documented list: 2001 invalid input, 2100 not found, 2006 unauthorized, 2010 access denied,
 * 2020 rate limited).
 */
export function pdError(status: number, code: number, message: string, errors: string[] = [], headers: [string, string][] = []): ServiceError {
  return new ServiceError(status, String(code), message, { errors }, headers);
}

export function renderError(error: ServiceError): ServiceResponse {
  const code = Number(error.code);
  const errors = (error.details.errors as string[] | undefined) ?? [];
  const body = { error: { message: error.message, code: Number.isFinite(code) ? code : 2001, ...(errors.length > 0 ? { errors } : {}) } };
  const response = jsonResponse(error.status, body);
  return { ...response, headers: [...response.headers, ...error.headers] };
}

export const notFound = (): ServiceError => pdError(404, 2100, 'Not Found');
export const invalid = (...errors: string[]): ServiceError => pdError(400, 2001, 'Invalid Input Provided', errors);

export type Query = Record<string, string | string[]>;

/** A query parameter's values, as PagerDuty reads them: `statuses[]=a&statuses[]=b` or `statuses=a`. */
export function many(query: Query, name: string): string[] {
  const v = query[`${name}[]`] ?? query[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

export function one(query: Query, name: string): string | undefined {
  const v = query[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Classic pagination: `offset`/`limit` in, `{<key>: [...], offset, limit, more, total}` out; `total` only when `total=true`. */
export function classicPage(key: string, items: readonly unknown[], query: Query, extra: Record<string, unknown> = {}): ServiceResponse {
  const num = (name: string): number | undefined => {
    const raw = one(query, name);
    if (raw === undefined || raw === '') return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw invalid(`${name} must be a non-negative integer`);
    return n;
  };
  const limit = num('limit');
  const page = offsetPage(items, { offset: num('offset') ?? 0, limit: limit === 0 ? 25 : limit }, { defaultLimit: 25, maxLimit: 100, clamp: true });
  return jsonResponse(200, { [key]: page.items, ...extra, limit: page.limit, offset: page.offset, more: page.has_more, total: one(query, 'total') === 'true' ? page.total : null });
}

/** `include[]=…` values. */
export const includes = (query: Query): string[] => many(query, 'include');

export const matchesQuery = (text: unknown, q: string | undefined): boolean => !q || String(text ?? '').toLowerCase().includes(q.toLowerCase());

/** A Gravatar URL from the email (PagerDuty shows one per user): a hash of the address, not of the seeded ID. */
export function avatarOf(email: string): string {
  let h = 0x811c9dc5;
  for (const ch of email.toLowerCase()) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return `https://secure.gravatar.com/avatar/${h.toString(16).padStart(8, '0')}.png?d=mm&r=PG`;
}
