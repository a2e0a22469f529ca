import { jsonResponse } from '../core/http.js';
import { stripeError } from '../kit/envelopes/stripe.js';
import { prefixedId } from '../kit/ids.js';
import { loadSpec } from '../kit/openapi.js';
import { startingAfterPage } from '../kit/pagination/starting-after.js';
import { specFallback } from '../kit/spec-fallback.js';
import type { StripeCtx } from './context.js';

/**
 * The long tail no handler takes, answered statefully from Stripe's own description
 * (mocks/stripe/spec/stripe-tail.openapi.json: tax rates and webhook endpoints; see
 * docs/provenance.md), with Stripe's 404, ID prefixes and `starting_after` lists.
 */
const PREFIX: Record<string, string> = { tax_rate: 'txr_', webhook_endpoint: 'we_' };

export const stripeTail = specFallback<StripeCtx>({
  spec: loadSpec(import.meta.url, './spec/stripe-tail.openapi.json'),
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
    }, { url: page.path, id: (item) => item.id });
    return jsonResponse(200, list);
  },
});
