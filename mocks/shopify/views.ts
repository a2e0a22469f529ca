import type { DocumentStore } from '../core/store.js';
import { connection, ConnectionArgumentError, type Connection, type ConnectionArgs } from '../kit/pagination/connection.js';
import { connectionError, invalidGid } from './errors.js';
import {
  available, byId, collections, customers, decimal, gid, locations, money, orders, parseGid, productVariants, products, shopOf, variants,
  type AddressRec, type CollectionRec, type CustomerRec, type LineItemRec, type LocationRec, type MetafieldRec, type OrderRec, type ProductRec, type VariantRec,
} from './model.js';

/**
 * GraphQL objects over the store's records. Each view is a plain object whose fields are values
 * or functions `(args, context)`, which graphql-js's default resolver calls: the store is read
 * only for the fields a query selects. `__typename` lets the default type resolver pick the
 * type of a `Node` or `HasMetafields`.
 */
export interface ShopifyContext {
  readonly store: DocumentStore;
  readonly nowIso: string;
  readonly nowMs: number;
  /** For new records: seeded ids (model.newId). */
  readonly ids: import('../core/service.js').LoadContext['ids'];
}

type Args = Record<string, unknown>;
type View = Record<string, unknown>;

export interface PageArgs extends ConnectionArgs { reverse?: boolean | null }

/** A Relay page, as Shopify answers it: first or last is required, at most 250. */
export function page<T>(items: readonly T[], args: PageArgs, keyOf: (item: T) => string, view: (item: T) => View): Connection<View> {
  if ((args.first ?? null) === null && (args.last ?? null) === null) throw connectionError('you must provide one of first or last');
  const ordered = args.reverse ? [...items].reverse() : items;
  let result: Connection<T>;
  try {
    result = connection(ordered, args, keyOf, { max: 250 });
  } catch (error) {
    if (error instanceof ConnectionArgumentError) throw connectionError(error.message);
    throw error;
  }
  const nodes = result.nodes.map(view);
  return { nodes, edges: result.edges.map((e, i) => ({ cursor: e.cursor, node: nodes[i]! })), pageInfo: result.pageInfo };
}

const key = (r: { id: number }) => String(r.id);

export function currency(store: DocumentStore): string {
  return shopOf(store)?.currencyCode ?? 'USD';
}

export const moneyV2 = (store: DocumentStore, value: number) => ({ amount: decimal(value), currencyCode: currency(store) });
export const moneyBag = (store: DocumentStore, value: number) => ({ shopMoney: moneyV2(store, value), presentmentMoney: moneyV2(store, value) });

export function addressView(a: AddressRec | null): View | null {
  if (!a) return null;
  const name = [a.firstName, a.lastName].filter(Boolean).join(' ') || null;
  return {
    ...a, countryCodeV2: a.countryCode, name,
    formatted: (args: Args) => [
      ...(args.withName && name ? [name] : []), ...(args.withCompany !== false && a.company ? [a.company] : []),
      ...[a.address1, a.address2].filter((x): x is string => !!x), [a.city, a.provinceCode, a.zip].filter(Boolean).join(' '), ...(a.country ? [a.country] : []),
    ].filter((line) => line !== ''),
  };
}

function metafieldView(m: MetafieldRec, ownerType: string, owner: () => View): View {
  let json: unknown = m.value;
  if (m.type === 'json' || m.type.startsWith('list.')) { try { json = JSON.parse(m.value); } catch { json = m.value; } }
  else if (m.type === 'number_integer' || m.type === 'number_decimal') json = Number(m.value);
  else if (m.type === 'boolean') json = m.value === 'true';
  return { __typename: 'Metafield', id: gid('Metafield', m.id), namespace: m.namespace, key: m.key, value: m.value, type: m.type, jsonValue: json, ownerType, createdAt: m.createdAt, updatedAt: m.updatedAt, owner };
}

/** `metafield(namespace, key)` and `metafields(namespace, keys, first…)` of an owner. */
function metafieldFields(list: readonly MetafieldRec[], ownerType: string, owner: () => View): View {
  const view = (m: MetafieldRec) => metafieldView(m, ownerType, owner);
  return {
    metafield: (args: Args) => {
      const found = list.find((m) => m.key === args.key && (args.namespace == null || m.namespace === args.namespace));
      return found ? view(found) : null;
    },
    metafields: (args: Args) => {
      const keys = args.keys as string[] | null | undefined;
      const chosen = list.filter((m) => (args.namespace == null || m.namespace === args.namespace) && (!keys || keys.includes(`${m.namespace}.${m.key}`)));
      return page(chosen, args, key, view);
    },
  };
}

export function shopView(store: DocumentStore): View {
  const shop = shopOf(store)!;
  const self: View = {
    __typename: 'Shop', id: gid('Shop', shop.id), name: shop.name, email: shop.email, myshopifyDomain: shop.myshopifyDomain, url: `https://${shop.myshopifyDomain}`,
    currencyCode: shop.currencyCode, ianaTimezone: shop.ianaTimezone, plan: { displayName: shop.plan, partnerDevelopment: false, shopifyPlus: shop.plan === 'Shopify Plus' },
    ...metafieldFields([], 'SHOP', () => self),
  };
  return self;
}

export function productView(store: DocumentStore, p: ProductRec): View {
  const vs = () => productVariants(store, p.id);
  const self: View = {
    __typename: 'Product', id: gid('Product', p.id), title: p.title, handle: p.handle, descriptionHtml: p.descriptionHtml, vendor: p.vendor, productType: p.productType,
    status: p.status, tags: p.tags, createdAt: p.createdAt, updatedAt: p.updatedAt, publishedAt: p.status === 'ACTIVE' ? p.createdAt : null,
    onlineStoreUrl: p.status === 'ACTIVE' ? `https://${shopOf(store)?.myshopifyDomain ?? 'shop.myshopify.com'}/products/${p.handle}` : null,
    seo: p.seo,
    description: (args: Args) => {
      const text = p.descriptionHtml.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
      const at = typeof args.truncateAt === 'number' ? args.truncateAt : null;
      return at !== null && text.length > at ? `${text.slice(0, Math.max(0, at - 3))}...` : text;
    },
    totalInventory: () => vs().reduce((sum, v) => sum + available(v), 0),
    tracksInventory: () => vs().some((v) => v.tracked),
    hasOnlyDefaultVariant: () => p.options.length === 1 && p.options[0]!.name === 'Title' && vs().length === 1,
    priceRangeV2: () => {
      const prices = vs().map((v) => v.priceCents);
      return { minVariantPrice: moneyV2(store, prices.length ? Math.min(...prices) : 0), maxVariantPrice: moneyV2(store, prices.length ? Math.max(...prices) : 0) };
    },
    options: (args: Args) => {
      const used = vs();
      const list = p.options.map((o) => ({
        __typename: 'ProductOption', id: gid('ProductOption', o.id), name: o.name, position: o.position, values: o.values.filter((v) => used.some((u) => u.selectedOptions.some((s) => s.name === o.name && s.value === v.name))).map((v) => v.name),
        optionValues: o.values.map((v) => ({ __typename: 'ProductOptionValue', id: gid('ProductOptionValue', v.id), name: v.name, hasVariants: used.some((u) => u.selectedOptions.some((s) => s.name === o.name && s.value === v.name)) })),
      }));
      return typeof args.first === 'number' ? list.slice(0, args.first) : list;
    },
    images: (args: Args) => page(p.images, args, key, (img) => ({ id: gid('ProductImage', img.id), url: img.url, altText: img.altText, width: 1024, height: 1024 })),
    variants: (args: Args) => page(vs(), args, key, (v) => variantView(store, v)),
    variantsCount: () => ({ count: vs().length, precision: 'EXACT' }),
    collections: (args: Args) => page(p.collectionIds.flatMap((id) => collections(store).get(id) ?? []).sort(byId), args, key, (c) => collectionView(store, c)),
    ...metafieldFields(p.metafields, 'PRODUCT', () => self),
  };
  return self;
}

export function variantView(store: DocumentStore, v: VariantRec): View {
  const product = () => products(store).get(v.productId)!;
  return {
    __typename: 'ProductVariant', id: gid('ProductVariant', v.id), title: v.title, price: money(v.priceCents), compareAtPrice: v.compareAtPriceCents === null ? null : money(v.compareAtPriceCents),
    sku: v.sku, barcode: v.barcode, taxable: v.taxable, position: v.position, selectedOptions: v.selectedOptions, createdAt: v.createdAt, updatedAt: v.updatedAt,
    displayName: () => `${product().title} - ${v.title}`,
    inventoryQuantity: available(v),
    availableForSale: () => product().status === 'ACTIVE' && (!v.tracked || available(v) > 0),
    product: () => productView(store, product()),
    inventoryItem: () => inventoryItemView(store, v),
  };
}

export function inventoryItemView(store: DocumentStore, v: VariantRec): View {
  const levels = () => Object.keys(v.inventory).flatMap((id) => locations(store).get(id) ?? []).sort(byId);
  const self: View = {
    __typename: 'InventoryItem', id: gid('InventoryItem', v.inventoryItemId), sku: v.sku, tracked: v.tracked,
    variant: () => variantView(store, v),
    inventoryLevels: (args: Args) => page(levels(), args, key, (l) => inventoryLevelView(store, v, l)),
    inventoryLevel: (args: Args) => {
      const ref = parseGid(String(args.locationId), 'Location');
      if (!ref) throw invalidGid(String(args.locationId));
      const location = v.inventory[String(ref.id)] !== undefined ? locations(store).get(ref.id) : undefined;
      return location ? inventoryLevelView(store, v, location) : null;
    },
  };
  return self;
}

function inventoryLevelView(store: DocumentStore, v: VariantRec, l: LocationRec): View {
  const qty = v.inventory[String(l.id)] ?? 0;
  return {
    __typename: 'InventoryLevel', id: `gid://shopify/InventoryLevel/${l.id}?inventory_item_id=${v.inventoryItemId}`, updatedAt: v.updatedAt,
    location: locationView(l), item: () => inventoryItemView(store, v),
    quantities: (args: Args) => (args.names as string[]).map((name) => ({
      id: `gid://shopify/InventoryQuantity/${l.id}?inventory_item_id=${v.inventoryItemId}&name=${name}`, name, updatedAt: v.updatedAt,
      // Only "available" (and "on_hand", equal here: nothing is committed or reserved) is modelled.
      quantity: name === 'available' || name === 'on_hand' ? qty : 0,
    })),
  };
}

export const locationView = (l: LocationRec): View => ({ __typename: 'Location', id: gid('Location', l.id), name: l.name, isActive: l.isActive, address: { city: l.city, country: null } });

export function collectionView(store: DocumentStore, c: CollectionRec): View {
  const members = () => products(store).filter((p) => p.collectionIds.includes(c.id)).sort(byId);
  return {
    __typename: 'Collection', id: gid('Collection', c.id), title: c.title, handle: c.handle, descriptionHtml: c.descriptionHtml, updatedAt: c.updatedAt,
    products: (args: Args) => page(members(), args, key, (p) => productView(store, p)),
    productsCount: () => ({ count: members().length, precision: 'EXACT' }),
  };
}

export function customerOrders(store: DocumentStore, customerId: number): OrderRec[] {
  return orders(store).filter((o) => o.customerId === customerId).sort(byId);
}

export function customerView(store: DocumentStore, c: CustomerRec): View {
  const own = () => customerOrders(store, c.id);
  const self: View = {
    __typename: 'Customer', id: gid('Customer', c.id), firstName: c.firstName, lastName: c.lastName, email: c.email, phone: c.phone, tags: c.tags, note: c.note,
    taxExempt: c.taxExempt, state: c.state, verifiedEmail: c.email !== null, createdAt: c.createdAt, updatedAt: c.updatedAt,
    displayName: [c.firstName, c.lastName].filter(Boolean).join(' ') || c.email || '',
    defaultAddress: addressView(c.addresses[0] ?? null),
    addresses: (args: Args) => c.addresses.slice(0, typeof args.first === 'number' ? args.first : undefined).map(addressView),
    // Money the customer has spent: paid orders, net of refunds (a fully refunded order counts 0).
    amountSpent: () => moneyV2(store, own().filter((o) => o.cancelledAt === null && ['PAID', 'PARTIALLY_REFUNDED', 'PARTIALLY_PAID'].includes(o.financialStatus)).reduce((sum, o) => sum + o.totalCents, 0)),
    numberOfOrders: () => String(own().length),
    lastOrder: () => { const last = own().at(-1); return last ? orderView(store, last) : null; },
    orders: (args: Args) => page(own(), args, key, (o) => orderView(store, o)),
    ...metafieldFields(c.metafields, 'CUSTOMER', () => self),
  };
  return self;
}

function lineItemView(store: DocumentStore, li: LineItemRec): View {
  return {
    __typename: 'LineItem', id: gid('LineItem', li.id), title: li.title, name: li.variantTitle ? `${li.title} - ${li.variantTitle}` : li.title, quantity: li.quantity, currentQuantity: li.quantity,
    sku: li.sku, variantTitle: li.variantTitle, vendor: () => (li.productId === null ? null : products(store).get(li.productId)?.vendor ?? null),
    originalUnitPriceSet: moneyBag(store, li.priceCents), originalTotalSet: moneyBag(store, li.priceCents * li.quantity), discountedTotalSet: moneyBag(store, li.priceCents * li.quantity),
    variant: () => { const v = li.variantId === null ? undefined : variants(store).get(li.variantId); return v ? variantView(store, v) : null; },
    product: () => { const p = li.productId === null ? undefined : products(store).get(li.productId); return p ? productView(store, p) : null; },
  };
}

export function orderView(store: DocumentStore, o: OrderRec): View {
  const self: View = {
    __typename: 'Order', id: gid('Order', o.id), name: o.name, email: o.email, phone: o.phone, note: o.note, tags: o.tags, createdAt: o.createdAt, processedAt: o.processedAt, updatedAt: o.updatedAt,
    closed: o.closed, closedAt: o.closedAt, cancelledAt: o.cancelledAt, cancelReason: o.cancelReason, confirmed: true, test: false,
    displayFinancialStatus: o.financialStatus, displayFulfillmentStatus: o.fulfillmentStatus, fullyPaid: o.financialStatus === 'PAID' || o.financialStatus === 'PARTIALLY_REFUNDED' || o.financialStatus === 'REFUNDED',
    currencyCode: currency(store),
    totalPriceSet: moneyBag(store, o.totalCents), subtotalPriceSet: moneyBag(store, o.subtotalCents), totalShippingPriceSet: moneyBag(store, o.shippingCents),
    totalTaxSet: moneyBag(store, o.taxCents), totalDiscountsSet: moneyBag(store, o.discountCents),
    currentTotalPriceSet: moneyBag(store, o.financialStatus === 'REFUNDED' || o.financialStatus === 'VOIDED' ? 0 : o.totalCents),
    customer: () => { const c = o.customerId === null ? undefined : customers(store).get(o.customerId); return c ? customerView(store, c) : null; },
    shippingAddress: addressView(o.shippingAddress), billingAddress: addressView(o.shippingAddress),
    lineItems: (args: Args) => page(o.lineItems, args, key, (li) => lineItemView(store, li)),
    customAttributes: o.customAttributes,
    ...metafieldFields(o.metafields, 'ORDER', () => self),
  };
  return self;
}

/** Any object by its global id (`node`, `nodes`, tagsAdd): null when no record has it. */
export function nodeById(store: DocumentStore, id: string): View | null {
  const ref = parseGid(id);
  if (!ref) throw invalidGid(id);
  switch (ref.type) {
    case 'Product': { const p = products(store).get(ref.id); return p ? productView(store, p) : null; }
    case 'ProductVariant': { const v = variants(store).get(ref.id); return v ? variantView(store, v) : null; }
    case 'InventoryItem': { const v = variants(store).find((x) => x.inventoryItemId === ref.id); return v ? inventoryItemView(store, v) : null; }
    case 'Customer': { const c = customers(store).get(ref.id); return c ? customerView(store, c) : null; }
    case 'Order': { const o = orders(store).get(ref.id); return o ? orderView(store, o) : null; }
    case 'Collection': { const c = collections(store).get(ref.id); return c ? collectionView(store, c) : null; }
    case 'Location': { const l = locations(store).get(ref.id); return l ? locationView(l) : null; }
    case 'Shop': return shopOf(store)?.id === ref.id ? shopView(store) : null;
    default: return null;
  }
}
