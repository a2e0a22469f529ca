/**
 * The part of Shopify's GraphQL Admin API (2026-01) toolbench answers: every field, argument and
 * input the pinned shopify-mcp@1.0.8 sends, plus what @shopify/admin-api-client scenarios use
 * (shop, nodes, counts, collections, locations, inventory, metafieldsSet, tags, order open/close,
 * customerCreate). Names, nullability and argument types follow Shopify's published schema; a
 * field outside it is a validation error, as Shopify answers an unknown field.
 */
import { CURRENCIES } from './dataset.js';

const connection = (type: string, node = type) => `
type ${type}Connection { edges: [${type}Edge!]! nodes: [${node}!]! pageInfo: PageInfo! }
type ${type}Edge { cursor: String! node: ${node}! }`;

const page = 'first: Int, after: String, last: Int, before: String, reverse: Boolean = false';

export const shopifySDL = `
schema { query: QueryRoot mutation: Mutation }

scalar DateTime
scalar Decimal
scalar Money
scalar URL
scalar HTML
scalar JSON
scalar UnsignedInt64

interface Node { id: ID! }
interface HasMetafields {
  metafield(namespace: String, key: String!): Metafield
  metafields(namespace: String, keys: [String!], ${page}): MetafieldConnection!
}

type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type Count { count: Int! precision: CountPrecision! }
enum CountPrecision { EXACT AT_LEAST }

enum CurrencyCode { ${CURRENCIES.join(' ')} }
type MoneyV2 { amount: Decimal! currencyCode: CurrencyCode! }
type MoneyBag { shopMoney: MoneyV2! presentmentMoney: MoneyV2! }
type ProductPriceRangeV2 { minVariantPrice: MoneyV2! maxVariantPrice: MoneyV2! }

type ShopPlan { displayName: String! partnerDevelopment: Boolean! shopifyPlus: Boolean! }
type Shop implements Node & HasMetafields {
  id: ID! name: String! email: String! myshopifyDomain: String! url: URL! currencyCode: CurrencyCode! ianaTimezone: String! plan: ShopPlan!
  metafield(namespace: String, key: String!): Metafield
  metafields(namespace: String, keys: [String!], ${page}): MetafieldConnection!
}

type Metafield implements Node { id: ID! namespace: String! key: String! value: String! type: String! jsonValue: JSON! ownerType: MetafieldOwnerType! createdAt: DateTime! updatedAt: DateTime! owner: HasMetafields! }
enum MetafieldOwnerType { PRODUCT CUSTOMER ORDER SHOP }
${connection('Metafield')}

type SEO { title: String description: String }
type Image { id: ID url: URL! altText: String width: Int height: Int }
${connection('Image')}
enum ProductStatus { ACTIVE ARCHIVED DRAFT }
type ProductOption implements Node { id: ID! name: String! position: Int! values: [String!]! optionValues: [ProductOptionValue!]! }
type ProductOptionValue implements Node { id: ID! name: String! hasVariants: Boolean! }
type SelectedOption { name: String! value: String! }

type Product implements Node & HasMetafields {
  id: ID! title: String! handle: String! description(truncateAt: Int): String! descriptionHtml: HTML! vendor: String! productType: String!
  status: ProductStatus! tags: [String!]! createdAt: DateTime! updatedAt: DateTime! publishedAt: DateTime
  totalInventory: Int! tracksInventory: Boolean! hasOnlyDefaultVariant: Boolean! onlineStoreUrl: URL
  priceRangeV2: ProductPriceRangeV2! seo: SEO!
  options(first: Int): [ProductOption!]!
  images(${page}): ImageConnection!
  variants(${page}): ProductVariantConnection!
  variantsCount: Count
  collections(${page}, query: String): CollectionConnection!
  metafield(namespace: String, key: String!): Metafield
  metafields(namespace: String, keys: [String!], ${page}): MetafieldConnection!
}
${connection('Product')}
enum ProductSortKeys { ID TITLE CREATED_AT UPDATED_AT PRODUCT_TYPE VENDOR INVENTORY_TOTAL RELEVANCE }

type ProductVariant implements Node {
  id: ID! title: String! displayName: String! price: Money! compareAtPrice: Money sku: String barcode: String taxable: Boolean! position: Int!
  inventoryQuantity: Int availableForSale: Boolean! selectedOptions: [SelectedOption!]! product: Product! inventoryItem: InventoryItem!
  createdAt: DateTime! updatedAt: DateTime!
}
${connection('ProductVariant')}
enum ProductVariantSortKeys { ID SKU TITLE POSITION INVENTORY_QUANTITY RELEVANCE }

type InventoryItem implements Node {
  id: ID! sku: String tracked: Boolean! variant: ProductVariant!
  inventoryLevels(${page}): InventoryLevelConnection!
  inventoryLevel(locationId: ID!): InventoryLevel
}
type InventoryLevel implements Node { id: ID! location: Location! item: InventoryItem! quantities(names: [String!]!): [InventoryQuantity!]! updatedAt: DateTime! }
type InventoryQuantity { id: ID! name: String! quantity: Int! updatedAt: DateTime }
${connection('InventoryLevel')}
type LocationAddress { city: String country: String }
type Location implements Node { id: ID! name: String! isActive: Boolean! address: LocationAddress! }
${connection('Location')}

type Collection implements Node {
  id: ID! title: String! handle: String! descriptionHtml: HTML! updatedAt: DateTime!
  products(${page}, sortKey: ProductCollectionSortKeys = COLLECTION_DEFAULT): ProductConnection!
  productsCount: Count
}
enum ProductCollectionSortKeys { COLLECTION_DEFAULT ID TITLE CREATED PRICE BEST_SELLING MANUAL RELEVANCE }
${connection('Collection')}
enum CollectionSortKeys { ID TITLE UPDATED_AT RELEVANCE }

type MailingAddress {
  address1: String address2: String city: String company: String country: String countryCodeV2: String firstName: String lastName: String
  name: String phone: String province: String provinceCode: String zip: String formatted(withName: Boolean = false, withCompany: Boolean = true): [String!]!
}
enum CustomerState { DECLINED DISABLED ENABLED INVITED }
type Customer implements Node & HasMetafields {
  id: ID! firstName: String lastName: String displayName: String! email: String phone: String tags: [String!]! note: String taxExempt: Boolean!
  state: CustomerState! verifiedEmail: Boolean! createdAt: DateTime! updatedAt: DateTime!
  defaultAddress: MailingAddress addresses(first: Int): [MailingAddress!]!
  amountSpent: MoneyV2! numberOfOrders: UnsignedInt64! lastOrder: Order
  orders(${page}, query: String, sortKey: OrderSortKeys = ID): OrderConnection!
  metafield(namespace: String, key: String!): Metafield
  metafields(namespace: String, keys: [String!], ${page}): MetafieldConnection!
}
${connection('Customer')}
enum CustomerSortKeys { ID NAME CREATED_AT UPDATED_AT RELEVANCE }

enum OrderDisplayFinancialStatus { PENDING AUTHORIZED PARTIALLY_PAID PARTIALLY_REFUNDED VOIDED PAID REFUNDED EXPIRED }
enum OrderDisplayFulfillmentStatus { UNFULFILLED PARTIALLY_FULFILLED FULFILLED RESTOCKED PENDING_FULFILLMENT OPEN IN_PROGRESS ON_HOLD SCHEDULED REQUEST_DECLINED }
enum OrderCancelReason { CUSTOMER DECLINED FRAUD INVENTORY OTHER STAFF }
type Attribute { key: String! value: String }
type LineItem implements Node {
  id: ID! title: String! name: String! quantity: Int! currentQuantity: Int! sku: String variantTitle: String vendor: String
  originalUnitPriceSet: MoneyBag! originalTotalSet: MoneyBag! discountedTotalSet: MoneyBag!
  variant: ProductVariant product: Product
}
${connection('LineItem')}
type Order implements Node & HasMetafields {
  id: ID! name: String! email: String phone: String note: String tags: [String!]! createdAt: DateTime! processedAt: DateTime! updatedAt: DateTime!
  closed: Boolean! closedAt: DateTime cancelledAt: DateTime cancelReason: OrderCancelReason confirmed: Boolean! test: Boolean!
  displayFinancialStatus: OrderDisplayFinancialStatus displayFulfillmentStatus: OrderDisplayFulfillmentStatus! fullyPaid: Boolean!
  currencyCode: CurrencyCode!
  totalPriceSet: MoneyBag! subtotalPriceSet: MoneyBag totalShippingPriceSet: MoneyBag! totalTaxSet: MoneyBag totalDiscountsSet: MoneyBag currentTotalPriceSet: MoneyBag!
  customer: Customer shippingAddress: MailingAddress billingAddress: MailingAddress
  lineItems(${page}): LineItemConnection!
  customAttributes: [Attribute!]!
  metafield(namespace: String, key: String!): Metafield
  metafields(namespace: String, keys: [String!], ${page}): MetafieldConnection!
}
${connection('Order')}
enum OrderSortKeys { ID CREATED_AT PROCESSED_AT UPDATED_AT ORDER_NUMBER TOTAL_PRICE CUSTOMER_NAME RELEVANCE }

type QueryRoot {
  shop: Shop!
  node(id: ID!): Node
  nodes(ids: [ID!]!): [Node]!
  product(id: ID!): Product
  productByIdentifier(identifier: ProductIdentifierInput!): Product
  products(${page}, query: String, sortKey: ProductSortKeys = ID): ProductConnection!
  productsCount(query: String, limit: Int = 10000): Count
  productVariant(id: ID!): ProductVariant
  productVariants(${page}, query: String, sortKey: ProductVariantSortKeys = ID): ProductVariantConnection!
  collection(id: ID!): Collection
  collections(${page}, query: String, sortKey: CollectionSortKeys = ID): CollectionConnection!
  customer(id: ID!): Customer
  customers(${page}, query: String, sortKey: CustomerSortKeys = ID): CustomerConnection!
  customersCount(query: String, limit: Int = 10000): Count
  order(id: ID!): Order
  orders(${page}, query: String, sortKey: OrderSortKeys = PROCESSED_AT): OrderConnection!
  ordersCount(query: String, limit: Int = 10000): Count
  location(id: ID): Location
  locations(${page}, query: String, includeInactive: Boolean = false): LocationConnection!
  inventoryItem(id: ID!): InventoryItem
}
input ProductIdentifierInput { id: ID handle: String }

interface DisplayableError { field: [String!] message: String! }
type UserError implements DisplayableError { field: [String!] message: String! }

input SEOInput { title: String description: String }
input MetafieldInput { id: ID namespace: String key: String value: String type: String }
input OptionValueCreateInput { name: String }
input OptionCreateInput { name: String position: Int values: [OptionValueCreateInput!] }
input OptionUpdateInput { id: ID! name: String position: Int }
input OptionValueUpdateInput { id: ID! name: String }
enum MediaContentType { IMAGE VIDEO EXTERNAL_VIDEO MODEL_3D }
input CreateMediaInput { originalSource: String! alt: String mediaContentType: MediaContentType! }
input ProductCreateInput {
  title: String handle: String descriptionHtml: String vendor: String productType: String tags: [String!] status: ProductStatus seo: SEOInput
  metafields: [MetafieldInput!] productOptions: [OptionCreateInput!] collectionsToJoin: [ID!] giftCard: Boolean templateSuffix: String
}
input ProductUpdateInput {
  id: ID title: String handle: String descriptionHtml: String vendor: String productType: String tags: [String!] status: ProductStatus seo: SEOInput
  metafields: [MetafieldInput!] collectionsToJoin: [ID!] collectionsToLeave: [ID!] redirectNewHandle: Boolean templateSuffix: String
}
input ProductInput {
  id: ID title: String handle: String descriptionHtml: String vendor: String productType: String tags: [String!] status: ProductStatus seo: SEOInput
  metafields: [MetafieldInput!] productOptions: [OptionCreateInput!] collectionsToJoin: [ID!] collectionsToLeave: [ID!] redirectNewHandle: Boolean templateSuffix: String
}
input ProductDeleteInput { id: ID! }
type ProductCreatePayload { product: Product shop: Shop! userErrors: [UserError!]! }
type ProductUpdatePayload { product: Product userErrors: [UserError!]! }
type ProductDeletePayload { deletedProductId: ID shop: Shop! userErrors: [UserError!]! }

input InventoryItemInput { sku: String tracked: Boolean cost: Decimal }
input VariantOptionValueInput { id: ID name: String optionId: ID optionName: String }
input InventoryLevelInput { availableQuantity: Int! locationId: ID! }
input ProductVariantsBulkInput {
  id: ID price: Money compareAtPrice: Money barcode: String taxable: Boolean inventoryItem: InventoryItemInput
  optionValues: [VariantOptionValueInput!] inventoryQuantities: [InventoryLevelInput!] inventoryPolicy: ProductVariantInventoryPolicy
}
enum ProductVariantInventoryPolicy { DENY CONTINUE }
enum ProductVariantsBulkCreateStrategy { DEFAULT REMOVE_STANDALONE_VARIANT PRESERVE_STANDALONE_VARIANT }
enum ProductVariantsBulkErrorCode { PRODUCT_DOES_NOT_EXIST PRODUCT_VARIANT_DOES_NOT_EXIST PRODUCT_VARIANT_ID_MISSING INVALID_INPUT MUST_SPECIFY_ALL_OPTION_VALUES OPTION_DOES_NOT_EXIST OPTION_VALUE_DOES_NOT_EXIST VARIANT_ALREADY_EXISTS CANNOT_DELETE_LAST_VARIANT LOCATION_NOT_FOUND INVALID_PRICE }
type ProductVariantsBulkCreateUserError implements DisplayableError { field: [String!] message: String! code: ProductVariantsBulkErrorCode }
type ProductVariantsBulkUpdateUserError implements DisplayableError { field: [String!] message: String! code: ProductVariantsBulkErrorCode }
type ProductVariantsBulkDeleteUserError implements DisplayableError { field: [String!] message: String! code: ProductVariantsBulkErrorCode }
type ProductVariantsBulkCreatePayload { product: Product productVariants: [ProductVariant!] userErrors: [ProductVariantsBulkCreateUserError!]! }
type ProductVariantsBulkUpdatePayload { product: Product productVariants: [ProductVariant!] userErrors: [ProductVariantsBulkUpdateUserError!]! }
type ProductVariantsBulkDeletePayload { product: Product userErrors: [ProductVariantsBulkDeleteUserError!]! }

enum ProductOptionCreateVariantStrategy { LEAVE_AS_IS CREATE }
enum ProductOptionUpdateVariantStrategy { LEAVE_AS_IS MANAGE }
enum ProductOptionDeleteStrategy { DEFAULT POSITION NON_DESTRUCTIVE }
enum ProductOptionsErrorCode { PRODUCT_DOES_NOT_EXIST OPTION_DOES_NOT_EXIST OPTION_VALUE_DOES_NOT_EXIST OPTION_ALREADY_EXISTS OPTION_VALUE_ALREADY_EXISTS OPTIONS_OVER_LIMIT OPTION_NAME_MISSING OPTION_VALUES_MISSING CANNOT_DELETE_OPTION_WITH_MULTIPLE_VALUES OPTION_VALUE_HAS_VARIANTS CANNOT_DELETE_LAST_OPTION_VALUE }
type ProductOptionsCreateUserError implements DisplayableError { field: [String!] message: String! code: ProductOptionsErrorCode }
type ProductOptionUpdateUserError implements DisplayableError { field: [String!] message: String! code: ProductOptionsErrorCode }
type ProductOptionsDeleteUserError implements DisplayableError { field: [String!] message: String! code: ProductOptionsErrorCode }
type ProductOptionsCreatePayload { product: Product userErrors: [ProductOptionsCreateUserError!]! }
type ProductOptionUpdatePayload { product: Product userErrors: [ProductOptionUpdateUserError!]! }
type ProductOptionsDeletePayload { deletedOptionsIds: [ID!] product: Product userErrors: [ProductOptionsDeleteUserError!]! }

input AttributeInput { key: String! value: String! }
input MailingAddressInput { address1: String address2: String city: String company: String country: String countryCode: String firstName: String lastName: String phone: String province: String provinceCode: String zip: String }
input OrderInput { id: ID! email: String note: String tags: [String!] customAttributes: [AttributeInput!] metafields: [MetafieldInput!] shippingAddress: MailingAddressInput poNumber: String }
input OrderCloseInput { id: ID! }
input OrderOpenInput { id: ID! }
type OrderUpdatePayload { order: Order userErrors: [UserError!]! }
type OrderClosePayload { order: Order userErrors: [UserError!]! }
type OrderOpenPayload { order: Order userErrors: [UserError!]! }

input CustomerInput { id: ID firstName: String lastName: String email: String phone: String tags: [String!] note: String taxExempt: Boolean metafields: [MetafieldInput!] addresses: [MailingAddressInput!] }
type CustomerCreatePayload { customer: Customer userErrors: [UserError!]! }
type CustomerUpdatePayload { customer: Customer userErrors: [UserError!]! }

input MetafieldsSetInput { ownerId: ID! namespace: String key: String! value: String! type: String compareDigest: String }
enum MetafieldsSetUserErrorCode { BLANK INVALID INVALID_TYPE INVALID_VALUE NOT_FOUND TOO_LONG PRESENT }
type MetafieldsSetUserError implements DisplayableError { field: [String!] message: String! code: MetafieldsSetUserErrorCode elementIndex: Int }
type MetafieldsSetPayload { metafields: [Metafield!] userErrors: [MetafieldsSetUserError!]! }

type TagsAddPayload { node: Node userErrors: [UserError!]! }
type TagsRemovePayload { node: Node userErrors: [UserError!]! }

input InventoryChangeInput { delta: Int! inventoryItemId: ID! locationId: ID! ledgerDocumentUri: String }
input InventoryAdjustQuantitiesInput { reason: String! name: String! referenceDocumentUri: String changes: [InventoryChangeInput!]! }
type InventoryChange { name: String! delta: Int! quantityAfterChange: Int item: InventoryItem location: Location }
type InventoryAdjustmentGroup { id: ID! reason: String! referenceDocumentUri: String createdAt: DateTime! changes(inventoryItemIds: [ID!], locationIds: [ID!], quantityNames: [String!]): [InventoryChange!]! }
enum InventoryAdjustQuantitiesUserErrorCode { INVALID_AVAILABLE_DOCUMENT INVALID_INVENTORY_ITEM INVALID_LOCATION INVALID_QUANTITY_NAME INVALID_REASON ITEM_NOT_STOCKED_AT_LOCATION NON_MUTABLE_INVENTORY_ITEM }
type InventoryAdjustQuantitiesUserError implements DisplayableError { field: [String!] message: String! code: InventoryAdjustQuantitiesUserErrorCode }
type InventoryAdjustQuantitiesPayload { inventoryAdjustmentGroup: InventoryAdjustmentGroup userErrors: [InventoryAdjustQuantitiesUserError!]! }

type Mutation {
  productCreate(product: ProductCreateInput, input: ProductInput, media: [CreateMediaInput!]): ProductCreatePayload
  productUpdate(product: ProductUpdateInput, input: ProductInput, media: [CreateMediaInput!]): ProductUpdatePayload
  productDelete(input: ProductDeleteInput!, synchronous: Boolean = true): ProductDeletePayload
  productVariantsBulkCreate(productId: ID!, variants: [ProductVariantsBulkInput!]!, strategy: ProductVariantsBulkCreateStrategy = DEFAULT, media: [CreateMediaInput!]): ProductVariantsBulkCreatePayload
  productVariantsBulkUpdate(productId: ID!, variants: [ProductVariantsBulkInput!]!, allowPartialUpdates: Boolean = false, media: [CreateMediaInput!]): ProductVariantsBulkUpdatePayload
  productVariantsBulkDelete(productId: ID!, variantsIds: [ID!]!): ProductVariantsBulkDeletePayload
  productOptionsCreate(productId: ID!, options: [OptionCreateInput!]!, variantStrategy: ProductOptionCreateVariantStrategy = LEAVE_AS_IS): ProductOptionsCreatePayload
  productOptionUpdate(productId: ID!, option: OptionUpdateInput!, optionValuesToAdd: [OptionValueCreateInput!], optionValuesToUpdate: [OptionValueUpdateInput!], optionValuesToDelete: [ID!], variantStrategy: ProductOptionUpdateVariantStrategy = LEAVE_AS_IS): ProductOptionUpdatePayload
  productOptionsDelete(productId: ID!, options: [ID!]!, strategy: ProductOptionDeleteStrategy = DEFAULT): ProductOptionsDeletePayload
  orderUpdate(input: OrderInput!): OrderUpdatePayload
  orderClose(input: OrderCloseInput!): OrderClosePayload
  orderOpen(input: OrderOpenInput!): OrderOpenPayload
  customerCreate(input: CustomerInput!): CustomerCreatePayload
  customerUpdate(input: CustomerInput!): CustomerUpdatePayload
  metafieldsSet(metafields: [MetafieldsSetInput!]!): MetafieldsSetPayload
  tagsAdd(id: ID!, tags: [String!]!): TagsAddPayload
  tagsRemove(id: ID!, tags: [String!]!): TagsRemovePayload
  inventoryAdjustQuantities(input: InventoryAdjustQuantitiesInput!): InventoryAdjustQuantitiesPayload
}
`;
