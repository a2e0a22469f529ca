import { z } from 'zod';

/**
 * `<scenario>/dataset/stripe.json`: one Stripe account in test mode. Objects may carry their own
 * IDs (`cus_…`, so scenarios and their oracles can name them); without one, an object gets a
 * seeded ID. References (`customer`, `product`, `price`, `payment_intent`) are IDs. Times are
 * ISO-8601 or Unix seconds; without one, an object is as old as its place in the file says
 * (a minute apart, before the world's epoch).
 */
const Time = z.union([z.number().int().nonnegative(), z.string().datetime({ offset: true })]);
const Metadata = z.record(z.string()).default({});
const Currency = z.string().regex(/^[a-z]{3}$/, 'must be a lower-case ISO currency code such as usd').default('usd');
const id = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[0-9A-Za-z]{6,}$`), `must look like ${prefix}…`);

export const CustomerSchema = z.object({
  id: id('cus_').optional(),
  name: z.string(),
  email: z.string().optional(),
  phone: z.string().optional(),
  description: z.string().optional(),
  balance: z.number().int().default(0),
  created: Time.optional(),
  metadata: Metadata,
}).strict();

export const ProductSchema = z.object({
  id: z.string().regex(/^prod_[0-9A-Za-z]{6,}$/, 'must look like prod_…').optional(),
  name: z.string(),
  description: z.string().optional(),
  active: z.boolean().default(true),
  created: Time.optional(),
  metadata: Metadata,
}).strict();

export const PriceSchema = z.object({
  id: id('price_').optional(),
  product: z.string(),
  unit_amount: z.number().int().nonnegative(),
  currency: Currency,
  nickname: z.string().optional(),
  lookup_key: z.string().optional(),
  recurring: z.object({ interval: z.enum(['day', 'week', 'month', 'year']), interval_count: z.number().int().positive().default(1) }).strict().optional(),
  active: z.boolean().default(true),
  created: Time.optional(),
  metadata: Metadata,
}).strict();

export const CouponSchema = z.object({
  id: z.string().regex(/^[0-9A-Za-z_-]{3,}$/).optional(),
  name: z.string().optional(),
  percent_off: z.number().positive().max(100).optional(),
  amount_off: z.number().int().positive().optional(),
  currency: z.string().regex(/^[a-z]{3}$/).optional(),
  duration: z.enum(['once', 'repeating', 'forever']).default('once'),
  duration_in_months: z.number().int().positive().optional(),
  times_redeemed: z.number().int().nonnegative().default(0),
  created: Time.optional(),
  metadata: Metadata,
}).strict().refine((c) => (c.percent_off === undefined) !== (c.amount_off === undefined), 'a coupon has exactly one of percent_off and amount_off');

/** A payment: a PaymentIntent and, when it succeeded, its charge (`ch_…`). */
export const PaymentSchema = z.object({
  id: id('pi_').optional(),
  charge: id('ch_').optional(),
  customer: z.string().optional(),
  amount: z.number().int().positive(),
  currency: Currency,
  status: z.enum(['succeeded', 'processing', 'requires_payment_method', 'requires_capture', 'canceled']).default('succeeded'),
  description: z.string().optional(),
  receipt_email: z.string().optional(),
  card: z.object({ brand: z.string().default('visa'), last4: z.string().regex(/^\d{4}$/).default('4242'), exp_month: z.number().int().min(1).max(12).default(12), exp_year: z.number().int().default(2030) }).strict().default({}),
  created: Time.optional(),
  metadata: Metadata,
}).strict();

export const RefundSchema = z.object({
  id: id('re_').optional(),
  payment_intent: z.string(),
  /** Default: what is left unrefunded. */
  amount: z.number().int().positive().optional(),
  reason: z.enum(['duplicate', 'fraudulent', 'requested_by_customer']).optional(),
  created: Time.optional(),
  metadata: Metadata,
}).strict();

export const InvoiceSchema = z.object({
  id: id('in_').optional(),
  customer: z.string(),
  status: z.enum(['draft', 'open', 'paid', 'void', 'uncollectible']).default('draft'),
  collection_method: z.enum(['charge_automatically', 'send_invoice']).default('send_invoice'),
  days_until_due: z.number().int().nonnegative().optional(),
  description: z.string().optional(),
  items: z.array(z.object({
    price: z.string().optional(),
    amount: z.number().int().optional(),
    description: z.string().optional(),
    quantity: z.number().int().positive().default(1),
  }).strict().refine((i) => (i.price === undefined) !== (i.amount === undefined), 'an invoice item has a price or an amount')).default([]),
  created: Time.optional(),
  metadata: Metadata,
}).strict();

export const SubscriptionSchema = z.object({
  id: id('sub_').optional(),
  customer: z.string(),
  items: z.array(z.object({ price: z.string(), quantity: z.number().int().positive().default(1) }).strict()).min(1),
  status: z.enum(['active', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'trialing', 'paused']).default('active'),
  cancel_at_period_end: z.boolean().default(false),
  created: Time.optional(),
  metadata: Metadata,
}).strict();

export const DisputeSchema = z.object({
  id: id('dp_').optional(),
  payment_intent: z.string(),
  amount: z.number().int().positive().optional(),
  reason: z.enum(['bank_cannot_process', 'credit_not_processed', 'customer_initiated', 'debit_not_authorized', 'duplicate', 'fraudulent', 'general', 'incorrect_account_details', 'insufficient_funds', 'product_not_received', 'product_unacceptable', 'subscription_canceled', 'unrecognized']).default('general'),
  status: z.enum(['warning_needs_response', 'warning_under_review', 'warning_closed', 'needs_response', 'under_review', 'won', 'lost']).default('needs_response'),
  created: Time.optional(),
  metadata: Metadata,
}).strict();

/** A page of Stripe's documentation, for the MCP server's documentation search (ai.stripe.com). */
export const DocSchema = z.object({ title: z.string(), url: z.string().url(), content: z.string() }).strict();

export const StripeDatasetSchema = z.object({
  account: z.object({
    id: z.string().regex(/^acct_[0-9A-Za-z]{6,}$/).default('acct_1ToolbenchTest00'),
    /** Secret keys that authenticate (`sk_test_…`, `rk_test_…`). */
    api_keys: z.array(z.string().regex(/^(sk|rk)_(test|live)_[0-9A-Za-z]{4,}$/, 'must be a Stripe secret key such as sk_test_…')).min(1).default(['sk_test_toolbench']),
    /** The account's default API version (`Stripe-Version` when a request names none). */
    api_version: z.string().default('2025-02-24.acacia'),
    /** Balance before the dataset's payments (they add to it, refunds take from it). */
    balance: z.array(z.object({ amount: z.number().int(), currency: z.string().regex(/^[a-z]{3}$/) }).strict()).default([]),
  }).strict().default({}),
  customers: z.array(CustomerSchema).default([]),
  products: z.array(ProductSchema).default([]),
  prices: z.array(PriceSchema).default([]),
  coupons: z.array(CouponSchema).default([]),
  payments: z.array(PaymentSchema).default([]),
  refunds: z.array(RefundSchema).default([]),
  invoices: z.array(InvoiceSchema).default([]),
  subscriptions: z.array(SubscriptionSchema).default([]),
  disputes: z.array(DisputeSchema).default([]),
  docs: z.array(DocSchema).default([]),
}).strict();

export type StripeDataset = z.infer<typeof StripeDatasetSchema>;
