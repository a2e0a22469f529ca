import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { nextId, notFound, recordInvalid, type ZendeskCtx } from './context.js';
import { apiUrl, type OrganizationDoc, type UserDoc } from './model.js';
import { listAnswer } from './pages.js';
import { Role } from './dataset.js';
import { matchesText } from './search.js';

/** Users (list, show, show_many, me, search, create, update) and organizations (list, show, search). */

const UserInput = z.object({
  name: z.string().min(1).optional(),
  email: z.string().email().optional(),
  role: Role.optional(),
  organization_id: z.number().int().nullable().optional(),
  phone: z.string().nullable().optional(),
  notes: z.string().optional(),
  details: z.string().optional(),
  tags: z.array(z.string()).optional(),
  external_id: z.string().nullable().optional(),
  suspended: z.boolean().optional(),
}).passthrough();
const UserBody = z.object({ user: UserInput }).passthrough();
type UserBody = z.infer<typeof UserBody>;

function byId<T>(get: (id: number) => T | undefined, id: string): T {
  const found = /^\d+$/.test(id) ? get(Number(id)) : undefined;
  if (found === undefined) throw notFound();
  return found;
}

/** `role=agent` or `role[]=agent&role[]=admin`; `permission_set` is not modelled. */
function roleFilter(query: URLSearchParams): (u: UserDoc) => boolean {
  const roles = [...query.getAll('role'), ...query.getAll('role[]')];
  return (u) => roles.length === 0 || roles.includes(u.role);
}

/** Zendesk's user search: `query` over name, email and notes (or `email:`…), or an exact `external_id`. */
function searchUsers(c: ZendeskCtx, query: URLSearchParams): UserDoc[] {
  const externalId = query.get('external_id');
  if (externalId !== null) return c.db.users.filter((u) => u.external_id === externalId);
  const text = (query.get('query') ?? '').trim();
  if (text === '') return [];
  const field = /^(email|name|phone):(.+)$/.exec(text);
  if (field) {
    const want = field[2]!.toLowerCase().replace(/^"|"$/g, '');
    return c.db.users.filter((u) => String(u[field[1] as 'email' | 'name' | 'phone'] ?? '').toLowerCase() === want);
  }
  return c.db.users.filter((u) => matchesText(`${u.name} ${u.email} ${u.notes}`, text));
}

export const peopleOperations: Operation<ZendeskCtx>[] = [
  operation<ZendeskCtx, '/api/v2/users'>('users.list', rest('GET', '/api/v2/users'), (call, c) =>
    listAnswer(c, call.req, 'users', c.db.users.values().filter(roleFilter(call.req.query)))),
  operation<ZendeskCtx, '/api/v2/users/me'>('users.me', rest('GET', '/api/v2/users/me'), (_call, c) => jsonResponse(200, { user: c.caller })),
  operation<ZendeskCtx, '/api/v2/users/search'>('users.search', rest('GET', '/api/v2/users/search'), (call, c) =>
    listAnswer(c, call.req, 'users', searchUsers(c, call.req.query))),
  operation<ZendeskCtx, '/api/v2/users/show_many'>('users.show_many', rest('GET', '/api/v2/users/show_many'), (call, c) => {
    const ids = (call.req.query.get('ids') ?? '').split(',').filter((id) => /^\d+$/.test(id)).map(Number);
    const users = ids.map((id) => c.db.users.get(id)).filter((u) => u !== undefined);
    return jsonResponse(200, { users, next_page: null, previous_page: null, count: users.length });
  }),
  operation<ZendeskCtx, '/api/v2/users/:id'>('users.show', rest('GET', '/api/v2/users/:id'), (call, c) =>
    jsonResponse(200, { user: byId((id) => c.db.users.get(id), call.params.id) })),
  operation<ZendeskCtx, '/api/v2/users', Record<string, string>, UserBody>('users.create', rest('POST', '/api/v2/users'), (call, c) => {
    const input = call.body.user;
    if (!input.name) throw recordInvalid('name', 'Name: is too short (minimum is 1 character)', 'BlankValue');
    if (input.email && c.db.users.find((u) => u.email.toLowerCase() === input.email!.toLowerCase())) {
      throw recordInvalid('email', `Email: ${input.email} is already being used by another user`, 'DuplicateValue');
    }
    if (input.organization_id != null && !c.db.organizations.has(input.organization_id)) throw recordInvalid('organization_id', 'Organization: is invalid');
    const id = nextId(c, 'users');
    const user: UserDoc = {
      id, url: apiUrl(c.account.subdomain, `users/${id}`), name: input.name, email: input.email?.toLowerCase() ?? '', created_at: c.now, updated_at: c.now,
      time_zone: 'UTC', iana_time_zone: 'Etc/UTC', phone: input.phone ?? null, locale: 'en-US', locale_id: 1, organization_id: input.organization_id ?? null,
      role: input.role ?? 'end-user', verified: false, active: true, suspended: input.suspended ?? false, tags: input.tags ?? [], notes: input.notes ?? '',
      details: input.details ?? '', external_id: input.external_id ?? null, shared: false, restricted_agent: true, moderator: false,
      ticket_restriction: (input.role ?? 'end-user') === 'end-user' ? 'requested' : null, only_private_comments: false, user_fields: {},
      role_type: null, default_group_id: null,
    };
    return jsonResponse(201, { user: c.db.users.put(id, user) });
  }, { input: { body: UserBody } }),
  operation<ZendeskCtx, '/api/v2/users/:id', Record<string, string>, UserBody>('users.update', rest('PUT', '/api/v2/users/:id'), (call, c) => {
    const old = byId((id) => c.db.users.get(id), call.params.id);
    const input = call.body.user;
    if (input.organization_id != null && !c.db.organizations.has(input.organization_id)) throw recordInvalid('organization_id', 'Organization: is invalid');
    const patch = Object.fromEntries(Object.entries(input).filter(([key, value]) => value !== undefined && key in old));
    return jsonResponse(200, { user: c.db.users.put(old.id, { ...old, ...patch, updated_at: c.now } as UserDoc) });
  }, { input: { body: UserBody } }),
  operation<ZendeskCtx, '/api/v2/organizations'>('organizations.list', rest('GET', '/api/v2/organizations'), (call, c) =>
    listAnswer(c, call.req, 'organizations', c.db.organizations.values())),
  operation<ZendeskCtx, '/api/v2/organizations/search'>('organizations.search', rest('GET', '/api/v2/organizations/search'), (call, c) => {
    const name = call.req.query.get('name')?.toLowerCase();
    const externalId = call.req.query.get('external_id');
    const found = c.db.organizations.filter((o: OrganizationDoc) => (name !== undefined ? o.name.toLowerCase() === name : externalId !== null && o.external_id === externalId));
    return listAnswer(c, call.req, 'organizations', found);
  }),
  operation<ZendeskCtx, '/api/v2/organizations/:id'>('organizations.show', rest('GET', '/api/v2/organizations/:id'), (call, c) =>
    jsonResponse(200, { organization: byId((id) => c.db.organizations.get(id), call.params.id) })),
  operation<ZendeskCtx, '/api/v2/organizations/:id/users'>('organizations.users', rest('GET', '/api/v2/organizations/:id/users'), (call, c) => {
    const org = byId((id) => c.db.organizations.get(id), call.params.id);
    return listAnswer(c, call.req, 'users', c.db.users.filter((u) => u.organization_id === org.id));
  }),
];
