import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/stripe/conformance.js';
import { conformance } from './helpers/conformance.js';

// The conformance suite over Stripe (test/helpers/conformance.ts): determinism, seeds, error and
// fault shapes, volatile fields, and all 22 tools of the pinned @stripe/mcp through MCP.

const StripeError = z.object({
  error: z.object({
    code: z.string().optional(), decline_code: z.string().optional(), doc_url: z.string().url().optional(),
    message: z.string(), param: z.string().optional(), type: z.enum(['api_error', 'card_error', 'idempotency_error', 'invalid_request_error']),
  }).strict(),
}).strict();

const form = (body: Record<string, unknown>, prefix = ''): string[] => Object.entries(body).flatMap(([key, value]) => {
  const name = prefix ? `${prefix}[${key}]` : key;
  return value !== null && typeof value === 'object' ? form(value as Record<string, unknown>, name) : [`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`];
});

conformance(test, {
  service: 'stripe',
  sweep,
  headers: [['Authorization', 'Bearer sk_test_51ExampleAcmeKey0000000']],
  values: {
    customer: ['cus_9bdcrHoDFIWBid', 'cus_vV7AkP45TVZZNy', 'cus_missing000000'], id: ['prod_Z6P7iTAO0y7nGv', 'prod_missing'],
    price: ['price_XnfQp3qYA8ndmLoQNA5q9Zw3', 'price_missing'], coupon: ['WELCOME10', 'NOPE'], intent: ['pi_DZfHEKfur3joww3BCDwDuAQj', 'pi_missing'],
    charge: ['ch_missing'], refund: ['re_missing'], invoice: ['in_HPqziLd21nNAQ3jHwR9Je4Xb', 'in_uiDylE62qx84RSi6VtguULQW', 'in_missing'],
    subscription_exposed_id: ['sub_TNx3PefL1CYmRZaCtnUO5O9h', 'sub_trZrGOahGPwZRpF1vHJH2oVH', 'sub_missing'], dispute: ['dp_Pm35gtBoEuoFNsyiGItIUDuU', 'dp_missing'],
    payment_link: ['plink_missing'],
  },
  bodies: {
    'POST /v1/customers': (r, i) => ({ name: `Generated ${i}`, email: `g${i}@example.test`, metadata: { n: String(r.int(1, 9)) } }),
    'POST /v1/customers/:customer': (r) => ({ description: r.pick(['vip', 'late payer']) }),
    'POST /v1/products': (_r, i) => ({ name: `Product ${i}` }),
    'POST /v1/prices': (r) => ({ product: 'prod_Z6P7iTAO0y7nGv', unit_amount: r.int(100, 9000), currency: 'usd' }),
    'POST /v1/coupons': (r) => ({ percent_off: r.int(5, 50), duration: 'once' }),
    'POST /v1/payment_links': () => ({ line_items: { 0: { price: 'price_XnfQp3qYA8ndmLoQNA5q9Zw3', quantity: 1 } } }),
    'POST /v1/refunds': (r) => ({ payment_intent: 'pi_DZfHEKfur3joww3BCDwDuAQj', amount: r.int(50, 3000) }),
    'POST /v1/invoices': () => ({ customer: 'cus_9bdcrHoDFIWBid', collection_method: 'send_invoice', days_until_due: 30 }),
    'POST /v1/invoiceitems': () => ({ customer: 'cus_9bdcrHoDFIWBid', price: 'price_XnfQp3qYA8ndmLoQNA5q9Zw3', invoice: 'in_uiDylE62qx84RSi6VtguULQW' }),
    'POST /v1/subscriptions/:subscription_exposed_id': (r) => ({ metadata: { touched: String(r.int(1, 9)) } }),
    'POST /v1/disputes/:dispute': (_r, i) => ({ evidence: { uncategorized_text: `Evidence ${i}` } }),
    'POST /search': () => ({ question: 'refund a payment' }),
  },
  encodeBody: (body) => ({ contentType: 'application/x-www-form-urlencoded', text: form(body).join('&') }),
  requests: [
    (r) => ({ method: 'GET', target: `/v1/customers?limit=${r.int(1, 20)}&expand[]=data.invoice_settings` }),
    (r) => ({ method: 'GET', target: `/v1/payment_intents?limit=${r.int(1, 5)}&expand[]=data.latest_charge` }),
  ],
  seeded: { patterns: [/\b[a-z]+(?:_[a-z]+)*_[0-9A-Za-z]{8,}\b/g, /"id":"[0-9A-Za-z]{8}"/g], headers: ['Request-Id', 'Content-Length'] },
  errorShape: StripeError,
});
