import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/shopify/conformance.js';
import { conformance } from './helpers/conformance.js';

// The conformance suite over Shopify's GraphQL Admin API (test/helpers/conformance.ts): documents
// from a seeded generator (reads, paging, search, mutations with and without userErrors, unknown
// fields and ids), answers that do not depend on the seed (Shopify's ids are counters), Shopify's
// error bodies for faults, and all 14 tools of shopify-mcp through MCP.

const target = '/admin/api/2026-01/graphql.json';
const gql = (query: string, variables: Record<string, unknown> = {}) => ({ method: 'POST', target, body: { query, variables } });
const ORDERS = ['gid://shopify/Order/5900000000101', 'gid://shopify/Order/5900000000130', 'gid://shopify/Order/1'];

conformance(test, {
  service: 'shopify',
  sweep,
  headers: [['X-Shopify-Access-Token', 'shpat_conformance000000000000000000']],
  requests: [
    () => gql('{ shop { name myshopifyDomain currencyCode } }'),
    (r) => gql('query($first: Int!, $q: String) { products(first: $first, query: $q) { edges { cursor node { id title totalInventory variants(first: 3) { nodes { sku price } } } } pageInfo { hasNextPage endCursor } } }', { first: r.int(1, 6), q: r.pick([null, 'title:*fleece*', 'vendor:Northfold', 'tag:summer']) }),
    (r) => gql('query($q: String) { customers(first: 5, query: $q) { nodes { id email numberOfOrders amountSpent { amount } } } }', { q: r.pick(['vip', 'email:*fastmail*', null]) }),
    (r) => gql('query($q: String) { orders(first: 4, query: $q, reverse: true) { nodes { id name displayFinancialStatus totalPriceSet { shopMoney { amount } } } } }', { q: r.pick(['status:open', 'financial_status:refunded', null]) }),
    (r) => gql('query($id: ID!) { order(id: $id) { id name tags note metafields(first: 5) { nodes { key value } } } }', { id: r.pick([...ORDERS, '1001']) }),
    (r, i) => gql('mutation($input: OrderInput!) { orderUpdate(input: $input) { order { id tags } userErrors { field message } } }', { input: { id: r.pick(ORDERS), tags: [`t${i}`], ...(r.int(0, 3) === 0 ? { email: 'not-an-email' } : {}) } }),
    (r, i) => gql('mutation($input: CustomerInput!) { customerUpdate(input: $input) { customer { id note } userErrors { field message } } }', { input: { id: r.pick(['gid://shopify/Customer/7400000000103', 'gid://shopify/Customer/9']), note: `n${i}` } }),
    (r, i) => gql('mutation($p: ProductCreateInput!) { productCreate(product: $p) { product { id handle variants(first: 2) { nodes { id title } } } userErrors { field message } } }', { p: { title: r.pick([`Generated ${i}`, '']) } }),
    () => gql('{ products { nodes { id } } }'),
    () => gql('{ nope }'),
    () => gql('{ products(first: 250) { nodes { id variants(first: 100) { nodes { id } } } } }'),
  ],
  seeded: { patterns: [] },
  errorShape: z.object({ errors: z.union([z.string().min(1), z.array(z.object({ message: z.string() }).passthrough()).min(1), z.record(z.string())]) }).passthrough(),
  // GraphQL errors are HTTP 200 with an `errors` list, as Shopify answers them.
  isError: (entry) => entry.response.status >= 400 || /"errors":/.test(new TextDecoder().decode(entry.response.body)),
});
