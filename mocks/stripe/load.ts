import { ToolbenchError } from '../core/errors.js';
import type { LoadContext } from '../core/service.js';
import type { StripeDataset } from './dataset.js';
import { dbOf, type Maker } from './model.js';
import { addBalance, makeCoupon, makeCustomer, makeDispute, makeInvoice, makeInvoiceItem, makePayment, makePrice, makeProduct, makeRefund, makeSubscription, finalize, settle } from './objects.js';

/** Loads the dataset into the store: every object built as the API would have built it. */
export function loadStripe(data: StripeDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const epoch = Math.floor(ctx.epochMs / 1000);
  db.account.put('account', { id: data.account.id, api_keys: data.account.api_keys, api_version: data.account.api_version });
  const m: Maker = { db, ids: ctx, now: epoch, account: db.account.get('account')! };
  // Objects without a time are a minute apart, the last one an hour before the epoch.
  const total = data.customers.length + data.products.length + data.prices.length + data.coupons.length + data.payments.length
    + data.refunds.length + data.invoices.length + data.subscriptions.length + data.disputes.length;
  let k = 0;
  const time = (t: number | string | undefined) => { k += 1; return t === undefined ? epoch - 3600 - (total - k) * 60 : typeof t === 'number' ? t : Math.floor(Date.parse(t) / 1000); };
  const fail = (where: string, message: string): never => { throw new ToolbenchError('TB_ERR_DATASET', `dataset/stripe.json: field ${where}: ${message}`); };
  const unique = new Set<string>();
  const claim = (idValue: string | undefined, where: string) => {
    if (idValue === undefined) return;
    if (unique.has(idValue)) fail(where, `id ${idValue} is used twice`);
    unique.add(idValue);
  };

  for (const b of data.account.balance) addBalance(m, b.currency, b.amount);
  data.customers.forEach((c, i) => { claim(c.id, `customers[${i}].id`); makeCustomer(m, { ...c, created: time(c.created) }); });
  data.products.forEach((p, i) => { claim(p.id, `products[${i}].id`); makeProduct(m, { ...p, created: time(p.created) }); });
  data.prices.forEach((p, i) => {
    claim(p.id, `prices[${i}].id`);
    if (!db.products.has(p.product)) fail(`prices[${i}].product`, `no product ${p.product} in the dataset`);
    makePrice(m, { ...p, created: time(p.created) });
  });
  data.coupons.forEach((c, i) => { claim(c.id, `coupons[${i}].id`); makeCoupon(m, { ...c, created: time(c.created) }); });
  data.payments.forEach((p, i) => {
    claim(p.id, `payments[${i}].id`);
    claim(p.charge, `payments[${i}].charge`);
    if (p.customer !== undefined && !db.customers.has(p.customer)) fail(`payments[${i}].customer`, `no customer ${p.customer} in the dataset`);
    makePayment(m, { ...p, created: time(p.created) });
  });
  data.refunds.forEach((r, i) => {
    claim(r.id, `refunds[${i}].id`);
    const intent = db.payment_intents.get(r.payment_intent) ?? fail(`refunds[${i}].payment_intent`, `no payment ${r.payment_intent} in the dataset`);
    const charge = intent.latest_charge ? db.charges.get(intent.latest_charge)! : fail(`refunds[${i}].payment_intent`, `payment ${r.payment_intent} did not succeed`);
    const left = charge.amount - charge.amount_refunded;
    const amount = r.amount ?? left;
    if (amount > left) fail(`refunds[${i}].amount`, `${amount} is more than the ${left} left to refund on ${r.payment_intent}`);
    makeRefund(m, { ...r, charge, amount, created: time(r.created) });
  });
  data.invoices.forEach((inv, i) => {
    claim(inv.id, `invoices[${i}].id`);
    if (!db.customers.has(inv.customer)) fail(`invoices[${i}].customer`, `no customer ${inv.customer} in the dataset`);
    const created = time(inv.created);
    const invoice = makeInvoice(m, { ...inv, created });
    inv.items.forEach((item, j) => {
      const price = item.price === undefined ? undefined : db.prices.get(item.price) ?? fail(`invoices[${i}].items[${j}].price`, `no price ${item.price} in the dataset`);
      makeInvoiceItem(m, { customer: inv.customer, invoice: invoice.id, quantity: item.quantity, created, ...(price ? { price } : { amount: item.amount! }), ...(item.description ? { description: item.description } : {}) });
    });
    if (inv.status !== 'draft') finalize(m, invoice.id, created);
    if (inv.status !== 'draft' && inv.status !== 'open') settle(m, invoice.id, inv.status, created);
  });
  data.subscriptions.forEach((s, i) => {
    claim(s.id, `subscriptions[${i}].id`);
    if (!db.customers.has(s.customer)) fail(`subscriptions[${i}].customer`, `no customer ${s.customer} in the dataset`);
    const items = s.items.map((item, j) => ({ price: db.prices.get(item.price) ?? fail(`subscriptions[${i}].items[${j}].price`, `no price ${item.price} in the dataset`), quantity: item.quantity }));
    makeSubscription(m, { ...s, items, created: time(s.created) });
  });
  data.disputes.forEach((d, i) => {
    claim(d.id, `disputes[${i}].id`);
    const intent = db.payment_intents.get(d.payment_intent) ?? fail(`disputes[${i}].payment_intent`, `no payment ${d.payment_intent} in the dataset`);
    const charge = intent.latest_charge ? db.charges.get(intent.latest_charge)! : fail(`disputes[${i}].payment_intent`, `payment ${d.payment_intent} did not succeed`);
    makeDispute(m, { ...d, charge, created: time(d.created) });
  });
  data.docs.forEach((doc, i) => db.docs.put(String(i), doc));
}
