import test from 'ava';
import { readFileSync } from 'node:fs';
import { HttpsProxyAgent } from 'https-proxy-agent';
import Stripe from 'stripe';
import { startStack, type Stack } from '../catalog/stack.js';
import { journalEntries } from './helpers/mcp-stack.js';
import { testCaDir } from './helpers/proxy.js';

// stripe-node v23, unmodified (a client no one here wrote), against the Stripe mock: on the
// world's plain port, and over HTTPS through the proxy with an explicit proxy agent and the CA.

/** https-proxy-agent takes the target's TLS options from the request; stripe-node gives none, so add the CA here. */
class TrustingProxyAgent extends HttpsProxyAgent<string> {
  constructor(proxy: string, private readonly caPem: Buffer) {
    super(proxy);
  }
  override connect(req: Parameters<HttpsProxyAgent<string>['connect']>[0], opts: Parameters<HttpsProxyAgent<string>['connect']>[1]) {
    return super.connect(req, { ...opts, ca: this.caPem } as typeof opts);
  }
}

export const STRIPE_SCENARIO = 'scenarios/example/stripe/basic';
const KEY = 'sk_test_51ExampleAcmeKey0000000';
let stack: Stack;
let stripe: Stripe;

test.before(async () => {
  stack = await startStack({ scenarioDir: STRIPE_SCENARIO, ports: 'ephemeral', caDir: testCaDir(), endpoints: false });
  const plain = new URL(stack.addresses().services.stripe!);
  stripe = new Stripe(KEY, { host: plain.hostname, port: Number(plain.port), protocol: 'http', maxNetworkRetries: 0 });
});
test.after.always(() => stack?.close());

const entries = () => journalEntries(stack.world.journal);

test.serial('customers: create with nested metadata, retrieve, list every page with auto-pagination, filter by email', async (t) => {
  const created = await stripe.customers.create({ name: 'Ada Lovelace', email: 'ada@engine.example', metadata: { order: '1', tier: 'gold' } });
  t.regex(created.id, /^cus_[0-9A-Za-z]{14}$/);
  t.like(created, { object: 'customer', name: 'Ada Lovelace', metadata: { order: '1', tier: 'gold' }, livemode: false });
  t.regex(created.lastResponse.requestId, /^req_[0-9A-Za-z]{14}$/);
  t.is(created.lastResponse.headers['stripe-version'], '2026-10-28.endive', 'the version the SDK asked for');
  t.deepEqual(await stripe.customers.retrieve(created.id), JSON.parse(JSON.stringify(created)));
  const all = await stripe.customers.list({ limit: 7 }).autoPagingToArray({ limit: 1000 });
  t.is(all.length, 41, 'the dataset\'s 40 and the new one, over 6 pages of starting_after');
  t.is(new Set(all.map((c) => c.id)).size, 41);
  t.is(all[0]!.id, created.id, 'newest first');
  const byEmail = await stripe.customers.list({ email: 'ada@engine.example' });
  t.deepEqual(byEmail.data.map((c) => c.id), [created.id]);
  const cursors = (await entries()).filter((e) => e.target.startsWith('/v1/customers?') && e.target.includes('starting_after'));
  t.is(cursors.length, 5);
});

test.serial('errors are Stripe\'s: typed SDK errors with code, param, status and request id', async (t) => {
  const missing = await t.throwsAsync(stripe.customers.retrieve('cus_doesnotexist00'));
  t.true(missing instanceof Stripe.errors.StripeInvalidRequestError);
  t.like(missing, { statusCode: 404, code: 'resource_missing', param: 'id', type: 'StripeInvalidRequestError' });
  t.regex((missing as Stripe.errors.StripeError).requestId!, /^req_/);
  const unknown = await t.throwsAsync(stripe.customers.create({ name: 'x', nickname: 'y' } as Stripe.CustomerCreateParams));
  t.like(unknown, { statusCode: 400, code: 'parameter_unknown', param: 'nickname' });
  const badKey = new Stripe('sk_test_wrongwrongwrong', { host: new URL(stack.addresses().services.stripe!).hostname, port: Number(new URL(stack.addresses().services.stripe!).port), protocol: 'http', maxNetworkRetries: 0 });
  const auth = await t.throwsAsync(badKey.balance.retrieve());
  t.true(auth instanceof Stripe.errors.StripeAuthenticationError);
  t.is((auth as Stripe.errors.StripeError).statusCode, 401);
});

test.serial('refunds: partial, then the rest, then too much; the charge and the balance follow', async (t) => {
  const [intent] = (await stripe.paymentIntents.list({ limit: 100 })).data.filter((p) => p.status === 'succeeded' && p.amount >= 3000);
  const charge = await stripe.charges.retrieve(intent!.latest_charge as string);
  const left = charge.amount - charge.amount_refunded;
  t.true(left > 1000, `${intent!.id} has ${left} left`);
  const before = await stripe.balance.retrieve();
  const partial = await stripe.refunds.create({ payment_intent: intent!.id, amount: 1000, reason: 'requested_by_customer', metadata: { ticket: 'T-1' } });
  t.regex(partial.id, /^re_[0-9A-Za-z]{24}$/);
  t.like(partial, { amount: 1000, status: 'succeeded', payment_intent: intent!.id, charge: charge.id, reason: 'requested_by_customer', metadata: { ticket: 'T-1' } });
  const after = await stripe.balance.retrieve();
  t.is(after.available[0]!.amount, before.available[0]!.amount - 1000);
  const tooMuch = await t.throwsAsync(stripe.refunds.create({ payment_intent: intent!.id, amount: left }));
  t.like(tooMuch, { statusCode: 400, code: 'amount_too_large', param: 'amount' });
  const rest = await stripe.refunds.create({ charge: charge.id });
  t.is(rest.amount, left - 1000);
  t.like(await stripe.charges.retrieve(charge.id), { refunded: true, amount_refunded: charge.amount });
  t.like(await t.throwsAsync(stripe.refunds.create({ payment_intent: intent!.id })), { code: 'charge_already_refunded' });
  const listed = await stripe.refunds.list({ payment_intent: intent!.id, expand: ['data.charge'] });
  t.deepEqual(listed.data.map((r) => r.id), [rest.id, partial.id].filter((id) => listed.data.some((r) => r.id === id)));
  t.is((listed.data[0]!.charge as Stripe.Charge).id, charge.id, 'expand[] replaced the ID with the charge');
});

test.serial('idempotency keys replay the first answer; other parameters under the same key are refused', async (t) => {
  const first = await stripe.products.create({ name: 'Gift card' }, { idempotencyKey: 'gift-1' });
  const again = await stripe.products.create({ name: 'Gift card' }, { idempotencyKey: 'gift-1' });
  t.is(again.id, first.id);
  t.is(again.lastResponse.headers['idempotent-replayed'], 'true');
  t.like(await t.throwsAsync(stripe.products.create({ name: 'Other' }, { idempotencyKey: 'gift-1' })), { type: 'StripeIdempotencyError', statusCode: 400 });
  t.is((await stripe.products.list({ limit: 100 })).data.filter((p) => p.name === 'Gift card').length, 1);
});

test.serial('billing: a price, an invoice with an item, finalized; a subscription changed and canceled; a coupon; a payment link; a dispute answered', async (t) => {
  const product = await stripe.products.create({ name: 'Audit', description: 'Yearly audit' });
  const price = await stripe.prices.create({ product: product.id, unit_amount: 120000, currency: 'usd' });
  t.like(price, { type: 'one_time', unit_amount: 120000, product: product.id });
  const customer = (await stripe.customers.list({ limit: 1 })).data[0]!;
  const invoice = await stripe.invoices.create({ customer: customer.id, collection_method: 'send_invoice', days_until_due: 14 });
  t.like(invoice, { status: 'draft', total: 0 });
  const item = await stripe.invoiceItems.create({ customer: customer.id, pricing: { price: price.id }, invoice: invoice.id, quantity: 2 });
  t.is(item.amount, 240000);
  const finalized = await stripe.invoices.finalizeInvoice(invoice.id);
  t.like(finalized, { status: 'open', total: 240000, amount_due: 240000 });
  t.regex(finalized.hosted_invoice_url!, /^https:\/\/invoice\.stripe\.com\/i\//);
  t.like(await t.throwsAsync(stripe.invoices.finalizeInvoice(invoice.id)), { statusCode: 400 });

  const sub = (await stripe.subscriptions.list({ status: 'active', limit: 1 })).data[0]!;
  const recurring = (await stripe.prices.list({ type: 'recurring', limit: 100 })).data.find((p) => !sub.items.data.some((i) => i.price.id === p.id))!;
  const updated = await stripe.subscriptions.update(sub.id, { items: [{ id: sub.items.data[0]!.id, deleted: true }, { price: recurring.id, quantity: 3 }], proration_behavior: 'none' });
  t.true(updated.items.data.some((i) => i.price.id === recurring.id && i.quantity === 3));
  t.false(updated.items.data.some((i) => i.id === sub.items.data[0]!.id));
  const canceled = await stripe.subscriptions.cancel(sub.id);
  t.like(canceled, { status: 'canceled' });
  t.false((await stripe.subscriptions.list({ limit: 100 })).data.some((s) => s.id === sub.id), 'canceled ones are not listed by default');
  t.true((await stripe.subscriptions.list({ status: 'canceled', limit: 100 })).data.some((s) => s.id === sub.id));

  const coupon = await stripe.coupons.create({ name: 'Autumn', percent_off: 15, duration: 'repeating', duration_in_months: 2 });
  t.like(await stripe.coupons.retrieve(coupon.id), { percent_off: 15, duration_in_months: 2 });
  const link = await stripe.paymentLinks.create({ line_items: [{ price: price.id, quantity: 1 }], after_completion: { type: 'redirect', redirect: { url: 'https://shop.example/thanks' } } });
  t.regex(link.url, /^https:\/\/buy\.stripe\.com\/test_/);
  const dispute = (await stripe.disputes.list({ limit: 10 })).data.find((d) => d.status === 'needs_response')!;
  const answered = await stripe.disputes.update(dispute.id, { evidence: { uncategorized_text: 'Delivered on time; tracking attached.' }, submit: true });
  t.like(answered, { status: 'under_review', evidence: { uncategorized_text: 'Delivered on time; tracking attached.' } });
});

test.serial('through the proxy: HTTPS to api.stripe.com with the proxy agent and the CA, journaled like the plain port', async (t) => {
  const { proxy, ca } = stack.addresses();
  const httpAgent = new TrustingProxyAgent(proxy!, readFileSync(ca!));
  const viaProxy = new Stripe(KEY, { httpAgent, maxNetworkRetries: 0 });
  const customer = await viaProxy.customers.create({ name: 'Proxy Person', email: 'proxy@example.test' });
  t.like(await viaProxy.customers.retrieve(customer.id), { name: 'Proxy Person' });
  const last = (await entries()).at(-1)!;
  t.like(last, { host: 'api.stripe.com', service: 'stripe', method: 'GET', operation: { name: 'customers.retrieve', via: 'handler' }, response: { status: 200 } });
  const refused = await t.throwsAsync(new Stripe(KEY, { httpAgent: new HttpsProxyAgent(proxy!), maxNetworkRetries: 0 }).balance.retrieve());
  t.true(refused instanceof Stripe.errors.StripeConnectionError, 'without the CA, certificate checking fails: the TLS is real');
});
