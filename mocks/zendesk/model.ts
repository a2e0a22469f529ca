import type { Collection, DocumentStore } from '../core/store.js';

/**
 * Zendesk's records as the store keeps them: each in the shape the API answers, so a handler
 * renders a stored document without reshaping it. Comments keep their ticket's id (`ticket_id`,
 * for graders and for listing), which the API leaves out of a comment.
 */
export interface Via { channel: string; source: { from: Record<string, unknown>; to: Record<string, unknown>; rel: string | null } }

export interface TicketDoc {
  url: string;
  id: number;
  external_id: string | null;
  via: Via;
  created_at: string;
  updated_at: string;
  type: string | null;
  subject: string;
  raw_subject: string;
  description: string;
  priority: string | null;
  status: string;
  recipient: string | null;
  requester_id: number;
  submitter_id: number;
  assignee_id: number | null;
  organization_id: number | null;
  group_id: number | null;
  collaborator_ids: number[];
  follower_ids: number[];
  email_cc_ids: number[];
  problem_id: number | null;
  has_incidents: boolean;
  is_public: boolean;
  due_at: string | null;
  tags: string[];
  custom_fields: { id: number; value: unknown }[];
  satisfaction_rating: null;
  sharing_agreement_ids: number[];
  fields: { id: number; value: unknown }[];
  followup_ids: number[];
  brand_id: number;
  allow_channelback: boolean;
  allow_attachments: boolean;
  from_messaging_channel: boolean;
}

export interface CommentDoc {
  id: number;
  type: 'Comment';
  author_id: number;
  body: string;
  html_body: string;
  plain_body: string;
  public: boolean;
  attachments: never[];
  audit_id: number;
  via: Via;
  created_at: string;
  metadata: { system: Record<string, never>; custom: Record<string, never> };
  /** The ticket it belongs to (not part of the API's comment). */
  ticket_id: number;
}

export interface UserDoc {
  id: number;
  url: string;
  name: string;
  email: string;
  created_at: string;
  updated_at: string;
  time_zone: string;
  iana_time_zone: string;
  phone: string | null;
  locale: string;
  locale_id: number;
  organization_id: number | null;
  role: string;
  verified: boolean;
  active: boolean;
  suspended: boolean;
  tags: string[];
  notes: string;
  details: string;
  external_id: string | null;
  shared: boolean;
  restricted_agent: boolean;
  moderator: boolean;
  ticket_restriction: string | null;
  only_private_comments: boolean;
  user_fields: Record<string, never>;
  role_type: number | null;
  default_group_id: number | null;
}

export interface OrganizationDoc {
  id: number;
  url: string;
  name: string;
  domain_names: string[];
  details: string;
  notes: string;
  group_id: number | null;
  shared_tickets: boolean;
  shared_comments: boolean;
  external_id: string | null;
  tags: string[];
  organization_fields: Record<string, never>;
  created_at: string;
  updated_at: string;
}

export interface AuditDoc {
  id: number;
  ticket_id: number;
  created_at: string;
  author_id: number;
  via: Via;
  metadata: { system: Record<string, never>; custom: Record<string, never> };
  events: Record<string, unknown>[];
}

export interface AccountDoc { subdomain: string; name: string; api_tokens: string[] }

/** Ticket fields, macros, views and groups: kept as the API answers them. */
export type ConfigDoc = { id: number } & Record<string, unknown>;

export interface Db {
  account: Collection<AccountDoc>;
  tickets: Collection<TicketDoc>;
  comments: Collection<CommentDoc>;
  audits: Collection<AuditDoc>;
  users: Collection<UserDoc>;
  organizations: Collection<OrganizationDoc>;
  groups: Collection<ConfigDoc>;
  ticket_fields: Collection<ConfigDoc>;
  macros: Collection<ConfigDoc>;
  views: Collection<ConfigDoc>;
}

export function dbOf(store: DocumentStore): Db {
  return {
    account: store.collection('account'),
    tickets: store.collection('tickets'),
    comments: store.collection('comments'),
    audits: store.collection('audits'),
    users: store.collection('users'),
    organizations: store.collection('organizations'),
    groups: store.collection('groups'),
    ticket_fields: store.collection('ticket_fields'),
    macros: store.collection('macros'),
    views: store.collection('views'),
  };
}

export const WEB_VIA: Via = { channel: 'web', source: { from: {}, to: {}, rel: null } };
export const API_VIA: Via = { channel: 'api', source: { from: {}, to: {}, rel: null } };

/** `https://{subdomain}.zendesk.com/api/v2/{path}.json`: the `url` of every record. */
export function apiUrl(subdomain: string, path: string): string {
  return `https://${subdomain}.zendesk.com/api/v2/${path}.json`;
}

/** A comment as the API answers it (without the store's `ticket_id`). */
export function renderComment(comment: CommentDoc): Omit<CommentDoc, 'ticket_id'> {
  const { ticket_id: _ticket, ...rest } = comment;
  return rest;
}

/** Zendesk's `html_body` of a plain-text comment: paragraphs, line breaks, HTML escaped. */
export function htmlOf(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<div class="zd-comment" dir="auto">${escaped.split(/\n{2,}/).map((p) => `<p dir="auto">${p.replace(/\n/g, '<br>')}</p>`).join('')}</div>`;
}

/** The text of an HTML comment (`html_body` given): tags dropped, entities of htmlOf undone. */
export function textOf(html: string): string {
  return html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/p>\s*<p[^>]*>/gi, '\n\n').replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').trim();
}
