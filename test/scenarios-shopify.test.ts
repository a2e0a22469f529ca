import test from 'ava';
import { join } from 'node:path';
import { openWorld } from '../scenarios/world.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { schemaFromSDL } from '../mocks/kit/graphql.js';
import { shopifySDL } from '../mocks/shopify/schema.js';
import { scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Shopify scenario of the business group (helpers/scenario-suite): valid (oracle arguments
// against shopify-mcp's input schemas), nop 0, oracle 1 with R_b 0 through the real server, replay
// identical; and near misses (the look-alike order, the archived product) score 0.

const dirs = findScenarios(join('scenarios', 'business')).filter((dir) => dir.includes('/shopify/'));
const manifests = scenarioSuite({
  service: 'shopify',
  dirs,
  credentialOk: (world, credential) => {
    const { token, shop } = credential as { token?: string; shop?: string };
    const state = world.state(['shopify']).shopify!;
    return typeof token === 'string' && token in (state.tokens ?? {}) && (state.shop?.shop as { myshopifyDomain?: string } | undefined)?.myshopifyDomain === `${shop}.myshopify.com`;
  },
  // Requests are named by root field: every field of the schema's query and mutation roots.
  operationNames: (() => {
    const schema = schemaFromSDL(shopifySDL);
    return [...Object.keys(schema.getQueryType()!.getFields()).map((f) => `Query.${f}`), ...Object.keys(schema.getMutationType()!.getFields()).map((f) => `Mutation.${f}`)];
  })(),
});

scenarioSetSuite('Shopify', 'shopify', manifests, [
  { collection: 'products', min: 20, what: 'a non-trivial store (products)' },
  { collection: 'customers', min: 30, what: 'a non-trivial store (customers)' },
  { collection: 'orders', min: 40, what: 'a non-trivial store (orders)' },
]);

/** A near miss scores 0: the right change on the look-alike record, made straight through the API. */
test('near misses score 0: the wrong order, the archived product, the other customer', async (t) => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['business/shopify/delayed-order-tag', 'mutation($input: OrderInput!) { orderUpdate(input: $input) { userErrors { message } } }',
      { input: { id: 'gid://shopify/Order/5900000000143', tags: ['delayed'], note: 'Customer contacted 2025-11-18: shipping delayed by backorder' } }],
    ['business/shopify/reprice-fleece-variant', 'mutation($p: ID!, $v: [ProductVariantsBulkInput!]!) { productVariantsBulkUpdate(productId: $p, variants: $v) { userErrors { message } } }',
      { p: 'gid://shopify/Product/8100000000190', v: [{ id: 'gid://shopify/ProductVariant/45200000000194', price: '129.00' }] }],
    ['business/shopify/customer-email-change', 'mutation($input: CustomerInput!) { customerUpdate(input: $input) { userErrors { message } } }',
      { input: { id: 'gid://shopify/Customer/7400000000532', email: 'priya.n@fastmail.example', tags: ['vip', 'email-updated'] } }],
  ];
  for (const [id, query, variables] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const response = await opened.world.dispatch({ host: 'harbor-and-pine.myshopify.com', method: 'POST', target: '/admin/api/2026-01/graphql.json', body: new TextEncoder().encode(JSON.stringify({ query, variables })),
        headers: [['X-Shopify-Access-Token', (manifest.credentials.shopify as { token: string }).token], ['Content-Type', 'application/json']] });
      t.is(response.status, 200, id);
      t.regex(new TextDecoder().decode(response.body), /"userErrors":\[\]/, id);
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, id);
      t.false(result.forbidden_calls_ok && result.state_ok, id);
    } finally {
      await opened.world.journal.close();
    }
  }
});
