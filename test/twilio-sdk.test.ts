import test from 'ava';
import { readFileSync } from 'node:fs';
import { HttpsProxyAgent } from 'https-proxy-agent';
import twilio from 'twilio';
import { startStack, type Stack } from '../catalog/stack.js';
import { twilioSpec } from '../mocks/twilio/fallback.js';
import { journalEntries } from './helpers/mcp-stack.js';
import { testCaDir } from './helpers/proxy.js';
import { specValidator } from './helpers/spec-validate.js';
import { TWILIO_FORMATS } from './helpers/twilio.js';

// The official `twilio` SDK (v6), unmodified, over HTTPS to api.twilio.com through the proxy with
// the local CA, against the conformance world: messages (send, settle, filters, paging), calls,
// numbers, accounts, the spec fallback's queues, errors as RestExceptions. Every answer of the
// world is then validated against Twilio's own description (ajv).

const SCENARIO = 'mocks/twilio/conformance';
const ACCOUNT = 'AC0ff34b6f461fc20d099278f16181c244';
const TOKEN = '96ffa426dd6bcd727bc7846d5c773e9a';
const KEY = 'SK2106603b486bad8e8e2becd88b815dee';
const SECRET = 'toolbenchc766ca692061146c0aad';
const FRONT_DESK = '+14155550101';

/** https-proxy-agent takes the target's TLS options from the request; the SDK's agent gives none, so add the CA here. */
class TrustingProxyAgent extends HttpsProxyAgent<string> {
  constructor(proxy: string, private readonly caPem: Buffer) {
    super(proxy);
  }
  override connect(req: Parameters<HttpsProxyAgent<string>['connect']>[0], opts: Parameters<HttpsProxyAgent<string>['connect']>[1]) {
    return super.connect(req, { ...opts, ca: this.caPem } as typeof opts);
  }
}

let stack: Stack;
let agent: TrustingProxyAgent;
/** A client whose HTTP client goes through the proxy (the SDK's own option: `httpClient`). */
const clientOf = (user: string, password: string, accountSid?: string) => {
  const httpClient = new twilio.RequestClient({ autoRetry: false });
  httpClient.axios.defaults.httpsAgent = agent;
  return twilio(user, password, { httpClient, ...(accountSid ? { accountSid } : {}) });
};
let client: twilio.Twilio;

test.before(async () => {
  stack = await startStack({ scenarioDir: SCENARIO, ports: 'ephemeral', caDir: testCaDir(), endpoints: false });
  const { proxy, ca } = stack.addresses();
  agent = new TrustingProxyAgent(proxy!, readFileSync(ca!));
  client = clientOf(ACCOUNT, TOKEN);
});
test.after.always(() => stack?.close());

const entries = () => journalEntries(stack.world.journal);

test.serial('messages: send (queued, then delivered and priced on the logical clock), fetch, filters, every page by next_page_uri', async (t) => {
  const sent = await client.messages.create({ to: '+14155552033', from: FRONT_DESK, body: 'Your cleaning is booked for Tuesday 9:30.' });
  t.regex(sent.sid, /^SM[0-9a-f]{32}$/);
  t.like(sent, { status: 'queued', price: null, priceUnit: 'USD', direction: 'outbound-api', numSegments: '1', accountSid: ACCOUNT, from: FRONT_DESK, to: '+14155552033', apiVersion: '2010-04-01' });
  t.true(sent.dateCreated instanceof Date && !Number.isNaN(sent.dateCreated.getTime()), 'an RFC 2822 time the SDK parses');
  const later = await client.messages(sent.sid).fetch();
  t.like(later, { status: 'delivered', price: '-0.00790', body: 'Your cleaning is booked for Tuesday 9:30.' });
  t.true(later.dateSent instanceof Date);

  const toOne = await client.messages.list({ to: '+14155552033' });
  t.true(toOne.length >= 1 && toOne.every((m) => m.to === '+14155552033'));
  t.is(toOne[0]!.sid, sent.sid, 'newest first');
  const fromFront = await client.messages.list({ from: FRONT_DESK, limit: 1000 });
  t.true(fromFront.every((m) => m.from === FRONT_DESK));
  const onDay = await client.messages.list({ dateSent: new Date('2026-03-02T00:00:00Z') });
  t.true(onDay.some((m) => m.sid === sent.sid) && onDay.every((m) => m.dateSent.toISOString().startsWith('2026-03-02')));

  const all = await client.messages.list({ pageSize: 7 });
  t.is(all.length, 61, 'the dataset\'s 60 and the new one, over 9 pages');
  t.is(new Set(all.map((m) => m.sid)).size, 61);
  const pages = (await entries()).filter((e) => e.target.includes('/Messages.json?') && e.target.includes('PageToken=PA'));
  t.is(pages.length, 8, 'the SDK followed next_page_uri');
  const first = await client.messages.page({ pageSize: 5 });
  const second = await first.nextPage();
  t.deepEqual(second!.instances.map((m) => m.sid), all.slice(5, 10).map((m) => m.sid));
});

test.serial('messages: Twilio\'s errors as RestExceptions (21606, 21211, 20404), redaction and delete', async (t) => {
  const notMine = await t.throwsAsync(client.messages.create({ to: '+14155552033', from: '+13125550140', body: 'hi' }));
  t.like(notMine, { status: 400, code: 21606, moreInfo: 'https://www.twilio.com/docs/errors/21606' });
  const badTo = await t.throwsAsync(client.messages.create({ to: '555-0100', from: FRONT_DESK, body: 'hi' }));
  t.like(badTo, { status: 400, code: 21211 });
  const missing = await t.throwsAsync(client.messages('SMffffffffffffffffffffffffffffffff').fetch());
  t.like(missing, { status: 404, code: 20404 });
  const [old] = await client.messages.list({ limit: 1 });
  const redacted = await client.messages(old!.sid).update({ body: '' });
  t.is(redacted.body, '');
  t.true(await client.messages(old!.sid).remove());
  t.like(await t.throwsAsync(client.messages(old!.sid).fetch()), { status: 404 });
});

test.serial('credentials: an API key works for its account; a wrong secret is 401 20003; another account\'s path is refused', async (t) => {
  const byKey = clientOf(KEY, SECRET, ACCOUNT);
  t.is((await byKey.api.v2010.accounts(ACCOUNT).fetch()).friendlyName, 'Harbor Dental Group');
  const wrong = await t.throwsAsync(clientOf(KEY, 'not-the-secret', ACCOUNT).messages.list({ limit: 1 }));
  t.like(wrong, { status: 401, code: 20003 });
  const other = await t.throwsAsync(clientOf(ACCOUNT, TOKEN, 'ACffffffffffffffffffffffffffffffff').messages.list({ limit: 1 }));
  t.like(other, { status: 401, code: 20003 });
});

test.serial('calls, numbers and accounts: place and hang up a call, buy and configure a number, a subaccount', async (t) => {
  const call = await client.calls.create({ to: '+14155552010', from: FRONT_DESK, url: 'https://hooks.example.com/voice/reminder' });
  t.like(call, { status: 'queued', direction: 'outbound-api', toFormatted: '(415) 555-2010' });
  t.like(await client.calls(call.sid).fetch(), { status: 'in-progress' });
  const ended = await client.calls(call.sid).update({ status: 'completed' });
  t.is(ended.status, 'completed');
  t.true(Number(ended.duration) >= 0);
  const completed = await client.calls.list({ status: 'completed', limit: 200 });
  t.true(completed.some((c) => c.sid === call.sid) && completed.every((c) => c.status === 'completed'));

  const bought = await client.incomingPhoneNumbers.create({ areaCode: '617', friendlyName: 'Boston recall line' });
  t.regex(bought.phoneNumber, /^\+1617555\d{4}$/);
  const updated = await client.incomingPhoneNumbers(bought.sid).update({ smsUrl: 'https://hooks.example.com/sms/recall' });
  t.is(updated.smsUrl, 'https://hooks.example.com/sms/recall');
  t.true((await client.incomingPhoneNumbers.list({ phoneNumber: bought.phoneNumber })).some((n) => n.sid === bought.sid));
  t.true((await client.incomingPhoneNumbers.local.list()).some((n) => n.sid === bought.sid));
  t.true((await client.incomingPhoneNumbers.tollFree.list()).every((n) => n.phoneNumber.startsWith('+18')));
  t.deepEqual((await client.incomingPhoneNumbers.mobile.list()).map((n) => n.phoneNumber), ['+12065550160'], 'the dataset says which number is mobile');
  t.true(await client.incomingPhoneNumbers(bought.sid).remove());

  const sub = await client.api.v2010.accounts.create({ friendlyName: 'Harbor Dental Kids' });
  t.like(sub, { ownerAccountSid: ACCOUNT, status: 'active' });
  t.true((await client.api.v2010.accounts.list({ status: 'active' })).some((a) => a.sid === sub.sid));
  t.is((await client.api.v2010.accounts(sub.sid).update({ status: 'suspended' })).status, 'suspended');
});

test.serial('the long tail: queues by the spec fallback, kept as state (create, fetch, list, update, remove)', async (t) => {
  const queue = await client.queues.create({ friendlyName: 'Recall list', maxSize: 25 });
  t.regex(queue.sid, /^QU[0-9a-f]{32}$/);
  t.like(queue, { friendlyName: 'Recall list', maxSize: 25, accountSid: ACCOUNT });
  t.like(await client.queues(queue.sid).fetch(), { friendlyName: 'Recall list' });
  t.true((await client.queues.list()).some((q) => q.sid === queue.sid));
  t.is((await client.queues(queue.sid).update({ friendlyName: 'Recalls' })).friendlyName, 'Recalls');
  t.true(await client.queues(queue.sid).remove());
  t.like(await t.throwsAsync(client.queues(queue.sid).fetch()), { status: 404, code: 20404 });
  const via = (await entries()).filter((e) => e.target.includes('/Queues'));
  t.true(via.every((e) => e.operation?.via === 'spec'));
});

test.serial('every 2xx JSON answer above validates against Twilio\'s description, every property present; errors are Twilio\'s envelope', async (t) => {
  const validate = specValidator(twilioSpec(), { formats: TWILIO_FORMATS, allProperties: true });
  const all = (await entries()).filter((e) => e.service === 'twilio');
  let checked = 0;
  for (const entry of all) {
    const body = new TextDecoder().decode(entry.response.body);
    if (entry.response.status === 204) {
      t.is(body, '', `${entry.method} ${entry.target}: 204 has no body`);
      continue;
    }
    const value = JSON.parse(body) as Record<string, unknown>;
    if (entry.response.status >= 400) {
      t.deepEqual(Object.keys(value).filter((k) => k !== 'detail'), ['code', 'message', 'more_info', 'status'], `${entry.target}: ${body}`);
      continue;
    }
    t.is(validate(entry.operation!.name, value), null, `${entry.operation!.name} ${entry.method} ${entry.target}`);
    checked += 1;
  }
  t.true(checked >= 30, `${checked} answers validated`);
});
