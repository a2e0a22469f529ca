import test from 'ava';
import { readFileSync } from 'node:fs';
import { HttpsProxyAgent } from 'https-proxy-agent';
import nodeZendesk from 'node-zendesk';
import { startStack, type Stack } from '../catalog/stack.js';
import { journalEntries } from './helpers/mcp-stack.js';
import { testCaDir } from './helpers/proxy.js';

// node-zendesk v6 (cross-fetch), unmodified, against the Zendesk mock over HTTPS through the
// proxy: its `agent` option goes to node-fetch, so a proxy agent with the CA carries every call
// to https://larkspur.zendesk.com. The world's first ticket update meets Zendesk's 429.

/** https-proxy-agent takes the target's TLS options from the request; node-fetch gives none, so add the CA here. */
class TrustingProxyAgent extends HttpsProxyAgent<string> {
  constructor(proxy: string, private readonly caPem: Buffer) {
    super(proxy);
  }
  override connect(req: Parameters<HttpsProxyAgent<string>['connect']>[0], opts: Parameters<HttpsProxyAgent<string>['connect']>[1]) {
    return super.connect(req, { ...opts, ca: this.caPem } as typeof opts);
  }
}

const SCENARIO = 'mocks/zendesk/faults';
const EMAIL = 'priya@larkspur-outfitters.example';
const TOKEN = 'zd_clients_token_00000000000000000000000';
let stack: Stack;
let agent: TrustingProxyAgent;
// node-zendesk's declarations type most answers as `object`; the tests read them loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
const zendesk = (token = TOKEN): Loose => nodeZendesk.createClient({ username: EMAIL, token, subdomain: 'larkspur', agent, throwOriginalException: true } as Parameters<typeof nodeZendesk.createClient>[0]);

test.before(async () => {
  stack = await startStack({ scenarioDir: SCENARIO, ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['sdk'] });
  const { ca } = stack.addresses();
  agent = new TrustingProxyAgent(stack.proxy!.proxy.urlFor('sdk'), readFileSync(ca!));
});
test.after.always(() => stack?.close());

test.serial('the first ticket update meets Zendesk\'s rate limit: 429 APIRateLimitExceeded with Retry-After', async (t) => {
  // node-zendesk reads Retry-After and hands back its rate-limit error as the result (it does not throw).
  const outcome: Loose = await zendesk().tickets.update(1002, { ticket: { priority: 'high' } });
  t.is(outcome.response.status, 429);
  t.true(outcome.result instanceof Error);
  t.like(outcome.result, { statusCode: 429, message: 'Zendesk rate limits 200 requests per minute' });
  const rejected = (await journalEntries(stack.world.journal)).at(-1)!;
  t.is(rejected.host, 'larkspur.zendesk.com');
  t.is(rejected.response.status, 429);
  t.deepEqual(JSON.parse(new TextDecoder().decode(rejected.response.body)), { error: 'APIRateLimitExceeded', description: 'Number of allowed API requests per minute exceeded' });
  t.true(rejected.response.headers.some(([name, value]) => name === 'Retry-After' && value === '7'));
  t.like((await zendesk().tickets.update(1002, { ticket: { priority: 'high' } })).result, { id: 1002, priority: 'high' }, 'the retry passes');
});

test.serial('users.me, tickets: list (cursor pages), show, comments, create, update with a comment', async (t) => {
  const client = zendesk();
  const me = await client.users.me();
  t.like(me.result, { id: 9002, email: EMAIL, role: 'agent' });
  const all = await client.tickets.list();
  t.is(all.length, 30);
  t.deepEqual(all.slice(0, 3).map((ticket: { id: number }) => ticket.id), [1001, 1002, 1003]);
  const listed = (await journalEntries(stack.world.journal)).filter((e) => e.target.startsWith('/api/v2/tickets.json'));
  t.true(listed.at(-1)!.target.includes('page%5Bsize%5D=100') || listed.at(-1)!.target.includes('page[size]=100'), listed.at(-1)!.target);

  const shown = await client.tickets.show(1002);
  t.like(shown.result, { id: 1002, status: 'open', requester_id: 20019 });
  const comments = await client.tickets.getComments(1002);
  t.true(comments.length >= 2);
  t.is(comments[0].body, shown.result.description);

  const created = await client.tickets.create({ ticket: { subject: 'Stove sparks', comment: { body: 'The Ember stove sparks at the valve.' }, requester_id: 20019, priority: 'high', tags: ['product_question'] } });
  t.like(created.result, { id: 1031, subject: 'Stove sparks', status: 'new', priority: 'high', requester_id: 20019, submitter_id: 9002 });
  t.is(created.response.status, 201);

  const updated = await client.tickets.update(1031, { ticket: { status: 'pending', comment: { body: 'Could you send a photo of the valve?', public: true } } });
  t.like(updated.result, { id: 1031, status: 'pending' });
  const thread = await client.tickets.getComments(1031);
  t.deepEqual(thread.map((c: { author_id: number; body: string }) => [c.author_id, c.body]), [[9002, 'The Ember stove sparks at the valve.'], [9002, 'Could you send a photo of the valve?']]);
});

test.serial('search (query syntax), users, organizations, groups, ticket fields, macros, views', async (t) => {
  const client = zendesk();
  const open = await client.search.queryAll('type:ticket status:open');
  t.true(open.length > 0);
  t.true(open.every((r: { result_type: string; status: string }) => r.result_type === 'ticket' && r.status === 'open'));
  const unsolved = await client.search.query('type:ticket status<solved tags:billing');
  t.true((unsolved.result as { status: string; tags: string[] }[]).every((r) => ['new', 'open', 'pending', 'hold'].includes(r.status) && r.tags.includes('billing')));
  const agents = await client.search.queryAll('type:user role:agent');
  t.deepEqual(agents.map((u: { id: number }) => u.id).sort(), [9002, 9003, 9004]);
  const found = await client.users.search({ query: 'email:maren@larkspur-outfitters.example' });
  t.deepEqual(found.map((u: { id: number }) => u.id), [9001]);
  t.is((await client.users.list()).length, 24);
  t.is((await client.organizations.list()).length, 6);
  t.like((await client.organizations.show(360001)).result, { name: 'Brightline Logistics' });
  t.is((await client.groups.list()).length, 3);
  t.deepEqual((await client.ticketfields.list()).map((f: { title: string }) => f.title), ['Order number', 'Contact reason', 'VIP customer', 'Promised callback']);
  t.deepEqual((await client.macros.list()).map((m: { title: string }) => m.title), ['Returns: send label', 'Shipping: tracking delayed', 'Billing: refund issued'], 'the active ones');
  // views.tickets answers `tickets`, which node-zendesk (looking for `views`) hands back as whole pages.
  const unassigned = (await client.views.tickets(360101)).flatMap((page: { tickets: unknown[] }) => page.tickets);
  t.true(unassigned.length > 0);
  t.true(unassigned.every((ticket: { assignee_id: number | null; status: string }) => ticket.assignee_id === null && ['new', 'open', 'pending', 'hold'].includes(ticket.status)));
});

test.serial('errors: an unknown ticket is RecordNotFound, a wrong token is 401', async (t) => {
  const missing = await t.throwsAsync(zendesk().tickets.show(99999)) as Error & { statusCode?: number; result?: unknown };
  t.is(missing.statusCode, 404);
  t.deepEqual(missing.result, { error: 'RecordNotFound', description: 'Not found' });
  const refused = await t.throwsAsync(zendesk('not-a-token').users.me()) as Error & { statusCode?: number; result?: unknown };
  t.is(refused.statusCode, 401);
  t.deepEqual(refused.result, { error: "Couldn't authenticate you" });
  const entries = await journalEntries(stack.world.journal);
  t.true(entries.every((e) => e.host === 'larkspur.zendesk.com' && e.attribution?.client === 'sdk'));
});
