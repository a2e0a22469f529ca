import type { Collection, DocumentStore } from '../core/store.js';
import type { LoadContext } from '../core/service.js';

/**
 * The store of the Stripe mock: each collection holds Stripe's own objects exactly as the API
 * returns them unexpanded (so grading reads `refunds` by `payment_intent` and `amount`).
 */
export type StripeObject = { id: string; object: string; created: number; livemode: boolean; metadata?: Record<string, string> } & Record<string, unknown>;

export interface Customer extends StripeObject { name: string | null; email: string | null; balance: number; deleted?: true }
export interface Product extends StripeObject { name: string; active: boolean; default_price: string | null }
export interface Price extends StripeObject { product: string; unit_amount: number | null; currency: string; active: boolean; recurring: { interval: string; interval_count: number; [k: string]: unknown } | null; type: 'one_time' | 'recurring' }
export interface Coupon extends StripeObject { percent_off: number | null; amount_off: number | null; duration: string; valid: boolean; name: string | null }
export interface PaymentIntent extends StripeObject { amount: number; amount_received: number; currency: string; customer: string | null; status: string; latest_charge: string | null }
export interface Charge extends StripeObject { amount: number; amount_refunded: number; refunded: boolean; disputed: boolean; currency: string; customer: string | null; payment_intent: string | null; status: string; balance_transaction: string | null }
export interface Refund extends StripeObject { amount: number; charge: string | null; payment_intent: string | null; currency: string; status: string }
export interface Invoice extends StripeObject { customer: string; status: string; currency: string; amount_due: number; total: number; number: string | null; days_until_due: number | null; collection_method: string; subscription: string | null }
export interface InvoiceItem extends StripeObject { amount: number; currency: string; customer: string; invoice: string | null; price: Price | null; quantity: number; description: string | null; unit_amount: number | null }
export interface SubscriptionItem extends StripeObject { price: Price; quantity: number; subscription: string }
export interface Subscription extends StripeObject { customer: string; status: string; items: { object: 'list'; data: SubscriptionItem[]; has_more: boolean; total_count: number; url: string }; canceled_at: number | null; cancel_at_period_end: boolean; current_period_start: number; current_period_end: number }
export interface Dispute extends StripeObject { amount: number; charge: string; payment_intent: string | null; status: string; evidence: Record<string, unknown>; evidence_details: Record<string, unknown> }
export interface PaymentLink extends StripeObject { url: string; active: boolean }
export interface Balance { object: 'balance'; available: BalanceAmount[]; pending: BalanceAmount[]; livemode: false; [k: string]: unknown }
export interface BalanceAmount { amount: number; currency: string; source_types: { card: number } }
export interface Account { id: string; api_keys: string[]; api_version: string }
export interface Doc { title: string; url: string; content: string }
/** A stored answer to an idempotent POST (Stripe keeps them 24 hours; a world is shorter). */
export interface IdempotentAnswer { key: string; method: string; path: string; digest: string; status: number; headers: [string, string][]; body: string }

export interface Db {
  customers: Collection<Customer>;
  products: Collection<Product>;
  prices: Collection<Price>;
  coupons: Collection<Coupon>;
  payment_intents: Collection<PaymentIntent>;
  charges: Collection<Charge>;
  refunds: Collection<Refund>;
  invoices: Collection<Invoice>;
  invoiceitems: Collection<InvoiceItem>;
  subscriptions: Collection<Subscription>;
  disputes: Collection<Dispute>;
  payment_links: Collection<PaymentLink>;
  balance: Collection<Balance>;
  account: Collection<Account>;
  docs: Collection<Doc>;
  idempotency: Collection<IdempotentAnswer>;
}

export function dbOf(store: DocumentStore): Db {
  const c = <T>(name: string) => store.collection<T>(name);
  return {
    customers: c('customers'), products: c('products'), prices: c('prices'), coupons: c('coupons'),
    payment_intents: c('payment_intents'), charges: c('charges'), refunds: c('refunds'),
    invoices: c('invoices'), invoiceitems: c('invoiceitems'), subscriptions: c('subscriptions'),
    disputes: c('disputes'), payment_links: c('payment_links'), balance: c('balance'),
    account: c('account'), docs: c('docs'), idempotency: c('idempotency'),
  };
}

/** What creating an object needs: the store, seeded IDs, and the time in Unix seconds. */
export interface Maker {
  db: Db;
  ids: Pick<LoadContext, 'ids'>;
  now: number;
  account: Account;
}
