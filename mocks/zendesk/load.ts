import type { LoadContext } from '../core/service.js';
import { isoSecond } from './context.js';
import type { ZendeskDataset } from './dataset.js';
import { apiUrl, dbOf, htmlOf, WEB_VIA, type TicketDoc } from './model.js';

/**
 * Fills the store from the dataset, once: records in the API's shape, timestamps defaulting to
 * the scenario's epoch, and every id counter above the dataset's ids, so new tickets, comments
 * and users get the numbers Zendesk would give next.
 */
export function loadZendesk(data: ZendeskDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const epoch = isoSecond(ctx.epochMs);
  const { subdomain } = data.account;
  db.account.put('account', { subdomain, name: data.account.name, api_tokens: data.account.api_tokens });
  const max = (ids: number[]) => ids.reduce((a, b) => Math.max(a, b), 0);
  ctx.ids.reserve('tickets', max(data.tickets.map((t) => t.id)));
  ctx.ids.reserve('users', max(data.users.map((u) => u.id)));
  ctx.ids.reserve('organizations', max(data.organizations.map((o) => o.id)));
  ctx.ids.reserve('comments', max(data.tickets.flatMap((t) => t.comments.map((c) => c.id ?? 0))));

  for (const o of data.organizations) {
    const created = o.created_at ?? epoch;
    db.organizations.put(o.id, {
      id: o.id, url: apiUrl(subdomain, `organizations/${o.id}`), name: o.name, domain_names: o.domain_names, details: o.details, notes: o.notes,
      group_id: null, shared_tickets: false, shared_comments: false, external_id: null, tags: o.tags, organization_fields: {}, created_at: created, updated_at: created,
    });
  }
  for (const u of data.users) {
    const created = u.created_at ?? epoch;
    db.users.put(u.id, {
      id: u.id, url: apiUrl(subdomain, `users/${u.id}`), name: u.name, email: u.email.toLowerCase(), created_at: created, updated_at: created,
      time_zone: u.time_zone, iana_time_zone: u.time_zone === 'UTC' ? 'Etc/UTC' : u.time_zone, phone: u.phone, locale: 'en-US', locale_id: 1,
      organization_id: u.organization_id, role: u.role, verified: true, active: true, suspended: u.suspended, tags: u.tags, notes: u.notes, details: '',
      external_id: null, shared: false, restricted_agent: u.role === 'end-user', moderator: false, ticket_restriction: u.role === 'end-user' ? 'requested' : null,
      only_private_comments: false, user_fields: {}, role_type: null, default_group_id: null,
    });
  }
  for (const g of data.groups) db.groups.put(g.id, { ...g, url: apiUrl(subdomain, `groups/${g.id}`), default: false, deleted: false, is_public: true, created_at: epoch, updated_at: epoch });
  for (const f of data.ticket_fields) {
    db.ticket_fields.put(f.id, {
      url: apiUrl(subdomain, `ticket_fields/${f.id}`), id: f.id, type: f.type, title: f.title, raw_title: f.title, description: f.description, raw_description: f.description,
      position: 9999, active: f.active, required: f.required, collapsed_for_agents: false, regexp_for_validation: null, title_in_portal: f.title,
      visible_in_portal: false, editable_in_portal: false, required_in_portal: false, tag: null, created_at: epoch, updated_at: epoch, removable: true, key: null, agent_description: null,
      ...(f.custom_field_options.length ? { custom_field_options: f.custom_field_options.map((option, i) => ({ id: f.id * 100 + i + 1, name: option.name, raw_name: option.name, value: option.value, default: false })) } : {}),
    });
  }
  for (const m of data.macros) db.macros.put(m.id, { url: apiUrl(subdomain, `macros/${m.id}`), ...m, position: m.id, restriction: null, created_at: epoch, updated_at: epoch });
  for (const v of data.views) {
    db.views.put(v.id, { url: apiUrl(subdomain, `views/${v.id}`), ...v, position: v.id, description: null, execution: { group_by: 'status', sort_by: 'id', sort_order: 'asc', columns: [] }, restriction: null, created_at: epoch, updated_at: epoch });
  }

  for (const t of data.tickets) {
    const created = t.created_at ?? epoch;
    const requester = data.users.find((u) => u.id === t.requester_id)!;
    const ticket: TicketDoc = {
      url: apiUrl(subdomain, `tickets/${t.id}`), id: t.id, external_id: null, via: WEB_VIA, created_at: created, updated_at: t.updated_at ?? created,
      type: t.type, subject: t.subject, raw_subject: t.subject, description: t.comments[0]!.body, priority: t.priority, status: t.status, recipient: null,
      requester_id: t.requester_id, submitter_id: t.submitter_id ?? t.requester_id, assignee_id: t.assignee_id,
      organization_id: t.organization_id === undefined ? requester.organization_id : t.organization_id, group_id: t.group_id,
      collaborator_ids: [], follower_ids: [], email_cc_ids: [], problem_id: null, has_incidents: false, is_public: t.comments.some((c) => c.public),
      due_at: t.due_at, tags: t.tags, custom_fields: t.custom_fields, satisfaction_rating: null, sharing_agreement_ids: [], fields: t.custom_fields,
      followup_ids: [], brand_id: 1, allow_channelback: false, allow_attachments: true, from_messaging_channel: false,
    };
    db.tickets.put(t.id, ticket);
    for (const c of t.comments) {
      const id = c.id ?? ctx.ids.next('comments');
      db.comments.put(id, {
        id, type: 'Comment', author_id: c.author_id, body: c.body, html_body: htmlOf(c.body), plain_body: c.body, public: c.public, attachments: [],
        audit_id: id, via: WEB_VIA, created_at: c.created_at ?? created, metadata: { system: {}, custom: {} }, ticket_id: t.id,
      });
    }
  }
}
