import { defineService } from '../kit/define.js';
import { stripeErrors, stripeRefusal } from '../kit/envelopes/stripe.js';
import { billingOperations } from './billing.js';
import { catalogOperations } from './catalog.js';
import { stripeContext, type StripeCtx } from './context.js';
import { customerOperations } from './customers.js';
import { StripeDatasetSchema, type StripeDataset } from './dataset.js';
import { docsOperations } from './docs.js';
import { stripeTail } from './fallback.js';
import { loadStripe } from './load.js';
import { stripeAuth, stripeFault, stripeHeaders, stripeIdempotency } from './middleware.js';
import { paymentOperations } from './payments.js';

/**
 * The Stripe API (api.stripe.com/v1) on the service kit: form-encoded nested bodies, secret keys
 * by bearer or basic auth, prefixed IDs, list objects with `starting_after`, Stripe's error
 * envelope and statuses, `Request-Id`/`Stripe-Version` headers and idempotency keys; and the
 * documentation search of ai.stripe.com that the MCP server calls. docs/stripe-mock.md.
 */
export const stripeService = defineService<StripeDataset, StripeCtx>({
  id: 'stripe',
  version: '3',
  dataset: StripeDatasetSchema,
  load: loadStripe,
  context: stripeContext,
  operations: [...customerOperations, ...catalogOperations, ...paymentOperations, ...billingOperations, ...docsOperations],
  errors: (error) => stripeErrors(error),
  refusal: (reason, detail) => stripeRefusal(reason, detail),
  middleware: [stripeHeaders, stripeAuth, stripeIdempotency],
  fault: stripeFault,
  fallback: stripeTail,
  volatile: {
    idempotency: '*',
    // Side effects of refunds, invoice items and finalizing, graded through the objects that cause them.
    balance: '*',
    charges: ['amount_refunded', 'refunded'],
    customers: ['next_invoice_sequence'],
    products: ['default_price', 'updated'],
    subscriptions: ['canceled_at', 'ended_at', 'cancel_at', 'cancellation_details'],
    disputes: ['evidence_details'],
    invoices: ['lines', 'amount_due', 'amount_remaining', 'subtotal', 'subtotal_excluding_tax', 'total', 'total_excluding_tax', 'currency', 'number', 'hosted_invoice_url', 'invoice_pdf', 'effective_at', 'due_date', 'status_transitions'],
  },
});
