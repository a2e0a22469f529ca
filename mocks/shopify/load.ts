import type { LoadContext } from '../core/service.js';
import type { DatasetAddress, DatasetMetafield, ShopifyDataset } from './dataset.js';
import {
  cents, collections, customers, handleize, ID_START, locations, newId, orders, products, tokens, uniqueHandle, variants, variantTitle,
  type AddressRec, type Ids, type MetafieldRec, type OptionRec,
} from './model.js';

const iso = (date: string | undefined, fallback: string): string => (date === undefined ? fallback : date.length === 10 ? `${date}T00:00:00Z` : new Date(date).toISOString().replace('.000Z', 'Z'));

export function datasetAddress(a: DatasetAddress): AddressRec {
  return {
    firstName: a.first_name ?? null, lastName: a.last_name ?? null, company: a.company ?? null, address1: a.address1 ?? null, address2: a.address2 ?? null,
    city: a.city ?? null, province: a.province ?? null, provinceCode: a.province_code ?? null, country: a.country, countryCode: a.country_code, zip: a.zip ?? null, phone: a.phone ?? null,
  };
}

function metafields(ctx: Ids, list: readonly DatasetMetafield[], at: string): MetafieldRec[] {
  return list.map((m) => ({ id: newId(ctx, 'Metafield'), namespace: m.namespace, key: m.key, value: m.value, type: m.type, createdAt: at, updatedAt: at }));
}

/** Fills the store from the dataset, once; errors name the record that is wrong. */
export function loadShopify(data: ShopifyDataset, ctx: LoadContext): void {
  const now = new Date(ctx.epochMs).toISOString().replace('.000Z', 'Z');
  // Generated ids continue after the dataset's own (and never below Shopify-like starts).
  for (const [kind, start] of Object.entries(ID_START)) ctx.ids.reserve(kind, start - 1);
  const reserve = (kind: string, list: readonly { id?: number | undefined }[]) => { for (const r of list) if (r.id !== undefined) ctx.ids.reserve(kind, r.id); };
  reserve('Product', data.products);
  reserve('ProductVariant', data.products.flatMap((p) => p.variants));
  reserve('Customer', data.customers);
  reserve('Order', data.orders);
  reserve('Collection', data.collections);
  reserve('Location', data.locations);

  ctx.store.collection('shop').put('shop', {
    id: 68_000_000_001, name: data.shop.name, myshopifyDomain: `${data.shop.domain}.myshopify.com`, email: data.shop.email,
    currencyCode: data.shop.currency, ianaTimezone: data.shop.timezone, plan: data.shop.plan,
  });
  for (const token of data.access_tokens) tokens(ctx.store).put(token, { token });

  const locationByName = new Map<string, number>();
  for (const l of data.locations) {
    const id = l.id ?? newId(ctx, 'Location');
    if (locationByName.has(l.name)) throw new Error(`shopify dataset: locations: ${l.name} appears twice`);
    locationByName.set(l.name, id);
    locations(ctx.store).put(id, { id, name: l.name, city: l.city ?? null, isActive: l.active });
  }
  const firstLocation = [...locationByName.values()][0];

  const collectionByTitle = new Map<string, number>();
  for (const c of data.collections) {
    const id = c.id ?? newId(ctx, 'Collection');
    collectionByTitle.set(c.title, id);
    collections(ctx.store).put(id, { id, title: c.title, handle: c.handle ?? handleize(c.title), descriptionHtml: c.description_html, updatedAt: now });
  }

  const variantBySku = new Map<string, { id: number; productId: number; title: string; productTitle: string; priceCents: number }>();
  data.products.forEach((p, index) => {
    const where = `products[${index}] (${p.title})`;
    const id = p.id ?? newId(ctx, 'Product');
    if (products(ctx.store).has(id)) throw new Error(`shopify dataset: ${where}: id ${id} appears twice`);
    const at = iso(p.created_at, now);
    const optionDefs = p.options.length > 0 ? p.options : [{ name: 'Title', values: ['Default Title'] }];
    const options: OptionRec[] = optionDefs.map((o, i) => ({ id: newId(ctx, 'ProductOption'), name: o.name, position: i + 1, values: o.values.map((name) => ({ id: newId(ctx, 'ProductOptionValue'), name })) }));
    const collectionIds = p.collections.map((title) => {
      const found = collectionByTitle.get(title);
      if (found === undefined) throw new Error(`shopify dataset: ${where}: no collection ${title}`);
      return found;
    });
    products(ctx.store).put(id, {
      id, title: p.title, handle: uniqueHandle(ctx.store, p.handle ?? handleize(p.title)), descriptionHtml: p.description_html, vendor: p.vendor, productType: p.product_type,
      status: p.status, tags: [...p.tags].sort(), createdAt: at, updatedAt: at, seo: { title: p.seo.title ?? null, description: p.seo.description ?? null },
      options, collectionIds, images: p.images.map((img) => ({ id: newId(ctx, 'ProductImage'), url: img.url, altText: img.alt ?? null })), metafields: metafields(ctx, p.metafields, at),
    });
    p.variants.forEach((v, position) => {
      const values = v.options ?? options.map((o) => o.values[0]!.name);
      if (values.length !== options.length) throw new Error(`shopify dataset: ${where}: variants[${position}] names ${values.length} option values for ${options.length} options`);
      const selectedOptions = options.map((o, i) => {
        if (!o.values.some((val) => val.name === values[i])) throw new Error(`shopify dataset: ${where}: variants[${position}]: option ${o.name} has no value ${values[i]!}`);
        return { name: o.name, value: values[i]! };
      });
      const vid = v.id ?? newId(ctx, 'ProductVariant');
      const inventory: Record<string, number> = {};
      for (const [name, qty] of Object.entries(v.inventory)) {
        const loc = locationByName.get(name);
        if (loc === undefined) throw new Error(`shopify dataset: ${where}: variants[${position}]: no location ${name}`);
        inventory[String(loc)] = qty;
      }
      if (Object.keys(inventory).length === 0 && firstLocation !== undefined) inventory[String(firstLocation)] = 0;
      const title = p.options.length > 0 ? variantTitle(selectedOptions) : 'Default Title';
      variants(ctx.store).put(vid, {
        id: vid, productId: id, title, priceCents: cents(v.price), compareAtPriceCents: v.compare_at_price ? cents(v.compare_at_price) : null, sku: v.sku, barcode: v.barcode ?? null,
        taxable: v.taxable, position: position + 1, selectedOptions, inventoryItemId: newId(ctx, 'InventoryItem'), tracked: v.tracked, inventory, createdAt: at, updatedAt: at,
      });
      if (v.sku) {
        if (variantBySku.has(v.sku)) throw new Error(`shopify dataset: ${where}: SKU ${v.sku} appears twice`);
        variantBySku.set(v.sku, { id: vid, productId: id, title, productTitle: p.title, priceCents: cents(v.price) });
      }
    });
  });

  const customerByEmail = new Map<string, number>();
  data.customers.forEach((c, index) => {
    const id = c.id ?? newId(ctx, 'Customer');
    if (customerByEmail.has(c.email)) throw new Error(`shopify dataset: customers[${index}]: ${c.email} appears twice`);
    customerByEmail.set(c.email, id);
    const at = iso(c.created_at, now);
    customers(ctx.store).put(id, {
      id, firstName: c.first_name || null, lastName: c.last_name || null, email: c.email, phone: c.phone ?? null, tags: [...c.tags].sort(), note: c.note ?? null,
      taxExempt: c.tax_exempt, state: c.state, createdAt: at, updatedAt: at, addresses: c.addresses.map(datasetAddress), metafields: metafields(ctx, c.metafields, at),
    });
  });

  let lastNumber = 1000;
  data.orders.forEach((o, index) => {
    const where = `orders[${index}]`;
    const id = o.id ?? newId(ctx, 'Order');
    if (orders(ctx.store).has(id)) throw new Error(`shopify dataset: ${where}: id ${id} appears twice`);
    const number = o.number ?? lastNumber + 1;
    lastNumber = Math.max(lastNumber, number);
    const customerId = o.customer === null ? null : customerByEmail.get(o.customer) ?? null;
    if (o.customer !== null && customerId === null) throw new Error(`shopify dataset: ${where}: no customer ${o.customer}`);
    const lineItems = o.line_items.map((li, i) => {
      const variant = li.sku ? variantBySku.get(li.sku) : undefined;
      if (li.sku && !variant) throw new Error(`shopify dataset: ${where}: line_items[${i}]: no variant with SKU ${li.sku}`);
      if (!variant && !li.title) throw new Error(`shopify dataset: ${where}: line_items[${i}]: give a sku or a title`);
      if (!variant && li.price === undefined) throw new Error(`shopify dataset: ${where}: line_items[${i}]: a custom item needs a price`);
      return {
        id: newId(ctx, 'LineItem'), title: li.title ?? variant!.productTitle, variantTitle: variant && variant.title !== 'Default Title' ? variant.title : null,
        quantity: li.quantity, priceCents: li.price !== undefined ? cents(li.price) : variant!.priceCents, sku: li.sku ?? null, variantId: variant?.id ?? null, productId: variant?.productId ?? null,
      };
    });
    const subtotalCents = lineItems.reduce((sum, li) => sum + li.priceCents * li.quantity, 0) - cents(o.discount);
    const created = iso(o.created_at, now);
    const customer = customerId === null ? undefined : data.customers.find((c) => c.email === o.customer);
    orders(ctx.store).put(id, {
      id, name: `#${number}`, number, customerId, email: o.email ?? o.customer ?? null, phone: o.phone ?? customer?.phone ?? null,
      createdAt: created, processedAt: iso(o.processed_at, created), updatedAt: created, financialStatus: o.financial_status, fulfillmentStatus: o.fulfillment_status,
      closed: o.closed_at !== undefined, closedAt: o.closed_at === undefined ? null : iso(o.closed_at, now), cancelledAt: o.cancelled_at === undefined ? null : iso(o.cancelled_at, now),
      cancelReason: o.cancel_reason ?? (o.cancelled_at !== undefined ? 'OTHER' : null), lineItems, subtotalCents, shippingCents: cents(o.shipping), taxCents: cents(o.tax),
      discountCents: cents(o.discount), totalCents: subtotalCents + cents(o.shipping) + cents(o.tax), tags: [...o.tags].sort(), note: o.note ?? null,
      shippingAddress: o.shipping_address ? datasetAddress(o.shipping_address) : (customer?.addresses[0] ? datasetAddress(customer.addresses[0]) : null),
      customAttributes: o.custom_attributes, metafields: metafields(ctx, o.metafields, created),
    });
  });
}
