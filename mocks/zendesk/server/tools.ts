import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ZendeskClient } from './client.js';

/**
 * The six tools of reminia/zendesk-mcp-server (docs/provenance.md): the same names, descriptions
 * and input schemas (JSON Schema, as that server lists them), and the same answers: the fields
 * its ZendeskClient picks from each record, as JSON text. Arguments are checked with the zod
 * schemas beside them; a failure is `Error: …` text, as there, and flagged `isError`.
 */
export const TOOLS: Tool[] = [
  {
    name: 'get_ticket',
    description: 'Retrieve a Zendesk ticket by its ID',
    inputSchema: { type: 'object', properties: { ticket_id: { type: 'integer', description: 'The ID of the ticket to retrieve' } }, required: ['ticket_id'] },
  },
  {
    name: 'create_ticket',
    description: 'Create a new Zendesk ticket',
    inputSchema: {
      type: 'object',
      properties: {
        subject: { type: 'string', description: 'Ticket subject' },
        description: { type: 'string', description: 'Ticket description' },
        requester_id: { type: 'integer' },
        assignee_id: { type: 'integer' },
        priority: { type: 'string', description: 'low, normal, high, urgent' },
        type: { type: 'string', description: 'problem, incident, question, task' },
        tags: { type: 'array', items: { type: 'string' } },
        custom_fields: { type: 'array', items: { type: 'object' } },
      },
      required: ['subject', 'description'],
    },
  },
  {
    name: 'get_tickets',
    description: 'Fetch the latest tickets with pagination support',
    inputSchema: {
      type: 'object',
      properties: {
        page: { type: 'integer', description: 'Page number', default: 1 },
        per_page: { type: 'integer', description: 'Number of tickets per page (max 100)', default: 25 },
        sort_by: { type: 'string', description: 'Field to sort by (created_at, updated_at, priority, status)', default: 'created_at' },
        sort_order: { type: 'string', description: 'Sort order (asc or desc)', default: 'desc' },
      },
      required: [],
    },
  },
  {
    name: 'get_ticket_comments',
    description: 'Retrieve all comments for a Zendesk ticket by its ID',
    inputSchema: { type: 'object', properties: { ticket_id: { type: 'integer', description: 'The ID of the ticket to get comments for' } }, required: ['ticket_id'] },
  },
  {
    name: 'create_ticket_comment',
    description: 'Create a new comment on an existing Zendesk ticket',
    inputSchema: {
      type: 'object',
      properties: {
        ticket_id: { type: 'integer', description: 'The ID of the ticket to comment on' },
        comment: { type: 'string', description: 'The comment text/content to add' },
        public: { type: 'boolean', description: 'Whether the comment should be public', default: true },
      },
      required: ['ticket_id', 'comment'],
    },
  },
  {
    name: 'update_ticket',
    description: 'Update fields on an existing Zendesk ticket (e.g., status, priority, assignee_id)',
    inputSchema: {
      type: 'object',
      properties: {
        ticket_id: { type: 'integer', description: 'The ID of the ticket to update' },
        subject: { type: 'string' },
        status: { type: 'string', description: 'new, open, pending, on-hold, solved, closed' },
        priority: { type: 'string', description: 'low, normal, high, urgent' },
        type: { type: 'string' },
        assignee_id: { type: 'integer' },
        requester_id: { type: 'integer' },
        tags: { type: 'array', items: { type: 'string' } },
        custom_fields: { type: 'array', items: { type: 'object' } },
        due_at: { type: 'string', description: 'ISO8601 datetime' },
      },
      required: ['ticket_id'],
    },
  },
];

// Integers may come as digit strings, as the original (which formats them into URLs and JSON) takes them.
const Int = z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), z.number().int());
const TicketId = z.object({ ticket_id: Int });
const CreateTicket = z.object({
  subject: z.string(), description: z.string(), requester_id: Int.optional(), assignee_id: Int.optional(),
  priority: z.string().optional(), type: z.string().optional(), tags: z.array(z.string()).optional(), custom_fields: z.array(z.record(z.unknown())).optional(),
});
const GetTickets = z.object({ page: Int.default(1), per_page: Int.default(25), sort_by: z.string().default('created_at'), sort_order: z.string().default('desc') });
const CreateComment = z.object({ ticket_id: Int, comment: z.string(), public: z.boolean().default(true) });
const UpdateTicket = z.object({
  ticket_id: Int, subject: z.string().optional(), status: z.string().optional(), priority: z.string().optional(), type: z.string().optional(),
  assignee_id: Int.optional(), requester_id: Int.optional(), tags: z.array(z.string()).optional(),
  custom_fields: z.array(z.record(z.unknown())).optional(), due_at: z.string().optional(),
});

type Json = Record<string, unknown>;
const pick = (record: Json, fields: readonly string[]): Json => Object.fromEntries(fields.map((f) => [f, record[f] ?? null]));
const TICKET = ['id', 'subject', 'description', 'status', 'priority', 'created_at', 'updated_at', 'requester_id', 'assignee_id', 'organization_id'];
const FULL_TICKET = ['id', 'subject', 'description', 'status', 'priority', 'type', 'created_at', 'updated_at', 'requester_id', 'assignee_id', 'organization_id', 'tags'];
const LISTED = ['id', 'subject', 'status', 'priority', 'description', 'created_at', 'updated_at', 'requester_id', 'assignee_id'];
const COMMENT = ['id', 'author_id', 'body', 'html_body', 'public', 'created_at'];

/** Runs one tool: its answer text, or throws with the message the agent sees after `Error: `. */
export async function runTool(client: ZendeskClient, name: string, args: unknown): Promise<string> {
  switch (name) {
    case 'get_ticket': {
      const { ticket_id } = parse(TicketId, args);
      return JSON.stringify(pick(await labelled(`Failed to get ticket ${ticket_id}`, () => client.ticket(ticket_id)), TICKET));
    }
    case 'get_ticket_comments': {
      const { ticket_id } = parse(TicketId, args);
      const comments = await labelled(`Failed to get comments for ticket ${ticket_id}`, () => client.comments(ticket_id));
      return JSON.stringify(comments.map((c) => pick(c, COMMENT)));
    }
    case 'create_ticket_comment': {
      const { ticket_id, comment, public: isPublic } = parse(CreateComment, args);
      await labelled(`Failed to post comment on ticket ${ticket_id}`, async () => {
        await client.ticket(ticket_id);
        await client.updateTicket(ticket_id, { comment: { html_body: comment, public: isPublic } });
      });
      return `Comment created successfully: ${comment}`;
    }
    case 'get_tickets': {
      const query = parse(GetTickets, args ?? {});
      const perPage = Math.min(query.per_page, 100);
      const data = await labelled('Failed to get latest tickets', () => client.tickets({ ...query, per_page: perPage }));
      const tickets = (data.tickets as Json[]).map((t) => pick(t, LISTED));
      return JSON.stringify({
        tickets, page: query.page, per_page: perPage, count: tickets.length, sort_by: query.sort_by, sort_order: query.sort_order,
        has_more: data.next_page != null, next_page: data.next_page ? query.page + 1 : null, previous_page: data.previous_page && query.page > 1 ? query.page - 1 : null,
      }, null, 2);
    }
    case 'create_ticket': {
      const input = parse(CreateTicket, args);
      const created = await labelled('Failed to create ticket', async () => {
        const { description, ...fields } = input;
        const answer = await client.createTicket({ ...dropUndefined(fields), comment: { body: description } });
        return client.ticket((answer.ticket as Json).id as number);
      });
      return JSON.stringify({ message: 'Ticket created successfully', ticket: pick(created, FULL_TICKET) }, null, 2);
    }
    case 'update_ticket': {
      const { ticket_id, ...fields } = parse(UpdateTicket, args);
      const updated = await labelled(`Failed to update ticket ${ticket_id}`, async () => {
        await client.ticket(ticket_id);
        await client.updateTicket(ticket_id, dropUndefined(fields));
        return client.ticket(ticket_id);
      });
      return JSON.stringify({ message: 'Ticket updated successfully', ticket: pick(updated, FULL_TICKET) }, null, 2);
    }
    default:
      throw new Error(`Unknown tool: ${name}`);
  }
}

function parse<T extends z.ZodTypeAny>(schema: T, args: unknown): z.infer<T> {
  if (args === undefined || args === null) throw new Error('Missing arguments');
  const result = schema.safeParse(args);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`${issue.path.join('.') || 'arguments'}: ${issue.message}`);
  }
  return result.data;
}

function dropUndefined(record: Json): Json {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

async function labelled<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new Error(`${what}: ${(error as Error).message}`);
  }
}
