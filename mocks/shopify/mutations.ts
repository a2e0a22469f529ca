import {
  address, cents, collections, customers, gid, handleize, locations, newId, orders, parseGid, productVariants, products, uniqueHandle, variants, variantTitle,
  type AddressRec, type MetafieldRec, type OptionRec, type ProductRec, type VariantRec,
} from './model.js';
import { idArg } from './queries.js';
import { customerView, locationView, inventoryItemView, nodeById, orderView, productView, shopView, variantView, type ShopifyContext } from './views.js';

/**
 * Mutation's fields. Every mutation validates its whole input first and answers Shopify's
 * `userErrors` ({field, message, code?}) without writing anything when one fails, so a refused
 * mutation leaves the store as it was (GraphQL resolvers do not roll back).
 */
type Args = Record<string, unknown>;
type Input = Record<string, unknown>;
interface UserError { field: string[] | null; message: string; code?: string }

const err = (field: string[] | null, message: string, code?: string): UserError => ({ field, message, ...(code ? { code } : {}) });
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MONEY = /^-?\d+(\.\d{1,2})?$/;

/** Shopify keeps tags trimmed, unique (ignoring case) and sorted; a tag string may hold several, comma-separated. */
export function normalizeTags(tags: readonly string[]): string[] {
  const all = tags.flatMap((t) => t.split(',')).map((t) => t.trim()).filter((t) => t !== '');
  // Unique regardless of case (the first spelling wins), as Shopify keeps them.
  const seen = new Set<string>();
  return all.filter((t) => !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase())).sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));
}

/** Metafield inputs merged into an owner's list: by id, else by namespace and key; a new one needs a type. */
function mergeMetafields(c: ShopifyContext, existing: readonly MetafieldRec[], inputs: readonly Input[] | undefined, path: string[]): { list: MetafieldRec[]; errors: UserError[] } {
  const list = [...existing];
  const errors: UserError[] = [];
  const made: MetafieldRec[] = [];
  (inputs ?? []).forEach((m, i) => {
    const field = [...path, String(i)];
    const value = str(m.value);
    if (value === undefined) { errors.push(err([...field, 'value'], "Value can't be blank")); return; }
    let index = -1;
    if (m.id != null) {
      const ref = parseGid(String(m.id), 'Metafield');
      index = ref ? list.findIndex((x) => x.id === ref.id) : -1;
      if (index === -1) { errors.push(err([...field, 'id'], 'Metafield does not exist')); return; }
    } else {
      const key = str(m.key);
      if (!key) { errors.push(err([...field, 'key'], "Key can't be blank")); return; }
      const namespace = str(m.namespace) ?? '$app';
      index = list.findIndex((x) => x.namespace === namespace && x.key === key);
      if (index === -1) {
        const type = str(m.type);
        if (!type) { errors.push(err([...field, 'type'], "Type can't be blank")); return; }
        made.push({ id: 0, namespace, key, value, type, createdAt: c.nowIso, updatedAt: c.nowIso });
        return;
      }
    }
    list[index] = { ...list[index]!, value, type: str(m.type) ?? list[index]!.type, updatedAt: c.nowIso };
  });
  // Ids only once the input is known to be good, so a refused mutation takes none.
  if (errors.length === 0) for (const m of made) list.push({ ...m, id: newId(c, 'Metafield') });
  return { list, errors };
}

const COUNTRY_CODES: Record<string, string> = { 'united states': 'US', usa: 'US', canada: 'CA', 'united kingdom': 'GB', australia: 'AU', germany: 'DE', france: 'FR', mexico: 'MX' };
const PROVINCE_CODES: Record<string, string> = Object.fromEntries(([
  'AL Alabama', 'AK Alaska', 'AZ Arizona', 'AR Arkansas', 'CA California', 'CO Colorado', 'CT Connecticut', 'DE Delaware', 'DC District of Columbia', 'FL Florida', 'GA Georgia',
  'HI Hawaii', 'ID Idaho', 'IL Illinois', 'IN Indiana', 'IA Iowa', 'KS Kansas', 'KY Kentucky', 'LA Louisiana', 'ME Maine', 'MD Maryland', 'MA Massachusetts', 'MI Michigan',
  'MN Minnesota', 'MS Mississippi', 'MO Missouri', 'MT Montana', 'NE Nebraska', 'NV Nevada', 'NH New Hampshire', 'NJ New Jersey', 'NM New Mexico', 'NY New York',
  'NC North Carolina', 'ND North Dakota', 'OH Ohio', 'OK Oklahoma', 'OR Oregon', 'PA Pennsylvania', 'RI Rhode Island', 'SC South Carolina', 'SD South Dakota', 'TN Tennessee',
  'TX Texas', 'UT Utah', 'VT Vermont', 'VA Virginia', 'WA Washington', 'WV West Virginia', 'WI Wisconsin', 'WY Wyoming',
  'AB Alberta', 'BC British Columbia', 'MB Manitoba', 'NB New Brunswick', 'NL Newfoundland and Labrador', 'NS Nova Scotia', 'ON Ontario', 'PE Prince Edward Island', 'QC Quebec', 'SK Saskatchewan',
]).map((entry) => [entry.slice(3).toLowerCase(), entry.slice(0, 2)]));

/**
 * The given fields over the previous address. A province or country given without its code sets
 * the code too (by name, or itself when it is a code), as Shopify normalizes them; an unknown name
 * clears the old code rather than leave a stale one.
 */
function mergeAddress(previous: AddressRec | null, input: Input): AddressRec {
  const given = address(input)! as unknown as Record<string, string | null>;
  const codes: Record<string, string | null> = {};
  if (given.province && !given.provinceCode) codes.provinceCode = PROVINCE_CODES[given.province.toLowerCase()] ?? (/^[A-Za-z]{2,3}$/.test(given.province) ? given.province.toUpperCase() : null);
  if (given.country && !given.countryCode) codes.countryCode = COUNTRY_CODES[given.country.toLowerCase()] ?? (/^[A-Za-z]{2}$/.test(given.country) ? given.country.toUpperCase() : null);
  const base = previous ?? address({})!;
  return Object.fromEntries(Object.entries(base).map(([k, v]) => [k, k in codes ? codes[k]! : given[k] ?? v])) as unknown as AddressRec;
}

function collectionIds(c: ShopifyContext, ids: unknown, field: string): { ids: number[]; errors: UserError[] } {
  const out: number[] = [];
  const errors: UserError[] = [];
  ((ids as string[] | null | undefined) ?? []).forEach((id, i) => {
    const n = idArg(id, 'Collection');
    if (!collections(c.store).has(n)) errors.push(err([field, String(i)], 'Collection does not exist'));
    else out.push(n);
  });
  return { ids: out, errors };
}

const DEFAULT_OPTION = (c: ShopifyContext): OptionRec => ({ id: newId(c, 'ProductOption'), name: 'Title', position: 1, values: [{ id: newId(c, 'ProductOptionValue'), name: 'Default Title' }] });
const isDefaultOnly = (p: ProductRec) => p.options.length === 1 && p.options[0]!.name === 'Title' && p.options[0]!.values.every((v) => v.name === 'Default Title');

function newVariant(c: ShopifyContext, product: ProductRec, selected: { name: string; value: string }[], position: number, fields: Partial<VariantRec> = {}): VariantRec {
  const first = [...locations(c.store).values()].sort((a, b) => a.id - b.id)[0];
  return {
    id: newId(c, 'ProductVariant'), productId: product.id, title: isDefaultOnly(product) ? 'Default Title' : variantTitle(selected), priceCents: 0, compareAtPriceCents: null, sku: '', barcode: null,
    taxable: true, position, selectedOptions: selected, inventoryItemId: newId(c, 'InventoryItem'), tracked: false, inventory: first ? { [String(first.id)]: 0 } : {}, createdAt: c.nowIso, updatedAt: c.nowIso, ...fields,
  };
}

function touchProduct(c: ShopifyContext, p: ProductRec, patch: Partial<ProductRec> = {}): ProductRec {
  return products(c.store).put(p.id, { ...p, ...patch, updatedAt: c.nowIso });
}

/** Re-titles a product's variants after its options changed. */
function retitle(c: ShopifyContext, p: ProductRec): void {
  for (const v of productVariants(c.store, p.id)) {
    const title = isDefaultOnly(p) ? 'Default Title' : variantTitle(v.selectedOptions);
    if (title !== v.title) variants(c.store).put(v.id, { ...v, title, updatedAt: c.nowIso });
  }
}

const productPayload = (c: ShopifyContext, p: ProductRec | undefined, errors: UserError[]) => ({ product: p && errors.length === 0 ? productView(c.store, products(c.store).get(p.id)!) : null, userErrors: errors });

function productFields(c: ShopifyContext, input: Input, current: ProductRec | null): { patch: Partial<ProductRec>; errors: UserError[]; join: number[]; leave: number[] } {
  const errors: UserError[] = [];
  const patch: Partial<ProductRec> = {};
  if (input.title !== undefined) {
    if (!str(input.title)?.trim()) errors.push(err(['title'], "Title can't be blank"));
    else patch.title = str(input.title)!;
  }
  if (input.handle != null) {
    const handle = handleize(String(input.handle));
    if (products(c.store).values().some((p) => p.handle === handle && p.id !== current?.id)) errors.push(err(['handle'], `Handle '${handle}' already in use. Please provide a new handle.`));
    else patch.handle = handle;
  }
  for (const f of ['descriptionHtml', 'vendor', 'productType'] as const) if (input[f] != null) patch[f] = String(input[f]);
  if (input.status != null) patch.status = input.status as ProductRec['status'];
  if (input.tags != null) patch.tags = normalizeTags(input.tags as string[]);
  if (input.seo != null) {
    const seo = input.seo as Input;
    patch.seo = { title: str(seo.title) ?? current?.seo.title ?? null, description: str(seo.description) ?? current?.seo.description ?? null };
  }
  const join = collectionIds(c, input.collectionsToJoin, 'collectionsToJoin');
  const leave = collectionIds(c, input.collectionsToLeave, 'collectionsToLeave');
  const metafields = mergeMetafields(c, current?.metafields ?? [], input.metafields as Input[] | undefined, ['metafields']);
  errors.push(...join.errors, ...leave.errors, ...metafields.errors);
  if (input.metafields != null) patch.metafields = metafields.list;
  return { patch, errors, join: join.ids, leave: leave.ids };
}

function productCreate(c: ShopifyContext, args: Args) {
  const input = (args.product ?? args.input ?? {}) as Input;
  if (!str(input.title)?.trim()) return { product: null, shop: shopView(c.store), userErrors: [err(['title'], "Title can't be blank")] };
  const options = (input.productOptions as Input[] | null | undefined) ?? [];
  const errors: UserError[] = [];
  if (options.length > 3) errors.push(err(['productOptions'], 'Can only specify a maximum of 3 options'));
  options.forEach((o, i) => {
    if (!str(o.name)) errors.push(err(['productOptions', String(i), 'name'], "Option name can't be blank"));
    if (!((o.values as Input[] | null | undefined)?.length)) errors.push(err(['productOptions', String(i), 'values'], 'Option values must be specified'));
  });
  const fields = productFields(c, { ...input, handle: input.handle ?? handleize(String(input.title)) }, null);
  errors.push(...fields.errors.filter((e) => e.field?.[0] !== 'handle' || input.handle != null));
  if (errors.length > 0) return { product: null, shop: shopView(c.store), userErrors: errors };
  const id = newId(c, 'Product');
  const optionRecs: OptionRec[] = options.length === 0 ? [DEFAULT_OPTION(c)] : options.map((o, i) => ({
    id: newId(c, 'ProductOption'), name: String(o.name), position: i + 1, values: (o.values as Input[]).map((v) => ({ id: newId(c, 'ProductOptionValue'), name: String(v.name) })),
  }));
  const product: ProductRec = {
    id, title: String(input.title), handle: uniqueHandle(c.store, fields.patch.handle ?? handleize(String(input.title))), descriptionHtml: '', vendor: '', productType: '', status: 'ACTIVE', tags: [],
    createdAt: c.nowIso, updatedAt: c.nowIso, seo: { title: null, description: null }, options: optionRecs, collectionIds: fields.join, images: [], metafields: [],
    ...fields.patch,
  } as ProductRec;
  products(c.store).put(id, product);
  // Shopify creates one variant: the first value of each option, price 0.
  const v = newVariant(c, product, optionRecs.map((o) => ({ name: o.name, value: o.values[0]!.name })), 1);
  variants(c.store).put(v.id, v);
  for (const m of args.media as Input[] | null | undefined ?? []) {
    products(c.store).put(id, { ...products(c.store).get(id)!, images: [...products(c.store).get(id)!.images, { id: newId(c, 'ProductImage'), url: String(m.originalSource), altText: str(m.alt) ?? null }] });
  }
  return { product: productView(c.store, products(c.store).get(id)!), shop: shopView(c.store), userErrors: [] };
}

function productUpdate(c: ShopifyContext, args: Args) {
  const input = (args.product ?? args.input ?? {}) as Input;
  const p = input.id == null ? undefined : products(c.store).get(idArg(input.id, 'Product'));
  if (!p) return { product: null, userErrors: [err(['id'], 'Product does not exist')] };
  const fields = productFields(c, input, p);
  if (fields.errors.length > 0) return { product: null, userErrors: fields.errors };
  const ids = [...p.collectionIds.filter((x) => !fields.leave.includes(x)), ...fields.join.filter((x) => !p.collectionIds.includes(x))];
  touchProduct(c, p, { ...fields.patch, collectionIds: ids });
  return productPayload(c, p, []);
}

function productDelete(c: ShopifyContext, args: Args) {
  const id = idArg((args.input as Input).id, 'Product');
  const p = products(c.store).get(id);
  if (!p) return { deletedProductId: null, shop: shopView(c.store), userErrors: [err(['id'], 'Product does not exist')] };
  for (const v of productVariants(c.store, id)) variants(c.store).delete(v.id);
  products(c.store).delete(id);
  return { deletedProductId: gid('Product', id), shop: shopView(c.store), userErrors: [] };
}

interface VariantPlan { input: Input; selected: { name: string; value: string }[] | null }

/** The option values a variant input names, checked against the product's options (new values are added). */
function plannedOptions(p: ProductRec, options: OptionRec[], input: Input, i: number, errors: UserError[], requireAll: boolean): { name: string; value: string }[] | null {
  const given = (input.optionValues as Input[] | null | undefined) ?? null;
  if (given === null) {
    if (requireAll) errors.push(err(['variants', String(i), 'optionValues'], `You need to add option values for ${options.map((o) => o.name).join(', ')}`, 'MUST_SPECIFY_ALL_OPTION_VALUES'));
    return null;
  }
  const out: { name: string; value: string }[] = [];
  for (const ov of given) {
    const option = options.find((o) => o.name === ov.optionName || (ov.optionId != null && gid('ProductOption', o.id) === ov.optionId));
    if (!option) { errors.push(err(['variants', String(i), 'optionValues'], `Option does not exist`, 'OPTION_DOES_NOT_EXIST')); return null; }
    const value = str(ov.name) ?? option.values.find((v) => gid('ProductOptionValue', v.id) === ov.id)?.name;
    if (!value) { errors.push(err(['variants', String(i), 'optionValues'], 'Option value does not exist', 'OPTION_VALUE_DOES_NOT_EXIST')); return null; }
    out.push({ name: option.name, value });
  }
  if (requireAll && out.length !== options.length) {
    errors.push(err(['variants', String(i), 'optionValues'], `You need to add option values for ${options.filter((o) => !out.some((x) => x.name === o.name)).map((o) => o.name).join(', ')}`, 'MUST_SPECIFY_ALL_OPTION_VALUES'));
    return null;
  }

  return options.map((o) => out.find((x) => x.name === o.name) ?? { name: o.name, value: '' });
}

function variantFieldErrors(input: Input, i: number, errors: UserError[], c: ShopifyContext): void {
  for (const f of ['price', 'compareAtPrice'] as const) {
    if (input[f] != null && !MONEY.test(String(input[f]))) errors.push(err(['variants', String(i), f], `${f === 'price' ? 'Price' : 'Compare at price'} must be a number`, 'INVALID_INPUT'));
  }
  ((input.inventoryQuantities as Input[] | null | undefined) ?? []).forEach((q, j) => {
    const ref = parseGid(String(q.locationId), 'Location');
    if (!ref || !locations(c.store).has(ref.id)) errors.push(err(['variants', String(i), 'inventoryQuantities', String(j), 'locationId'], 'Location does not exist', 'LOCATION_NOT_FOUND'));
  });
}

function applyVariantInput(c: ShopifyContext, v: VariantRec, input: Input): VariantRec {
  const next: VariantRec = { ...v, updatedAt: c.nowIso };
  if (input.price != null) next.priceCents = cents(String(input.price));
  if (input.compareAtPrice !== undefined) next.compareAtPriceCents = input.compareAtPrice === null ? null : cents(String(input.compareAtPrice));
  if (input.barcode != null) next.barcode = String(input.barcode);
  if (input.taxable != null) next.taxable = Boolean(input.taxable);
  const item = input.inventoryItem as Input | null | undefined;
  if (item?.sku != null) next.sku = String(item.sku);
  if (item?.tracked != null) next.tracked = Boolean(item.tracked);
  const quantities = (input.inventoryQuantities as Input[] | null | undefined) ?? [];
  if (quantities.length > 0) {
    next.inventory = { ...v.inventory };
    for (const q of quantities) next.inventory[String(parseGid(String(q.locationId))!.id)] = Number(q.availableQuantity);
  }
  return next;
}

/** Adds values a variant names that its option does not have yet. */
function withValues(c: ShopifyContext, options: OptionRec[], selected: { name: string; value: string }[]): OptionRec[] {
  return options.map((o) => {
    const value = selected.find((s) => s.name === o.name)?.value;
    return value && !o.values.some((v) => v.name === value) ? { ...o, values: [...o.values, { id: newId(c, 'ProductOptionValue'), name: value }] } : o;
  });
}

function bulkCreate(c: ShopifyContext, args: Args) {
  const p = products(c.store).get(idArg(args.productId, 'Product'));
  if (!p) return { product: null, productVariants: null, userErrors: [err(['productId'], 'Product does not exist', 'PRODUCT_DOES_NOT_EXIST')] };
  const existing = productVariants(c.store, p.id);
  const strategy = String(args.strategy ?? 'DEFAULT');
  const standalone = existing.length === 1 && (strategy === 'REMOVE_STANDALONE_VARIANT' || (strategy === 'DEFAULT' && isDefaultOnly(p)));
  const inputs = args.variants as Input[];
  // Removing the "Default Title" variant makes room for options named by the new variants.
  let options = p.options;
  if (standalone && isDefaultOnly(p)) {
    const names = [...new Set(inputs.flatMap((v) => ((v.optionValues as Input[] | null | undefined) ?? []).map((ov) => String(ov.optionName))))];
    if (names.length > 0) options = names.map((name, i) => ({ id: newId(c, 'ProductOption'), name, position: i + 1, values: [] }));
  }
  const errors: UserError[] = [];
  const plans: VariantPlan[] = inputs.map((input, i) => {
    variantFieldErrors(input, i, errors, c);
    return { input, selected: plannedOptions(p, options, input, i, errors, !isDefaultOnly({ ...p, options })) };
  });
  const kept = standalone ? [] : existing;
  const titles = new Set(kept.map((v) => v.title));
  plans.forEach((plan, i) => {
    const title = plan.selected ? variantTitle(plan.selected) : 'Default Title';
    if (titles.has(title)) errors.push(err(['variants', String(i)], `The variant '${title}' already exists.`, 'VARIANT_ALREADY_EXISTS'));
    titles.add(title);
  });
  if (errors.length > 0) return { product: null, productVariants: null, userErrors: errors };
  if (standalone) for (const v of existing) variants(c.store).delete(v.id);
  for (const plan of plans) if (plan.selected) options = withValues(c, options, plan.selected);
  const product = touchProduct(c, p, { options });
  let position = kept.length;
  const created = plans.map((plan) => {
    const selected = plan.selected ?? options.map((o) => ({ name: o.name, value: o.values[0]!.name }));
    const v = applyVariantInput(c, newVariant(c, product, selected, ++position), plan.input);
    return variants(c.store).put(v.id, v);
  });
  retitle(c, product);
  return { product: productView(c.store, products(c.store).get(p.id)!), productVariants: created.map((v) => variantView(c.store, variants(c.store).get(v.id)!)), userErrors: [] };
}

function bulkUpdate(c: ShopifyContext, args: Args) {
  const p = products(c.store).get(idArg(args.productId, 'Product'));
  if (!p) return { product: null, productVariants: null, userErrors: [err(['productId'], 'Product does not exist', 'PRODUCT_DOES_NOT_EXIST')] };
  const errors: UserError[] = [];
  const inputs = args.variants as Input[];
  const targets = inputs.map((input, i) => {
    if (input.id == null) { errors.push(err(['variants', String(i), 'id'], 'Product variant is missing ID attribute', 'PRODUCT_VARIANT_ID_MISSING')); return null; }
    const v = variants(c.store).get(idArg(input.id, 'ProductVariant'));
    if (!v || v.productId !== p.id) { errors.push(err(['variants', String(i), 'id'], 'Product variant does not exist', 'PRODUCT_VARIANT_DOES_NOT_EXIST')); return null; }
    variantFieldErrors(input, i, errors, c);
    const selected = input.optionValues == null ? null : plannedOptions(p, p.options, input, i, errors, false);
    return { v, input, selected };
  });
  if (errors.length > 0) return { product: null, productVariants: null, userErrors: errors };
  let options = p.options;
  const updated = targets.map((t) => {
    const { v, input, selected } = t!;
    const current = variants(c.store).get(v.id)!;
    const merged = selected ? current.selectedOptions.map((s) => ({ name: s.name, value: selected.find((x) => x.name === s.name && x.value !== '')?.value ?? s.value })) : current.selectedOptions;
    if (selected) options = withValues(c, options, merged);
    return variants(c.store).put(v.id, { ...applyVariantInput(c, current, input), selectedOptions: merged });
  });
  const product = touchProduct(c, p, { options });
  retitle(c, product);
  return { product: productView(c.store, products(c.store).get(p.id)!), productVariants: updated.map((v) => variantView(c.store, variants(c.store).get(v.id)!)), userErrors: [] };
}

function bulkDelete(c: ShopifyContext, args: Args) {
  const p = products(c.store).get(idArg(args.productId, 'Product'));
  if (!p) return { product: null, userErrors: [err(['productId'], 'Product does not exist', 'PRODUCT_DOES_NOT_EXIST')] };
  const errors: UserError[] = [];
  const ids = (args.variantsIds as string[]).map((id, i) => {
    const v = variants(c.store).get(idArg(id, 'ProductVariant'));
    if (!v || v.productId !== p.id) errors.push(err(['variantsIds', String(i)], 'At least one variant does not belong to the product', 'PRODUCT_VARIANT_DOES_NOT_EXIST'));
    return v?.id ?? -1;
  });
  if (errors.length === 0 && productVariants(c.store, p.id).every((v) => ids.includes(v.id))) errors.push(err(['variantsIds'], 'Cannot delete the last variant.', 'CANNOT_DELETE_LAST_VARIANT'));
  if (errors.length > 0) return { product: null, userErrors: errors };
  for (const id of ids) variants(c.store).delete(id);
  touchProduct(c, p);
  return { product: productView(c.store, products(c.store).get(p.id)!), userErrors: [] };
}

function optionsCreate(c: ShopifyContext, args: Args) {
  const p = products(c.store).get(idArg(args.productId, 'Product'));
  if (!p) return { product: null, userErrors: [err(['productId'], 'Product does not exist', 'PRODUCT_DOES_NOT_EXIST')] };
  const inputs = args.options as Input[];
  const base = isDefaultOnly(p) ? [] : p.options;
  const errors: UserError[] = [];
  if (base.length + inputs.length > 3) errors.push(err(['options'], 'Can only specify a maximum of 3 options', 'OPTIONS_OVER_LIMIT'));
  inputs.forEach((o, i) => {
    if (!str(o.name)) errors.push(err(['options', String(i), 'name'], "Option name can't be blank", 'OPTION_NAME_MISSING'));
    else if (base.some((b) => b.name.toLowerCase() === String(o.name).toLowerCase())) errors.push(err(['options', String(i), 'name'], `Option '${String(o.name)}' already exists.`, 'OPTION_ALREADY_EXISTS'));
    if (!((o.values as Input[] | null | undefined)?.length)) errors.push(err(['options', String(i), 'values'], 'Option values must be specified', 'OPTION_VALUES_MISSING'));
  });
  if (errors.length > 0) return { product: null, userErrors: errors };
  const added: OptionRec[] = inputs.map((o) => ({ id: newId(c, 'ProductOption'), name: String(o.name), position: 0, values: (o.values as Input[]).map((v) => ({ id: newId(c, 'ProductOptionValue'), name: String(v.name) })) }));
  const options = [...base, ...added].map((o, i) => ({ ...o, position: i + 1 }));
  const product = touchProduct(c, p, { options });
  // LEAVE_AS_IS: existing variants take each new option's first value.
  for (const v of productVariants(c.store, p.id)) {
    const kept = isDefaultOnly(p) ? [] : v.selectedOptions;
    variants(c.store).put(v.id, { ...v, selectedOptions: [...kept, ...added.map((o) => ({ name: o.name, value: o.values[0]!.name }))], updatedAt: c.nowIso });
  }
  retitle(c, product);
  return { product: productView(c.store, products(c.store).get(p.id)!), userErrors: [] };
}

function optionUpdate(c: ShopifyContext, args: Args) {
  const p = products(c.store).get(idArg(args.productId, 'Product'));
  if (!p) return { product: null, userErrors: [err(['productId'], 'Product does not exist', 'PRODUCT_DOES_NOT_EXIST')] };
  const input = args.option as Input;
  const option = p.options.find((o) => gid('ProductOption', o.id) === input.id);
  if (!option) return { product: null, userErrors: [err(['option', 'id'], 'Option does not exist', 'OPTION_DOES_NOT_EXIST')] };
  const errors: UserError[] = [];
  const used = productVariants(c.store, p.id);
  const toDelete = ((args.optionValuesToDelete as string[] | null | undefined) ?? []).map((id, i) => {
    const value = option.values.find((v) => gid('ProductOptionValue', v.id) === id);
    if (!value) errors.push(err(['optionValuesToDelete', String(i)], 'Option value does not exist', 'OPTION_VALUE_DOES_NOT_EXIST'));
    else if (used.some((v) => v.selectedOptions.some((s) => s.name === option.name && s.value === value.name))) errors.push(err(['optionValuesToDelete', String(i)], `Option value '${value.name}' cannot be deleted because it has variants.`, 'OPTION_VALUE_HAS_VARIANTS'));
    return value?.id ?? -1;
  });
  const toAdd = ((args.optionValuesToAdd as Input[] | null | undefined) ?? []).map((v) => String(v.name));
  toAdd.forEach((name, i) => { if (option.values.some((v) => v.name === name)) errors.push(err(['optionValuesToAdd', String(i)], `Option value '${name}' already exists.`, 'OPTION_VALUE_ALREADY_EXISTS')); });
  const renames = ((args.optionValuesToUpdate as Input[] | null | undefined) ?? []).map((u, i) => {
    const value = option.values.find((v) => gid('ProductOptionValue', v.id) === u.id);
    if (!value) errors.push(err(['optionValuesToUpdate', String(i), 'id'], 'Option value does not exist', 'OPTION_VALUE_DOES_NOT_EXIST'));
    return { value, name: str(u.name) };
  });
  const newName = str(input.name);
  if (newName && p.options.some((o) => o.id !== option.id && o.name.toLowerCase() === newName.toLowerCase())) errors.push(err(['option', 'name'], `Option '${newName}' already exists.`, 'OPTION_ALREADY_EXISTS'));
  if (errors.length > 0) return { product: null, userErrors: errors };
  const renamed = new Map(renames.filter((r) => r.value && r.name).map((r) => [r.value!.name, r.name!]));
  const values = [...option.values.filter((v) => !toDelete.includes(v.id)).map((v) => ({ ...v, name: renamed.get(v.name) ?? v.name })), ...toAdd.map((name) => ({ id: newId(c, 'ProductOptionValue'), name }))];
  let options = p.options.map((o) => (o.id === option.id ? { ...o, name: newName ?? o.name, values } : o));
  if (typeof input.position === 'number') {
    const moved = options.find((o) => o.id === option.id)!;
    const rest = options.filter((o) => o.id !== option.id);
    rest.splice(Math.max(0, Math.min(rest.length, input.position - 1)), 0, moved);
    options = rest.map((o, i) => ({ ...o, position: i + 1 }));
  }
  const product = touchProduct(c, p, { options });
  for (const v of used) {
    const selected = options.map((o) => {
      const previous = v.selectedOptions.find((s) => s.name === (o.id === option.id ? option.name : o.name))!;
      return { name: o.name, value: o.id === option.id ? renamed.get(previous.value) ?? previous.value : previous.value };
    });
    variants(c.store).put(v.id, { ...v, selectedOptions: selected, updatedAt: c.nowIso });
  }
  retitle(c, product);
  return { product: productView(c.store, products(c.store).get(p.id)!), userErrors: [] };
}

function optionsDelete(c: ShopifyContext, args: Args) {
  const p = products(c.store).get(idArg(args.productId, 'Product'));
  if (!p) return { deletedOptionsIds: null, product: null, userErrors: [err(['productId'], 'Product does not exist', 'PRODUCT_DOES_NOT_EXIST')] };
  const errors: UserError[] = [];
  const used = productVariants(c.store, p.id);
  const doomed = (args.options as string[]).map((id, i) => {
    const option = p.options.find((o) => gid('ProductOption', o.id) === id);
    if (!option) { errors.push(err(['options', String(i)], 'Option does not exist', 'OPTION_DOES_NOT_EXIST')); return null; }
    const inUse = new Set(used.map((v) => v.selectedOptions.find((s) => s.name === option.name)?.value));
    if (args.strategy !== 'POSITION' && inUse.size > 1) errors.push(err(['options', String(i)], `Cannot delete option '${option.name}' because it has multiple values in use by variants.`, 'CANNOT_DELETE_OPTION_WITH_MULTIPLE_VALUES'));
    return option;
  });
  if (errors.length > 0) return { deletedOptionsIds: null, product: null, userErrors: errors };
  const gone = new Set(doomed.map((o) => o!.id));
  let options = p.options.filter((o) => !gone.has(o.id)).map((o, i) => ({ ...o, position: i + 1 }));
  if (options.length === 0) options = [DEFAULT_OPTION(c)];
  const product = touchProduct(c, p, { options });
  for (const v of used) {
    const selected = isDefaultOnly(product) ? [{ name: 'Title', value: 'Default Title' }] : v.selectedOptions.filter((s) => options.some((o) => o.name === s.name));
    variants(c.store).put(v.id, { ...v, selectedOptions: selected, updatedAt: c.nowIso });
  }
  retitle(c, product);
  return { deletedOptionsIds: doomed.map((o) => gid('ProductOption', o!.id)), product: productView(c.store, products(c.store).get(p.id)!), userErrors: [] };
}

function orderUpdate(c: ShopifyContext, args: Args) {
  const input = args.input as Input;
  const o = orders(c.store).get(idArg(input.id, 'Order'));
  if (!o) return { order: null, userErrors: [err(['id'], 'Order does not exist')] };
  const errors: UserError[] = [];
  if (input.email != null && !EMAIL.test(String(input.email))) errors.push(err(['email'], 'Email is invalid'));
  const metafields = mergeMetafields(c, o.metafields, input.metafields as Input[] | undefined, ['metafields']);
  errors.push(...metafields.errors);
  if (errors.length > 0) return { order: null, userErrors: errors };
  const next = {
    ...o, updatedAt: c.nowIso,
    ...(input.email != null ? { email: String(input.email) } : {}),
    ...(input.note !== undefined ? { note: input.note === null ? null : String(input.note) } : {}),
    ...(input.tags != null ? { tags: normalizeTags(input.tags as string[]) } : {}),
    ...(input.customAttributes != null ? { customAttributes: (input.customAttributes as Input[]).map((a) => ({ key: String(a.key), value: String(a.value) })) } : {}),
    ...(input.metafields != null ? { metafields: metafields.list } : {}),
    ...(input.shippingAddress != null ? { shippingAddress: mergeAddress(o.shippingAddress, input.shippingAddress as Input) } : {}),
  };
  orders(c.store).put(o.id, next);
  return { order: orderView(c.store, next), userErrors: [] };
}

function orderOpenClose(c: ShopifyContext, args: Args, close: boolean) {
  const o = orders(c.store).get(idArg((args.input as Input).id, 'Order'));
  if (!o) return { order: null, userErrors: [err(['id'], 'Order does not exist')] };
  const next = orders(c.store).put(o.id, { ...o, closed: close, closedAt: close ? c.nowIso : null, updatedAt: c.nowIso });
  return { order: orderView(c.store, next), userErrors: [] };
}

function customerWrite(c: ShopifyContext, args: Args, create: boolean) {
  const input = args.input as Input;
  const existing = create ? undefined : input.id == null ? undefined : customers(c.store).get(idArg(input.id, 'Customer'));
  if (!create && !existing) return { customer: null, userErrors: [err(['id'], 'Customer does not exist')] };
  const errors: UserError[] = [];
  const email = input.email === undefined ? existing?.email ?? null : input.email === null ? null : String(input.email);
  if (input.email != null && !EMAIL.test(String(input.email))) errors.push(err(['email'], 'Email is invalid'));
  else if (email !== null && customers(c.store).values().some((x) => x.id !== existing?.id && x.email?.toLowerCase() === email.toLowerCase())) errors.push(err(['email'], 'Email has already been taken'));
  if (input.phone != null && !/^\+?[0-9 ()-]{7,}$/.test(String(input.phone))) errors.push(err(['phone'], 'Phone is invalid'));
  else if (input.phone != null && customers(c.store).values().some((x) => x.id !== existing?.id && x.phone === String(input.phone))) errors.push(err(['phone'], 'Phone has already been taken'));
  if (create && !email && !str(input.phone) && !str(input.firstName) && !str(input.lastName)) errors.push(err(null, 'A name, phone number, or email address must be present'));
  const metafields = mergeMetafields(c, existing?.metafields ?? [], input.metafields as Input[] | undefined, ['metafields']);
  errors.push(...metafields.errors);
  if (errors.length > 0) return { customer: null, userErrors: errors };
  const id = existing?.id ?? newId(c, 'Customer');
  const base = existing ?? { id, firstName: null, lastName: null, email: null, phone: null, tags: [], note: null, taxExempt: false, state: 'DISABLED', createdAt: c.nowIso, updatedAt: c.nowIso, addresses: [], metafields: [] };
  const next = {
    ...base, email, updatedAt: c.nowIso,
    ...(input.firstName !== undefined ? { firstName: str(input.firstName) ?? null } : {}),
    ...(input.lastName !== undefined ? { lastName: str(input.lastName) ?? null } : {}),
    ...(input.phone !== undefined ? { phone: str(input.phone) ?? null } : {}),
    ...(input.note !== undefined ? { note: str(input.note) ?? null } : {}),
    ...(input.tags != null ? { tags: normalizeTags(input.tags as string[]) } : {}),
    ...(input.taxExempt != null ? { taxExempt: Boolean(input.taxExempt) } : {}),
    ...(input.metafields != null ? { metafields: metafields.list } : {}),
    ...(input.addresses != null ? { addresses: (input.addresses as Input[]).map((a) => mergeAddress(null, a)) } : {}),
  };
  customers(c.store).put(id, next);
  return { customer: customerView(c.store, next), userErrors: [] };
}

function metafieldsSet(c: ShopifyContext, args: Args) {
  const inputs = args.metafields as Input[];
  const errors: { field: string[]; message: string; code: string; elementIndex: number }[] = [];
  if (inputs.length > 25) errors.push({ field: ['metafields'], message: 'Exceeded the maximum metafields input limit of 25.', code: 'INVALID', elementIndex: 0 });
  // Group by owner, check everything, then write (metafieldsSet is all or nothing).
  const byOwner = new Map<string, { type: string; id: number; items: { input: Input; index: number }[] }>();
  inputs.forEach((m, i) => {
    const ref = parseGid(String(m.ownerId));
    const owner = ref && (ref.type === 'Product' ? products(c.store).get(ref.id) : ref.type === 'Customer' ? customers(c.store).get(ref.id) : ref.type === 'Order' ? orders(c.store).get(ref.id) : undefined);
    if (!ref || !owner) { errors.push({ field: ['metafields', String(i), 'ownerId'], message: 'Owner does not exist.', code: 'INVALID', elementIndex: i }); return; }
    const group = byOwner.get(String(m.ownerId)) ?? { type: ref.type, id: ref.id, items: [] };
    group.items.push({ input: m, index: i });
    byOwner.set(String(m.ownerId), group);
  });
  const plans: { type: string; id: number; list: MetafieldRec[]; keys: { namespace: string; key: string }[] }[] = [];
  for (const group of byOwner.values()) {
    const owner = (group.type === 'Product' ? products(c.store) : group.type === 'Customer' ? customers(c.store) : orders(c.store)).get(group.id)!;
    const merged = mergeMetafields(c, owner.metafields, group.items.map((x) => ({ namespace: x.input.namespace ?? '$app', key: x.input.key, value: x.input.value, type: x.input.type })), ['metafields']);
    for (const e of merged.errors) {
      const item = group.items[Number(e.field![1])]!;
      errors.push({ field: ['metafields', String(item.index), e.field![2]!], message: e.message, code: 'BLANK', elementIndex: item.index });
    }
    plans.push({ type: group.type, id: group.id, list: merged.list, keys: group.items.map((x) => ({ namespace: String(x.input.namespace ?? '$app'), key: String(x.input.key) })) });
  }
  if (errors.length > 0) return { metafields: null, userErrors: errors };
  const out: Record<string, unknown>[] = [];
  for (const plan of plans) {
    if (plan.type === 'Product') { const p = products(c.store).get(plan.id)!; products(c.store).put(p.id, { ...p, metafields: plan.list, updatedAt: c.nowIso }); }
    if (plan.type === 'Customer') { const x = customers(c.store).get(plan.id)!; customers(c.store).put(x.id, { ...x, metafields: plan.list, updatedAt: c.nowIso }); }
    if (plan.type === 'Order') { const x = orders(c.store).get(plan.id)!; orders(c.store).put(x.id, { ...x, metafields: plan.list, updatedAt: c.nowIso }); }
    const view = nodeById(c.store, gid(plan.type, plan.id))!;
    for (const k of plan.keys) out.push((view.metafield as (a: Record<string, unknown>) => Record<string, unknown>)({ namespace: k.namespace, key: k.key }));
  }
  return { metafields: out, userErrors: [] };
}

function tagsChange(c: ShopifyContext, args: Args, add: boolean) {
  const ref = parseGid(String(args.id));
  const tags = normalizeTags(args.tags as string[]);
  const change = (current: string[]) => normalizeTags(add ? [...current, ...tags] : current.filter((t) => !tags.some((x) => x.toLowerCase() === t.toLowerCase())));
  if (ref?.type === 'Product' && products(c.store).has(ref.id)) { const x = products(c.store).get(ref.id)!; products(c.store).put(x.id, { ...x, tags: change(x.tags), updatedAt: c.nowIso }); }
  else if (ref?.type === 'Customer' && customers(c.store).has(ref.id)) { const x = customers(c.store).get(ref.id)!; customers(c.store).put(x.id, { ...x, tags: change(x.tags), updatedAt: c.nowIso }); }
  else if (ref?.type === 'Order' && orders(c.store).has(ref.id)) { const x = orders(c.store).get(ref.id)!; orders(c.store).put(x.id, { ...x, tags: change(x.tags), updatedAt: c.nowIso }); }
  else return { node: null, userErrors: [err(['id'], ref ? `${ref.type} does not exist` : `Invalid global id '${String(args.id)}'`)] };
  return { node: nodeById(c.store, String(args.id)), userErrors: [] };
}

function inventoryAdjust(c: ShopifyContext, args: Args) {
  const input = args.input as Input;
  const errors: UserError[] = [];
  if (input.name !== 'available' && input.name !== 'on_hand') errors.push(err(['input', 'name'], 'The quantity name must be either \'available\' or \'on_hand\'.', 'INVALID_QUANTITY_NAME'));
  const changes = (input.changes as Input[]).map((ch, i) => {
    const item = parseGid(String(ch.inventoryItemId), 'InventoryItem');
    const v = item ? variants(c.store).find((x) => x.inventoryItemId === item.id) : undefined;
    const loc = parseGid(String(ch.locationId), 'Location');
    const location = loc ? locations(c.store).get(loc.id) : undefined;
    if (!v) errors.push(err(['input', 'changes', String(i), 'inventoryItemId'], 'The specified inventory item could not be found.', 'INVALID_INVENTORY_ITEM'));
    else if (!location) errors.push(err(['input', 'changes', String(i), 'locationId'], 'The specified location could not be found.', 'INVALID_LOCATION'));
    else if (v.inventory[String(location.id)] === undefined) errors.push(err(['input', 'changes', String(i), 'locationId'], 'The specified inventory item is not stocked at the location.', 'ITEM_NOT_STOCKED_AT_LOCATION'));
    return { v, location, delta: Number(ch.delta) };
  });
  if (errors.length > 0) return { inventoryAdjustmentGroup: null, userErrors: errors };
  const done = changes.map(({ v, location, delta }) => {
    const current = variants(c.store).get(v!.id)!;
    const after = (current.inventory[String(location!.id)] ?? 0) + delta;
    const next = variants(c.store).put(current.id, { ...current, inventory: { ...current.inventory, [String(location!.id)]: after }, updatedAt: c.nowIso });
    return { name: String(input.name), delta, quantityAfterChange: after, item: inventoryItemView(c.store, next), location: locationView(location!) };
  });
  return {
    inventoryAdjustmentGroup: { id: `gid://shopify/InventoryAdjustmentGroup/${newId(c, 'InventoryAdjustmentGroup')}`, reason: String(input.reason), referenceDocumentUri: str(input.referenceDocumentUri) ?? null, createdAt: c.nowIso, changes: done },
    userErrors: [],
  };
}

export const mutationRoot = (c: ShopifyContext) => ({
  productCreate: (args: Args) => productCreate(c, args),
  productUpdate: (args: Args) => productUpdate(c, args),
  productDelete: (args: Args) => productDelete(c, args),
  productVariantsBulkCreate: (args: Args) => bulkCreate(c, args),
  productVariantsBulkUpdate: (args: Args) => bulkUpdate(c, args),
  productVariantsBulkDelete: (args: Args) => bulkDelete(c, args),
  productOptionsCreate: (args: Args) => optionsCreate(c, args),
  productOptionUpdate: (args: Args) => optionUpdate(c, args),
  productOptionsDelete: (args: Args) => optionsDelete(c, args),
  orderUpdate: (args: Args) => orderUpdate(c, args),
  orderClose: (args: Args) => orderOpenClose(c, args, true),
  orderOpen: (args: Args) => orderOpenClose(c, args, false),
  customerCreate: (args: Args) => customerWrite(c, args, true),
  customerUpdate: (args: Args) => customerWrite(c, args, false),
  metafieldsSet: (args: Args) => metafieldsSet(c, args),
  tagsAdd: (args: Args) => tagsChange(c, args, true),
  tagsRemove: (args: Args) => tagsChange(c, args, false),
  inventoryAdjustQuantities: (args: Args) => inventoryAdjust(c, args),
});


