import test from 'ava';
import { join } from 'node:path';
import { openWorld } from '../scenarios/world.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { stripeService } from '../mocks/stripe/index.js';
import { scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Stripe scenario of the business group (helpers/scenario-suite): valid (oracle arguments
// against the real server's input schemas), nop 0, oracle 1 with R_b 0 through the real
// @stripe/mcp, replay identical, bypassed writes fail; and near misses score 0.

const dirs = findScenarios(join('scenarios', 'business')).filter((dir) => dir.includes('/stripe/'));
const accountKeys = (state: Record<string, Record<string, unknown>>) => (state.account?.account as { api_keys: string[] } | undefined)?.api_keys ?? [];
const manifests = scenarioSuite({
  service: 'stripe',
  dirs,
  credentialOk: (world, key) => typeof key === 'string' && accountKeys(world.state(['stripe']).stripe!).includes(key),
  operationNames: stripeService.kit.operations.map((operation) => operation.name),
});

scenarioSetSuite('Stripe', 'stripe', manifests, { collection: 'customers', min: 20, what: 'a non-trivial account' });

/** A near miss scores 0: the wrong one of two identical charges refunded, or the right order refunded in full. */
test('near misses score 0: the forbidden refund is caught and the expected state is missing', async (t) => {
  const cases: [string, string][] = [
    ['business/stripe/refund-duplicate-charge', 'payment_intent=pi_5da3PkhBPaT4EY0jeC9UmCUr'],
    ['business/stripe/partial-refund-damaged-item', 'payment_intent=pi_PTGy2AdBMTSZg7f3oJAkf5EL'],
    ['business/stripe/partial-refund-damaged-item', 'payment_intent=pi_1YmkuF32aHGUAjjdY4ttcILB'],
  ];
  for (const [id, form] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const response = await opened.world.dispatch({ host: 'api.stripe.com', method: 'POST', target: '/v1/refunds', body: new TextEncoder().encode(form),
        headers: [['Authorization', `Bearer ${manifest.credentials.stripe as string}`], ['Content-Type', 'application/x-www-form-urlencoded']] });
      t.is(response.status, 200, `${id}: ${form}`);
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, `${id}: ${form}`);
      t.false(result.forbidden_calls_ok, `${id}: ${form}`);
    } finally {
      await opened.world.journal.close();
    }
  }
});
