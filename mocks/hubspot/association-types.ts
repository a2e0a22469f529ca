import type { AssociationDoc } from './model.js';

/**
 * HubSpot-defined association types (category HUBSPOT_DEFINED), as the v4 labels endpoint lists
 * them: from type, to type, type ID, label (null for the unlabeled default), and the type ID of
 * the same association seen from the other side. IDs are HubSpot's published ones.
 */
const PAIRS: [from: string, to: string, typeId: number, label: string | null, inverse: number][] = [
  ['contacts', 'companies', 279, null, 280], ['contacts', 'companies', 1, 'Primary', 2],
  ['deals', 'contacts', 3, null, 4],
  ['deals', 'companies', 341, null, 342], ['deals', 'companies', 5, 'Primary', 6],
  ['contacts', 'tickets', 15, null, 16],
  ['tickets', 'companies', 339, null, 340], ['tickets', 'companies', 26, 'Primary', 25],
  ['deals', 'tickets', 27, null, 28],
  ['deals', 'line_items', 19, null, 20],
  ['contacts', 'notes', 201, null, 202], ['companies', 'notes', 189, null, 190], ['deals', 'notes', 213, null, 214], ['tickets', 'notes', 227, null, 228],
  ['contacts', 'tasks', 203, null, 204], ['companies', 'tasks', 191, null, 192], ['deals', 'tasks', 215, null, 216], ['tickets', 'tasks', 229, null, 230],
];

export interface AssociationType { from: string; to: string; typeId: number; label: string | null; inverse: number; category: 'HUBSPOT_DEFINED' }

/** Both directions of every pair. */
export const ASSOCIATION_TYPES: readonly AssociationType[] = PAIRS.flatMap(([from, to, typeId, label, inverse]) => [
  { from, to, typeId, label, inverse, category: 'HUBSPOT_DEFINED' as const },
  { from: to, to: from, typeId: inverse, label, inverse: typeId, category: 'HUBSPOT_DEFINED' as const },
]);

export function typesBetween(from: string, to: string): AssociationType[] {
  return ASSOCIATION_TYPES.filter((t) => t.from === from && t.to === to);
}

/** The unlabeled type every association between the two types has. */
export function defaultType(from: string, to: string): AssociationType | undefined {
  return typesBetween(from, to).find((t) => t.label === null);
}

export function associationKey(fromType: string, fromId: string, toType: string, toId: string): string {
  return `${fromType}/${fromId}/${toType}/${toId}`;
}

/** v3's name of an association type (`contact_to_company`, `contact_to_company_unlabeled`), as `associations=` answers. */
export function v3Name(from: string, to: string, t: AssociationDoc['types'][number]): string {
  const singular = (s: string) => (s === 'companies' ? 'company' : s.endsWith('s') ? s.slice(0, -1) : s);
  const base = `${singular(from)}_to_${singular(to)}`;
  const def = defaultType(from, to);
  if (t.label === null && def !== undefined && def.typeId === t.typeId && typesBetween(from, to).some((x) => x.label !== null)) return `${base}_unlabeled`;
  return t.label === null ? base : t.label === 'Primary' ? base : t.label.toLowerCase().replace(/\s+/g, '_');
}
