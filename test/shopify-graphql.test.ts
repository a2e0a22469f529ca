import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, validate } from 'graphql';
import { openWorld } from '../scenarios/world.js';
import type { World } from '../mocks/core/world.js';
import { schemaFromSDL } from '../mocks/kit/graphql.js';
import { shopifySDL } from '../mocks/shopify/schema.js';
import { parseSearch, searchMatches } from '../mocks/shopify/search.js';

// The Shopify mock's behaviour beyond what shopify-mcp and the SDK test reach: options and
// variants as Shopify manages them, userErrors that leave the store alone, search syntax, the
// cost bucket draining to THROTTLED on the logical clock, node lookups, errors in Shopify's words.
// One world (the SDK fixture store) for the whole file, requests in order.

let world: World;
const TOKEN = 'shpat_fernandflint00000000000000000';
test.before(async () => {
  ({ world } = await openWorld({ scenarioDir: 'test/fixtures/shopify-sdk' }));
});
test.after.always(async () => {
  await world?.journal.close();
});

async function gql(query: string, variables: Record<string, unknown> = {}, token = TOKEN): Promise<{ status: number; body: any }> {
  const response = await world.dispatch({ host: 'fern-and-flint.myshopify.com', method: 'POST', target: '/admin/api/2026-01/graphql.json', body: new TextEncoder().encode(JSON.stringify({ query, variables })),
    headers: [['X-Shopify-Access-Token', token], ['Content-Type', 'application/json']] });
  return { status: response.status, body: JSON.parse(new TextDecoder().decode(response.body)) };
}

const MUG = 'gid://shopify/Product/8100000000201';
const OPTIONS = '{ options { id name position values optionValues { name hasVariants } } variants(first: 10) { nodes { id title selectedOptions { name value } } } }';

test.serial('options: create beside Glaze, rename and add a value, refuse deleting a value in use, delete a one-value option', async (t) => {
  const created = await gql(`mutation($id: ID!, $o: [OptionCreateInput!]!) { productOptionsCreate(productId: $id, options: $o) { product ${OPTIONS} userErrors { field message code } } }`, { id: MUG, o: [{ name: 'Size', values: [{ name: 'Regular' }, { name: 'Large' }] }] });
  const product = created.body.data.productOptionsCreate.product;
  t.deepEqual(product.options.map((o: any) => [o.name, o.position, o.values]), [['Glaze', 1, ['Oat', 'Moss']], ['Size', 2, ['Regular']]]);
  t.deepEqual(product.variants.nodes.map((v: any) => v.title), ['Oat / Regular', 'Moss / Regular']);
  const size = product.options[1];
  const again = await gql(`mutation($id: ID!, $o: [OptionCreateInput!]!) { productOptionsCreate(productId: $id, options: $o) { product { id } userErrors { field message code } } }`, { id: MUG, o: [{ name: 'size', values: [{ name: 'X' }] }] });
  t.deepEqual(again.body.data.productOptionsCreate, { product: null, userErrors: [{ field: ['options', '0', 'name'], message: "Option 'size' already exists.", code: 'OPTION_ALREADY_EXISTS' }] });
  const glaze = product.options[0];
  const oat = (await gql(`{ product(id: "${MUG}") { options { optionValues { id name } } } }`)).body.data.product.options[0].optionValues[0];
  const refused = await gql(`mutation($id: ID!, $o: OptionUpdateInput!, $del: [ID!]) { productOptionUpdate(productId: $id, option: $o, optionValuesToDelete: $del) { product { id } userErrors { code } } }`, { id: MUG, o: { id: glaze.id }, del: [oat.id] });
  t.deepEqual(refused.body.data.productOptionUpdate.userErrors, [{ code: 'OPTION_VALUE_HAS_VARIANTS' }]);
  const renamed = await gql(`mutation($id: ID!, $o: OptionUpdateInput!, $add: [OptionValueCreateInput!]) { productOptionUpdate(productId: $id, option: $o, optionValuesToAdd: $add) { product ${OPTIONS} userErrors { code } } }`, { id: MUG, o: { id: glaze.id, name: 'Finish' }, add: [{ name: 'Ash' }] });
  t.deepEqual(renamed.body.data.productOptionUpdate.product.options[0].optionValues, [{ name: 'Oat', hasVariants: true }, { name: 'Moss', hasVariants: true }, { name: 'Ash', hasVariants: false }]);
  t.deepEqual(renamed.body.data.productOptionUpdate.product.variants.nodes[0].selectedOptions, [{ name: 'Finish', value: 'Oat' }, { name: 'Size', value: 'Regular' }]);
  const deleted = await gql(`mutation($id: ID!, $ids: [ID!]!) { productOptionsDelete(productId: $id, options: $ids) { deletedOptionsIds product ${OPTIONS} userErrors { code } } }`, { id: MUG, ids: [size.id] });
  t.deepEqual(deleted.body.data.productOptionsDelete.deletedOptionsIds, [size.id]);
  t.deepEqual(deleted.body.data.productOptionsDelete.product.variants.nodes.map((v: any) => v.title), ['Oat', 'Moss']);
});

test.serial('variants: a duplicate and a bad price are userErrors and nothing changes; delete refuses the last variant', async (t) => {
  const before = JSON.stringify(world.state(['shopify']).shopify!.variants);
  const bad = await gql(`mutation($id: ID!, $v: [ProductVariantsBulkInput!]!) { productVariantsBulkCreate(productId: $id, variants: $v) { productVariants { id } userErrors { field message code } } }`,
    { id: MUG, v: [{ price: '40.00', optionValues: [{ optionName: 'Finish', name: 'Ash' }] }, { price: 'free', optionValues: [{ optionName: 'Finish', name: 'Oat' }] }] });
  t.deepEqual(bad.body.data.productVariantsBulkCreate.userErrors.map((e: any) => e.code), ['INVALID_INPUT', 'VARIANT_ALREADY_EXISTS']);
  t.is(JSON.stringify(world.state(['shopify']).shopify!.variants), before, 'a refused mutation writes nothing');
  const last = await gql('mutation { productVariantsBulkDelete(productId: "gid://shopify/Product/8100000000202", variantsIds: ["gid://shopify/ProductVariant/45200000000203"]) { product { id } userErrors { code } } }');
  t.deepEqual(last.body.data.productVariantsBulkDelete, { product: null, userErrors: [{ code: 'CANNOT_DELETE_LAST_VARIANT' }] });
  const other = await gql('mutation { productVariantsBulkUpdate(productId: "gid://shopify/Product/8100000000202", variants: [{id: "gid://shopify/ProductVariant/45200000000201", price: "1.00"}]) { product { id } userErrors { code } } }');
  t.deepEqual(other.body.data.productVariantsBulkUpdate.userErrors, [{ code: 'PRODUCT_VARIANT_DOES_NOT_EXIST' }]);
});

test.serial('products: handles are unique, collections join and leave, delete removes the variants', async (t) => {
  const taken = await gql('mutation { productUpdate(product: {id: "gid://shopify/Product/8100000000205", handle: "bud-vase"}) { product { id } userErrors { field message } } }');
  t.deepEqual(taken.body.data.productUpdate.userErrors, [{ field: ['handle'], message: "Handle 'bud-vase' already in use. Please provide a new handle." }]);
  const moved = await gql('mutation { productUpdate(input: {id: "gid://shopify/Product/8100000000203", collectionsToJoin: ["gid://shopify/Collection/430000000201"], tags: ["linen", " gift ", "Gift"]}) { product { tags collections(first: 5) { nodes { title } } } userErrors { message } } }');
  t.deepEqual(moved.body.data.productUpdate.product, { tags: ['gift', 'linen'], collections: { nodes: [{ title: 'Ceramics' }] } });
  const count = await gql('{ collection(id: "gid://shopify/Collection/430000000201") { productsCount { count precision } } }');
  t.deepEqual(count.body.data.collection.productsCount, { count: 4, precision: 'EXACT' });
  const gone = await gql('mutation { productDelete(input: {id: "gid://shopify/Product/8100000000204"}) { deletedProductId userErrors { message } } }');
  t.is(gone.body.data.productDelete.deletedProductId, 'gid://shopify/Product/8100000000204');
  t.false('45200000000205' in world.state(['shopify']).shopify!.variants!);
  const missing = await gql('{ product(id: "gid://shopify/Product/8100000000204") { id } node(id: "gid://shopify/Customer/7400000000202") { ... on Customer { email } } }');
  t.deepEqual(missing.body.data, { product: null, node: { email: 'tomas.berg@mail.example' } });
});

test.serial('orders and customers: close and reopen, tagsRemove, customerCreate refuses a taken email, counts and sort keys', async (t) => {
  const closed = await gql('mutation { orderClose(input: {id: "gid://shopify/Order/5900000000202"}) { order { closed closedAt } userErrors { message } } }');
  t.like(closed.body.data.orderClose.order, { closed: true });
  t.deepEqual((await gql('{ ordersCount(query: "status:open") { count } }')).body.data.ordersCount, { count: 2 });
  await gql('mutation { orderOpen(input: {id: "gid://shopify/Order/5900000000202"}) { order { closed } } }');
  t.deepEqual((await gql('{ ordersCount(query: "status:open") { count } }')).body.data.ordersCount, { count: 3 });
  const removed = await gql('mutation { tagsRemove(id: "gid://shopify/Customer/7400000000201", tags: ["WHOLESALE"]) { node { ... on Customer { tags } } userErrors { message } } }');
  t.deepEqual(removed.body.data.tagsRemove.node.tags, []);
  const dup = await gql('mutation { customerCreate(input: {email: "TOMAS.BERG@mail.example"}) { customer { id } userErrors { field message } } }');
  t.deepEqual(dup.body.data.customerCreate.userErrors, [{ field: ['email'], message: 'Email has already been taken' }]);
  const made = await gql('mutation { customerCreate(input: {firstName: "Ada", email: "ada@new.example", tags: ["b2b"]}) { customer { id displayName state numberOfOrders } userErrors { message } } }');
  t.like(made.body.data.customerCreate.customer, { displayName: 'Ada', state: 'DISABLED', numberOfOrders: '0' });
  const sorted = await gql('{ orders(first: 5, sortKey: TOTAL_PRICE, reverse: true) { nodes { name } } }');
  t.deepEqual(sorted.body.data.orders.nodes.map((o: any) => o.name), ['#1003', '#1001', '#1004', '#1005', '#1002']);
});

test.serial('search syntax: fields, wildcards, negation, OR, comparisons', (t) => {
  const record = { title: 'Trailhead Fleece Jacket', tag: ['fleece', 'fall'], inventory_total: 12, created_at: '2025-03-01T00:00:00Z' };
  const defaults = ['title', 'tag'];
  t.true(searchMatches('title:*Trailhead Fleece Jacket*', record, defaults));
  t.true(searchMatches('fleece -tag:summer', record, defaults));
  t.false(searchMatches('tag:summer', record, defaults));
  t.true(searchMatches('tag:summer OR tag:fall', record, defaults));
  t.true(searchMatches('inventory_total:>10 created_at:<2025-06-01', record, defaults));
  t.false(searchMatches('NOT jacket', record, defaults));
  t.false(searchMatches('vendor:Acme', record, defaults), 'an unknown field matches nothing');
  t.is(parseSearch('"a b" OR c').length, 2);
});

test.serial('cost: the bucket drains on the logical clock until THROTTLED; errors in Shopify\'s words; 401 and 404', async (t) => {
  // 450 aliased shop lookups cost 900 points requested and actual; each request restores 100.
  const heavy = `{ ${Array.from({ length: 450 }, (_, i) => `s${i}: shop { plan { displayName } }`).join(' ')} }`;
  const first = await gql(heavy);
  t.like(first.body.extensions.cost, { requestedQueryCost: 900, actualQueryCost: 900 });
  const second = await gql(heavy);
  const left = second.body.extensions.cost.throttleStatus.currentlyAvailable;
  t.is(left, Math.min(2000, first.body.extensions.cost.throttleStatus.currentlyAvailable + 100) - 900);
  const third = await gql(heavy);
  t.is(third.status, 200);
  t.deepEqual(third.body.errors, [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }]);
  t.deepEqual(third.body.extensions.cost, { requestedQueryCost: 900, actualQueryCost: null, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: left + 100, restoreRate: 100 } });
  t.false('data' in third.body, 'a throttled query does not run');
  // An interface's alternatives: the dearest branch counts, not their sum (1 for the list + 12).
  const branches = await gql('{ nodes(ids: ["gid://shopify/Product/8100000000201", "gid://shopify/Order/5900000000201"]) { ... on Product { variants(first: 10) { nodes { id } } } ... on Order { customer { email } } } }');
  t.is(branches.body.extensions.cost.requestedQueryCost, 13);
  // Returned: the mug (1 + its two variants' connection, 2 + 2) and the order (1 + its customer, 1).
  t.is(branches.body.extensions.cost.actualQueryCost, 5 + 2);
  const tooBig = await gql('{ products(first: 55) { nodes { id variants(first: 20) { nodes { id } } } } }');
  t.like(tooBig.body.errors[0].extensions, { code: 'MAX_COST_EXCEEDED', cost: 1267, maxCost: 1000 });
  const nope = await gql('{ shop { nope } }');
  t.deepEqual(nope.body.errors[0].message, "Field 'nope' doesn't exist on type 'Shop'");
  const gid = await gql('{ order(id: "1001") { id } }');
  t.is(gid.body.errors[0].message, "Invalid global id '1001'");
  const unauthorized = await gql('{ shop { name } }', {}, 'shpat_wrong');
  t.deepEqual(unauthorized, { status: 401, body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' } });
  const path = await world.dispatch({ host: 'fern-and-flint.myshopify.com', method: 'GET', target: '/admin/api/2026-01/products.json', headers: [['X-Shopify-Access-Token', TOKEN]], body: new Uint8Array() });
  t.deepEqual([path.status, new TextDecoder().decode(path.body)], [404, '{"errors":"Not Found"}']);
});

test('every GraphQL document shopify-mcp@1.0.8 can send validates against the SDL', (t) => {
  const dir = join('node_modules', 'shopify-mcp', 'dist', 'tools');
  const schema = schemaFromSDL(shopifySDL);
  let documents = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const source = readFileSync(join(dir, file), 'utf8');
    // Fragments defined as constants and interpolated into documents (manageProductOptions).
    const constants = new Map([...source.matchAll(/const (\w+) = gql\s*`([^`]*)`/g)].map((m) => [m[1]!, m[2]!]));
    for (const match of source.matchAll(/gql\s*`([^`]*)`/g)) {
      const text = match[1]!.replace(/\$\{(\w+)\}/g, (_all, name: string) => constants.get(name) ?? '');
      if (!/^\s*(query|mutation)\b/.test(text)) continue;
      documents += 1;
      const errors = validate(schema, parse(text));
      t.deepEqual(errors.map((e) => e.message), [], `${file}: ${text.slice(0, 60).trim()}`);
    }
  }
  t.is(documents, 17, 'the server\'s 17 documents: one per tool, two for variants, three for options');
});
