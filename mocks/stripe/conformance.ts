import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call every tool of Stripe's MCP server: in
 * the example account (scenarios/example/stripe/basic), with IDs that exist there. The draft
 * invoice gets its item before it is finalized; one active subscription is updated, another
 * canceled; the refund takes part of a payment nothing has refunded or disputed.
 */
export const sweep: SweepProfile = {
  scenario: 'scenarios/example/stripe/basic',
  order: ['create_product', 'create_price', 'create_invoice_item', 'finalize_invoice'],
  args: {
    common: {
      customer: 'cus_9bdcrHoDFIWBid', product: 'prod_Z6P7iTAO0y7nGv', price: 'price_XnfQp3qYA8ndmLoQNA5q9Zw3',
      invoice: 'in_HPqziLd21nNAQ3jHwR9Je4Xb', payment_intent: 'pi_DZfHEKfur3joww3BCDwDuAQj', dispute: 'dp_Pm35gtBoEuoFNsyiGItIUDuU',
      currency: 'usd', limit: 10,
    },
    tools: {
      create_customer: { name: 'Sweep Customer', email: 'sweep@example.test' },
      list_customers: { email: 'sofia.martin@mail.example' },
      create_product: { name: 'Sweep product' },
      create_price: { unit_amount: 1200 },
      create_payment_link: { quantity: 1 },
      create_invoice: { days_until_due: 30 },
      create_refund: { amount: 500 },
      list_payment_intents: { customer: 'cus_vV7AkP45TVZZNy' },
      list_subscriptions: { status: 'active' },
      update_subscription: { subscription: 'sub_TNx3PefL1CYmRZaCtnUO5O9h', proration_behavior: 'none', items: [{ price: 'price_hWX68PWHA5IPzUppJzeKDS5w', quantity: 2 }] },
      cancel_subscription: { subscription: 'sub_trZrGOahGPwZRpF1vHJH2oVH' },
      create_coupon: { name: 'Sweep', amount_off: 300, currency: 'usd', duration: 'once' },
      update_dispute: { evidence: { uncategorized_text: 'Delivered; signed receipt.' }, submit: true },
      search_stripe_documentation: { question: 'How do refunds work?', language: 'node' },
    },
  },
};
