import type { Collection, DocumentStore } from '../core/store.js';
import type { LoadContext } from '../core/service.js';
import { numericId } from '../kit/ids.js';

/**
 * The store's records, one collection per resource with Shopify's own field names: `products`,
 * `variants`, `customers`, `orders`, `collections`, `locations` (keys are the numeric ids, as
 * strings), `shop` (one record, key `shop`), `tokens` (by access token) and `throttle` (the cost
 * bucket per token). Amounts are kept as integer cents (`priceCents`) and rendered as Shopify's
 * strings; metafields, options, images and line items live inside their owner.
 */
export interface MetafieldRec { id: number; namespace: string; key: string; value: string; type: string; createdAt: string; updatedAt: string }
export interface AddressRec {
  firstName: string | null; lastName: string | null; company: string | null; address1: string | null; address2: string | null;
  city: string | null; province: string | null; provinceCode: string | null; country: string | null; countryCode: string | null; zip: string | null; phone: string | null;
}
export interface OptionValueRec { id: number; name: string }
export interface OptionRec { id: number; name: string; position: number; values: OptionValueRec[] }
export interface ProductRec {
  id: number; title: string; handle: string; descriptionHtml: string; vendor: string; productType: string;
  status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED'; tags: string[]; createdAt: string; updatedAt: string;
  seo: { title: string | null; description: string | null }; options: OptionRec[]; collectionIds: number[];
  images: { id: number; url: string; altText: string | null }[]; metafields: MetafieldRec[];
}
export interface VariantRec {
  id: number; productId: number; title: string; priceCents: number; compareAtPriceCents: number | null; sku: string; barcode: string | null;
  taxable: boolean; position: number; selectedOptions: { name: string; value: string }[]; inventoryItemId: number; tracked: boolean;
  /** Available units by location id. */
  inventory: Record<string, number>; createdAt: string; updatedAt: string;
}
export interface CustomerRec {
  id: number; firstName: string | null; lastName: string | null; email: string | null; phone: string | null; tags: string[]; note: string | null;
  taxExempt: boolean; state: string; createdAt: string; updatedAt: string; addresses: AddressRec[]; metafields: MetafieldRec[];
}
export interface LineItemRec { id: number; title: string; variantTitle: string | null; quantity: number; priceCents: number; sku: string | null; variantId: number | null; productId: number | null }
export interface OrderRec {
  id: number; name: string; number: number; customerId: number | null; email: string | null; phone: string | null;
  createdAt: string; processedAt: string; updatedAt: string; financialStatus: string; fulfillmentStatus: string;
  closed: boolean; closedAt: string | null; cancelledAt: string | null; cancelReason: string | null;
  lineItems: LineItemRec[]; subtotalCents: number; shippingCents: number; taxCents: number; discountCents: number; totalCents: number;
  tags: string[]; note: string | null; shippingAddress: AddressRec | null; customAttributes: { key: string; value: string }[]; metafields: MetafieldRec[];
}
export interface CollectionRec { id: number; title: string; handle: string; descriptionHtml: string; updatedAt: string }
export interface LocationRec { id: number; name: string; city: string | null; isActive: boolean }
export interface ShopRec { id: number; name: string; myshopifyDomain: string; email: string; currencyCode: string; ianaTimezone: string; plan: string }
export interface ThrottleRec { available: number; atMs: number }

export const products = (s: DocumentStore): Collection<ProductRec> => s.collection('products');
export const variants = (s: DocumentStore): Collection<VariantRec> => s.collection('variants');
export const customers = (s: DocumentStore): Collection<CustomerRec> => s.collection('customers');
export const orders = (s: DocumentStore): Collection<OrderRec> => s.collection('orders');
export const collections = (s: DocumentStore): Collection<CollectionRec> => s.collection('collections');
export const locations = (s: DocumentStore): Collection<LocationRec> => s.collection('locations');
export const shopOf = (s: DocumentStore): ShopRec | undefined => s.collection<ShopRec>('shop').get('shop');
export const tokens = (s: DocumentStore): Collection<{ token: string }> => s.collection('tokens');
export const throttle = (s: DocumentStore): Collection<ThrottleRec> => s.collection('throttle');

/** Where generated ids of each kind start: Shopify's ids are large increasing numbers. */
export const ID_START: Record<string, number> = {
  Product: 8_100_000_000_001, ProductVariant: 45_200_000_000_001, InventoryItem: 47_300_000_000_001, Customer: 7_400_000_000_001,
  Order: 5_900_000_000_001, LineItem: 14_600_000_000_001, Metafield: 26_700_000_000_001, Collection: 430_000_000_001,
  Location: 71_000_000_001, InventoryAdjustmentGroup: 21_000_000_001, ProductOption: 10_500_000_000_001, ProductOptionValue: 3_300_000_000_001, ProductImage: 35_100_000_000_001,
};

export type Ids = Pick<LoadContext, 'ids'>;

export function newId(ctx: Ids, kind: keyof typeof ID_START & string): number {
  return numericId(ctx, kind, ID_START[kind]);
}

export const gid = (type: string, id: number): string => `gid://shopify/${type}/${id}`;

/** The numeric id of `gid://shopify/<type>/<n>` (any query string after it ignored), or null. */
export function parseGid(value: string, type?: string): { type: string; id: number } | null {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d{1,16})(\?.*)?$/.exec(value);
  if (!match || (type !== undefined && match[1] !== type)) return null;
  return { type: match[1]!, id: Number(match[2]) };
}

/** "49.00" → 4900. */
export function cents(amount: string): number {
  const [whole, frac = ''] = amount.split('.');
  return Number(whole) * 100 + Number((frac + '00').slice(0, 2));
}

/** Shopify's `Money` scalar: two decimals ("49.00"). */
export function money(value: number): string {
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Shopify's `Decimal` scalar (MoneyV2.amount): trailing zeros dropped, one decimal kept ("49.0", "12.5"). */
export function decimal(value: number): string {
  return money(value).replace(/0$/, '');
}

export function handleize(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'product';
}

/** A handle not yet taken by another product: `mug`, `mug-1`, `mug-2`… */
export function uniqueHandle(store: DocumentStore, wanted: string, exceptId?: number): string {
  const taken = new Set(products(store).filter((p) => p.id !== exceptId).map((p) => p.handle));
  if (!taken.has(wanted)) return wanted;
  for (let n = 1; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

export function productVariants(store: DocumentStore, productId: number): VariantRec[] {
  return variants(store).filter((v) => v.productId === productId).sort((a, b) => a.position - b.position || a.id - b.id);
}

export const variantTitle = (selected: readonly { value: string }[]): string => selected.map((o) => o.value).join(' / ') || 'Default Title';

export const available = (variant: VariantRec): number => Object.values(variant.inventory).reduce((sum, n) => sum + n, 0);

export function address(input: Record<string, unknown> | null | undefined): AddressRec | null {
  if (!input) return null;
  const s = (key: string) => (typeof input[key] === 'string' ? input[key] as string : null);
  return {
    firstName: s('firstName'), lastName: s('lastName'), company: s('company'), address1: s('address1'), address2: s('address2'), city: s('city'),
    province: s('province'), provinceCode: s('provinceCode'), country: s('country'), countryCode: s('countryCode'), zip: s('zip'), phone: s('phone'),
  };
}

export const byId = <T extends { id: number }>(a: T, b: T): number => a.id - b.id;
