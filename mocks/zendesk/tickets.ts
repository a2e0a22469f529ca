import { z } from 'zod';
import { emptyResponse, jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { nextId, notFound, recordInvalid, type ZendeskCtx } from './context.js';
import { API_VIA, apiUrl, htmlOf, renderComment, textOf, type CommentDoc, type TicketDoc, type UserDoc } from './model.js';
import { listAnswer, sorted } from './pages.js';
import { Priority, Status, TicketType } from './dataset.js';

/**
 * Tickets and their comments: list, show, show_many, create, update (with a comment), delete.
 * The submitter (the caller unless `submitter_id` says otherwise) is the author of the first
 * comment, as in Zendesk; a closed ticket refuses every update.
 */

const Id = z.coerce.number().int().positive();
const CommentInput = z.object({
  body: z.string().optional(),
  html_body: z.string().optional(),
  public: z.boolean().optional(),
  author_id: z.number().int().optional(),
}).passthrough();

const TicketInput = z.object({
  subject: z.string().optional(),
  description: z.string().optional(),
  comment: CommentInput.optional(),
  status: Status.optional(),
  priority: Priority.nullable().optional(),
  type: TicketType.nullable().optional(),
  requester_id: z.number().int().optional(),
  requester: z.object({ name: z.string().optional(), email: z.string().email() }).passthrough().optional(),
  submitter_id: z.number().int().optional(),
  assignee_id: z.number().int().nullable().optional(),
  group_id: z.number().int().nullable().optional(),
  organization_id: z.number().int().nullable().optional(),
  tags: z.array(z.string()).optional(),
  additional_tags: z.array(z.string()).optional(),
  remove_tags: z.array(z.string()).optional(),
  custom_fields: z.array(z.object({ id: z.number().int(), value: z.unknown() }).passthrough()).optional(),
  due_at: z.string().nullable().optional(),
  external_id: z.string().nullable().optional(),
}).passthrough();
type TicketInput = z.infer<typeof TicketInput>;
const TicketBody = z.object({ ticket: TicketInput }).passthrough();
type TicketBody = z.infer<typeof TicketBody>;

export function ticketsOf(c: ZendeskCtx): TicketDoc[] {
  return c.db.tickets.values();
}

export function commentsOf(c: ZendeskCtx, ticketId: number): CommentDoc[] {
  return c.db.comments.filter((comment) => comment.ticket_id === ticketId).sort((a, b) => a.id - b.id);
}

function ticketOr404(c: ZendeskCtx, id: string): TicketDoc {
  const ticket = /^\d+$/.test(id) ? c.db.tickets.get(Number(id)) : undefined;
  if (!ticket) throw notFound();
  return ticket;
}

const SORTABLE = ['id', 'created_at', 'updated_at', 'priority', 'status', 'subject'];

export const ticketOperations: Operation<ZendeskCtx>[] = [
  operation<ZendeskCtx, '/api/v2/tickets'>('tickets.list', rest('GET', '/api/v2/tickets'), (call, c) => {
    const q = call.req.query;
    const items = sorted(ticketsOf(c) as unknown as Record<string, unknown>[], q.get('sort_by'), q.get('sort_order'), SORTABLE);
    return listAnswer(c, call.req, 'tickets', items);
  }),
  operation<ZendeskCtx, '/api/v2/tickets/show_many'>('tickets.show_many', rest('GET', '/api/v2/tickets/show_many'), (call, c) => {
    const ids = (call.req.query.get('ids') ?? '').split(',').filter((id) => /^\d+$/.test(id)).map(Number);
    return jsonResponse(200, { tickets: ids.map((id) => c.db.tickets.get(id)).filter((t) => t !== undefined), next_page: null, previous_page: null, count: ids.length });
  }),
  operation<ZendeskCtx, '/api/v2/tickets/:id'>('tickets.show', rest('GET', '/api/v2/tickets/:id'), (call, c) => jsonResponse(200, { ticket: ticketOr404(c, call.params.id) })),
  operation<ZendeskCtx, '/api/v2/tickets/:id/comments'>('tickets.comments.list', rest('GET', '/api/v2/tickets/:id/comments'), (call, c) => {
    const ticket = ticketOr404(c, call.params.id);
    const comments = commentsOf(c, ticket.id).map(renderComment);
    if (call.req.query.get('sort_order') === 'desc') comments.reverse();
    return listAnswer(c, call.req, 'comments', comments);
  }),
  operation<ZendeskCtx, '/api/v2/users/:id/tickets/requested'>('users.tickets.requested', rest('GET', '/api/v2/users/:id/tickets/requested'), (call, c) => {
    const id = Id.safeParse(call.params.id);
    if (!id.success || !c.db.users.has(id.data)) throw notFound();
    return listAnswer(c, call.req, 'tickets', ticketsOf(c).filter((t) => t.requester_id === id.data));
  }),
  operation<ZendeskCtx, '/api/v2/organizations/:id/tickets'>('organizations.tickets', rest('GET', '/api/v2/organizations/:id/tickets'), (call, c) => {
    const id = Id.safeParse(call.params.id);
    if (!id.success || !c.db.organizations.has(id.data)) throw notFound();
    return listAnswer(c, call.req, 'tickets', ticketsOf(c).filter((t) => t.organization_id === id.data));
  }),
  operation<ZendeskCtx, '/api/v2/tickets', Record<string, string>, TicketBody>('tickets.create', rest('POST', '/api/v2/tickets'), (call, c) => {
    const input = call.body.ticket;
    const caller = c.caller!;
    const text = commentText(input.comment) ?? input.description;
    if (text === undefined || text.trim() === '') throw recordInvalid('base', 'Description: cannot be blank', 'BlankValue');
    const requester = requesterOf(c, input, caller);
    const id = nextId(c, 'tickets');
    const assignee = input.assignee_id ?? null;
    if (assignee !== null) agentOr422(c, assignee, 'assignee');
    const subject = input.subject ?? text.split('\n')[0]!.slice(0, 120);
    const ticket: TicketDoc = {
      url: apiUrl(c.account.subdomain, `tickets/${id}`), id, external_id: input.external_id ?? null, via: API_VIA,
      created_at: c.now, updated_at: c.now, type: input.type ?? null, subject, raw_subject: subject, description: text,
      priority: input.priority ?? null, status: input.status ?? (assignee === null ? 'new' : 'open'), recipient: null,
      requester_id: requester.id, submitter_id: input.submitter_id ?? caller.id, assignee_id: assignee,
      organization_id: input.organization_id ?? requester.organization_id, group_id: input.group_id ?? null,
      collaborator_ids: [], follower_ids: [], email_cc_ids: [], problem_id: null, has_incidents: false, is_public: input.comment?.public ?? true,
      due_at: input.due_at ?? null, tags: uniq(input.tags ?? []), custom_fields: input.custom_fields?.map(({ id: fieldId, value }) => ({ id: fieldId, value })) ?? [],
      satisfaction_rating: null, sharing_agreement_ids: [], fields: [], followup_ids: [], brand_id: 1, allow_channelback: false,
      allow_attachments: true, from_messaging_channel: false,
    };
    ticket.fields = ticket.custom_fields;
    c.db.tickets.put(id, ticket);
    const audit = addAudit(c, ticket, caller, { body: text, html: commentHtml(input.comment, text), public: input.comment?.public ?? true, authorId: input.comment?.author_id ?? ticket.submitter_id }, [
      ...['subject', 'status', 'priority', 'type', 'requester_id', 'assignee_id', 'tags'].map((field) => ({ type: 'Create', field_name: field, value: (ticket as unknown as Record<string, unknown>)[field] })),
    ]);
    return jsonResponse(201, { ticket, audit }, [['Location', ticket.url]]);
  }, { input: { body: TicketBody } }),
  operation<ZendeskCtx, '/api/v2/tickets/:id', Record<string, string>, TicketBody>('tickets.update', rest('PUT', '/api/v2/tickets/:id'), (call, c) => {
    const old = ticketOr404(c, call.params.id);
    const input = call.body.ticket;
    if (old.status === 'closed') throw recordInvalid('status', 'Status: closed prevents ticket update', 'ClosedPreventsUpdate');
    const next: TicketDoc = { ...old };
    const events: Record<string, unknown>[] = [];
    const change = <K extends keyof TicketDoc>(field: K, value: TicketDoc[K] | undefined) => {
      if (value === undefined || JSON.stringify(old[field]) === JSON.stringify(value)) return;
      next[field] = value;
      events.push({ type: 'Change', field_name: field, value, previous_value: old[field] });
    };
    if (input.assignee_id !== undefined && input.assignee_id !== null) agentOr422(c, input.assignee_id, 'assignee');
    if (input.requester_id !== undefined && !c.db.users.has(input.requester_id)) throw recordInvalid('requester', 'Requester: is invalid', 'InvalidValue');
    change('subject', input.subject);
    if (input.subject !== undefined) next.raw_subject = input.subject;
    change('status', input.status);
    change('priority', input.priority);
    change('type', input.type);
    change('assignee_id', input.assignee_id);
    change('requester_id', input.requester_id);
    change('group_id', input.group_id);
    change('organization_id', input.organization_id);
    change('due_at', input.due_at);
    change('external_id', input.external_id);
    let tags = input.tags !== undefined ? uniq(input.tags) : old.tags;
    if (input.additional_tags) tags = uniq([...tags, ...input.additional_tags]);
    if (input.remove_tags) tags = tags.filter((t) => !input.remove_tags!.includes(t));
    change('tags', tags);
    if (input.custom_fields) {
      const merged = [...old.custom_fields];
      for (const { id, value } of input.custom_fields) {
        const at = merged.findIndex((f) => f.id === id);
        if (at === -1) merged.push({ id, value });
        else merged[at] = { id, value };
      }
      change('custom_fields', merged);
      next.fields = next.custom_fields;
    }
    const text = commentText(input.comment);
    if (input.comment !== undefined && (text === undefined || text.trim() === '')) throw recordInvalid('comment', 'Comment: cannot be blank', 'BlankValue');
    if (next.status === 'new' && next.assignee_id !== null) next.status = 'open';
    next.updated_at = c.now;
    c.db.tickets.put(old.id, next);
    const caller = c.caller!;
    const audit = addAudit(c, next, caller, text === undefined ? null : { body: text, html: commentHtml(input.comment, text), public: input.comment?.public ?? true, authorId: input.comment?.author_id ?? caller.id }, events);
    return jsonResponse(200, { ticket: next, audit });
  }, { input: { body: TicketBody } }),
  operation<ZendeskCtx, '/api/v2/tickets/:id'>('tickets.delete', rest('DELETE', '/api/v2/tickets/:id'), (call, c) => {
    const ticket = ticketOr404(c, call.params.id);
    c.db.tickets.delete(ticket.id);
    return emptyResponse(204);
  }),
];

function uniq(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim().toLowerCase().replace(/\s+/g, '_')).filter((t) => t !== ''))];
}

function commentText(comment: z.infer<typeof CommentInput> | undefined): string | undefined {
  if (!comment) return undefined;
  if (comment.body !== undefined) return comment.body;
  if (comment.html_body !== undefined) return textOf(comment.html_body);
  return undefined;
}

function commentHtml(comment: z.infer<typeof CommentInput> | undefined, text: string): string {
  return comment?.html_body ?? htmlOf(text);
}

function agentOr422(c: ZendeskCtx, id: number, field: string): UserDoc {
  const user = c.db.users.get(id);
  if (!user || user.role === 'end-user') throw recordInvalid(field, `${field[0]!.toUpperCase()}${field.slice(1)}: is not an agent`, 'InvalidValue');
  return user;
}

/** The ticket's requester: by id, by `requester: {email, name}` (a new end user when unknown), or the caller. */
function requesterOf(c: ZendeskCtx, input: TicketInput, caller: UserDoc): UserDoc {
  if (input.requester_id !== undefined) {
    const user = c.db.users.get(input.requester_id);
    if (!user) throw recordInvalid('requester', 'Requester: is invalid', 'InvalidValue');
    return user;
  }
  if (input.requester) {
    const email = input.requester.email.toLowerCase();
    const known = c.db.users.find((u) => u.email.toLowerCase() === email);
    if (known) return known;
    const id = nextId(c, 'users');
    return c.db.users.put(id, {
      id, url: apiUrl(c.account.subdomain, `users/${id}`), name: input.requester.name ?? email.split('@')[0]!, email, created_at: c.now, updated_at: c.now,
      time_zone: 'UTC', iana_time_zone: 'Etc/UTC', phone: null, locale: 'en-US', locale_id: 1, organization_id: null, role: 'end-user', verified: false,
      active: true, suspended: false, tags: [], notes: '', details: '', external_id: null, shared: false, restricted_agent: true, moderator: false,
      ticket_restriction: 'requested', only_private_comments: false, user_fields: {}, role_type: null, default_group_id: null,
    });
  }
  return caller;
}

/** One audit per create or update: its field events, and the comment when one was added. */
function addAudit(c: ZendeskCtx, ticket: TicketDoc, caller: UserDoc, comment: { body: string; html: string; public: boolean; authorId: number } | null, events: Record<string, unknown>[]) {
  const auditId = nextId(c, 'audits');
  const all: Record<string, unknown>[] = [];
  if (comment) {
    const id = nextId(c, 'comments');
    const doc: CommentDoc = {
      id, type: 'Comment', author_id: comment.authorId, body: comment.body, html_body: comment.html, plain_body: comment.body, public: comment.public,
      attachments: [], audit_id: auditId, via: API_VIA, created_at: c.now, metadata: { system: {}, custom: {} }, ticket_id: ticket.id,
    };
    c.db.comments.put(id, doc);
    all.push(renderComment(doc));
  }
  for (const event of events) all.push({ id: nextId(c, 'events'), ...event });
  return c.db.audits.put(auditId, { id: auditId, ticket_id: ticket.id, created_at: c.now, author_id: caller.id, via: API_VIA, metadata: { system: {}, custom: {} }, events: all });
}
