import test from 'ava';
import { openWorld, type OpenedWorld } from '../scenarios/world.js';

// The Zendesk mock's own rules, in process on the client-test world (mocks/zendesk/faults): the
// search syntax subset, both kinds of pages, `.json` optional, and the ticket rules a real
// help desk enforces (closed tickets, agents as assignees, comment authors, tags).

const HOST = 'larkspur.zendesk.com';
const AUTH = `Basic ${Buffer.from('priya@larkspur-outfitters.example/token:zd_clients_token_00000000000000000000000').toString('base64')}`;
let opened: OpenedWorld;

test.before(async () => {
  opened = await openWorld({ scenarioDir: 'mocks/zendesk/faults' });
});
test.after.always(() => opened?.world.journal.close());

function call(method: string, target: string, body?: unknown): { status: number; json: Record<string, unknown> } {
  const { response } = opened.world.process({
    host: HOST, method, target, body: new TextEncoder().encode(body === undefined ? '' : JSON.stringify(body)),
    headers: [['Host', HOST], ['Authorization', AUTH], ...(body === undefined ? [] : [['Content-Type', 'application/json'] as [string, string]])],
  });
  const text = new TextDecoder().decode(response.body);
  return { status: response.status, json: text === '' ? {} : JSON.parse(text) as Record<string, unknown> };
}

type Ticket = { id: number; status: string; priority: string | null; tags: string[]; requester_id: number; assignee_id: number | null; subject: string; created_at: string };
const search = (query: string) => call('GET', `/api/v2/search.json?query=${encodeURIComponent(query)}&per_page=100`).json.results as (Ticket & { result_type: string })[];
const tickets = () => call('GET', '/api/v2/tickets.json?per_page=100').json.tickets as Ticket[];

test.serial('the world\'s first ticket update meets its rate-limit fault (then updates pass)', (t) => {
  const limited = call('PUT', '/api/v2/tickets/1002.json', { ticket: { priority: 'high' } });
  t.like(limited, { status: 429, json: { error: 'APIRateLimitExceeded' } });
  t.is(call('PUT', '/api/v2/tickets/1002.json', { ticket: { priority: 'high' } }).status, 200);
});

test.serial('search: status order, negation, tags, requester by email, people and organizations by type', (t) => {
  const all = tickets();
  const unsolved = search('type:ticket status<solved');
  t.deepEqual(unsolved.map((r) => r.id), all.filter((x) => ['new', 'open', 'pending', 'hold'].includes(x.status)).map((x) => x.id));
  t.deepEqual(search('type:ticket status>=solved -status:closed').map((r) => r.id), all.filter((x) => x.status === 'solved').map((x) => x.id));
  t.deepEqual(search('type:ticket tags:billing').map((r) => r.id), all.filter((x) => x.tags.includes('billing')).map((x) => x.id));
  const requester = all[0]!.requester_id;
  const email = (call('GET', `/api/v2/users/${requester}.json`).json.user as { email: string }).email;
  t.deepEqual(search(`type:ticket requester:${email}`).map((r) => r.id), all.filter((x) => x.requester_id === requester).map((x) => x.id));
  t.deepEqual(search('type:ticket assignee:none').map((r) => r.id), all.filter((x) => x.assignee_id === null).map((x) => x.id));
  t.deepEqual(search('type:user role:admin').map((r) => [r.result_type, r.id]), [['user', 9001]]);
  t.deepEqual(search('type:organization Brightline').map((r) => r.id), [360001]);
  t.deepEqual(search('type:ticket created<2000-01-01'), []);
  t.is(call('GET', '/api/v2/search.json').status, 400);
});

test.serial('search: words, quoted phrases and prefixes over subject, description and comments', (t) => {
  const created = call('POST', '/api/v2/tickets.json', { ticket: { subject: 'Crampon strap torn', comment: { body: 'The left crampon strap tore on the glacier.' }, requester_id: 20001 } });
  t.is(created.status, 201);
  const id = (created.json.ticket as Ticket).id;
  t.deepEqual(search('type:ticket crampon').map((r) => r.id), [id]);
  t.deepEqual(search('type:ticket "strap tore"').map((r) => r.id), [id]);
  t.deepEqual(search('type:ticket "tore strap"'), []);
  t.deepEqual(search('type:ticket cramp*').map((r) => r.id), [id]);
  call('PUT', `/api/v2/tickets/${id}.json`, { ticket: { comment: { body: 'Replacement ships from Denver.', public: false } } });
  t.deepEqual(search('type:ticket comment:denver').map((r) => r.id), [id]);
  t.deepEqual(search('type:ticket subject:denver'), []);
});

test.serial('pages: offset links and counts, cursor links, `.json` optional', (t) => {
  const first = call('GET', '/api/v2/tickets.json?per_page=7&sort_by=created_at&sort_order=desc').json;
  t.is(first.count, tickets().length);
  t.is(first.next_page, 'https://larkspur.zendesk.com/api/v2/tickets.json?per_page=7&sort_by=created_at&sort_order=desc&page=2');
  t.is(first.previous_page, null);
  const dates = (first.tickets as Ticket[]).map((x) => x.created_at);
  t.deepEqual(dates, [...dates].sort().reverse());
  const seen: number[] = [];
  let next: string | null = '/api/v2/tickets?page[size]=4';
  while (next) {
    const page = call('GET', next.replace('https://larkspur.zendesk.com', '')).json as { tickets: Ticket[]; meta: { has_more: boolean }; links: { next: string | null } };
    seen.push(...page.tickets.map((x) => x.id));
    t.is(page.meta.has_more, page.links.next !== null);
    next = page.links.next;
  }
  t.deepEqual(seen, tickets().map((x) => x.id));
  t.is(call('GET', '/api/v2/tickets.json?page[size]=101').status, 400);
  t.is(call('GET', '/api/v2/tickets/1002').json.ticket !== undefined, true);
  t.like(call('GET', '/api/v2/nothing/here.json'), { status: 404, json: { error: 'InvalidEndpoint' } });
});

test.serial('ticket rules: closed refuses updates, assignees are agents, the caller authors comments, tags normalised', (t) => {
  const closed = tickets().find((x) => x.status === 'closed')!;
  t.like(call('PUT', `/api/v2/tickets/${closed.id}.json`, { ticket: { status: 'open' } }), { status: 422, json: { error: 'RecordInvalid' } });
  const open = tickets().find((x) => x.status === 'open')!;
  t.like(call('PUT', `/api/v2/tickets/${open.id}.json`, { ticket: { assignee_id: open.requester_id } }), { status: 422, json: { details: { assignee: [{ error: 'InvalidValue' }] } } });
  const updated = call('PUT', `/api/v2/tickets/${open.id}.json`, { ticket: { additional_tags: ['VIP Customer'], comment: { html_body: '<p>Checked &amp; <b>done</b></p>' } } });
  t.true((updated.json.ticket as Ticket).tags.includes('vip_customer'));
  const comments = call('GET', `/api/v2/tickets/${open.id}/comments.json`).json.comments as { author_id: number; body: string; public: boolean }[];
  t.like(comments.at(-1), { author_id: 9002, body: 'Checked & done', public: true });
  t.like(call('POST', '/api/v2/tickets.json', { ticket: { subject: 'No description' } }), { status: 422, json: { details: { base: [{ description: 'Description: cannot be blank' }] } } });
  t.like(call('GET', '/api/v2/tickets/99999.json'), { status: 404, json: { error: 'RecordNotFound', description: 'Not found' } });
});
