import { prefixedId } from '../kit/ids.js';
import type {
  Balance, Charge, Coupon, Customer, Dispute, Invoice, InvoiceItem, Maker, PaymentIntent, PaymentLink, Price, Product, Refund, Subscription, SubscriptionItem,
} from './model.js';

/**
 * Stripe's objects as the API renders them (API version 2025-02-24), built from what a dataset
 * or a request gives. Each `make…` stores the object and returns it; fields the mock has no
 * model for get the value Stripe gives an account without that feature (null, false, []).
 */
// Stripe's lengths: short IDs for customers, products and subscription items, long ones for the rest.
const SHORT = new Set(['cus_', 'prod_', 'si_']);
const id = (m: Maker, prefix: string, given?: string) => given ?? prefixedId(m.ids, prefix, prefix, SHORT.has(prefix) ? 14 : 24);
const base = (m: Maker, idValue: string, object: string, created: number | undefined) => ({ id: idValue, object, created: created ?? m.now, livemode: false });

export function makeCustomer(m: Maker, input: { id?: string; name?: string | null; email?: string | null; phone?: string | null; description?: string | null; balance?: number; created?: number; metadata?: Record<string, string> }): Customer {
  // Object.assign on the fresh base object, not `{ ...base(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  const customer: Customer = Object.assign(base(m, id(m, 'cus_', input.id), 'customer', input.created), {
    address: null, balance: input.balance ?? 0, currency: null, default_source: null, delinquent: false,
    description: input.description ?? null, discount: null, email: input.email ?? null,
    invoice_prefix: invoicePrefix(input.id ?? `${m.now}`, m), invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    metadata: input.metadata ?? {}, name: input.name ?? null, next_invoice_sequence: 1, phone: input.phone ?? null,
    preferred_locales: [], shipping: null, tax_exempt: 'none', test_clock: null,
  });
  return m.db.customers.put(customer.id, customer);
}

function invoicePrefix(seed: string, m: Maker): string {
  const n = m.db.customers.size + 1;
  let hash = 0;
  for (const ch of seed) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `${(hash % 0xffffff).toString(16).toUpperCase().padStart(6, '0')}${String(n).padStart(2, '0')}`.slice(0, 8);
}

export function makeProduct(m: Maker, input: { id?: string; name: string; description?: string | null; active?: boolean; created?: number; metadata?: Record<string, string> }): Product {
  const created = input.created ?? m.now;
  const product: Product = Object.assign(base(m, id(m, 'prod_', input.id), 'product', created), {
    active: input.active ?? true, attributes: [], default_price: null, description: input.description ?? null, images: [], marketing_features: [],
    metadata: input.metadata ?? {}, name: input.name, package_dimensions: null, shippable: null, statement_descriptor: null,
    tax_code: null, type: 'service', unit_label: null, updated: created, url: null,
  });
  return m.db.products.put(product.id, product);
}

export function makePrice(m: Maker, input: { id?: string; product: string; unit_amount: number; currency: string; nickname?: string | null; lookup_key?: string | null; recurring?: { interval: string; interval_count?: number } | undefined; active?: boolean; created?: number; metadata?: Record<string, string> }): Price {
  const price: Price = Object.assign(base(m, id(m, 'price_', input.id), 'price', input.created), {
    active: input.active ?? true, billing_scheme: 'per_unit', currency: input.currency, custom_unit_amount: null,
    lookup_key: input.lookup_key ?? null, metadata: input.metadata ?? {}, nickname: input.nickname ?? null, product: input.product,
    recurring: input.recurring ? { aggregate_usage: null, interval: input.recurring.interval, interval_count: input.recurring.interval_count ?? 1, meter: null, trial_period_days: null, usage_type: 'licensed' } : null,
    tax_behavior: 'unspecified', tiers_mode: null, transform_quantity: null, type: input.recurring ? 'recurring' as const : 'one_time' as const,
    unit_amount: input.unit_amount, unit_amount_decimal: String(input.unit_amount),
  });
  const product = m.db.products.get(input.product);
  if (product && product.default_price === null) m.db.products.put(product.id, { ...product, default_price: price.id });
  return m.db.prices.put(price.id, price);
}

export function makeCoupon(m: Maker, input: { id?: string; name?: string | null; percent_off?: number; amount_off?: number; currency?: string; duration?: string; duration_in_months?: number; times_redeemed?: number; created?: number; metadata?: Record<string, string> }): Coupon {
  const couponId = input.id ?? prefixedId(m.ids, '', 'coupon', 8);
  const coupon: Coupon = Object.assign(base(m, couponId, 'coupon', input.created), {
    amount_off: input.amount_off ?? null, currency: input.amount_off !== undefined ? (input.currency ?? 'usd') : null,
    duration: input.duration ?? 'once', duration_in_months: input.duration === 'repeating' ? (input.duration_in_months ?? null) : null,
    max_redemptions: null, metadata: input.metadata ?? {}, name: input.name ?? null, percent_off: input.percent_off ?? null,
    redeem_by: null, times_redeemed: input.times_redeemed ?? 0, valid: true,
  });
  return m.db.coupons.put(coupon.id, coupon);
}

/** A PaymentIntent and, when it succeeded, its charge; the balance gains what it captured. */
export function makePayment(m: Maker, input: { id?: string; charge?: string; customer?: string; amount: number; currency: string; status: string; description?: string; receipt_email?: string; card: { brand: string; last4: string; exp_month: number; exp_year: number }; created?: number; metadata?: Record<string, string> }): PaymentIntent {
  const piId = id(m, 'pi_', input.id);
  const created = input.created ?? m.now;
  const succeeded = input.status === 'succeeded';
  const chargeId = succeeded ? id(m, 'ch_', input.charge) : null;
  const paymentMethod = `pm_${piId.slice(3, 27)}`;
  if (chargeId) {
    const charge: Charge = Object.assign(base(m, chargeId, 'charge', created), {
      amount: input.amount, amount_captured: input.amount, amount_refunded: 0, application: null, application_fee: null, application_fee_amount: null,
      balance_transaction: `txn_${chargeId.slice(3)}`,
      billing_details: { address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null }, email: input.receipt_email ?? null, name: null, phone: null },
      calculated_statement_descriptor: 'TOOLBENCH', captured: true, currency: input.currency, customer: input.customer ?? null,
      description: input.description ?? null, disputed: false, failure_balance_transaction: null, failure_code: null, failure_message: null,
      fraud_details: {}, invoice: null, metadata: input.metadata ?? {}, on_behalf_of: null,
      outcome: { network_status: 'approved_by_network', reason: null, risk_level: 'normal', risk_score: 32, seller_message: 'Payment complete.', type: 'authorized' },
      paid: true, payment_intent: piId, payment_method: paymentMethod,
      payment_method_details: { card: { brand: input.card.brand, checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' }, country: 'US', exp_month: input.card.exp_month, exp_year: input.card.exp_year, funding: 'credit', last4: input.card.last4, network: input.card.brand, three_d_secure: null, wallet: null }, type: 'card' },
      receipt_email: input.receipt_email ?? null, receipt_number: null, receipt_url: `https://pay.stripe.com/receipts/payment/${chargeId.slice(3)}`,
      refunded: false, review: null, shipping: null, source_transfer: null, statement_descriptor: null, statement_descriptor_suffix: null,
      status: 'succeeded', transfer_data: null, transfer_group: null,
    });
    m.db.charges.put(chargeId, charge);
    addBalance(m, input.currency, input.amount);
  }
  const intent: PaymentIntent = Object.assign(base(m, piId, 'payment_intent', created), {
    amount: input.amount, amount_capturable: input.status === 'requires_capture' ? input.amount : 0, amount_details: { tip: {} },
    amount_received: succeeded ? input.amount : 0, application: null, application_fee_amount: null,
    automatic_payment_methods: { allow_redirects: 'always', enabled: true },
    canceled_at: input.status === 'canceled' ? created : null, cancellation_reason: input.status === 'canceled' ? 'requested_by_customer' : null,
    capture_method: 'automatic_async', client_secret: `${piId}_secret_${piId.slice(3, 17)}`, confirmation_method: 'automatic',
    currency: input.currency, customer: input.customer ?? null, description: input.description ?? null, invoice: null, last_payment_error: null,
    latest_charge: chargeId, metadata: input.metadata ?? {}, next_action: null, on_behalf_of: null,
    payment_method: input.status === 'requires_payment_method' ? null : paymentMethod, payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'], processing: null, receipt_email: input.receipt_email ?? null, review: null, setup_future_usage: null,
    shipping: null, source: null, statement_descriptor: null, statement_descriptor_suffix: null, status: input.status,
    transfer_data: null, transfer_group: null,
  });
  return m.db.payment_intents.put(piId, intent);
}

export function makeRefund(m: Maker, input: { id?: string; charge: Charge; amount: number; reason?: string | null; created?: number; metadata?: Record<string, string> }): Refund {
  const refundId = id(m, 're_', input.id);
  const refund: Refund = Object.assign(base(m, refundId, 'refund', input.created), {
    amount: input.amount, balance_transaction: `txn_${refundId.slice(3)}`, charge: input.charge.id, currency: input.charge.currency,
    destination_details: { card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' }, type: 'card' },
    metadata: input.metadata ?? {}, payment_intent: input.charge.payment_intent, reason: input.reason ?? null, receipt_number: null,
    source_transfer_reversal: null, status: 'succeeded', transfer_reversal: null,
  });
  const refunded = input.charge.amount_refunded + input.amount;
  m.db.charges.put(input.charge.id, { ...input.charge, amount_refunded: refunded, refunded: refunded >= input.charge.amount });
  addBalance(m, input.charge.currency, -input.amount);
  return m.db.refunds.put(refundId, refund);
}

export function makeInvoice(m: Maker, input: { id?: string; customer: string; collection_method?: string; days_until_due?: number | null; description?: string | null; subscription?: string | null; created?: number; metadata?: Record<string, string> }): Invoice {
  const created = input.created ?? m.now;
  const customer = m.db.customers.get(input.customer);
  const collection = input.collection_method ?? 'charge_automatically';
  const days = collection === 'send_invoice' ? (input.days_until_due ?? 30) : null;
  const invoiceId = id(m, 'in_', input.id);
  const invoice: Invoice = Object.assign(base(m, invoiceId, 'invoice', created), {
    account_country: 'US', account_name: 'Toolbench Test Account', account_tax_ids: null, amount_due: 0, amount_overpaid: 0, amount_paid: 0,
    amount_remaining: 0, amount_shipping: 0, application: null, attempt_count: 0, attempted: false, auto_advance: false,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, status: null }, automatically_finalizes_at: null,
    billing_reason: input.subscription ? 'subscription_cycle' : 'manual', collection_method: collection, currency: 'usd', custom_fields: null,
    customer: input.customer, customer_address: null, customer_email: customer?.email ?? null, customer_name: customer?.name ?? null,
    customer_phone: null, customer_shipping: null, customer_tax_exempt: 'none', customer_tax_ids: [], default_payment_method: null,
    default_source: null, default_tax_rates: [], description: input.description ?? null, discounts: [], due_date: days === null ? null : created + days * 86400,
    days_until_due: days, effective_at: null, ending_balance: null, footer: null, from_invoice: null, hosted_invoice_url: null, invoice_pdf: null,
    issuer: { type: 'self' }, last_finalization_error: null, latest_revision: null,
    lines: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/invoices/${invoiceId}/lines` },
    metadata: input.metadata ?? {}, next_payment_attempt: null, number: null, on_behalf_of: null, paid: false, paid_out_of_band: false,
    payment_intent: null, payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: created, period_start: created, post_payment_credit_notes_amount: 0, pre_payment_credit_notes_amount: 0,
    receipt_number: null, shipping_cost: null, shipping_details: null, starting_balance: 0, statement_descriptor: null,
    status: 'draft', status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subscription: input.subscription ?? null, subtotal: 0, subtotal_excluding_tax: 0, test_clock: null, total: 0,
    total_discount_amounts: [], total_excluding_tax: 0, total_tax_amounts: [], transfer_data: null, webhooks_delivered_at: created,
  });
  return m.db.invoices.put(invoiceId, invoice);
}

export function makeInvoiceItem(m: Maker, input: { customer: string; invoice: string | null; price?: Price; amount?: number; currency?: string; description?: string | null; quantity: number; created?: number; metadata?: Record<string, string> }): InvoiceItem {
  const created = input.created ?? m.now;
  const unit = input.price ? (input.price.unit_amount ?? 0) : (input.amount ?? 0);
  const amount = input.price ? unit * input.quantity : (input.amount ?? 0);
  const productName = input.price ? m.db.products.get(input.price.product)?.name ?? null : null;
  const item: InvoiceItem = Object.assign(base(m, id(m, 'ii_'), 'invoiceitem', created), {
    amount, currency: input.price?.currency ?? input.currency ?? 'usd', customer: input.customer, date: created,
    description: input.description ?? productName, discountable: true, discounts: [], invoice: input.invoice,
    metadata: input.metadata ?? {}, parent: null, period: { end: created, start: created },
    price: input.price ?? null, proration: false, quantity: input.quantity, subscription: null, tax_rates: [], test_clock: null,
    unit_amount: input.price ? unit : null, unit_amount_decimal: input.price ? String(unit) : null,
  });
  m.db.invoiceitems.put(item.id, item);
  if (input.invoice) refreshInvoice(m, input.invoice);
  return item;
}

/** Recomputes a draft invoice's lines and totals from its invoice items. */
export function refreshInvoice(m: Maker, invoiceId: string): Invoice {
  const invoice = m.db.invoices.get(invoiceId)!;
  const items = m.db.invoiceitems.filter((item) => item.invoice === invoiceId);
  const lines = items.map((item) => ({
    id: `il_${item.id.slice(3)}`, object: 'line_item', amount: item.amount, currency: item.currency, description: item.description,
    discount_amounts: [], discountable: true, discounts: [], invoice: invoiceId, invoice_item: item.id, livemode: false, metadata: item.metadata ?? {},
    parent: null, period: item.period, price: item.price, proration: false, proration_details: { credited_items: null }, quantity: item.quantity,
    subscription: null, tax_amounts: [], tax_rates: [], type: 'invoiceitem', unit_amount_excluding_tax: item.unit_amount === null ? null : String(item.unit_amount),
  }));
  const total = items.reduce((sum, item) => sum + item.amount, 0);
  const paid = invoice.status === 'paid' ? total : 0;
  return m.db.invoices.put(invoiceId, {
    ...invoice,
    currency: items[0]?.currency ?? invoice.currency,
    lines: { object: 'list', data: lines, has_more: false, total_count: lines.length, url: `/v1/invoices/${invoiceId}/lines` },
    subtotal: total, subtotal_excluding_tax: total, total, total_excluding_tax: total,
    amount_due: total, amount_paid: paid, amount_remaining: total - paid,
  });
}

/** draft → open: a number, a hosted page, a due date. */
export function finalize(m: Maker, invoiceId: string, now = m.now): Invoice {
  refreshInvoice(m, invoiceId);
  const invoice = m.db.invoices.get(invoiceId)!;
  const customer = m.db.customers.get(invoice.customer);
  const sequence = customer ? (customer.next_invoice_sequence as number) : 1;
  if (customer) m.db.customers.put(customer.id, { ...customer, next_invoice_sequence: sequence + 1 });
  const prefix = (customer?.invoice_prefix as string | undefined) ?? 'TOOLBENC';
  const secret = invoiceId.slice(3);
  return m.db.invoices.put(invoiceId, {
    ...invoice, status: 'open', number: `${prefix}-${String(sequence).padStart(4, '0')}`, effective_at: now,
    due_date: invoice.days_until_due === null ? null : now + invoice.days_until_due * 86400,
    hosted_invoice_url: `https://invoice.stripe.com/i/${m.account.id}/test_${secret}`,
    invoice_pdf: `https://pay.stripe.com/invoice/${m.account.id}/test_${secret}/pdf`,
    status_transitions: { ...(invoice.status_transitions as object), finalized_at: now } as Invoice['status_transitions'],
  });
}

/** open → paid, void or uncollectible. */
export function settle(m: Maker, invoiceId: string, status: string, now: number): void {
  const invoice = m.db.invoices.get(invoiceId)!;
  const transitions = invoice.status_transitions as Record<string, number | null>;
  m.db.invoices.put(invoiceId, {
    ...invoice, status,
    ...(status === 'paid' ? { paid: true, amount_paid: invoice.total, amount_remaining: 0, status_transitions: { ...transitions, paid_at: now } } : {}),
    ...(status === 'void' ? { status_transitions: { ...transitions, voided_at: now } } : {}),
    ...(status === 'uncollectible' ? { status_transitions: { ...transitions, marked_uncollectible_at: now } } : {}),
  });
}

export function makeSubscription(m: Maker, input: { id?: string; customer: string; items: { price: Price; quantity: number }[]; status: string; cancel_at_period_end?: boolean; created?: number; metadata?: Record<string, string> }): Subscription {
  const created = input.created ?? m.now;
  const subId = id(m, 'sub_', input.id);
  const items = input.items.map((item) => subscriptionItem(m, subId, item.price, item.quantity, created));
  const first = input.items[0]!.price;
  const periodEnd = created + periodSeconds(first);
  const canceled = input.status === 'canceled';
  const subscription: Subscription = Object.assign(base(m, subId, 'subscription', created), {
    application: null, application_fee_percent: null, automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: created, billing_cycle_anchor_config: null, billing_thresholds: null, cancel_at: null,
    cancel_at_period_end: input.cancel_at_period_end ?? false, canceled_at: canceled ? created : null,
    cancellation_details: { comment: null, feedback: null, reason: canceled ? 'cancellation_requested' : null },
    collection_method: 'charge_automatically', currency: first.currency, current_period_end: periodEnd, current_period_start: created,
    customer: input.customer, days_until_due: null, default_payment_method: null, default_source: null, default_tax_rates: [],
    description: null, discount: null, discounts: [], ended_at: canceled ? created : null,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: { object: 'list' as const, data: items, has_more: false, total_count: items.length, url: `/v1/subscription_items?subscription=${subId}` },
    latest_invoice: null, metadata: input.metadata ?? {}, next_pending_invoice_item_invoice: null, on_behalf_of: null, pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null, pending_setup_intent: null, pending_update: null, plan: null, quantity: null, schedule: null,
    start_date: created, status: input.status, test_clock: null, transfer_data: null, trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } }, trial_start: null,
  });
  return m.db.subscriptions.put(subId, subscription);
}

export function subscriptionItem(m: Maker, subscription: string, price: Price, quantity: number, created = m.now): SubscriptionItem {
  return Object.assign(base(m, id(m, 'si_'), 'subscription_item', created), {
    billing_thresholds: null, current_period_end: created + periodSeconds(price), current_period_start: created, discounts: [],
    metadata: {}, price, quantity, subscription, tax_rates: [],
  });
}

function periodSeconds(price: Price): number {
  const unit = { day: 86400, week: 7 * 86400, month: 30 * 86400, year: 365 * 86400 }[price.recurring?.interval ?? 'month'] ?? 30 * 86400;
  return unit * (price.recurring?.interval_count ?? 1);
}

export function makeDispute(m: Maker, input: { id?: string; charge: Charge; amount?: number; reason: string; status: string; created?: number; metadata?: Record<string, string> }): Dispute {
  const created = input.created ?? m.now;
  m.db.charges.put(input.charge.id, { ...input.charge, disputed: true });
  const dispute: Dispute = Object.assign(base(m, id(m, 'dp_', input.id), 'dispute', created), {
    amount: input.amount ?? input.charge.amount, balance_transactions: [], charge: input.charge.id, currency: input.charge.currency,
    enhanced_eligibility_types: [], evidence: emptyEvidence(),
    evidence_details: { due_by: created + 7 * 86400, enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0 },
    is_charge_refundable: false, metadata: input.metadata ?? {}, payment_intent: input.charge.payment_intent,
    payment_method_details: { card: { brand: 'visa', case_type: 'chargeback', network_reason_code: '10.4' }, type: 'card' },
    reason: input.reason, status: input.status,
  });
  return m.db.disputes.put(dispute.id, dispute);
}

/** Every evidence field Stripe has, empty. */
export const EVIDENCE_FIELDS = [
  'access_activity_log', 'billing_address', 'cancellation_policy', 'cancellation_policy_disclosure', 'cancellation_rebuttal',
  'customer_communication', 'customer_email_address', 'customer_name', 'customer_purchase_ip', 'customer_signature',
  'duplicate_charge_documentation', 'duplicate_charge_explanation', 'duplicate_charge_id', 'product_description', 'receipt',
  'refund_policy', 'refund_policy_disclosure', 'refund_refusal_explanation', 'service_date', 'service_documentation',
  'shipping_address', 'shipping_carrier', 'shipping_date', 'shipping_documentation', 'shipping_tracking_number',
  'uncategorized_file', 'uncategorized_text',
] as const;

function emptyEvidence(): Record<string, unknown> {
  return Object.assign(Object.fromEntries(EVIDENCE_FIELDS.map((field) => [field, null])), { enhanced_evidence: {} });
}

export function makePaymentLink(m: Maker, input: { line_items: { price: string; quantity: number }[]; after_completion?: { type: string; redirect?: { url: string } } | undefined; metadata?: Record<string, string> }): PaymentLink {
  const linkId = id(m, 'plink_');
  const price = m.db.prices.get(input.line_items[0]!.price);
  const link: PaymentLink = Object.assign(base(m, linkId, 'payment_link', undefined), {
    active: true,
    after_completion: input.after_completion?.type === 'redirect'
      ? { redirect: { url: input.after_completion.redirect?.url ?? '' }, type: 'redirect' }
      : { hosted_confirmation: { custom_message: null }, type: 'hosted_confirmation' },
    allow_promotion_codes: false, application: null, application_fee_amount: null, application_fee_percent: null,
    automatic_tax: { enabled: false, liability: null }, billing_address_collection: 'auto', consent_collection: null,
    currency: price?.currency ?? 'usd', custom_fields: [], custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer_creation: 'if_required', inactive_message: null, invoice_creation: null, metadata: input.metadata ?? {}, on_behalf_of: null,
    payment_intent_data: null, payment_method_collection: 'always', payment_method_types: null, phone_number_collection: { enabled: false },
    restrictions: null, shipping_address_collection: null, shipping_options: [], submit_type: 'auto', subscription_data: null,
    tax_id_collection: { enabled: false, required: 'never' }, transfer_data: null, url: `https://buy.stripe.com/test_${linkId.slice(6, 20)}`,
  });
  return m.db.payment_links.put(linkId, link);
}

export function addBalance(m: Maker, currency: string, amount: number): void {
  const balance: Balance = m.db.balance.get('balance') ?? { object: 'balance', available: [], livemode: false, pending: [] };
  const available = balance.available.some((a) => a.currency === currency)
    ? balance.available.map((a) => a.currency === currency ? { ...a, amount: a.amount + amount, source_types: { card: a.source_types.card + amount } } : a)
    : [...balance.available, { amount, currency, source_types: { card: amount } }];
  const pending = balance.pending.some((a) => a.currency === currency) ? balance.pending : [...balance.pending, { amount: 0, currency, source_types: { card: 0 } }];
  m.db.balance.put('balance', { ...balance, available, pending });
}
