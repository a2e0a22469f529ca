import test from 'ava';
import { join } from 'node:path';
import { hubspotService } from '../mocks/hubspot/index.js';
import { twilioService } from '../mocks/twilio/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';
import { nearMissOverMcp, nearMissTest } from './helpers/near-miss-mcp.js';

// The second set of business cross-service scenarios (issue 20). Each: valid, nop 0, oracle 1 with
// R_b 0 over the real MCP servers, replay identical, bypassed writes fail (helpers/scenario-suite);
// and near-miss agents, the oracle's calls over MCP with one tempting wrong choice, score 0.

interface TwilioCredential { account_sid: string; api_key: string; api_secret: string }
const twilioOperationNames = twilioService.kit.operations.map((operation) => operation.name);

// Shopify and Twilio: the open, unfulfilled order is tagged delayed and its customer texted.
const smsDir = join('scenarios', 'business', 'cross', 'shopify-delayed-order-sms');
const sms = scenarioSuite({
  service: 'twilio',
  services: ['shopify', 'twilio'],
  dirs: [smsDir],
  credentialOk: (world, credential) => {
    const c = credential as TwilioCredential;
    const key = world.state(['twilio']).twilio?.keys?.[c.api_key] as { secret: string; account_sid: string } | undefined;
    return key !== undefined && key.secret === c.api_secret && key.account_sid === c.account_sid;
  },
  operationNames: twilioOperationNames,
}).get(smsDir)!;

nearMissTest()(`${sms.id}: an agent that texts the number the Twilio history shows (Dana's old one) without reading her Shopify record scores 0`, async (t) => {
  const { result, state, failed } = await nearMissOverMcp(smsDir, sms, (call) => {
    if (call.tool === 'get-customers' || call.tool === 'get-customer-orders') return null;
    if (call.tool === 'TwilioApiV2010--CreateMessage') return { ...call, arguments: { ...call.arguments, To: '+15035550510' } };
    return call;
  });
  const sent = Object.values(state.twilio!.messages!) as { to: string; direction: string; body: string }[];
  t.true(sent.some((m) => m.to === '+15035550510' && m.body.includes('#1038')), 'the near miss really sent the text');
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    'one new text to Dana\'s number from Order updates names #1038',
    'and says it is backordered or delayed',
    'no text today to Dana\'s old number or the look-alike customer',
    'the customer is looked up in Shopify (customers or their orders)',
    'the text is sent through the Twilio MCP server\'s CreateMessage, to Dana, from Order updates',
    'no text to anyone else (the old number, the look-alike customer)',
  ]);
});

nearMissTest()(`${sms.id}: an agent that picks her latest unfulfilled order (the cancelled #1043) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(smsDir, sms, (call) => {
    if (call.tool === 'update-order') return { ...call, arguments: { id: 'gid://shopify/Order/5900000000143', tags: ['delayed'] } };
    if (call.tool === 'TwilioApiV2010--CreateMessage') return { ...call, arguments: { ...call.arguments, Body: String(call.arguments.Body).replace('#1038', '#1043') } };
    return call;
  }, 'Tagged #1043 delayed and texted Dana about it.');
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    '#1038 keeps its gift tag and is tagged delayed',
    'the cancelled #1043 and the look-alike\'s #1040 are untouched',
    'one new text to Dana\'s number from Order updates names #1038',
    '#1038 is tagged through the MCP server\'s update-order',
    'no other order is updated',
    'the answer names the order',
    'and not the cancelled one',
  ]);
});

// Stripe and HubSpot: a customer's disputed payments noted on his HubSpot contact.
const disputesDir = join('scenarios', 'business', 'cross', 'stripe-disputes-hubspot-note');
const disputes = scenarioSuite({
  service: 'hubspot',
  services: ['hubspot', 'stripe'],
  dirs: [disputesDir],
  credentialOk: (world, token) => typeof token === 'string' && token in (world.state(['hubspot']).hubspot!.tokens ?? {}),
  operationNames: hubspotService.kit.operations.map((operation) => operation.name),
}).get(disputesDir)!;

nearMissTest()(`${disputes.id}: an agent that logs the note on the other Olumide Adeyemi (Brightwave, 342) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(disputesDir, disputes, (call) => (call.tool === 'hubspot-create-engagement'
    ? { ...call, arguments: { ...call.arguments, associations: { contactIds: [342] } } }
    : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(failed.includes('one note on contact 341 names every disputed order'));
  t.true(failed.includes('nothing is logged on the other Olumide Adeyemi'));
});

nearMissTest()(`${disputes.id}: an agent that takes all four of his payments for disputed (ORD-5611 never checked) scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(disputesDir, disputes, (call) => {
    if (call.tool === 'list_disputes' && call.arguments.payment_intent === 'pi_Qd4Lw8TnZs2Vx6Hc1Rk9Ym3B') return null;
    if (call.tool === 'hubspot-create-engagement') {
      const metadata = call.arguments.metadata as { body: string };
      return { ...call, arguments: { ...call.arguments, metadata: { body: `${metadata.body} Also ORD-5611 ($120.00).` } } };
    }
    return call;
  });
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed, ['but not the undisputed ORD-5611 or another customer\'s dispute', 'the disputes of ORD-5611\'s payment are listed in Stripe (to know it is not disputed)']);
});
