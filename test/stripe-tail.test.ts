import test from 'ava';
import Stripe from 'stripe';
import { startStack, type Stack } from '../catalog/stack.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { loadSpec } from '../mocks/kit/openapi.js';
import { testCaDir } from './helpers/proxy.js';
import { specValidator } from './helpers/spec-validate.js';

// The Stripe mock's long tail (mocks/stripe/fallback.ts): operations no handler takes, answered
// statefully by the kit's spec fallback from Stripe's own description, driven by stripe-node v23
// and validated against that description.

const validate = specValidator(loadSpec(new URL('../mocks/stripe/index.ts', import.meta.url).href, './spec/stripe-fallback.openapi.json'));
let stack: Stack;
let stripe: Stripe;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'scenarios/example/stripe/basic', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, proxy: false });
  const url = new URL(stack.addresses().services.stripe!);
  stripe = new Stripe('sk_test_51ExampleAcmeKey0000000', { host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0 });
});
test.after.always(() => stack?.close());

test('tax rates and webhook endpoints: created, read, listed newest first, updated, deleted; Stripe\'s 404; every answer in the spec\'s shape', async (t) => {
  const vat = await stripe.taxRates.create({ display_name: 'VAT', percentage: 20, inclusive: false, country: 'DE' });
  const gst = await stripe.taxRates.create({ display_name: 'GST', percentage: 10, inclusive: true });
  t.regex(vat.id, /^txr_[0-9A-Za-z]{24}$/);
  t.like(await stripe.taxRates.retrieve(vat.id), { display_name: 'VAT', percentage: 20, country: 'DE' });
  t.deepEqual((await stripe.taxRates.list()).data.map((r) => r.id), [gst.id, vat.id]);
  const page = await stripe.taxRates.list({ limit: 1 });
  t.true(page.has_more);
  t.deepEqual((await stripe.taxRates.list({ limit: 1, starting_after: page.data[0]!.id })).data.map((r) => r.id), [vat.id]);
  t.like(await stripe.taxRates.update(vat.id, { display_name: 'MwSt' }), { id: vat.id, display_name: 'MwSt' });
  t.like(await t.throwsAsync(stripe.taxRates.retrieve('txr_missing')), { statusCode: 404, code: 'resource_missing' });
  const hook = await stripe.webhookEndpoints.create({ url: 'https://shop.example/hooks', enabled_events: ['charge.refunded'] });
  t.regex(hook.id, /^we_/);
  t.like(await stripe.webhookEndpoints.del(hook.id), { id: hook.id, deleted: true });
  t.like(await t.throwsAsync(stripe.webhookEndpoints.retrieve(hook.id)), { statusCode: 404 });

  await stack.world.journal.flush();
  const entries: JournalEntry[] = [];
  for await (const entry of stack.world.journal.entries()) entries.push(entry);
  t.true(entries.every((e) => e.operation?.via === 'spec'), 'the spec fallback answered them all');
  for (const entry of entries.filter((e) => e.response.status === 200)) {
    const problem = validate(entry.operation!.name, JSON.parse(new TextDecoder().decode(entry.response.body)));
    t.is(problem, null, `${entry.method} ${entry.target}`);
  }
});
