import { jsonResponse } from '../core/http.js';
import { operation, rest, type Call, type Operation } from '../kit/operation.js';
import { notFound, type ZendeskCtx } from './context.js';
import type { ConfigDoc, TicketDoc } from './model.js';
import { listAnswer } from './pages.js';

/** The account's configuration, read-only: groups, ticket fields, macros, views (and a view's tickets). */

type Kind = 'groups' | 'ticket_fields' | 'macros' | 'views';
const SINGULAR: Record<Kind, string> = { groups: 'group', ticket_fields: 'ticket_field', macros: 'macro', views: 'view' };

function showOf(c: ZendeskCtx, kind: Kind, id: string): ConfigDoc {
  const doc = /^\d+$/.test(id) ? c.db[kind].get(Number(id)) : undefined;
  if (!doc) throw notFound();
  return doc;
}

const listAndShow = (kind: Kind): Operation<ZendeskCtx>[] => [
  { name: `${kind}.list`, matcher: rest('GET', `/api/v2/${kind}`), handle: (call: Call, c: ZendeskCtx) => listAnswer(c, call.req, kind, c.db[kind].values()) },
  { name: `${kind}.show`, matcher: rest('GET', `/api/v2/${kind}/:id`), handle: (call: Call, c: ZendeskCtx) => jsonResponse(200, { [SINGULAR[kind]]: showOf(c, kind, call.params.id!) }) },
];

interface Condition { field: string; operator: string; value: unknown }

/** A view's conditions over a ticket: `is`, `is_not`, `less_than`, `greater_than` (status order), `includes` (tags). */
function holds(ticket: TicketDoc, condition: Condition): boolean {
  const field = condition.field === 'current_tags' ? 'tags' : condition.field;
  const have = (ticket as unknown as Record<string, unknown>)[field];
  const want = condition.value;
  const order = ['new', 'open', 'pending', 'hold', 'solved', 'closed'];
  switch (condition.operator) {
    case 'is': return have === want || String(have) === String(want);
    case 'is_not': return !(have === want || String(have) === String(want));
    case 'less_than': return field === 'status' ? order.indexOf(String(have)) < order.indexOf(String(want)) : Number(have) < Number(want);
    case 'greater_than': return field === 'status' ? order.indexOf(String(have)) > order.indexOf(String(want)) : Number(have) > Number(want);
    case 'includes': return Array.isArray(have) && String(want).split(' ').some((tag) => (have as string[]).includes(tag));
    case 'not_includes': return Array.isArray(have) && !String(want).split(' ').some((tag) => (have as string[]).includes(tag));
    default: return false;
  }
}

export const adminOperations: Operation<ZendeskCtx>[] = [
  ...listAndShow('groups'),
  ...listAndShow('ticket_fields'),
  operation<ZendeskCtx, '/api/v2/macros/active'>('macros.active', rest('GET', '/api/v2/macros/active'), (call, c) =>
    listAnswer(c, call.req, 'macros', c.db.macros.filter((m) => m.active === true))),
  ...listAndShow('macros'),
  operation<ZendeskCtx, '/api/v2/views/active'>('views.active', rest('GET', '/api/v2/views/active'), (call, c) =>
    listAnswer(c, call.req, 'views', c.db.views.filter((v) => v.active === true))),
  ...listAndShow('views'),
  operation<ZendeskCtx, '/api/v2/views/:id/tickets'>('views.tickets', rest('GET', '/api/v2/views/:id/tickets'), (call, c) => {
    const view = showOf(c, 'views', call.params.id);
    const conditions = view.conditions as { all: Condition[]; any: Condition[] };
    const tickets = c.db.tickets.filter((t) => conditions.all.every((k) => holds(t, k)) && (conditions.any.length === 0 || conditions.any.some((k) => holds(t, k))));
    return listAnswer(c, call.req, 'tickets', tickets);
  }),
];
