import { z } from 'zod';
import { stripeError } from '../kit/envelopes/stripe.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { bool, expand, int, listPage, listQuery, matching, mergeMetadata, metadata, noSuch, noSuchParam, ok, parseQuery, retrieveOperation, type StripeCtx } from './context.js';
import type { Charge } from './model.js';
import { EVIDENCE_FIELDS, makeRefund } from './objects.js';

/** PaymentIntents, charges, refunds, disputes and the balance: money that moved. */
const RefundBody = z.object({
  payment_intent: z.string().optional(), charge: z.string().optional(), amount: int.optional(),
  reason: z.enum(['duplicate', 'fraudulent', 'requested_by_customer']).optional(),
  refund_application_fee: bool.optional(), reverse_transfer: bool.optional(), metadata, expand,
}).strict();

const DisputeBody = z.object({
  evidence: z.object(Object.fromEntries(EVIDENCE_FIELDS.map((field) => [field, z.string().max(150000).optional()]))).strict().optional(),
  submit: bool.optional(), metadata, expand,
}).strict();

function chargeToRefund(c: StripeCtx, body: z.infer<typeof RefundBody>): Charge {
  if (body.payment_intent !== undefined && body.charge !== undefined) {
    throw stripeError(400, 'invalid_request_error', '', 'You cannot pass both `charge` and `payment_intent`. Please pass only one.', 'charge');
  }
  if (body.charge !== undefined) return c.db.charges.get(body.charge) ?? noSuchParam('charge', body.charge, 'charge');
  if (body.payment_intent === undefined) {
    throw stripeError(400, 'invalid_request_error', 'parameter_missing', 'One of the following params should be provided for this request: payment_intent or charge.', 'payment_intent');
  }
  const intent = c.db.payment_intents.get(body.payment_intent) ?? noSuchParam('payment_intent', body.payment_intent, 'payment_intent');
  if (intent.latest_charge === null || intent.status !== 'succeeded') {
    throw stripeError(400, 'invalid_request_error', 'charge_not_refundable', `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, 'payment_intent');
  }
  return c.db.charges.get(intent.latest_charge)!;
}

const money = (amount: number, currency: string) => `${currency === 'usd' ? '$' : ''}${(amount / 100).toFixed(2)}${currency === 'usd' ? '' : ` ${currency.toUpperCase()}`}`;

export const paymentOperations: Operation<StripeCtx>[] = [
  operation('payment_intents.list', rest('GET', '/v1/payment_intents'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, listQuery({ customer: z.string().optional() }));
    return listPage(c, c.db.payment_intents.filter(matching(query, ['customer'])), query, '/v1/payment_intents');
  }),

  retrieveOperation('payment_intents.retrieve', '/v1/payment_intents/:intent', 'payment_intent', (db) => db.payment_intents),

  operation('charges.list', rest('GET', '/v1/charges'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, listQuery({ customer: z.string().optional(), payment_intent: z.string().optional(), transfer_group: z.string().optional() }));
    const items = c.db.charges.filter(matching(query, ['customer', 'payment_intent']));
    return listPage(c, items, query, '/v1/charges');
  }),

  retrieveOperation('charges.retrieve', '/v1/charges/:charge', 'charge', (db) => db.charges),

  operation('refunds.create', rest('POST', '/v1/refunds'), (call, c: StripeCtx) => {
    const body = call.body as z.infer<typeof RefundBody>;
    const charge = chargeToRefund(c, body);
    const left = charge.amount - charge.amount_refunded;
    if (charge.disputed) throw stripeError(400, 'invalid_request_error', 'charge_disputed', `Charge ${charge.id} has been charged back; cannot issue a refund.`);
    if (left === 0) throw stripeError(400, 'invalid_request_error', 'charge_already_refunded', `Charge ${charge.id} has already been refunded.`);
    const amount = body.amount ?? left;
    if (amount <= 0) throw stripeError(400, 'invalid_request_error', 'parameter_invalid_integer', 'Invalid positive integer', 'amount');
    if (amount > left) {
      throw stripeError(400, 'invalid_request_error', 'amount_too_large', `Refund amount (${money(amount, charge.currency)}) is greater than unrefunded amount on charge (${money(left, charge.currency)})`, 'amount');
    }
    const refund = makeRefund(c, { charge, amount, reason: body.reason ?? null, metadata: mergeMetadata({}, body.metadata) });
    return ok(c, refund, body.expand);
  }, { input: { body: RefundBody } }),

  operation('refunds.list', rest('GET', '/v1/refunds'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, listQuery({ charge: z.string().optional(), payment_intent: z.string().optional() }));
    const items = c.db.refunds.filter(matching(query, ['charge', 'payment_intent']));
    return listPage(c, items, query, '/v1/refunds');
  }),

  retrieveOperation('refunds.retrieve', '/v1/refunds/:refund', 'refund', (db) => db.refunds),

  operation('balance.retrieve', rest('GET', '/v1/balance'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, z.object({ expand }).strict());
    return ok(c, c.db.balance.get('balance') ?? { object: 'balance', available: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }], livemode: false, pending: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }] }, query.expand);
  }),

  operation('disputes.list', rest('GET', '/v1/disputes'), (call, c: StripeCtx) => {
    const query = parseQuery(call.req, listQuery({ charge: z.string().optional(), payment_intent: z.string().optional() }));
    const items = c.db.disputes.filter(matching(query, ['charge', 'payment_intent']));
    return listPage(c, items, query, '/v1/disputes');
  }),

  retrieveOperation('disputes.retrieve', '/v1/disputes/:dispute', 'dispute', (db) => db.disputes),

  operation('disputes.update', rest('POST', '/v1/disputes/:dispute'), (call, c: StripeCtx) => {
    const body = call.body as z.infer<typeof DisputeBody>;
    const old = c.db.disputes.get(call.params.dispute) ?? noSuch('dispute', call.params.dispute);
    if (!['needs_response', 'warning_needs_response'].includes(old.status) && (body.evidence !== undefined || body.submit)) {
      throw stripeError(400, 'invalid_request_error', '', `This dispute is already closed or under review (status: ${old.status}); its evidence cannot be changed.`, 'evidence');
    }
    const evidence = { ...old.evidence, ...(body.evidence ?? {}) };
    const submitted = body.submit === true;
    const details = old.evidence_details as { submission_count: number } & Record<string, unknown>;
    const dispute = c.db.disputes.put(old.id, {
      ...old, evidence, metadata: mergeMetadata(old.metadata, body.metadata),
      status: submitted ? (old.status === 'warning_needs_response' ? 'warning_under_review' : 'under_review') : old.status,
      evidence_details: { ...details, has_evidence: EVIDENCE_FIELDS.some((f) => evidence[f] !== null && evidence[f] !== undefined), submission_count: details.submission_count + (submitted ? 1 : 0) },
    });
    return ok(c, dispute, body.expand);
  }, { input: { body: DisputeBody } }),
];
