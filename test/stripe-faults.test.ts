import test from 'ava';
import Stripe from 'stripe';
import { prepareWorld } from './helpers/prepare-world.js';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { serveWorld } from '../proxy/serve.js';
import { journalEntries } from './helpers/mcp-stack.js';

// Faults in Stripe's words: a 429 is its rate limit, a 503 its api_error with
// Stripe-Should-Retry; stripe-node v23, unmodified, retries both and gets the real answer.

const SCENARIO = 'scenarios/example/stripe/basic';
const KEY = 'sk_test_51ExampleAcmeKey0000000';

async function served(rules: unknown[]) {
  const { header, services, catalog } = prepareWorld({ scenarioDir: SCENARIO });
  const faults = { chaos: 'none' as const, rules: rules.map((rule) => FaultRuleSchema.parse(rule)) };
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
  const listening = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0 });
  const url = new URL(listening.services.stripe!.url);
  return { world, url, close: () => listening.close() };
}

test('a 429 and a 503 answer in Stripe\'s envelope; stripe-node retries them and succeeds', async (t) => {
  const w = await served([
    { route: '/v1/customers', operation: 'customers.create', kind: '429', nth: [1], retry_after: 0 },
    { route: '/v1/balance', kind: '503', nth: [1], retry_after: 0 },
  ]);
  try {
    const raw = await fetch(`${w.url.origin}/v1/customers`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Rate%20Limited' });
    t.is(raw.status, 429);
    t.deepEqual(await raw.json(), { error: { code: 'rate_limit', doc_url: 'https://stripe.com/docs/error-codes/rate-limit', message: 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.', type: 'invalid_request_error' } });
    t.is(raw.headers.get('retry-after'), '0');
    t.regex(raw.headers.get('request-id') ?? '', /^req_/);

    const stripe = new Stripe(KEY, { host: w.url.hostname, port: Number(w.url.port), protocol: 'http', maxNetworkRetries: 2 });
    const balance = await stripe.balance.retrieve();
    t.is(balance.object, 'balance');
    const balances = (await journalEntries(w.world.journal)).filter((e) => e.target === '/v1/balance');
    t.deepEqual(balances.map((e) => e.response.status), [503, 200], 'the 503 (Stripe-Should-Retry: true) was retried once');
    const first = balances[0]!;
    t.like(JSON.parse(new TextDecoder().decode(first.response.body)), { error: { type: 'api_error' } });
    t.true(first.response.headers.some(([name, value]) => name === 'Stripe-Should-Retry' && value === 'true'));
  } finally {
    await w.close();
    await w.world.journal.close();
  }
});
