import test from 'ava';
import { join } from 'node:path';
import { twilioService } from '../mocks/twilio/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';
import { nearMissOverMcp, nearMissTest } from './helpers/near-miss-mcp.js';

// The third set's business scenario (issue 20): a customer's text about a double charge, the
// duplicate refunded in Stripe and the customer texted back from the line he wrote to. Valid, nop
// 0, oracle 1 with R_b 0 over the real MCP servers, replay identical, bypassed writes fail
// (helpers/scenario-suite); near-miss agents score 0.

interface TwilioCredential { account_sid: string; api_key: string; api_secret: string }

const dir = join('scenarios', 'business', 'cross', 'sms-double-charge-stripe-refund');
const charge = scenarioSuite({
  service: 'twilio',
  services: ['stripe', 'twilio'],
  dirs: [dir],
  credentialOk: (world, credential) => {
    const c = credential as TwilioCredential;
    const key = world.state(['twilio']).twilio?.keys?.[c.api_key] as { secret: string; account_sid: string } | undefined;
    const stripeKeys = (world.state(['stripe']).stripe!.account?.account as { api_keys: string[] } | undefined)?.api_keys ?? [];
    return key !== undefined && key.secret === c.api_secret && key.account_sid === c.account_sid && stripeKeys.includes('sk_test_51Cross3BillingSmsKey00000');
  },
  operationNames: twilioService.kit.operations.map((operation) => operation.name),
}).get(dir)!;

const ORIGINAL = 'pi_6O8XHdw6AoUBuLMmkbu7ymt6';
const LOOK_ALIKE_SAME_DAY = 'pi_mFJ30BAcvt37aFpuSZxnJVhg';

nearMissTest(test.serial)(`${charge.id}: an agent that refunds the original charge (the first of the pair) scores 0`, async (t) => {
  const { result, state, failed } = await nearMissOverMcp(dir, charge, (call) => (call.tool === 'create_refund' ? { ...call, arguments: { payment_intent: ORIGINAL } } : call));
  const refunds = Object.values(state.stripe!.refunds!) as { payment_intent: string }[];
  t.true(refunds.some((r) => r.payment_intent === ORIGINAL), 'the original really was refunded');
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    'one full refund of ORD-88412\'s duplicate charge',
    'no refund of the original charge, the November order or the other Marco Bellini\'s payments',
    'the refund through the Stripe MCP server\'s create_refund',
    'the original charge of ORD-88412 stands',
  ]);
});

nearMissTest(test.serial)(`${charge.id}: an agent that refunds both charges of ORD-88412 scores 0`, async (t) => {
  const { result } = await nearMissOverMcp(dir, charge, (call) => (call.tool === 'create_refund' ? [{ ...call, arguments: { payment_intent: ORIGINAL } }, call] : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
});

nearMissTest(test.serial)(`${charge.id}: an agent that refunds the other Marco Bellini's same-evening $86.40 and texts him scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(dir, charge, (call) => {
    if (call.tool === 'create_refund') return { ...call, arguments: { payment_intent: LOOK_ALIKE_SAME_DAY } };
    if (call.tool === 'TwilioApiV2010--CreateMessage') return { ...call, arguments: { ...call.arguments, To: '+15035550742' } };
    return call;
  });
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(failed.includes('no text today to the other Marco Bellini'));
  t.true(failed.includes('no other payment is refunded'));
});

nearMissTest(test.serial)(`${charge.id}: an agent that replies from the Order updates line instead of Billing scores 0`, async (t) => {
  const { result, failed } = await nearMissOverMcp(dir, charge, (call) => (call.tool === 'TwilioApiV2010--CreateMessage' ? { ...call, arguments: { ...call.arguments, From: '+15035550190' } } : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.deepEqual(failed, [
    'one new text from Billing to the customer who asked names ORD-88412',
    'and says it was refunded',
    'the reply through the Twilio MCP server\'s CreateMessage, from Billing to the customer',
    'no text from another line than Billing',
  ]);
});
