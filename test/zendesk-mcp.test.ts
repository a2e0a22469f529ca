import test from 'ava';
import { readSnapshots } from '../catalog/snapshots.js';
import { useMcpStack } from './helpers/mcp-stack.js';

// toolbench's native Zendesk MCP server (mocks/zendesk/server/), started by the supervisor like
// any pinned server and reached through its bridge: its tools are the six of
// reminia/zendesk-mcp-server, every request goes over HTTPS through the proxy to
// larkspur.zendesk.com attributed to the tool call, and Zendesk's 429 reaches the agent with its
// Retry-After.

const mcp = useMcpStack(test, 'mocks/zendesk/faults', 'zendesk');
type Text = { content: { type: string; text: string }[]; isError?: boolean };
const call = async (name: string, args: Record<string, unknown>) => await mcp.client().callTool({ name, arguments: args }) as Text;

test.serial('tools/list: the six tools of the snapshot, with the server\'s name', async (t) => {
  const { tools } = await mcp.client().listTools();
  const snapshot = readSnapshots().find((s) => s.endpoint === 'zendesk')!;
  t.deepEqual(tools.map((tool) => tool.name).sort(), ['create_ticket', 'create_ticket_comment', 'get_ticket', 'get_ticket_comments', 'get_tickets', 'update_ticket']);
  t.deepEqual(tools.map((tool) => tool.name).sort(), snapshot.tools.map((tool) => tool.name).sort());
  t.is(mcp.client().getServerVersion()?.name, 'Zendesk');
});

test.serial('get_ticket and get_tickets answer the fields reminia\'s server picks; requests go through the proxy, attributed', async (t) => {
  const ticket = JSON.parse((await call('get_ticket', { ticket_id: 1002 })).content[0]!.text);
  t.deepEqual(Object.keys(ticket), ['id', 'subject', 'description', 'status', 'priority', 'created_at', 'updated_at', 'requester_id', 'assignee_id', 'organization_id']);
  t.like(ticket, { id: 1002, status: 'open', requester_id: 20019 });
  t.deepEqual(JSON.parse((await call('get_ticket', { ticket_id: '1002' })).content[0]!.text), ticket, 'a digit string is taken as the number');
  const page = JSON.parse((await call('get_tickets', { per_page: 10, page: 2 })).content[0]!.text);
  t.like(page, { page: 2, per_page: 10, count: 10, has_more: true, next_page: 3, previous_page: 1, sort_by: 'created_at', sort_order: 'desc' });
  const sortedDesc = page.tickets.map((x: { created_at: string }) => x.created_at);
  t.deepEqual(sortedDesc, [...sortedDesc].sort().reverse());
  const entries = (await mcp.entries()).filter((e) => e.kind === 'http');
  t.true(entries.every((e) => e.host === 'larkspur.zendesk.com' && e.attribution?.kind === 'mcp' && e.attribution.endpoint === 'zendesk'));
  t.deepEqual(entries.slice(-3).map((e) => [e.attribution?.tool, e.operation?.name]), [['get_ticket', 'tickets.show'], ['get_ticket', 'tickets.show'], ['get_tickets', 'tickets.list']]);
});

test.serial('a 429 reaches the agent with Retry-After; the retry lands the comment, private as asked', async (t) => {
  const limited = await call('create_ticket_comment', { ticket_id: 1002, comment: 'Checking with the warehouse.', public: false });
  t.true(limited.isError);
  t.regex(limited.content[0]!.text, /^Error: Failed to post comment on ticket 1002: HTTP 429 - Too Many Requests \(Retry-After: 7 s\)\. \{"error":"APIRateLimitExceeded"/);
  const done = await call('create_ticket_comment', { ticket_id: 1002, comment: 'Checking with the warehouse.', public: false });
  t.deepEqual(done, { content: [{ type: 'text', text: 'Comment created successfully: Checking with the warehouse.' }] });
  const comments = JSON.parse((await call('get_ticket_comments', { ticket_id: 1002 })).content[0]!.text);
  t.like(comments.at(-1), { author_id: 9002, body: 'Checking with the warehouse.', public: false });
});

test.serial('create_ticket and update_ticket: the created ticket, then its new fields; bad input is an error', async (t) => {
  const created = JSON.parse((await call('create_ticket', { subject: 'Pole snapped', description: 'A tent pole snapped on first use.', requester_id: 20019, priority: 'high', type: 'problem', tags: ['warranty'] })).content[0]!.text);
  t.like(created, { message: 'Ticket created successfully', ticket: { id: 1031, subject: 'Pole snapped', description: 'A tent pole snapped on first use.', status: 'new', priority: 'high', type: 'problem', requester_id: 20019, tags: ['warranty'] } });
  const updated = JSON.parse((await call('update_ticket', { ticket_id: 1031, status: 'pending', assignee_id: 9003, tags: ['warranty', 'tent'] })).content[0]!.text);
  t.like(updated, { message: 'Ticket updated successfully', ticket: { id: 1031, status: 'pending', assignee_id: 9003, tags: ['warranty', 'tent'] } });
  const missing = await call('get_ticket', { ticket_id: 99999 });
  t.true(missing.isError);
  t.regex(missing.content[0]!.text, /^Error: Failed to get ticket 99999: HTTP 404 - Not Found\. \{"error":"RecordNotFound","description":"Not found"\}$/);
  const invalid = await call('update_ticket', { ticket_id: 1031, assignee_id: 20019 });
  t.regex(invalid.content[0]!.text, /HTTP 422 .*RecordInvalid/);
});
