import { jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { ServiceError } from '../kit/errors.js';
import type { ZendeskCtx } from './context.js';
import type { OrganizationDoc, TicketDoc, UserDoc } from './model.js';
import { listAnswer, sorted } from './pages.js';

/**
 * `GET /api/v2/search.json?query=…`: a subset of Zendesk's search syntax, enough for an agent
 * that searches the way Zendesk's docs teach:
 * - `type:ticket|user|organization` (default: all three);
 * - `property:value`, `property<value`, `property>value` (`<=`, `>=`), `-property:value` to exclude;
 *   tickets: status, priority, ticket_type (type), requester, assignee, submitter, organization,
 *   group, tags (tag), subject, description, comment, created, updated, solved, due_date;
 *   users: name, email, role, organization, tags; organizations: name, tags;
 *   people by id, email, name, or `me`/`none`; dates `2025-09-01` (or relative `4days`…: not modelled);
 * - bare words and "quoted phrases" match the ticket's subject, description and comments (a
 *   user's name, email and notes; an organization's name, details and notes), whole words,
 *   case-insensitive, a trailing `*` for a prefix.
 * Results: `result_type` on each, `sort_by` (created_at, updated_at, priority, status, ticket_type)
 * and `sort_order`; offset pages of at most 100 as Zendesk's search has.
 */

interface Term { negate: boolean; key: string | null; op: ':' | '<' | '>' | '<=' | '>='; value: string; phrase: boolean }

export function parseQuery(query: string): Term[] {
  const terms: Term[] = [];
  const re = /(-?)(?:([a-z_]+)(<=|>=|:|<|>))?("([^"]*)"|\S+)/gi;
  for (const m of query.matchAll(re)) {
    const value = m[5] ?? m[4]!;
    terms.push({ negate: m[1] === '-', key: m[2]?.toLowerCase() ?? null, op: (m[3] ?? ':') as Term['op'], value, phrase: m[5] !== undefined });
  }
  return terms;
}

function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}@._#-]+/u).flatMap((w) => [w, ...w.split(/[._#@-]+/)]).filter((w) => w !== '');
}

/**
 * Whether every word of `needle` is a word of `haystack` (case-insensitive, `word*` a prefix);
 * a `phrase` must appear as those words in that order, next to each other.
 */
export function matchesText(haystack: string, needle: string, phrase = false): boolean {
  if (phrase) {
    const flat = ` ${haystack.toLowerCase().split(/[^\p{L}\p{N}@._#-]+/u).filter((w) => w !== '').join(' ')} `;
    const wanted = needle.toLowerCase().split(/[^\p{L}\p{N}@._#-]+/u).filter((w) => w !== '');
    return wanted.length > 0 && flat.includes(` ${wanted.join(' ')} `);
  }
  const have = words(haystack);
  const lower = haystack.toLowerCase();
  return needle.split(/\s+/).filter((w) => w !== '').every((raw) => {
    const w = raw.toLowerCase();
    if (w.endsWith('*')) return have.some((h) => h.startsWith(w.slice(0, -1)));
    return have.includes(w) || (words(w).length > 1 && lower.includes(w));
  });
}

const STATUS = ['new', 'open', 'pending', 'hold', 'solved', 'closed'];
const PRIORITY = ['low', 'normal', 'high', 'urgent'];

function compare(have: unknown, op: Term['op'], want: string, scale?: string[]): boolean {
  if (have === null || have === undefined) return op === ':' && (want === 'none' || want === '');
  if (scale) {
    const a = scale.indexOf(String(have));
    const b = scale.indexOf(want.toLowerCase());
    return op === ':' ? a === b : op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(want)) {
    const day = String(have).slice(0, want.length);
    return op === ':' ? day === want : op === '<' ? day < want : op === '>' ? day > want : op === '<=' ? day <= want : day >= want;
  }
  return String(have).toLowerCase() === want.toLowerCase();
}

function person(c: ZendeskCtx, id: number | null, want: string): boolean {
  if (want === 'none') return id === null;
  if (id === null) return false;
  if (want === 'me') return c.caller?.id === id;
  if (/^\d+$/.test(want)) return id === Number(want);
  const user = c.db.users.get(id);
  if (!user) return false;
  return user.email.toLowerCase() === want.toLowerCase() || matchesText(user.name, want);
}

function organization(c: ZendeskCtx, id: number | null, want: string): boolean {
  if (want === 'none') return id === null;
  if (id === null) return false;
  if (/^\d+$/.test(want)) return id === Number(want);
  const org = c.db.organizations.get(id);
  return org !== undefined && matchesText(org.name, want);
}

function ticketText(c: ZendeskCtx, t: TicketDoc): string {
  return [t.subject, t.description, ...c.db.comments.filter((k) => k.ticket_id === t.id).map((k) => k.body)].join('\n');
}

function ticketTerm(c: ZendeskCtx, t: TicketDoc, term: Term): boolean | null {
  const { key, op, value } = term;
  switch (key) {
    case null: return matchesText(ticketText(c, t), value, term.phrase);
    case 'status': return compare(t.status, op, value, STATUS);
    case 'priority': return compare(t.priority, op, value, PRIORITY);
    case 'ticket_type': case 'tickettype': return compare(t.type, op, value);
    case 'requester': return person(c, t.requester_id, value);
    case 'assignee': return person(c, t.assignee_id, value);
    case 'submitter': return person(c, t.submitter_id, value);
    case 'organization': return organization(c, t.organization_id, value);
    case 'group': return value === 'none' ? t.group_id === null : t.group_id !== null && (String(t.group_id) === value || matchesText(String(c.db.groups.get(t.group_id)?.name ?? ''), value));
    case 'tags': case 'tag': return t.tags.includes(value.toLowerCase());
    case 'subject': return matchesText(t.subject, value, term.phrase);
    case 'description': return matchesText(t.description, value, term.phrase);
    case 'comment': return matchesText(c.db.comments.filter((k) => k.ticket_id === t.id).map((k) => k.body).join('\n'), value, term.phrase);
    case 'created': return compare(t.created_at, op, value);
    case 'updated': return compare(t.updated_at, op, value);
    case 'due_date': return compare(t.due_at, op, value);
    default: return null;
  }
}

function userTerm(c: ZendeskCtx, u: UserDoc, term: Term): boolean | null {
  const { key, value } = term;
  switch (key) {
    case null: return matchesText(`${u.name} ${u.email} ${u.notes}`, value, term.phrase);
    case 'name': return matchesText(u.name, value);
    case 'email': return u.email.toLowerCase() === value.toLowerCase();
    case 'role': return u.role === value.toLowerCase();
    case 'organization': return organization(c, u.organization_id, value);
    case 'tags': case 'tag': return u.tags.includes(value.toLowerCase());
    case 'created': return compare(u.created_at, term.op, value);
    default: return null;
  }
}

function organizationTerm(o: OrganizationDoc, term: Term): boolean | null {
  const { key, value } = term;
  switch (key) {
    case null: return matchesText(`${o.name} ${o.details} ${o.notes} ${o.domain_names.join(' ')}`, value, term.phrase);
    case 'name': return matchesText(o.name, value);
    case 'tags': case 'tag': return o.tags.includes(value.toLowerCase());
    case 'created': return compare(o.created_at, term.op, value);
    default: return null;
  }
}

/** Every term holds (a negated one must not); a property the type has no such field for matches nothing. */
function all(terms: Term[], test: (term: Term) => boolean | null): boolean {
  return terms.every((term) => {
    const got = test(term);
    if (got === null) return false;
    return term.negate ? !got : got;
  });
}

export const searchOperations: Operation<ZendeskCtx>[] = [
  operation<ZendeskCtx, '/api/v2/search'>('search.list', rest('GET', '/api/v2/search'), (call, c) => {
    const q = call.req.query;
    const query = q.get('query');
    if (query === null || query.trim() === '') throw new ServiceError(400, 'InvalidSearchQuery', 'Query parameter is missing or empty');
    const terms = parseQuery(query);
    const types = terms.filter((t) => t.key === 'type' && !t.negate).map((t) => t.value.toLowerCase());
    const rest = terms.filter((t) => t.key !== 'type');
    const want = (type: string) => types.length === 0 || types.includes(type);
    const results: Record<string, unknown>[] = [];
    if (want('ticket')) results.push(...c.db.tickets.filter((t) => all(rest, (term) => ticketTerm(c, t, term))).map((t) => ({ ...t, result_type: 'ticket' })));
    if (want('user')) results.push(...c.db.users.filter((u) => all(rest, (term) => userTerm(c, u, term))).map((u) => ({ ...u, result_type: 'user' })));
    if (want('organization')) results.push(...c.db.organizations.filter((o) => all(rest, (term) => organizationTerm(o, term))).map((o) => ({ ...o, result_type: 'organization' })));
    const sortBy = q.get('sort_by') === 'ticket_type' ? 'type' : q.get('sort_by');
    const ordered = sortBy ? sorted(results, sortBy, q.get('sort_order'), ['created_at', 'updated_at', 'priority', 'status', 'type']) : results;
    return listAnswer(c, call.req, 'results', ordered, { facets: null });
  }),
  operation<ZendeskCtx, '/api/v2/search/count'>('search.count', rest('GET', '/api/v2/search/count'), (call, c) => {
    const query = call.req.query.get('query') ?? '';
    const terms = parseQuery(query).filter((t) => t.key !== 'type');
    const count = c.db.tickets.filter((t) => all(terms, (term) => ticketTerm(c, t, term))).length;
    return jsonResponse(200, { count });
  }),
];
