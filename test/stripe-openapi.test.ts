import test from 'ava';
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { openWorld, type OpenedWorld } from '../scenarios/world.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import { stripeService } from '../mocks/stripe/index.js';
import { openapiToJsonSchema } from '../mocks/kit/openapi.js';

// Every operation of the Stripe mock, answering successes and errors, validated against Stripe's
// own OpenAPI description (the pruned copy in mocks/stripe/spec/, docs/provenance.md): the status
// is documented, and the body matches the schema of its status (or `default`, Stripe's error).

type Json = Record<string, any>;
const spec = openapiToJsonSchema(JSON.parse(readFileSync('mocks/stripe/spec/stripe.openapi.json', 'utf8').replaceAll('"#/components/', '"stripe#/components/'))) as Json;
const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
ajv.addFormat('unix-time', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 });
ajv.addFormat('decimal', { type: 'string', validate: (s: string) => /^-?\d+(\.\d+)?$/.test(s) });
ajv.addSchema({ $id: 'stripe', components: spec.components }, 'stripe');
const routes = Object.entries(spec.paths as Json).flatMap(([template, item]) => Object.entries(item as Json).map(([method, op]) => ({
  method: method.toUpperCase(), template, regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '([^/]+)')}$`), params: (template.match(/\{/g) ?? []).length, op: op as Json,
}))).sort((a, b) => a.params - b.params);
const validators = new Map<string, ValidateFunction>();

function validate(entry: JournalEntry): string | null {
  const path = entry.target.split('?')[0]!;
  const route = routes.find((r) => r.method === entry.method && r.regex.test(path));
  if (!route) return `no spec operation for ${entry.method} ${path}`;
  const status = String(entry.response.status);
  const response = route.op.responses[status] ?? route.op.responses.default;
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) return `${route.op.operationId} documents no ${status}`;
  const key = `${route.op.operationId} ${route.op.responses[status] ? status : 'default'}`;
  let check = validators.get(key);
  if (!check) validators.set(key, check = ajv.compile(schema));
  const body = JSON.parse(new TextDecoder().decode(entry.response.body));
  return check(body) ? null : `${key}: ${ajv.errorsText(check.errors)}`;
}

let opened: OpenedWorld;
test.before(async () => {
  opened = await openWorld({ scenarioDir: 'scenarios/example/stripe/basic' });
});
test.after.always(() => opened?.world.journal.close());

const enc = new TextEncoder();
function send(method: string, target: string, form = ''): JournalEntry & { json: Json } {
  const entry = opened.world.process({
    host: 'api.stripe.com', method, target, body: enc.encode(form),
    headers: [['Authorization', 'Bearer sk_test_51ExampleAcmeKey0000000'], ['Content-Type', 'application/x-www-form-urlencoded']],
  });
  return { ...entry, json: JSON.parse(new TextDecoder().decode(entry.response.body)) };
}

test('every operation\'s answers, successes and errors, match Stripe\'s OpenAPI description', (t) => {
  const sent: (JournalEntry & { json: Json })[] = [];
  const go = (method: string, target: string, form = '') => { const e = send(method, target, form); sent.push(e); return e.json; };
  const customer = go('POST', '/v1/customers', 'name=Spec%20Check&email=spec@example.test&metadata[a]=1');
  go('GET', '/v1/customers?limit=3&expand[]=data.invoice_settings');
  go('GET', `/v1/customers/${customer.id}`);
  go('POST', `/v1/customers/${customer.id}`, 'description=checked&metadata[a]=');
  go('GET', '/v1/customers/cus_missing0000000');
  const product = go('POST', '/v1/products', 'name=Spec%20product&default_price_data[currency]=usd&default_price_data[unit_amount]=500');
  go('GET', '/v1/products?limit=2');
  go('GET', `/v1/products/${product.id}`);
  const price = go('POST', '/v1/prices', `product=${product.id}&unit_amount=900&currency=usd`);
  const monthly = go('POST', '/v1/prices', `product=${product.id}&unit_amount=300&currency=usd&recurring[interval]=month`);
  go('POST', '/v1/prices', 'unit_amount=1&currency=usd');
  go('GET', `/v1/prices?product=${product.id}`);
  go('GET', `/v1/prices/${price.id}`);
  const coupon = go('POST', '/v1/coupons', 'amount_off=250&currency=usd&duration=once&name=Spec');
  go('GET', '/v1/coupons');
  go('GET', `/v1/coupons/${coupon.id}`);
  const link = go('POST', '/v1/payment_links', `line_items[0][price]=${price.id}&line_items[0][quantity]=2`);
  go('GET', `/v1/payment_links/${link.id}`);
  const intents = go('GET', '/v1/payment_intents?limit=100&expand[]=data.latest_charge');
  const paid = intents.data.find((p: Json) => p.status === 'succeeded' && p.latest_charge.amount_refunded === 0);
  go('GET', `/v1/payment_intents/${paid.id}?expand[]=customer`);
  go('GET', `/v1/charges?payment_intent=${paid.id}`);
  go('GET', `/v1/charges/${paid.latest_charge.id}`);
  go('POST', '/v1/refunds', `payment_intent=${paid.id}&amount=100`);
  go('POST', '/v1/refunds', `payment_intent=${paid.id}&amount=99999999`);
  const refunds = go('GET', '/v1/refunds?limit=5');
  go('GET', `/v1/refunds/${refunds.data[0].id}?expand[]=charge`);
  go('GET', '/v1/balance');
  const invoice = go('POST', '/v1/invoices', `customer=${customer.id}&collection_method=send_invoice&days_until_due=10`);
  go('POST', '/v1/invoiceitems', `customer=${customer.id}&price=${price.id}&invoice=${invoice.id}&quantity=3`);
  go('POST', '/v1/invoiceitems', `customer=${customer.id}&price=${monthly.id}&invoice=${invoice.id}`);
  go('GET', `/v1/invoiceitems?invoice=${invoice.id}`);
  go('POST', `/v1/invoices/${invoice.id}/finalize`);
  go('GET', `/v1/invoices?customer=${customer.id}`);
  go('GET', `/v1/invoices/${invoice.id}`);
  const subs = go('GET', '/v1/subscriptions?status=active&limit=3');
  const sub = subs.data[0];
  go('GET', `/v1/subscriptions/${sub.id}`);
  go('POST', `/v1/subscriptions/${sub.id}`, `items[0][price]=${monthly.id}&items[0][quantity]=2&proration_behavior=none`);
  go('DELETE', `/v1/subscriptions/${sub.id}`);
  go('POST', `/v1/subscriptions/${sub.id}`, `items[0][price]=${monthly.id}`);
  const disputes = go('GET', '/v1/disputes');
  go('GET', `/v1/disputes/${disputes.data[0].id}`);
  go('POST', `/v1/disputes/${disputes.data.find((d: Json) => d.status === 'needs_response').id}`, 'evidence[uncategorized_text]=Shipped&submit=true');
  go('DELETE', `/v1/customers/${customer.id}`);
  go('GET', '/v1/customers?limit=0');

  const failures = sent.map(validate).filter((f) => f !== null);
  // The check can fail: a customer without `livemode`, or a list without `has_more`, does not pass.
  const doctor = (entry: JournalEntry, drop: string) => ({ ...entry, response: { ...entry.response, body: enc.encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(entry.response.body)), [drop]: undefined })) } });
  t.regex(validate(doctor(sent[0]!, 'livemode')) ?? '', /livemode/);
  t.regex(validate(doctor(sent[1]!, 'has_more')) ?? '', /has_more/);
  t.deepEqual(failures, []);
  const statuses = new Set(sent.map((e) => e.response.status));
  t.true(statuses.has(200) && statuses.has(400) && statuses.has(404), [...statuses].join(' '));
  const reached = new Set(sent.map((e) => e.operation?.name));
  const missing = stripeService.kit.operations.map((o) => o.name).filter((name) => name !== 'docs.search' && !reached.has(name));
  t.deepEqual(missing, [], 'every operation answered at least once');
});
