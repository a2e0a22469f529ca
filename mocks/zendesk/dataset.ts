import { z } from 'zod';

/**
 * The Zendesk Support dataset (`<scenario>/dataset/zendesk.json`, and the background world in
 * scenarios/baseline/dataset/zendesk.json): the single source of truth for its format. IDs are
 * Zendesk's numbers, given by the dataset so scenarios can name them; new records get the next
 * number above the dataset's. Timestamps default to the scenario's epoch.
 */
const Id = z.number().int().positive();
const Timestamp = z.string().datetime({ offset: false });

export const Role = z.enum(['end-user', 'agent', 'admin']);
export const Status = z.enum(['new', 'open', 'pending', 'hold', 'solved', 'closed']);
export const Priority = z.enum(['low', 'normal', 'high', 'urgent']);
export const TicketType = z.enum(['problem', 'incident', 'question', 'task']);

export const UserSchema = z.object({
  id: Id,
  name: z.string().min(1),
  email: z.string().email(),
  role: Role.default('end-user'),
  organization_id: Id.nullable().default(null),
  phone: z.string().nullable().default(null),
  time_zone: z.string().default('UTC'),
  tags: z.array(z.string()).default([]),
  notes: z.string().default(''),
  suspended: z.boolean().default(false),
  created_at: Timestamp.optional(),
}).strict();

export const OrganizationSchema = z.object({
  id: Id,
  name: z.string().min(1),
  domain_names: z.array(z.string()).default([]),
  details: z.string().default(''),
  notes: z.string().default(''),
  tags: z.array(z.string()).default([]),
  created_at: Timestamp.optional(),
}).strict();

export const CommentSchema = z.object({
  id: Id.optional(),
  author_id: Id,
  body: z.string().min(1),
  public: z.boolean().default(true),
  created_at: Timestamp.optional(),
}).strict();

export const CustomFieldValue = z.object({ id: Id, value: z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]) }).strict();

export const TicketSchema = z.object({
  id: Id,
  subject: z.string().min(1),
  status: Status.default('open'),
  priority: Priority.nullable().default(null),
  type: TicketType.nullable().default(null),
  requester_id: Id,
  submitter_id: Id.optional(),
  assignee_id: Id.nullable().default(null),
  group_id: Id.nullable().default(null),
  organization_id: Id.nullable().optional(),
  tags: z.array(z.string()).default([]),
  custom_fields: z.array(CustomFieldValue).default([]),
  due_at: Timestamp.nullable().default(null),
  created_at: Timestamp.optional(),
  updated_at: Timestamp.optional(),
  /** The first comment is the ticket's description. */
  comments: z.array(CommentSchema).min(1),
}).strict();

export const GroupSchema = z.object({ id: Id, name: z.string().min(1), description: z.string().default('') }).strict();

export const TicketFieldSchema = z.object({
  id: Id,
  type: z.enum(['text', 'textarea', 'checkbox', 'date', 'integer', 'decimal', 'regexp', 'tagger', 'multiselect']),
  title: z.string().min(1),
  description: z.string().default(''),
  required: z.boolean().default(false),
  active: z.boolean().default(true),
  custom_field_options: z.array(z.object({ name: z.string(), value: z.string() }).strict()).default([]),
}).strict();

export const MacroSchema = z.object({
  id: Id,
  title: z.string().min(1),
  description: z.string().nullable().default(null),
  active: z.boolean().default(true),
  actions: z.array(z.object({ field: z.string(), value: z.unknown() }).strict()).default([]),
}).strict();

const ViewCondition = z.object({ field: z.string(), operator: z.string(), value: z.unknown() }).strict();

export const ViewSchema = z.object({
  id: Id,
  title: z.string().min(1),
  active: z.boolean().default(true),
  /** Zendesk's conditions: every `all` must hold, and one `any` when there are any. */
  conditions: z.object({ all: z.array(ViewCondition).default([]), any: z.array(ViewCondition).default([]) }).strict().default({}),
}).strict();

export const ZendeskDatasetSchema = z.object({
  account: z.object({
    /** The `{subdomain}` of `{subdomain}.zendesk.com`. */
    subdomain: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    name: z.string().min(1),
    /** API tokens of the account: `email/token:TOKEN` authenticates as the agent with that email. */
    api_tokens: z.array(z.string().min(1)).default([]),
  }).strict().default({ subdomain: 'example', name: 'Example' }),
  users: z.array(UserSchema).default([]),
  organizations: z.array(OrganizationSchema).default([]),
  groups: z.array(GroupSchema).default([]),
  tickets: z.array(TicketSchema).default([]),
  ticket_fields: z.array(TicketFieldSchema).default([]),
  macros: z.array(MacroSchema).default([]),
  views: z.array(ViewSchema).default([]),
}).strict().superRefine((data, ctx) => {
  const users = new Set(data.users.map((u) => u.id));
  const orgs = new Set(data.organizations.map((o) => o.id));
  const unique = (ids: number[], path: string) => {
    const seen = new Set<number>();
    ids.forEach((id, i) => {
      if (seen.has(id)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path, i, 'id'], message: `id ${id} is used twice` });
      seen.add(id);
    });
  };
  unique(data.users.map((u) => u.id), 'users');
  unique(data.organizations.map((o) => o.id), 'organizations');
  unique(data.tickets.map((t) => t.id), 'tickets');
  data.users.forEach((u, i) => {
    if (u.organization_id !== null && !orgs.has(u.organization_id)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['users', i, 'organization_id'], message: `no organization ${u.organization_id}` });
  });
  data.tickets.forEach((t, i) => {
    for (const field of ['requester_id', 'submitter_id', 'assignee_id'] as const) {
      const id = t[field];
      if (id !== undefined && id !== null && !users.has(id)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['tickets', i, field], message: `no user ${id}` });
    }
    t.comments.forEach((c, j) => {
      if (!users.has(c.author_id)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['tickets', i, 'comments', j, 'author_id'], message: `no user ${c.author_id}` });
    });
  });
});
export type ZendeskDataset = z.infer<typeof ZendeskDatasetSchema>;
