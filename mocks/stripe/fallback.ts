import { jsonResponse } from '../core/http.js';
import type { Fallback } from '../kit/define.js';
import { stripeError } from '../kit/envelopes/stripe.js';
import { prefixedId } from '../kit/ids.js';
import { lazySpec } from '../kit/openapi.js';
import { startingAfterPage } from '../kit/pagination/starting-after.js';
import { pinnedPath, specFallback, type Schema, type SpecFallback } from '../kit/spec-fallback.js';
import type { StripeCtx } from './context.js';

/**
 * The long tail no handler takes: every other /v1 operation of Stripe's own description (all
 * but file uploads and test helpers; mocks/stripe/spec/stripe-fallback.openapi.json, see
 * docs/provenance.md), answered statefully by the kit's spec fallback with Stripe's 404, ID
 * prefixes and `starting_after` lists. The spec (1.2 MB, 370 operations) is read when the module
 * loads but parsed and classified on the first request that reaches the fallback (~50 ms), so
 * a world start does not pay for it.
 */
const PREFIX: Record<string, string> = {
  account: 'acct_', application_fee: 'fee_', apple_pay_domain: 'apwc_', balance_transaction: 'txn_', bank_account: 'ba_',
  'billing_portal.configuration': 'bpc_', 'billing_portal.session': 'bps_', card: 'card_', 'checkout.session': 'cs_test_',
  credit_note: 'cn_', customer_balance_transaction: 'cbtxn_', ephemeral_key: 'ephkey_', event: 'evt_', fee_refund: 'fr_',
  'identity.verification_session': 'vs_', 'issuing.authorization': 'iauth_', 'issuing.card': 'ic_', 'issuing.cardholder': 'ich_',
  'issuing.dispute': 'idp_', 'issuing.transaction': 'ipi_', mandate: 'mandate_', payment_method: 'pm_', payout: 'po_', person: 'person_',
  plan: 'plan_', promotion_code: 'promo_', quote: 'qt_', 'radar.value_list': 'rsl_', 'radar.value_list_item': 'rsli_',
  'reporting.report_run': 'frr_', review: 'prv_', setup_intent: 'seti_', shipping_rate: 'shr_', source: 'src_', subscription_item: 'si_',
  subscription_schedule: 'sub_sched_', 'tax.calculation': 'taxcalc_', 'tax.transaction': 'tax_', tax_id: 'txi_', tax_rate: 'txr_',
  'terminal.configuration': 'tmc_', 'terminal.location': 'tml_', 'terminal.reader': 'tmr_', token: 'tok_', topup: 'tu_', transfer: 'tr_',
  transfer_reversal: 'trr_', 'treasury.financial_account': 'fa_', 'treasury.inbound_transfer': 'ibt_', 'treasury.outbound_payment': 'obp_',
  'treasury.outbound_transfer': 'obt_', webhook_endpoint: 'we_',
};

const spec = lazySpec(import.meta.url, './spec/stripe-fallback.openapi.json');

let built: SpecFallback<StripeCtx> | undefined;
/** The fallback itself, built on first use (pure: the spec's text is already in memory). */
export function stripeSpecFallback(): SpecFallback<StripeCtx> {
  return (built ??= specFallback<StripeCtx>({
    spec: spec(),
    notFound: (resource, id) => stripeError(404, 'invalid_request_error', 'resource_missing', `No such ${resource}: '${id}'`, 'id'),
    invalid: (param, message) => stripeError(400, 'invalid_request_error', 'parameter_missing', message, param),
    id: (ctx, { object }) => prefixedId(ctx, PREFIX[object ?? ''] ?? 'obj_', object ?? 'obj', 24),
    paginate: (items, page) => {
      // Stored in creation order; Stripe lists newest first.
      const q = page.query;
      const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
      const limit = one(q.limit);
      const list = startingAfterPage([...items].reverse() as { id: string }[], {
        limit: limit === undefined ? undefined : Number(limit), starting_after: one(q.starting_after), ending_before: one(q.ending_before),
      }, { url: urlOf(page.path, page.schema), id: (item) => item.id });
      return jsonResponse(200, list);
    },
  }));
}

/** The list's `url`: the request's path, or the one the spec pins (`/v1/linked_accounts` lists `/v1/financial_connections/accounts`). */
function urlOf(path: string, schema: Schema): string {
  const pattern = schema.properties?.url?.pattern;
  if (typeof pattern !== 'string' || new RegExp(pattern).test(path)) return path;
  return pinnedPath(pattern) ?? path;
}

export const stripeTail: Fallback<StripeCtx> & { readonly operations: SpecFallback<StripeCtx>['operations'] } = {
  // For the conformance sweep and tests; reading it builds the fallback.
  get operations() { return stripeSpecFallback().operations; },
  operation: (req) => stripeSpecFallback().operation(req),
  operationNames: () => stripeSpecFallback().operationNames(),
  handle: (req, name, context, ctx) => stripeSpecFallback().handle(req, name, context, ctx),
};
