import type { DocumentStore } from '../core/store.js';
import { invalidGid } from './errors.js';
import {
  available, byId, collections, customers, locations, orders, parseGid, productVariants, products, variants,
  type CustomerRec, type OrderRec, type ProductRec, type VariantRec,
} from './model.js';
import { searchMatches, type Searchable } from './search.js';
import {
  collectionView, customerView, inventoryItemView, locationView, nodeById, orderView, page, productView, shopView, variantView, type ShopifyContext,
} from './views.js';

type Args = Record<string, unknown>;

/** The numeric id of a global id argument of `type`; an id of another shape is Shopify's coercion error. */
export function idArg(value: unknown, type: string): number {
  const ref = parseGid(String(value));
  if (!ref) throw invalidGid(String(value));
  return ref.type === type ? ref.id : -1;
}

const lower = (s: string | null) => (s === null ? null : s.toLowerCase());

/** What each resource's `query` can filter on (search.ts), and its default fields for bare terms. */
export function productSearch(store: DocumentStore, p: ProductRec): Searchable {
  const vs = productVariants(store, p.id);
  return {
    id: p.id, title: p.title, handle: p.handle, vendor: p.vendor, product_type: p.productType, status: lower(p.status), tag: p.tags,
    sku: vs.map((v) => v.sku), barcode: vs.map((v) => v.barcode), created_at: p.createdAt, updated_at: p.updatedAt,
    inventory_total: vs.reduce((sum, v) => sum + available(v), 0), collection_id: p.collectionIds,
  };
}
const PRODUCT_DEFAULTS = ['title', 'vendor', 'product_type', 'tag', 'sku'];

export function customerSearch(store: DocumentStore, c: CustomerRec): Searchable {
  const own = orders(store).filter((o) => o.customerId === c.id);
  return {
    id: c.id, email: c.email, first_name: c.firstName, last_name: c.lastName, name: [c.firstName, c.lastName].filter(Boolean).join(' '), phone: c.phone, tag: c.tags,
    state: lower(c.state), country: c.addresses.map((a) => a.country), created_at: c.createdAt, updated_at: c.updatedAt, orders_count: own.length,
  };
}
const CUSTOMER_DEFAULTS = ['first_name', 'last_name', 'name', 'email', 'phone', 'tag'];

const FULFILLMENT_ALIASES: Record<string, string[]> = {
  FULFILLED: ['shipped', 'fulfilled'], UNFULFILLED: ['unshipped', 'unfulfilled'], PARTIALLY_FULFILLED: ['partial', 'unfulfilled'],
};

export function orderSearch(store: DocumentStore, o: OrderRec): Searchable {
  const customer = o.customerId === null ? undefined : customers(store).get(o.customerId);
  const status = o.cancelledAt !== null ? ['cancelled', ...(o.closed ? ['closed'] : [])] : o.closed ? ['closed'] : ['open'];
  return {
    id: o.id, name: [o.name, o.name.slice(1)], email: o.email, status, financial_status: lower(o.financialStatus),
    fulfillment_status: FULFILLMENT_ALIASES[o.fulfillmentStatus] ?? [lower(o.fulfillmentStatus)], customer_id: o.customerId, tag: o.tags,
    sku: o.lineItems.map((li) => li.sku), created_at: o.createdAt, processed_at: o.processedAt, updated_at: o.updatedAt,
    customer_name: customer ? [customer.firstName, customer.lastName].filter(Boolean).join(' ') : null, test: false,
  };
}
const ORDER_DEFAULTS = ['name', 'email', 'customer_name', 'sku', 'tag'];

const variantSearch = (v: VariantRec): Searchable => ({ id: v.id, sku: v.sku, title: v.title, barcode: v.barcode, product_id: v.productId, inventory_quantity: available(v) });

type Sorter<T> = (a: T, b: T) => number;
const text = <T>(get: (x: T) => string | null): Sorter<T> => (a, b) => (get(a) ?? '').localeCompare(get(b) ?? '');
const num = <T>(get: (x: T) => number): Sorter<T> => (a, b) => get(a) - get(b);

function sorted<T extends { id: number }>(items: T[], sorters: Record<string, Sorter<T>>, sortKey: unknown): T[] {
  const sorter = sorters[String(sortKey)];
  // Ties (and RELEVANCE, ID) keep id order, which is creation order.
  return sorter ? items.sort((a, b) => sorter(a, b) || byId(a, b)) : items.sort(byId);
}

const PRODUCT_SORT: Record<string, Sorter<ProductRec>> = {
  TITLE: text((p) => p.title), CREATED_AT: text((p) => p.createdAt), UPDATED_AT: text((p) => p.updatedAt), PRODUCT_TYPE: text((p) => p.productType), VENDOR: text((p) => p.vendor),
};
const ORDER_SORT: Record<string, Sorter<OrderRec>> = {
  CREATED_AT: text((o) => o.createdAt), PROCESSED_AT: text((o) => o.processedAt), UPDATED_AT: text((o) => o.updatedAt), ORDER_NUMBER: num((o) => o.number), TOTAL_PRICE: num((o) => o.totalCents),
};
const CUSTOMER_SORT: Record<string, Sorter<CustomerRec>> = {
  NAME: text((c) => `${c.firstName ?? ''} ${c.lastName ?? ''}`), CREATED_AT: text((c) => c.createdAt), UPDATED_AT: text((c) => c.updatedAt),
};

export function findProducts(store: DocumentStore, args: Args): ProductRec[] {
  const sorters: Record<string, Sorter<ProductRec>> = { ...PRODUCT_SORT, INVENTORY_TOTAL: num((p) => productVariants(store, p.id).reduce((s, v) => s + available(v), 0)) };
  return sorted(products(store).filter((p) => searchMatches(args.query as string | null, productSearch(store, p), PRODUCT_DEFAULTS)), sorters, args.sortKey);
}

export function findOrders(store: DocumentStore, args: Args, only?: (o: OrderRec) => boolean): OrderRec[] {
  const sorters: Record<string, Sorter<OrderRec>> = {
    ...ORDER_SORT,
    CUSTOMER_NAME: text((o) => { const c = o.customerId === null ? undefined : customers(store).get(o.customerId); return c ? `${c.firstName ?? ''} ${c.lastName ?? ''}` : ''; }),
  };
  return sorted(orders(store).filter((o) => (!only || only(o)) && searchMatches(args.query as string | null, orderSearch(store, o), ORDER_DEFAULTS)), sorters, args.sortKey);
}

export function findCustomers(store: DocumentStore, args: Args): CustomerRec[] {
  return sorted(customers(store).filter((c) => searchMatches(args.query as string | null, customerSearch(store, c), CUSTOMER_DEFAULTS)), CUSTOMER_SORT, args.sortKey);
}

const count = (n: number, limit: unknown) => (typeof limit === 'number' && n > limit ? { count: limit, precision: 'AT_LEAST' } : { count: n, precision: 'EXACT' });
const key = (r: { id: number }) => String(r.id);

/** QueryRoot's fields. */
export const queryRoot = (c: ShopifyContext) => {
  const { store } = c;
  return {
    shop: () => shopView(store),
    node: (args: Args) => nodeById(store, String(args.id)),
    nodes: (args: Args) => (args.ids as string[]).map((id) => nodeById(store, id)),
    product: (args: Args) => { const p = products(store).get(idArg(args.id, 'Product')); return p ? productView(store, p) : null; },
    productByIdentifier: (args: Args) => {
      const identifier = args.identifier as { id?: string; handle?: string };
      const p = identifier.id ? products(store).get(idArg(identifier.id, 'Product')) : products(store).find((x) => x.handle === identifier.handle);
      return p ? productView(store, p) : null;
    },
    products: (args: Args) => page(findProducts(store, args), args, key, (p) => productView(store, p)),
    productsCount: (args: Args) => count(findProducts(store, args).length, args.limit),
    productVariant: (args: Args) => { const v = variants(store).get(idArg(args.id, 'ProductVariant')); return v ? variantView(store, v) : null; },
    productVariants: (args: Args) => {
      const sorters: Record<string, Sorter<VariantRec>> = { SKU: text((v) => v.sku), TITLE: text((v) => v.title), POSITION: num((v) => v.position), INVENTORY_QUANTITY: num(available) };
      const list = sorted(variants(store).filter((v) => searchMatches(args.query as string | null, variantSearch(v), ['sku', 'title', 'barcode'])), sorters, args.sortKey);
      return page(list, args, key, (v) => variantView(store, v));
    },
    collection: (args: Args) => { const x = collections(store).get(idArg(args.id, 'Collection')); return x ? collectionView(store, x) : null; },
    collections: (args: Args) => {
      const list = collections(store).filter((x) => searchMatches(args.query as string | null, { id: x.id, title: x.title, handle: x.handle, updated_at: x.updatedAt }, ['title']));
      return page(sorted(list, { TITLE: text((x) => x.title), UPDATED_AT: text((x) => x.updatedAt) }, args.sortKey), args, key, (x) => collectionView(store, x));
    },
    customer: (args: Args) => { const x = customers(store).get(idArg(args.id, 'Customer')); return x ? customerView(store, x) : null; },
    customers: (args: Args) => page(findCustomers(store, args), args, key, (x) => customerView(store, x)),
    customersCount: (args: Args) => count(findCustomers(store, args).length, args.limit),
    order: (args: Args) => { const o = orders(store).get(idArg(args.id, 'Order')); return o ? orderView(store, o) : null; },
    orders: (args: Args) => page(findOrders(store, args), args, key, (o) => orderView(store, o)),
    ordersCount: (args: Args) => count(findOrders(store, args).length, args.limit),
    location: (args: Args) => {
      const l = args.id == null ? locations(store).values().sort(byId)[0] : locations(store).get(idArg(args.id, 'Location'));
      return l ? locationView(l) : null;
    },
    locations: (args: Args) => {
      const list = locations(store).filter((l) => (args.includeInactive || l.isActive) && searchMatches(args.query as string | null, { id: l.id, name: l.name }, ['name'])).sort(byId);
      return page(list, args, key, locationView);
    },
    inventoryItem: (args: Args) => {
      const id = idArg(args.id, 'InventoryItem');
      const v = variants(store).find((x) => x.inventoryItemId === id);
      return v ? inventoryItemView(store, v) : null;
    },
  };
};
