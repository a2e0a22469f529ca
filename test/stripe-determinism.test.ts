import test from 'ava';
import { readFileSync } from 'node:fs';
import { openWorld } from '../scenarios/world.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import type { StripeDataset } from '../mocks/stripe/dataset.js';

/**
 * The Stripe mock is a pure function of (dataset, seed, requests): two fresh worlds fed the same
 * 400 mixed requests answer byte for byte the same; another seed changes the IDs of the objects
 * the requests create (and what is derived from them: client secrets, hosted URLs, request IDs)
 * and nothing else. The requests name created objects by position, so both seeds run the same mix.
 */
const SCENARIO = 'scenarios/example/stripe/basic';
const data = JSON.parse(readFileSync(`${SCENARIO}/dataset/stripe.json`, 'utf8')) as StripeDataset;
const KEY = 'sk_test_51ExampleAcmeKey0000000';

async function run(seed: number, count: number): Promise<{ entries: JournalEntry[]; created: string[] }> {
  const { world } = await openWorld({ scenarioDir: SCENARIO, seed });
  let state = 8103;
  const random = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648; };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const pools = {
    customers: data.customers.map((c) => c.id!), prices: data.prices.filter((p) => !p.recurring).map((p) => p.id!),
    recurring: data.prices.filter((p) => p.recurring).map((p) => p.id!), intents: data.payments.map((p) => p.id!),
    invoices: [] as string[], subscriptions: data.subscriptions.map((s) => s.id!), disputes: data.disputes.map((d) => d.id!), products: data.products.map((p) => p.id!),
  };
  const entries: JournalEntry[] = [];
  const created: string[] = [];
  const send = (method: string, target: string, form = '', extra: [string, string][] = []) => {
    const entry = world.process({ host: 'api.stripe.com', method, target, body: new TextEncoder().encode(form),
      headers: [['Authorization', pick([`Bearer ${KEY}`, `Bearer ${KEY}`, `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`, 'Bearer sk_test_nope0000'])], ['Content-Type', 'application/x-www-form-urlencoded'], ...extra] });
    entries.push(entry);
    const json = JSON.parse(new TextDecoder().decode(entry.response.body)) as { id?: string };
    if (method === 'POST' && entry.response.status === 200 && json.id && !created.includes(json.id)) created.push(json.id);
    return { status: entry.response.status, json };
  };
  const makers: (() => void)[] = [
    () => { const r = send('POST', '/v1/customers', `name=Customer%20${Math.floor(random() * 100)}&email=c${Math.floor(random() * 9)}@x.test&metadata[n]=${Math.floor(random() * 9)}`); if (r.status === 200) pools.customers.push(r.json.id!); },
    () => send('GET', `/v1/customers?limit=${pick([3, 10, 100])}${random() < 0.5 ? `&starting_after=${pick(pools.customers)}` : ''}`),
    () => send('GET', `/v1/customers/${pick(pools.customers)}${random() < 0.3 ? 'x' : ''}`),
    () => send('POST', `/v1/customers/${pick(pools.customers)}`, `description=${pick(['vip', 'late', ''])}`),
    () => { const r = send('POST', '/v1/products', `name=P${Math.floor(random() * 50)}`); if (r.status === 200) pools.products.push(r.json.id!); },
    () => { const r = send('POST', '/v1/prices', `product=${pick(pools.products)}&unit_amount=${100 * Math.floor(random() * 50)}&currency=usd${random() < 0.3 ? '&recurring[interval]=month' : ''}`); if (r.status === 200) ((r.json as { type?: string }).type === 'recurring' ? pools.recurring : pools.prices).push(r.json.id!); },
    () => send('GET', `/v1/payment_intents?limit=5&customer=${pick(pools.customers)}&expand[]=data.latest_charge`),
    () => send('POST', '/v1/refunds', `payment_intent=${pick(pools.intents)}${random() < 0.6 ? `&amount=${pick([100, 500, 5000, 100000])}` : ''}`, random() < 0.3 ? [['Idempotency-Key', `k${Math.floor(random() * 5)}`]] : []),
    () => send('GET', `/v1/refunds?limit=${pick([2, 10])}`),
    () => { const r = send('POST', '/v1/invoices', `customer=${pick(pools.customers)}&collection_method=send_invoice&days_until_due=${pick([7, 30])}`); if (r.status === 200) pools.invoices.push(r.json.id!); },
    () => pools.invoices.length && send('POST', '/v1/invoiceitems', `customer=${pick(pools.customers)}&price=${pick(pools.prices)}&invoice=${pick(pools.invoices)}`),
    () => pools.invoices.length && send('POST', `/v1/invoices/${pick(pools.invoices)}/finalize`),
    () => send('GET', `/v1/invoices?limit=5${random() < 0.5 ? `&customer=${pick(pools.customers)}` : ''}`),
    () => send('POST', `/v1/subscriptions/${pick(pools.subscriptions)}`, `items[0][price]=${pick(pools.recurring)}&items[0][quantity]=${1 + Math.floor(random() * 3)}`),
    () => send('DELETE', `/v1/subscriptions/${pick(pools.subscriptions)}`),
    () => send('GET', `/v1/subscriptions?status=${pick(['all', 'active', 'canceled'])}`),
    () => send('POST', `/v1/disputes/${pick(pools.disputes)}`, `evidence[uncategorized_text]=t${Math.floor(random() * 9)}&submit=${pick(['true', 'false'])}`),
    () => send('POST', '/v1/coupons', pick(['percent_off=10&duration=once', 'amount_off=100&currency=usd', 'percent_off=10&amount_off=5'])),
    () => send('POST', '/v1/payment_links', `line_items[0][price]=${pick(pools.prices)}&line_items[0][quantity]=1`),
    () => send('GET', pick(['/v1/balance', '/v1/coupons', '/v1/disputes', '/v1/charges?limit=3', '/v1/nothing', '/v1/products?limit=3'])),
  ];
  for (let i = 0; i < count; i++) pick(makers)();
  await world.journal.close();
  return { entries, created };
}

const decode = (body: Uint8Array) => new TextDecoder().decode(body);
const same = (x: JournalEntry, y: JournalEntry) => x.response.status === y.response.status
  && JSON.stringify(x.response.headers) === JSON.stringify(y.response.headers) && Buffer.compare(x.response.body, y.response.body) === 0;

test('two fresh worlds answer 400 mixed requests byte for byte the same', async (t) => {
  const a = await run(2718, 400);
  const b = await run(2718, 400);
  t.is(a.entries.length, b.entries.length);
  const first = a.entries.findIndex((x, i) => !same(x, b.entries[i]!));
  t.is(first, -1, first === -1 ? '' : `response ${first} (${a.entries[first]!.method} ${a.entries[first]!.target}) differs`);
  const statuses = new Set(a.entries.map((e) => e.response.status));
  for (const status of [200, 400, 401, 404]) t.true(statuses.has(status), `the mix includes ${status}`);
  t.true(a.created.length > 60, `${a.created.length} objects created`);
});

test('another seed changes the created objects\' IDs (and what derives from them) and nothing else', async (t) => {
  const a = await run(2718, 400);
  const b = await run(31415, 400);
  t.is(a.created.length, b.created.length);
  // Every seeded ID (of an object the dataset gives no ID: created by a request, or an invoice item the
  // loader made) and every value derived from one (`test_…` URLs, `pm_…`), by order of first appearance.
  const known = readFileSync(`${SCENARIO}/dataset/stripe.json`, 'utf8');
  const masker = () => {
    const seen = new Map<string, number>();
    const token = (id: string) => {
      if (known.includes(id.startsWith('"') ? id : `"${id}"`)) return id;
      if (!seen.has(id)) seen.set(id, seen.size);
      return `#${seen.get(id)}#`;
    };
    return (entry: JournalEntry) => ({
      status: entry.response.status,
      headers: entry.response.headers.filter(([name]) => name !== 'Request-Id'),
      body: decode(entry.response.body).replace(/\b[a-z]+_[0-9A-Za-z]{8,}\b|"[0-9A-Za-z]{8}"/g, token),
    });
  };
  const maskA = masker();
  const maskB = masker();
  let differ = 0;
  for (let i = 0; i < a.entries.length; i++) {
    const x = a.entries[i]!;
    const y = b.entries[i]!;
    t.deepEqual(maskA(x), maskB(y), `response ${i} (${x.method} ${x.target})`);
    if (decode(x.response.body) !== decode(y.response.body)) differ++;
    t.not(x.response.headers.find(([n]) => n === 'Request-Id')![1], y.response.headers.find(([n]) => n === 'Request-Id')![1]);
  }
  t.true(differ > 60, `IDs differ between seeds (${differ} bodies)`);
});
