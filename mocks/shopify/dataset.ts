import { z } from 'zod';

/**
 * A Shopify store as a scenario writes it: the shop, its Admin API access tokens, locations,
 * collections, products with options and variants (inventory per location), customers, and
 * orders that name their customer by email and their line items by SKU. IDs are Shopify's numeric
 * ids; records that give none get the next one of their kind (dataset ids are reserved first).
 */
/** The currencies a shop may keep its books in (the SDL's CurrencyCode enum is made from this list). */
export const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'JPY', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'MXN', 'BRL', 'INR', 'SGD', 'HKD'] as const;

const money = z.string().regex(/^\d+(\.\d{1,2})?$/, 'a decimal amount such as "49.00"');
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/, 'an ISO date (2025-01-31 or 2025-01-31T12:00:00Z)');
const id = z.number().int().positive();

export const MetafieldSchema = z.object({
  namespace: z.string().min(1),
  key: z.string().min(1),
  value: z.string(),
  type: z.string().default('single_line_text_field'),
}).strict();

export const AddressSchema = z.object({
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  company: z.string().optional(),
  address1: z.string().optional(),
  address2: z.string().optional(),
  city: z.string().optional(),
  province: z.string().optional(),
  province_code: z.string().optional(),
  country: z.string().default('United States'),
  country_code: z.string().default('US'),
  zip: z.string().optional(),
  phone: z.string().optional(),
}).strict();

const OptionSchema = z.object({ name: z.string().min(1), values: z.array(z.string().min(1)).min(1) }).strict();

const VariantSchema = z.object({
  id: id.optional(),
  /** The variant's option values, in the product's option order; default the option's first values. */
  options: z.array(z.string().min(1)).optional(),
  price: money,
  compare_at_price: money.optional(),
  sku: z.string().default(''),
  barcode: z.string().optional(),
  taxable: z.boolean().default(true),
  tracked: z.boolean().default(true),
  /** Available units by location name; default all at the first location. */
  inventory: z.record(z.string(), z.number().int()).default({}),
}).strict();

const ProductSchema = z.object({
  id: id.optional(),
  title: z.string().min(1),
  handle: z.string().regex(/^[a-z0-9-]+$/).optional(),
  description_html: z.string().default(''),
  vendor: z.string().default(''),
  product_type: z.string().default(''),
  status: z.enum(['ACTIVE', 'DRAFT', 'ARCHIVED']).default('ACTIVE'),
  tags: z.array(z.string()).default([]),
  created_at: date.optional(),
  /** Without options the product has Shopify's one "Title" option and its "Default Title" variant. */
  options: z.array(OptionSchema).max(3).default([]),
  variants: z.array(VariantSchema).min(1),
  /** Collections by title. */
  collections: z.array(z.string()).default([]),
  images: z.array(z.object({ url: z.string().url(), alt: z.string().optional() }).strict()).default([]),
  seo: z.object({ title: z.string().optional(), description: z.string().optional() }).strict().default({}),
  metafields: z.array(MetafieldSchema).default([]),
}).strict();

const CustomerSchema = z.object({
  id: id.optional(),
  first_name: z.string().default(''),
  last_name: z.string().default(''),
  email: z.string().email(),
  phone: z.string().optional(),
  tags: z.array(z.string()).default([]),
  note: z.string().optional(),
  tax_exempt: z.boolean().default(false),
  state: z.enum(['ENABLED', 'DISABLED', 'INVITED', 'DECLINED']).default('ENABLED'),
  created_at: date.optional(),
  addresses: z.array(AddressSchema).default([]),
  metafields: z.array(MetafieldSchema).default([]),
}).strict();

const LineItemSchema = z.object({
  /** A variant by SKU; its product's title and the variant's price unless given. */
  sku: z.string().optional(),
  title: z.string().optional(),
  quantity: z.number().int().positive().default(1),
  price: money.optional(),
}).strict();

const OrderSchema = z.object({
  id: id.optional(),
  /** The order number; the name is `#<number>`. Default the next one after the highest. */
  number: z.number().int().positive().optional(),
  /** The customer by email; null for a guest checkout without a customer record. */
  customer: z.string().email().nullable().default(null),
  email: z.string().email().optional(),
  phone: z.string().optional(),
  created_at: date.optional(),
  processed_at: date.optional(),
  financial_status: z.enum(['PENDING', 'AUTHORIZED', 'PAID', 'PARTIALLY_PAID', 'PARTIALLY_REFUNDED', 'REFUNDED', 'VOIDED', 'EXPIRED']).default('PAID'),
  fulfillment_status: z.enum(['UNFULFILLED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'IN_PROGRESS', 'ON_HOLD', 'SCHEDULED']).default('UNFULFILLED'),
  closed_at: date.optional(),
  cancelled_at: date.optional(),
  cancel_reason: z.enum(['CUSTOMER', 'DECLINED', 'FRAUD', 'INVENTORY', 'OTHER', 'STAFF']).optional(),
  line_items: z.array(LineItemSchema).min(1),
  shipping: money.default('0.00'),
  tax: money.default('0.00'),
  discount: money.default('0.00'),
  tags: z.array(z.string()).default([]),
  note: z.string().optional(),
  shipping_address: AddressSchema.optional(),
  custom_attributes: z.array(z.object({ key: z.string(), value: z.string() }).strict()).default([]),
  metafields: z.array(MetafieldSchema).default([]),
}).strict();

export const ShopifyDatasetSchema = z.object({
  shop: z.object({
    name: z.string().min(1),
    /** The myshopify.com subdomain: `northwind-goods` answers at northwind-goods.myshopify.com. */
    domain: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'the shop\'s myshopify.com label, e.g. northwind-goods'),
    email: z.string().email().default('owner@example.com'),
    currency: z.enum(CURRENCIES).default('USD'),
    timezone: z.string().default('America/New_York'),
    plan: z.string().default('Basic'),
  }).strict().default({ name: 'Demo Store', domain: 'demo-store' }),
  /** Admin API access tokens (`shpat_…`), sent as `X-Shopify-Access-Token`. */
  access_tokens: z.array(z.string().min(1)).default([]),
  locations: z.array(z.object({ id: id.optional(), name: z.string().min(1), city: z.string().optional(), active: z.boolean().default(true) }).strict()).default([{ name: 'Main warehouse', active: true }]),
  collections: z.array(z.object({ id: id.optional(), title: z.string().min(1), handle: z.string().optional(), description_html: z.string().default('') }).strict()).default([]),
  products: z.array(ProductSchema).default([]),
  customers: z.array(CustomerSchema).default([]),
  orders: z.array(OrderSchema).default([]),
}).strict();

export type ShopifyDataset = z.infer<typeof ShopifyDatasetSchema>;
export type DatasetAddress = z.infer<typeof AddressSchema>;
export type DatasetMetafield = z.infer<typeof MetafieldSchema>;
