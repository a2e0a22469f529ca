import { z } from 'zod';
import { stripeError } from '../kit/envelopes/stripe.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { bool, currency, decimal, expand, int, listPage, listQuery, matching, mergeMetadata, metadata, noSuchParam, ok, parseQuery, retrieveOperation, type StripeCtx } from './context.js';
import { makeCoupon, makePaymentLink, makePrice, makeProduct } from './objects.js';

/** Products, prices, coupons and payment links: what a merchant sells. */
const ProductBody = z.object({
  name: z.string().min(1), description: z.string().optional(), active: bool.optional(), id: z.string().optional(), metadata, expand,
  default_price_data: z.object({ currency, unit_amount: int, recurring: z.object({ interval: z.enum(['day', 'week', 'month', 'year']), interval_count: int.optional() }).strict().optional() }).strict().optional(),
}).strict();

const PriceBody = z.object({
  product: z.string().optional(),
  product_data: z.object({ name: z.string().min(1), metadata }).strict().optional(),
  unit_amount: int.refine((n) => n >= 0, 'must be a non-negative integer'),
  currency,
  nickname: z.string().optional(), lookup_key: z.string().optional(), active: bool.optional(),
  recurring: z.object({ interval: z.enum(['day', 'week', 'month', 'year']), interval_count: int.optional() }).strict().optional(),
  metadata, expand,
}).strict();

const CouponBody = z.object({
  id: z.string().optional(), name: z.string().max(40).optional(),
  percent_off: decimal.refine((n) => n > 0 && n <= 100, 'must be greater than 0 and at most 100').optional(),
  amount_off: int.refine((n) => n > 0, 'must be a positive integer').optional(),
  currency: currency.optional(),
  duration: z.enum(['once', 'repeating', 'forever']).optional(),
  duration_in_months: int.optional(),
  max_redemptions: int.optional(), metadata, expand,
}).strict();

const PaymentLinkBody = z.object({
  line_items: z.array(z.object({ price: z.string(), quantity: int.refine((n) => n >= 1, 'must be at least 1') }).strict()).min(1),
  after_completion: z.object({
    type: z.enum(['redirect', 'hosted_confirmation']),
    redirect: z.object({ url: z.string().url() }).strict().optional(),
    hosted_confirmation: z.object({ custom_message: z.string().optional() }).strict().optional(),
  }).strict().optional(),
  metadata, expand,
}).strict();

export const catalogOperations: Operation<StripeCtx>[] = [
  operation('products.create', rest('POST', '/v1/products'), (call, c: StripeCtx) => {
    const body = call.body as z.infer<typeof ProductBody>;
    if (body.id !== undefined && c.db.products.has(body.id)) throw stripeError(400, 'invalid_request_error', 'resource_already_exists', 'Product already exists.', 'id');
    const product = makeProduct(c, { ...(body.id ? { id: body.id } : {}), name: body.name, description: body.description ?? null, active: body.active ?? true, metadata: mergeMetadata({}, body.metadata) });
    if (body.default_price_data) makePrice(c, { product: product.id, ...body.default_price_data });
    return ok(c, c.db.products.get(product.id), body.expand);
  }, { input: { body: ProductBody } }),

  operation('products.list', rest('GET', '/v1/products'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, listQuery({ active: bool.optional(), ids: z.array(z.string()).optional(), shippable: bool.optional(), url: z.string().optional() }));
    const items = c.db.products.filter((p) => (query.active === undefined || p.active === query.active) && (query.ids === undefined || query.ids.includes(p.id)));
    return listPage(c, items, query, '/v1/products');
  }),

  retrieveOperation('products.retrieve', '/v1/products/:id', 'product', (db) => db.products),

  operation('prices.create', rest('POST', '/v1/prices'), (call, c: StripeCtx) => {
    const body = call.body as z.infer<typeof PriceBody>;
    if ((body.product === undefined) === (body.product_data === undefined)) {
      throw stripeError(400, 'invalid_request_error', 'parameter_missing', 'You must specify either `product` or `product_data` when creating a price.', 'product');
    }
    const product = body.product !== undefined
      ? (c.db.products.get(body.product) ?? noSuchParam('product', body.product, 'product'))
      : makeProduct(c, { name: body.product_data!.name, metadata: mergeMetadata({}, body.product_data!.metadata) });
    const { expand: paths, product: _p, product_data: _d, metadata: meta, ...fields } = body;
    return ok(c, makePrice(c, { ...fields, product: product.id, metadata: mergeMetadata({}, meta) }), paths);
  }, { input: { body: PriceBody } }),

  operation('prices.list', rest('GET', '/v1/prices'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, listQuery({
      product: z.string().optional(), active: bool.optional(), currency: currency.optional(),
      type: z.enum(['one_time', 'recurring']).optional(), lookup_keys: z.array(z.string()).optional(),
    }));
    const items = c.db.prices.filter((p) => matching(query, ['product', 'active', 'currency', 'type'])(p)
      && (query.lookup_keys === undefined || query.lookup_keys.includes(p.lookup_key as string)));
    return listPage(c, items, query, '/v1/prices');
  }),

  retrieveOperation('prices.retrieve', '/v1/prices/:price', 'price', (db) => db.prices),

  operation('coupons.create', rest('POST', '/v1/coupons'), (call, c: StripeCtx) => {
    const body = call.body as z.infer<typeof CouponBody>;
    if ((body.percent_off === undefined) === (body.amount_off === undefined)) {
      throw stripeError(400, 'invalid_request_error', 'parameter_missing', 'You must pass either `percent_off` or `amount_off`, but not both.', 'percent_off');
    }
    if (body.amount_off !== undefined && body.currency === undefined) {
      throw stripeError(400, 'invalid_request_error', 'parameter_missing', 'You must pass currency when passing amount_off', 'currency');
    }
    if (body.duration === 'repeating' && body.duration_in_months === undefined) {
      throw stripeError(400, 'invalid_request_error', 'parameter_missing', 'Missing required param: duration_in_months.', 'duration_in_months');
    }
    if (body.id !== undefined && c.db.coupons.has(body.id)) throw stripeError(400, 'invalid_request_error', 'resource_already_exists', 'Coupon already exists.', 'id');
    const { expand: paths, metadata: meta, max_redemptions: _m, ...fields } = body;
    return ok(c, makeCoupon(c, { ...fields, metadata: mergeMetadata({}, meta) } as Parameters<typeof makeCoupon>[1]), paths);
  }, { input: { body: CouponBody } }),

  operation('coupons.list', rest('GET', '/v1/coupons'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, listQuery({}));
    return listPage(c, c.db.coupons.values(), query, '/v1/coupons');
  }),

  retrieveOperation('coupons.retrieve', '/v1/coupons/:coupon', 'coupon', (db) => db.coupons),

  operation('payment_links.create', rest('POST', '/v1/payment_links'), (call, c: StripeCtx) => {
    const body = call.body as z.infer<typeof PaymentLinkBody>;
    body.line_items.forEach((item, i) => {
      const price = c.db.prices.get(item.price) ?? noSuchParam('price', item.price, `line_items[${i}][price]`);
      if (!price.active) throw stripeError(400, 'invalid_request_error', '', `The price specified (${price.id}) is inactive. This field only accepts active prices.`, `line_items[${i}][price]`);
    });
    const { expand: paths, metadata: meta, ...fields } = body;
    return ok(c, makePaymentLink(c, { ...fields, metadata: mergeMetadata({}, meta) } as Parameters<typeof makePaymentLink>[1]), paths);
  }, { input: { body: PaymentLinkBody } }),

  retrieveOperation('payment_links.retrieve', '/v1/payment_links/:payment_link', 'payment_link', (db) => db.payment_links),
];
