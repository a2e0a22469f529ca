// @shopify/admin-api-client (the devDependency, unmodified) against
// https://fern-and-flint.myshopify.com/admin/api/2026-01/graphql.json through whatever the preload
// set up: the shop, cursor paging, search, a product with variants, userErrors, metafields and
// tags on an order, inventory, Shopify's cost extensions, a THROTTLED answer and its retry,
// MAX_COST_EXCEEDED, and a bad token. Prints one JSON object.
import { createAdminApiClient } from '@shopify/admin-api-client';

const logs = [];
const client = createAdminApiClient({ storeDomain: 'fern-and-flint.myshopify.com', apiVersion: '2026-01', accessToken: process.env.SHOPIFY_TOKEN, logger: (entry) => logs.push(entry.type) });
const out = {};
const must = (response, what) => {
  if (response.errors) throw new Error(`${what}: ${JSON.stringify(response.errors.graphQLErrors ?? response.errors.message)}`);
  return response.data;
};

const shop = await client.request('{ shop { name myshopifyDomain currencyCode } }');
out.shop = shop.data.shop;
out.cost = shop.extensions.cost;

// Every active product, two per page, by cursor.
const titles = [];
let after = null;
let pages = 0;
for (;;) {
  const page = must(await client.request(`query ($after: String) { products(first: 2, after: $after, query: "status:active") { edges { cursor node { title } } pageInfo { hasNextPage endCursor } } }`, { variables: { after } }), 'products');
  pages += 1;
  titles.push(...page.products.edges.map((e) => e.node.title));
  if (!page.products.pageInfo.hasNextPage) break;
  after = page.products.pageInfo.endCursor;
}
out.paged = { pages, titles };

const ines = must(await client.request(`{ customers(first: 5, query: "email:ines@laurent.example") { nodes { id displayName numberOfOrders amountSpent { amount currencyCode } orders(first: 5) { nodes { name } } } } }`), 'customers').customers.nodes;
out.customer = ines;
const open = must(await client.request(`{ orders(first: 10, query: "status:open -financial_status:refunded") { nodes { name displayFinancialStatus totalPriceSet { shopMoney { amount currencyCode } } } } }`), 'orders').orders.nodes;
out.openOrders = open.map((o) => `${o.name} ${o.totalPriceSet.shopMoney.amount}`);

const created = must(await client.request(`mutation ($product: ProductCreateInput!) { productCreate(product: $product) { product { id handle status options { name values } variants(first: 5) { nodes { title price } } } userErrors { field message } } }`,
  { variables: { product: { title: 'Glaze Sampler', vendor: 'Fern & Flint', status: 'DRAFT', productOptions: [{ name: 'Size', values: [{ name: 'Small' }, { name: 'Large' }] }] } } }), 'productCreate').productCreate;
const bulk = must(await client.request(`mutation ($productId: ID!, $variants: [ProductVariantsBulkInput!]!) { productVariantsBulkCreate(productId: $productId, variants: $variants, strategy: REMOVE_STANDALONE_VARIANT) { product { variants(first: 5) { nodes { title price sku: sku } } } userErrors { field message code } } }`,
  { variables: { productId: created.product.id, variants: [{ price: '18.00', inventoryItem: { sku: 'FF-SAMP-S' }, optionValues: [{ optionName: 'Size', name: 'Small' }] }, { price: '26.00', inventoryItem: { sku: 'FF-SAMP-L' }, optionValues: [{ optionName: 'Size', name: 'Large' }] }] } }), 'bulk').productVariantsBulkCreate;
out.product = { handle: created.product.handle, status: created.product.status, initial: created.product.variants.nodes, variants: bulk.product.variants.nodes, errors: bulk.userErrors };

const bad = must(await client.request(`mutation { customerUpdate(input: {id: "gid://shopify/Customer/7400000000202", email: "ines@laurent.example"}) { customer { id } userErrors { field message } } }`), 'customerUpdate').customerUpdate;
out.userErrors = bad;

const order = 'gid://shopify/Order/5900000000203';
const set = must(await client.request(`mutation ($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { metafields { namespace key value } userErrors { field message code } } }`,
  { variables: { m: [{ ownerId: order, namespace: 'crm', key: 'hubspot_deal_id', value: '4410023', type: 'single_line_text_field' }] } }), 'metafieldsSet').metafieldsSet;
const tagged = must(await client.request(`mutation { tagsAdd(id: "${order}", tags: ["priority", "wholesale"]) { node { ... on Order { name tags } } userErrors { message } } }`), 'tagsAdd').tagsAdd;
const reread = must(await client.request(`query ($id: ID!) { order(id: $id) { name tags metafield(namespace: "crm", key: "hubspot_deal_id") { value } customer { email } } }`, { variables: { id: order } }), 'order').order;
out.order = { set: set.metafields, tags: tagged.node.tags, reread };

const adjusted = must(await client.request(`mutation { inventoryAdjustQuantities(input: {reason: "correction", name: "available", changes: [{delta: -2, inventoryItemId: "${'INVENTORY_ITEM'}", locationId: "gid://shopify/Location/71000000201"}]}) { inventoryAdjustmentGroup { changes { name delta quantityAfterChange } } userErrors { field message code } } }`.replace('INVENTORY_ITEM',
  must(await client.request('{ productVariant(id: "gid://shopify/ProductVariant/45200000000201") { inventoryItem { id } } }'), 'variant').productVariant.inventoryItem.id)), 'inventory').inventoryAdjustQuantities;
out.inventory = adjusted;

// The world throttles the first locations query: Shopify's THROTTLED, HTTP 200, with the cost block.
const throttled = await client.request('{ locations(first: 5) { nodes { name } } }');
out.throttled = { status: throttled.errors?.networkStatusCode, errors: throttled.errors?.graphQLErrors, cost: throttled.extensions?.cost };
const retried = await client.request('{ locations(first: 5) { nodes { name } } }');
out.retried = retried.data?.locations.nodes.map((l) => l.name);

const tooBig = await client.request('{ products(first: 250) { nodes { id variants(first: 100) { nodes { id } } } } }');
out.maxCost = tooBig.errors?.graphQLErrors?.[0]?.extensions;

const stranger = createAdminApiClient({ storeDomain: 'fern-and-flint.myshopify.com', apiVersion: '2026-01', accessToken: 'shpat_nope', logger: () => {} });
const denied = await stranger.request('{ shop { name } }');
out.denied = { status: denied.errors?.networkStatusCode, message: denied.errors?.message };
out.logs = [...new Set(logs)];
process.stdout.write(JSON.stringify(out));
