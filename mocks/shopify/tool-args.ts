/**
 * Arguments for every tool of shopify-mcp in the conformance world (mocks/shopify/conformance),
 * computed from the store just before each call: the sweep's creates, updates and deletes land
 * on records that exist then. Only the sweep loads this module, never the mock.
 */
type State = Record<string, Record<string, unknown>>;
interface Doc { id: number; title?: string; productId?: number; options?: { id: number; name: string }[]; position?: number }

const docs = (state: State, collection: string): Doc[] => Object.values(state[collection] ?? {}) as Doc[];
const product = (state: State, title: string) => docs(state, 'products').find((p) => p.title === title);
const pgid = (id: number | undefined) => `gid://shopify/Product/${id ?? 0}`;
const variantsOf = (state: State, productId: number | undefined) => docs(state, 'variants').filter((v) => v.productId === productId).sort((a, b) => (a.position ?? 0) - (b.position ?? 0));

/** Reads first, then creates and updates, deletes last (the created product goes again). */
export const TOOL_ORDER = [
  'get-products', 'get-product-by-id', 'get-customers', 'get-orders', 'get-order-by-id', 'get-customer-orders',
  'create-product', 'update-product', 'manage-product-variants', 'manage-product-options', 'update-order', 'update-customer',
  'delete-product-variants', 'delete-product',
];

export function toolArguments(name: string, state: State): Record<string, unknown> {
  const jacket = product(state, 'Trailhead Fleece Jacket');
  const vest = product(state, 'Trailhead Fleece Vest');
  const socks = product(state, 'Merino Crew Socks (3-pack)');
  const created = product(state, 'Sweep Lantern');
  switch (name) {
    case 'get-products': return { searchTitle: 'fleece', limit: 5 };
    case 'get-product-by-id': return { productId: pgid(jacket?.id) };
    case 'get-customers': return { searchQuery: 'vip', limit: 5 };
    case 'get-orders': return { status: 'open', limit: 5 };
    case 'get-order-by-id': return { orderId: 'gid://shopify/Order/5900000000101' };
    case 'get-customer-orders': return { customerId: '7400000000101', limit: 5 };
    case 'create-product': return {
      title: 'Sweep Lantern', vendor: 'Lumen Works', productType: 'Lighting', tags: ['sweep'], status: 'DRAFT', seo: { title: 'Sweep Lantern' },
      metafields: [{ namespace: 'custom', key: 'burn_time', value: '12', type: 'number_integer' }],
      productOptions: [{ name: 'Color', values: [{ name: 'Brass' }, { name: 'Black' }] }], collectionsToJoin: ['gid://shopify/Collection/430000000102'],
    };
    case 'update-product': return { id: pgid(vest?.id), descriptionHtml: '<p>Warm vest.</p>', tags: ['fleece', 'layering'], collectionsToJoin: ['gid://shopify/Collection/430000000101'], metafields: [{ namespace: 'custom', key: 'fit', value: 'regular', type: 'single_line_text_field' }] };
    case 'manage-product-variants': return {
      productId: pgid(vest?.id),
      variants: [{ id: `gid://shopify/ProductVariant/${variantsOf(state, vest?.id)[0]?.id ?? 0}`, price: '64.00' }, { price: '72.00', sku: 'TFV-XL', optionValues: [{ optionName: 'Size', name: 'XL' }] }],
    };
    case 'manage-product-options': return { productId: pgid(socks?.id), action: 'update', optionId: `gid://shopify/ProductOption/${socks?.options?.[0]?.id ?? 0}`, name: 'Sock size', valuesToAdd: ['S'] };
    case 'update-order': return {
      id: 'gid://shopify/Order/5900000000102', tags: ['sweep'], note: 'Checked by the sweep', email: 'sweep.order@example.test', customAttributes: [{ key: 'gift_wrap', value: 'yes' }],
      metafields: [{ namespace: 'custom', key: 'sweep', value: '1', type: 'single_line_text_field' }], shippingAddress: { address1: '1 Sweep Way', city: 'Portland', zip: '97205' },
    };
    case 'update-customer': return { id: '7400000000102', note: 'Sweep note', tags: ['sweep'], phone: '+15035559999', taxExempt: false, metafields: [{ namespace: 'custom', key: 'tier', value: 'gold', type: 'single_line_text_field' }] };
    case 'delete-product-variants': return { productId: pgid(jacket?.id), variantIds: [`gid://shopify/ProductVariant/${variantsOf(state, jacket?.id).at(-1)?.id ?? 0}`] };
    case 'delete-product': return { id: pgid(created?.id) };
    default: return {};
  }
}
