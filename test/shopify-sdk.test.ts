import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The official @shopify/admin-api-client (unmodified) in its own Node process, reaching
// https://fern-and-flint.myshopify.com/admin/api/2026-01/graphql.json (a host of the
// {shop}.myshopify.com pattern) through the preload and the TLS proxy, against the Shopify mock.

const run = promisify(execFile);
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'test/fixtures/shopify-sdk', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['shopify-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('@shopify/admin-api-client reads, pages, searches, mutates, sees userErrors, THROTTLED and MAX_COST_EXCEEDED', async (t) => {
  const script = fileURLToPath(new URL('./helpers/shopify-sdk-client.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], { env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('shopify-sdk'), stack.caPath!), SHOPIFY_TOKEN: 'shpat_fernandflint00000000000000000' } });
  const out = JSON.parse(stdout);
  t.deepEqual(out.shop, { name: 'Fern & Flint', myshopifyDomain: 'fern-and-flint.myshopify.com', currencyCode: 'CAD' });
  t.deepEqual(out.cost, { requestedQueryCost: 1, actualQueryCost: 1, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1999, restoreRate: 100 } });
  t.deepEqual(out.paged, { pages: 2, titles: ['Speckled Mug', 'Bud Vase', 'Linen Napkins (set of 4)', 'Stoneware Bowl'] });
  t.deepEqual(out.customer, [{ id: 'gid://shopify/Customer/7400000000201', displayName: 'Ines Laurent', numberOfOrders: '2', amountSpent: { amount: '338.12', currencyCode: 'CAD' }, orders: { nodes: [{ name: '#1001' }, { name: '#1003' }] } }]);
  t.deepEqual(out.openOrders, ['#1002 65.63', '#1003 191.4', '#1005 67.2']);
  t.deepEqual(out.product, {
    handle: 'glaze-sampler', status: 'DRAFT', initial: [{ title: 'Small', price: '0.00' }],
    variants: [{ title: 'Small', price: '18.00', sku: 'FF-SAMP-S' }, { title: 'Large', price: '26.00', sku: 'FF-SAMP-L' }], errors: [],
  });
  t.deepEqual(out.userErrors, { customer: null, userErrors: [{ field: ['email'], message: 'Email has already been taken' }] });
  t.deepEqual(out.order, {
    set: [{ namespace: 'crm', key: 'hubspot_deal_id', value: '4410023' }], tags: ['priority', 'wholesale'],
    reread: { name: '#1003', tags: ['priority', 'wholesale'], metafield: { value: '4410023' }, customer: { email: 'ines@laurent.example' } },
  });
  t.deepEqual(out.inventory, { inventoryAdjustmentGroup: { changes: [{ name: 'available', delta: -2, quantityAfterChange: 10 }] }, userErrors: [] });
  t.is(out.throttled.status, 200);
  t.like(out.throttled.errors[0], { message: 'Throttled', extensions: { code: 'THROTTLED' } });
  t.like(out.throttled.cost, { requestedQueryCost: 7, actualQueryCost: null, throttleStatus: { maximumAvailable: 2000, restoreRate: 100 } });
  t.deepEqual(out.retried, ['Vancouver studio', 'Toronto pop-up']);
  t.like(out.maxCost, { code: 'MAX_COST_EXCEEDED', maxCost: 1000 });
  t.deepEqual(out.denied, { status: 401, message: 'GraphQL Client: Unauthorized' });

  await stack.world.journal.flush();
  const names: string[] = [];
  for await (const entry of stack.world.journal.entries()) names.push(entry.operation?.name ?? 'null');
  t.false(names.includes('null'), `every request is named by its root field: ${names.join(' ')}`);
  for (const name of ['Query.shop', 'Query.products', 'Mutation.productCreate', 'Mutation.productVariantsBulkCreate', 'Mutation.metafieldsSet', 'Mutation.tagsAdd', 'Mutation.inventoryAdjustQuantities', 'Query.locations']) t.true(names.includes(name), name);
  const state = stack.world.gradingState().shopify!;
  t.like(state.orders!['5900000000203'], { tags: ['priority', 'wholesale'] });
});
