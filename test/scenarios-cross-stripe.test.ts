import test from 'ava';
import { join } from 'node:path';
import { openWorld } from '../scenarios/world.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { stripeService } from '../mocks/stripe/index.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// The cross-service scenario of Stripe and Linear: a refund that a Linear issue asks for. Valid
// (its oracle's arguments fit both real servers' input schemas), nop 0, oracle 1 with R_b 0 over
// both MCP servers, replay identical, bypassed writes fail; a near miss scores 0.

const dir = join('scenarios', 'business', 'cross', 'stripe-refund-from-linear-issue');
const manifest = scenarioSuite({
  service: 'stripe',
  services: ['stripe', 'linear'],
  dirs: [dir],
  credentialOk: (world, key) => typeof key === 'string'
    && ((world.state(['stripe']).stripe!.account?.account as { api_keys: string[] } | undefined)?.api_keys ?? []).includes(key),
  operationNames: stripeService.kit.operations.map((operation) => operation.name),
}).get(dir)!;

test(`${manifest.id}: the Linear credential is the billing ops user's; refunding the first charge instead scores 0`, async (t) => {
  const opened = await openWorld({ scenarioDir: dir });
  try {
    const users = Object.values(opened.world.state(['linear']).linear!.User ?? {}) as { email: string; apiKeys: string[] }[];
    t.is(users.find((u) => u.apiKeys.includes(manifest.credentials.linear as string))?.email, 'jordan@tern.example');
    const response = await opened.world.dispatch({ host: 'api.stripe.com', method: 'POST', target: '/v1/refunds', body: new TextEncoder().encode('payment_intent=pi_xJr25y6afpOvp1zVxaaVj0Vc'),
      headers: [['Authorization', `Bearer ${manifest.credentials.stripe as string}`], ['Content-Type', 'application/x-www-form-urlencoded']] });
    t.is(response.status, 200);
    const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
    t.is(result.reward, 0);
    t.false(result.forbidden_calls_ok);
  } finally {
    await opened.world.journal.close();
  }
});
