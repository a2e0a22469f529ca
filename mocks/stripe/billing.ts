import { z } from 'zod';
import { stripeError } from '../kit/envelopes/stripe.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { bool, currency, expand, int, listPage, listQuery, matching, mergeMetadata, metadata, noSuch, noSuchParam, ok, parseQuery, retrieveOperation, type StripeCtx } from './context.js';
import { customerOf } from './customers.js';
import type { Subscription } from './model.js';
import { finalize, makeInvoice, makeInvoiceItem, refreshInvoice, subscriptionItem } from './objects.js';

/** Invoices, invoice items and subscriptions. */
const InvoiceBody = z.object({
  customer: z.string(), collection_method: z.enum(['charge_automatically', 'send_invoice']).optional(),
  days_until_due: int.optional(), description: z.string().optional(), auto_advance: bool.optional(),
  pending_invoice_items_behavior: z.enum(['exclude', 'include']).optional(), subscription: z.string().optional(), metadata, expand,
}).strict();

const InvoiceItemBody = z.object({
  customer: z.string(), invoice: z.string().optional(), price: z.string().optional(), amount: int.optional(), currency: currency.optional(),
  // API versions from 2025-03-31 name the price `pricing[price]` (stripe-node 18+); older ones `price` (the MCP server's 17.7).
  pricing: z.object({ price: z.string() }).strict().optional(),
  description: z.string().optional(), quantity: int.optional(), metadata, expand,
}).strict();

const SubscriptionBody = z.object({
  items: z.array(z.object({ id: z.string().optional(), price: z.string().optional(), quantity: int.optional(), deleted: bool.optional(), metadata }).strict()).optional(),
  proration_behavior: z.enum(['create_prorations', 'none', 'always_invoice']).optional(),
  cancel_at_period_end: bool.optional(), description: z.string().optional(), metadata, expand,
}).strict();

const CancelBody = z.object({
  invoice_now: bool.optional(), prorate: bool.optional(),
  cancellation_details: z.object({ comment: z.string().optional(), feedback: z.string().optional() }).strict().optional(), expand,
}).strict();

export const billingOperations: Operation<StripeCtx>[] = [
  operation('invoices.create', rest('POST', '/v1/invoices'), (call, c: StripeCtx) => {
    const body = call.body as z.infer<typeof InvoiceBody>;
    customerOf(c, body.customer, 'customer');
    if (body.days_until_due !== undefined && body.collection_method !== 'send_invoice') {
      throw stripeError(400, 'invalid_request_error', '', 'Invoices with `collection_method=charge_automatically` cannot have `days_until_due`.', 'days_until_due');
    }
    const invoice = makeInvoice(c, { customer: body.customer, collection_method: body.collection_method ?? 'charge_automatically', days_until_due: body.days_until_due ?? null, description: body.description ?? null, metadata: mergeMetadata({}, body.metadata) });
    if (body.pending_invoice_items_behavior === 'include') {
      for (const item of c.db.invoiceitems.filter((i) => i.customer === body.customer && i.invoice === null)) c.db.invoiceitems.put(item.id, { ...item, invoice: invoice.id });
      refreshInvoice(c, invoice.id);
    }
    return ok(c, c.db.invoices.get(invoice.id), body.expand);
  }, { input: { body: InvoiceBody } }),

  operation('invoices.list', rest('GET', '/v1/invoices'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, listQuery({
      customer: z.string().optional(), subscription: z.string().optional(),
      status: z.enum(['draft', 'open', 'paid', 'uncollectible', 'void']).optional(), collection_method: z.enum(['charge_automatically', 'send_invoice']).optional(),
    }));
    const items = c.db.invoices.filter(matching(query, ['customer', 'subscription', 'status', 'collection_method']));
    return listPage(c, items, query, '/v1/invoices');
  }),

  retrieveOperation('invoices.retrieve', '/v1/invoices/:invoice', 'invoice', (db) => db.invoices),

  operation('invoices.finalize', rest('POST', '/v1/invoices/:invoice/finalize'), (call, c: StripeCtx) => {
    const body = call.body as { auto_advance?: boolean; expand?: string[] };
    const invoice = c.db.invoices.get(call.params.invoice) ?? noSuch('invoice', call.params.invoice);
    if (invoice.status !== 'draft') throw stripeError(400, 'invalid_request_error', 'invoice_not_editable', `This invoice is already finalized, you can't re-finalize a non-draft invoice.`);
    return ok(c, finalize(c, invoice.id), body.expand);
  }, { input: { body: z.object({ auto_advance: bool.optional(), expand }).strict() } }),

  operation('invoiceitems.create', rest('POST', '/v1/invoiceitems'), (call, c: StripeCtx) => {
    const { pricing, ...rest } = call.body as z.infer<typeof InvoiceItemBody>;
    if (pricing !== undefined && rest.price !== undefined) throw stripeError(400, 'invalid_request_error', '', 'You may only specify one of these parameters: price, pricing.', 'pricing');
    const body = { ...rest, price: rest.price ?? pricing?.price };
    customerOf(c, body.customer, 'customer');
    if ((body.price === undefined) === (body.amount === undefined)) {
      throw stripeError(400, 'invalid_request_error', 'parameter_missing', 'You must specify either `price` or `amount` (with `currency`).', body.price === undefined ? 'amount' : 'price');
    }
    const price = body.price === undefined ? undefined : (c.db.prices.get(body.price) ?? noSuchParam('price', body.price, 'price'));
    if (price && price.type !== 'one_time') {
      throw stripeError(400, 'invalid_request_error', '', `The price specified is set to \`type=recurring\` but this field only accepts prices with \`type=one_time\`.`, 'price');
    }
    if (body.amount !== undefined && body.currency === undefined) throw stripeError(400, 'invalid_request_error', 'parameter_missing', 'Missing required param: currency.', 'currency');
    if (body.invoice !== undefined) {
      const invoice = c.db.invoices.get(body.invoice) ?? noSuchParam('invoice', body.invoice, 'invoice');
      if (invoice.customer !== body.customer) throw stripeError(400, 'invalid_request_error', '', `The invoice ${invoice.id} belongs to a different customer than ${body.customer}.`, 'invoice');
      if (invoice.status !== 'draft') throw stripeError(400, 'invalid_request_error', 'invoice_not_editable', `You can only add invoice items to draft invoices. Invoice ${invoice.id} is ${invoice.status}.`, 'invoice');
    }
    const item = makeInvoiceItem(c, {
      customer: body.customer, invoice: body.invoice ?? null, quantity: body.quantity ?? 1, metadata: mergeMetadata({}, body.metadata),
      ...(price ? { price } : { amount: body.amount!, currency: body.currency! }), ...(body.description ? { description: body.description } : {}),
    });
    return ok(c, item, body.expand);
  }, { input: { body: InvoiceItemBody } }),

  operation('invoiceitems.list', rest('GET', '/v1/invoiceitems'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, listQuery({ customer: z.string().optional(), invoice: z.string().optional(), pending: bool.optional() }));
    const items = c.db.invoiceitems.filter((i) => matching(query, ['customer', 'invoice'])(i) && (query.pending === undefined || (i.invoice === null) === query.pending));
    return listPage(c, items, query, '/v1/invoiceitems');
  }),

  operation('subscriptions.list', rest('GET', '/v1/subscriptions'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, listQuery({
      customer: z.string().optional(), price: z.string().optional(),
      status: z.enum(['active', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'trialing', 'paused', 'all', 'ended']).optional(),
    }));
    // Without a status, Stripe lists every subscription that is not canceled.
    const status = (s: Subscription) => query.status === 'all' || (query.status === undefined ? s.status !== 'canceled'
      : query.status === 'ended' ? ['canceled', 'incomplete_expired'].includes(s.status) : s.status === query.status);
    const items = c.db.subscriptions.filter((s) => status(s) && (query.customer === undefined || s.customer === query.customer)
      && (query.price === undefined || s.items.data.some((item) => item.price.id === query.price)));
    return listPage(c, items, query, '/v1/subscriptions');
  }),

  retrieveOperation('subscriptions.retrieve', '/v1/subscriptions/:subscription_exposed_id', 'subscription', (db) => db.subscriptions),

  operation('subscriptions.update', rest('POST', '/v1/subscriptions/:subscription_exposed_id'), (call, c: StripeCtx) => {
    const body = call.body as z.infer<typeof SubscriptionBody>;
    const id = call.params.subscription_exposed_id;
    const old = c.db.subscriptions.get(id) ?? noSuch('subscription', id);
    if (old.status === 'canceled' && (body.items !== undefined || body.cancel_at_period_end !== undefined || body.proration_behavior !== undefined)) {
      throw stripeError(400, 'invalid_request_error', '', 'A canceled subscription can only update its cancellation_details and metadata.');
    }
    let items = old.items.data;
    (body.items ?? []).forEach((change, i) => {
      if (change.id !== undefined) {
        const existing = items.find((item) => item.id === change.id) ?? noSuchParam('subscription_item', change.id, `items[${i}][id]`);
        if (change.deleted) { items = items.filter((item) => item.id !== existing.id); return; }
        const price = change.price === undefined ? existing.price : (c.db.prices.get(change.price) ?? noSuchParam('price', change.price, `items[${i}][price]`));
        items = items.map((item) => item.id === existing.id ? { ...item, price, quantity: change.quantity ?? item.quantity, metadata: mergeMetadata(item.metadata, change.metadata) } : item);
        return;
      }
      if (change.price === undefined) throw stripeError(400, 'invalid_request_error', 'parameter_missing', `Missing required param: items[${i}][price].`, `items[${i}][price]`);
      const price = c.db.prices.get(change.price) ?? noSuchParam('price', change.price, `items[${i}][price]`);
      if (price.type !== 'recurring') throw stripeError(400, 'invalid_request_error', '', `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`, `items[${i}][price]`);
      if (items.some((item) => item.price.id === price.id)) throw stripeError(400, 'invalid_request_error', '', `Cannot add multiple subscription items with the same price: ${price.id}`, `items[${i}][price]`);
      items = [...items, subscriptionItem(c, id, price, change.quantity ?? 1)];
    });
    if (items.length === 0) throw stripeError(400, 'invalid_request_error', '', 'A subscription must have at least one active plan. To cancel a subscription, please use the cancel API endpoint on /v1/subscriptions.', 'items');
    const subscription = c.db.subscriptions.put(id, {
      ...old, items: { ...old.items, data: items, total_count: items.length },
      cancel_at_period_end: body.cancel_at_period_end ?? old.cancel_at_period_end,
      cancel_at: (body.cancel_at_period_end ?? old.cancel_at_period_end) ? old.current_period_end : null,
      ...(body.description !== undefined ? { description: body.description } : {}),
      metadata: mergeMetadata(old.metadata, body.metadata),
    });
    return ok(c, subscription, body.expand);
  }, { input: { body: SubscriptionBody } }),

  operation('subscriptions.cancel', rest('DELETE', '/v1/subscriptions/:subscription_exposed_id'), (call, c: StripeCtx) => {
    const body = call.body as z.infer<typeof CancelBody>;
    const id = call.params.subscription_exposed_id;
    const old = c.db.subscriptions.get(id) ?? noSuch('subscription', id);
    if (old.status === 'canceled') throw stripeError(404, 'invalid_request_error', 'resource_missing', `No such subscription: '${id}'`, 'subscription_exposed_id');
    const subscription = c.db.subscriptions.put(id, {
      ...old, status: 'canceled', canceled_at: c.now, ended_at: c.now,
      cancellation_details: { comment: body.cancellation_details?.comment ?? null, feedback: body.cancellation_details?.feedback ?? null, reason: 'cancellation_requested' },
    });
    return ok(c, subscription, body.expand);
  }, { input: { body: CancelBody } }),
];
