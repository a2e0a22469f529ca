import { z } from 'zod';
import { hubspotError } from './context.js';
import type { CrmRecord, ObjectType, PropertyDoc } from './model.js';

/**
 * `POST /crm/v3/objects/{objectType}/search`: filter groups (OR) of filters (AND), a free-text
 * query over the type's searchable properties, sorts, and an offset cursor (`after`), with
 * HubSpot's limits (5 groups, 6 filters a group, 18 in all, 200 a page, 10,000 in all).
 */
const Filter = z.object({
  propertyName: z.string(),
  operator: z.enum(['EQ', 'NEQ', 'LT', 'LTE', 'GT', 'GTE', 'BETWEEN', 'IN', 'NOT_IN', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY', 'CONTAINS_TOKEN', 'NOT_CONTAINS_TOKEN']),
  value: z.union([z.string(), z.number(), z.boolean()]).transform(String).optional(),
  highValue: z.union([z.string(), z.number()]).transform(String).optional(),
  values: z.array(z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
}).passthrough();
export type Filter = z.infer<typeof Filter>;

const Sort = z.union([
  z.object({ propertyName: z.string(), direction: z.enum(['ASCENDING', 'DESCENDING']).default('ASCENDING') }).passthrough(),
  z.string().transform((s) => (s.startsWith('-') ? { propertyName: s.slice(1), direction: 'DESCENDING' as const } : { propertyName: s, direction: 'ASCENDING' as const })),
]);

export const SearchBody = z.object({
  filterGroups: z.array(z.object({ filters: z.array(Filter) }).passthrough()).default([]),
  sorts: z.array(Sort).default([]),
  query: z.string().optional(),
  properties: z.array(z.string()).optional(),
  limit: z.number().int().min(0).default(10),
  after: z.union([z.string(), z.number()]).transform(String).optional(),
}).passthrough();
export type SearchBody = z.infer<typeof SearchBody>;

export function checkSearchLimits(body: SearchBody): void {
  const total = body.filterGroups.reduce((n, g) => n + g.filters.length, 0);
  if (body.filterGroups.length > 5) throw hubspotError(400, 'VALIDATION_ERROR', `Too many filter groups. Maximum number of filter groups allowed is 5, but ${body.filterGroups.length} were provided.`);
  const wide = body.filterGroups.find((g) => g.filters.length > 6);
  if (wide) throw hubspotError(400, 'VALIDATION_ERROR', `Too many filters in a filter group. Maximum number of filters allowed in a filter group is 6, but ${wide.filters.length} were provided.`);
  if (total > 18) throw hubspotError(400, 'VALIDATION_ERROR', `Too many filters. Maximum number of filters allowed is 18, but ${total} were provided.`);
  if (body.limit > 200) throw hubspotError(400, 'VALIDATION_ERROR', `limit must be less than or equal to 200, but was ${body.limit}`);
  for (const group of body.filterGroups) {
    for (const f of group.filters) {
      const needsValue = !['HAS_PROPERTY', 'NOT_HAS_PROPERTY', 'IN', 'NOT_IN'].includes(f.operator);
      if (needsValue && f.value === undefined) throw hubspotError(400, 'VALIDATION_ERROR', `There was a problem with the request: filter on ${f.propertyName} with operator ${f.operator} requires a value`);
      if ((f.operator === 'IN' || f.operator === 'NOT_IN') && !f.values?.length) throw hubspotError(400, 'VALIDATION_ERROR', `There was a problem with the request: filter on ${f.propertyName} with operator ${f.operator} requires values`);
      if (f.operator === 'BETWEEN' && f.highValue === undefined) throw hubspotError(400, 'VALIDATION_ERROR', `There was a problem with the request: filter on ${f.propertyName} with operator BETWEEN requires a highValue`);
    }
  }
}

type Kind = 'number' | 'time' | 'text';
const kindOf = (def: PropertyDoc | undefined): Kind => (def?.type === 'number' ? 'number' : def?.type === 'date' || def?.type === 'datetime' ? 'time' : 'text');

/** A filter's or a record's value in the property's own order: numbers, milliseconds, lower-case text. */
function key(kind: Kind, value: string): number | string {
  if (kind === 'number') return Number(value);
  if (kind === 'time') return /^-?\d+$/.test(value) ? Number(value) : Date.parse(value);
  return value.toLowerCase();
}

function compare(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Words of a value, as HubSpot's token index splits them (emails and domains keep their whole form too). */
function tokens(value: string): string[] {
  const lower = value.toLowerCase();
  return [lower, ...lower.split(/[^a-z0-9]+/).filter(Boolean), ...lower.split(/\s+/).filter(Boolean)];
}

function tokenMatch(value: string, wanted: string): boolean {
  const w = wanted.toLowerCase();
  if (!w.includes('*')) return tokens(value).includes(w);
  const re = new RegExp(`^${w.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return tokens(value).some((t) => re.test(t));
}

/** The IDs of the records of a type (named singular, as `associations.contact` does) that a record is associated with. */
export type AssociatedIds = (record: CrmRecord, singular: string) => string[];

export function matches(record: CrmRecord, filter: Filter, def: PropertyDoc | undefined, associated?: AssociatedIds): boolean {
  // `associations.contact` EQ/IN/HAS_PROPERTY: the record is associated with that contact.
  const via = /^associations\.([a-z_]+)$/.exec(filter.propertyName);
  if (via && associated) {
    const ids = associated(record, via[1]!);
    switch (filter.operator) {
      case 'EQ': return ids.includes(filter.value!);
      case 'NEQ': return !ids.includes(filter.value!);
      case 'IN': return (filter.values ?? []).some((v) => ids.includes(v));
      case 'NOT_IN': return !(filter.values ?? []).some((v) => ids.includes(v));
      case 'HAS_PROPERTY': return ids.length > 0;
      case 'NOT_HAS_PROPERTY': return ids.length === 0;
      default: return false;
    }
  }
  const raw = record.properties[filter.propertyName];
  const has = raw !== undefined && raw !== null && raw !== '';
  const kind = kindOf(def);
  const cmp = () => compare(key(kind, raw!), key(kind, filter.value!));
  switch (filter.operator) {
    case 'HAS_PROPERTY': return has;
    case 'NOT_HAS_PROPERTY': return !has;
    case 'EQ': return has && cmp() === 0;
    case 'NEQ': return !has || cmp() !== 0;
    case 'LT': return has && cmp() < 0;
    case 'LTE': return has && cmp() <= 0;
    case 'GT': return has && cmp() > 0;
    case 'GTE': return has && cmp() >= 0;
    case 'BETWEEN': return has && cmp() >= 0 && compare(key(kind, raw!), key(kind, filter.highValue!)) <= 0;
    case 'IN': return has && (filter.values ?? []).some((v) => compare(key(kind, raw!), key(kind, v)) === 0);
    case 'NOT_IN': return !has || !(filter.values ?? []).some((v) => compare(key(kind, raw!), key(kind, v)) === 0);
    case 'CONTAINS_TOKEN': return has && tokenMatch(raw!, filter.value!);
    case 'NOT_CONTAINS_TOKEN': return !has || !tokenMatch(raw!, filter.value!);
  }
}

/** Every word of the query starts a word of one of the type's searchable properties (or is a whole value). */
export function queryMatches(record: CrmRecord, type: ObjectType, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const values = type.searchable.map((name) => record.properties[name]).filter((v): v is string => typeof v === 'string' && v !== '');
  return words.every((word) => values.some((v) => tokens(v).some((t) => t.startsWith(word))));
}

/** The records a search finds, sorted (default: by ID, ascending); archived ones never. */
export function search(records: readonly CrmRecord[], type: ObjectType, body: SearchBody, defs: ReadonlyMap<string, PropertyDoc>, associated?: AssociatedIds): CrmRecord[] {
  const found = records.filter((r) => !r.archived
    && (body.query === undefined || queryMatches(r, type, body.query))
    && (body.filterGroups.length === 0 || body.filterGroups.some((g) => g.filters.every((f) => matches(r, f, defs.get(f.propertyName), associated)))));
  const sorts = body.sorts.length > 0 ? body.sorts : [{ propertyName: 'hs_object_id', direction: 'ASCENDING' as const }];
  return found.map((r, i) => [r, i] as const).sort(([a, i], [b, j]) => {
    for (const s of sorts) {
      const kind = s.propertyName === 'hs_object_id' ? 'number' : kindOf(defs.get(s.propertyName));
      const va = a.properties[s.propertyName];
      const vb = b.properties[s.propertyName];
      // Records without the value come last whatever the direction, as HubSpot sorts them.
      if (!va || !vb) { if (va !== vb) return !va ? 1 : -1; continue; }
      const d = compare(key(kind, va), key(kind, vb));
      if (d !== 0) return s.direction === 'DESCENDING' ? -d : d;
    }
    return Number(a.id) - Number(b.id) || i - j;
  }).map(([r]) => r);
}
