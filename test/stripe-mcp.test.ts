import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StripeDataset } from '../mocks/stripe/dataset.js';
import { journalMcpRecords, useMcpStack } from './helpers/mcp-stack.js';

// The real, pinned @stripe/mcp 0.2.5 (agent-toolkit, stripe-node 17.7 with its own keep-alive
// agent) with --tools=all: every one of its 22 tools is called over MCP through the bridge, the
// preload and the proxy, and each is answered by an operation of the Stripe mock, not an error.

const SCENARIO = 'scenarios/example/stripe/basic';
const data = JSON.parse(readFileSync(join(SCENARIO, 'dataset', 'stripe.json'), 'utf8')) as StripeDataset;
const mcp = useMcpStack(test, SCENARIO, 'stripe');
const entries = () => mcp.entries();
const calls = async () => (await journalMcpRecords(mcp.stack().world.journal)).filter((record) => record.kind === 'call');
const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

test.serial('the bridge lists the server\'s 22 tools', async (t) => {
  const { tools } = await mcp.client().listTools();
  t.is(tools.length, 22, tools.map((tool) => tool.name).join(', '));
  t.is(mcp.client().getServerVersion()?.name, 'Stripe');
});

test.serial('every tool, with valid arguments, is answered by a Stripe operation: no failure, no 5xx, nothing unmatched', async (t) => {
  const succeeded = data.payments.find((p) => p.status === 'succeeded' && !data.refunds.some((r) => r.payment_intent === p.id) && !data.disputes.some((d) => d.payment_intent === p.id))!;
  const subscriptions = data.subscriptions.filter((s) => s.status === 'active');
  const dispute = data.disputes.find((d) => d.status === 'needs_response')!;
  const results = new Map<string, string>();
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await mcp.client().callTool({ name, arguments: args });
    t.falsy(result.isError, `${name}: ${text(result)}`);
    results.set(name, text(result));
    return text(result);
  };

  const customer = JSON.parse(await call('create_customer', { name: 'Katherine Johnson', email: 'kj@orbit.example' })) as { id: string };
  t.regex(customer.id, /^cus_/);
  t.deepEqual(JSON.parse(await call('list_customers', { email: 'kj@orbit.example' })), [{ id: customer.id }]);
  const product = JSON.parse(await call('create_product', { name: 'Flight plan review', description: 'One review' }));
  t.like(product, { object: 'product', name: 'Flight plan review' });
  t.true(JSON.parse(await call('list_products', { limit: 20 })).some((p: { id: string }) => p.id === product.id));
  const price = JSON.parse(await call('create_price', { product: product.id, unit_amount: 4200, currency: 'usd' }));
  t.like(price, { object: 'price', unit_amount: 4200 });
  t.deepEqual(JSON.parse(await call('list_prices', { product: product.id })).map((p: { id: string }) => p.id), [price.id]);
  t.regex(JSON.parse(await call('create_payment_link', { price: price.id, quantity: 2, redirect_url: 'https://orbit.example/thanks' })).url, /^https:\/\/buy\.stripe\.com\//);
  const invoice = JSON.parse(await call('create_invoice', { customer: customer.id, days_until_due: 30 }));
  t.like(invoice, { customer: customer.id, status: 'draft' });
  t.like(JSON.parse(await call('create_invoice_item', { customer: customer.id, price: price.id, invoice: invoice.id })), { invoice: invoice.id });
  t.like(JSON.parse(await call('finalize_invoice', { invoice: invoice.id })), { id: invoice.id, status: 'open' });
  t.true(JSON.parse(await call('list_invoices', { customer: customer.id })).some((i: { id: string; total: number }) => i.id === invoice.id && i.total === 4200));
  t.like(JSON.parse(await call('retrieve_balance', {})), { object: 'balance' });
  t.like(JSON.parse(await call('create_refund', { payment_intent: succeeded.id!, amount: 100 })), { status: 'succeeded', amount: 100 });
  t.true(JSON.parse(await call('list_payment_intents', { customer: succeeded.customer!, limit: 50 })).some((p: { id: string }) => p.id === succeeded.id));
  const listed = JSON.parse(await call('list_subscriptions', { status: 'active', limit: 50 }));
  t.is(listed.length, subscriptions.length);
  const [toUpdate, toCancel] = listed as { id: string; items: { data: { id: string }[] } }[];
  const updated = JSON.parse(await call('update_subscription', { subscription: toUpdate!.id, proration_behavior: 'none', items: [{ id: toUpdate!.items.data[0]!.id, deleted: true }, { price: data.prices.filter((p) => p.recurring).at(-1)!.id, quantity: 2 }] }));
  t.is(updated.id, toUpdate!.id, JSON.stringify(updated).slice(0, 300));
  t.like(JSON.parse(await call('cancel_subscription', { subscription: toCancel!.id })), { id: toCancel!.id, status: 'canceled' });
  const docs = JSON.parse(await call('search_stripe_documentation', { question: 'How do I refund part of a payment?', language: 'node' }));
  t.is(docs[0].url, 'https://docs.stripe.com/refunds');
  t.true(JSON.parse(await call('list_coupons', { limit: 10 })).some((c: { id: string }) => c.id === 'WELCOME10'));
  // The tool's schema requires amount_off (percent_off is optional, and both together are Stripe's error).
  t.regex(JSON.parse(await call('create_coupon', { name: 'Launch', amount_off: 500, currency: 'USD', duration: 'once' })).id, /^[0-9A-Za-z]{8}$/);
  t.deepEqual(JSON.parse(await call('update_dispute', { dispute: dispute.id!, evidence: { uncategorized_text: 'Signed delivery receipt.' }, submit: true })), { id: dispute.id });
  t.true(JSON.parse(await call('list_disputes', { limit: 10 })).some((d: { id: string }) => d.id === dispute.id));

  const { tools } = await mcp.client().listTools();
  t.deepEqual(tools.map((tool) => tool.name).filter((name) => !results.has(name)), [], 'every tool was called');
  for (const [name, answer] of results) t.false(answer.startsWith('"Failed to'), `${name}: ${answer}`);

  // Every request of every call reached a hand-written operation, was attributed to its tool, and none failed on the world's side.
  const byCall = new Map((await calls()).map((record) => [record.callId, record.tool]));
  const made = (await entries()).filter((e) => e.attribution?.kind === 'mcp');
  t.true(made.length >= 22);
  for (const entry of made) {
    const where = `${entry.method} ${entry.host}${entry.target} (${entry.attribution?.tool})`;
    t.is(entry.operation?.via, 'handler', where);
    t.true(entry.response.status < 500, where);
    t.is(byCall.get(entry.attribution!.callId!), entry.attribution!.tool, where);
  }
  t.deepEqual([...new Set(made.map((e) => e.attribution!.tool))].sort(), [...results.keys()].sort(), 'each tool made at least one request');
  const state = mcp.stack().world.state(['stripe']).stripe!;
  t.like(state.customers![customer.id], { name: 'Katherine Johnson' });
  t.like(state.subscriptions![toCancel!.id], { status: 'canceled' });
});
