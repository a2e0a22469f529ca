import {
  getNamedType, isObjectType, isInterfaceType, Kind,
  type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLCompositeType, type GraphQLSchema, type SelectionSetNode, type ValueNode,
} from 'graphql';
import type { DocumentStore } from '../core/store.js';
import { selectOperation } from '../kit/graphql.js';
import { throttle } from './model.js';

/**
 * Shopify's calculated query cost (shopify.dev "GraphQL Admin API rate limits"), computed from
 * the document alone so it is the same on every run: a scalar or enum costs 0, an object 1, a
 * connection 2 plus its page size (`first`/`last`) times the cost of one node, a mutation's root
 * field 10. `requestedQueryCost` uses the page sizes asked for; `actualQueryCost` the nodes
 * returned. Each access token has a leaky bucket of 2000 points refilled at 100 per second of
 * logical time: a query that costs more than is left is `THROTTLED`, one over 1000 points
 * `MAX_COST_EXCEEDED`, as on a standard plan.
 */
export const MAX_AVAILABLE = 2000;
export const RESTORE_RATE = 100;
export const SINGLE_QUERY_MAX = 1000;

export interface ThrottleStatus { maximumAvailable: number; currentlyAvailable: number; restoreRate: number }
export interface CostBlock { requestedQueryCost: number; actualQueryCost: number | null; throttleStatus: ThrottleStatus }

type Fragments = Map<string, FragmentDefinitionNode>;

function argInt(field: FieldNode, name: string, variables: Record<string, unknown>): number | null {
  const arg = field.arguments?.find((a) => a.name.value === name);
  if (!arg) return null;
  const value: ValueNode = arg.value;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) {
    const v = variables[value.name.value];
    return typeof v === 'number' ? v : null;
  }
  return null;
}

const dataKey = (field: FieldNode) => field.alias?.value ?? field.name.value;

interface Walk { schema: GraphQLSchema; fragments: Fragments; variables: Record<string, unknown>; actual: boolean }

/**
 * The cost of a selection set on `type`. With `actual` and the result at this level, connections
 * count the nodes returned and absent objects count nothing; otherwise the page sizes asked for.
 * Fragments on the type itself add up; fragments on other types (an interface's implementations)
 * are alternatives: the most expensive one counts, as Shopify's static cost does.
 */
function setCost(w: Walk, type: GraphQLCompositeType, set: SelectionSetNode | undefined, data: unknown, seen: ReadonlySet<string> = new Set()): number {
  if (!set) return 0;
  let total = 0;
  const branches: number[] = [];
  const branch = (condition: string | undefined, inner: SelectionSetNode, seenNow: ReadonlySet<string>) => {
    const target = condition === undefined ? type : w.schema.getType(condition);
    if (!target || !(isObjectType(target) || isInterfaceType(target))) return;
    const cost = setCost(w, target, inner, data, seenNow);
    if (condition === undefined || condition === type.name) total += cost;
    else branches.push(cost);
  };
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) total += fieldCost(w, type, s, data);
    else if (s.kind === Kind.INLINE_FRAGMENT) branch(s.typeCondition?.name.value, s.selectionSet, seen);
    else if (!seen.has(s.name.value)) {
      const fragment = w.fragments.get(s.name.value);
      if (fragment) branch(fragment.typeCondition.name.value, fragment.selectionSet, new Set([...seen, s.name.value]));
    }
  }
  return total + (branches.length > 0 ? Math.max(...branches) : 0);
}

/** The selection sets of one node of a connection: under `nodes` and under `edges { node }`. */
function nodeSets(set: SelectionSetNode | undefined, fragments: Fragments): SelectionSetNode[] {
  const fields = (inner: SelectionSetNode | undefined): FieldNode[] => (inner?.selections ?? []).flatMap((s) =>
    s.kind === Kind.FIELD ? [s] : s.kind === Kind.INLINE_FRAGMENT ? fields(s.selectionSet) : fields(fragments.get(s.name.value)?.selectionSet));
  return fields(set).flatMap((f) => f.name.value === 'nodes' ? (f.selectionSet ? [f.selectionSet] : [])
    : f.name.value === 'edges' ? fields(f.selectionSet).filter((e) => e.name.value === 'node' && e.selectionSet).map((e) => e.selectionSet!) : []);
}

function fieldCost(w: Walk, type: GraphQLCompositeType, field: FieldNode, data: unknown): number {
  if (field.name.value.startsWith('__')) return 0;
  const def = isObjectType(type) || isInterfaceType(type) ? type.getFields()[field.name.value] : undefined;
  if (!def) return 0;
  const named = getNamedType(def.type);
  if (!isObjectType(named) && !isInterfaceType(named)) return 0;
  const value = w.actual ? (data as Record<string, unknown> | null | undefined)?.[dataKey(field)] : undefined;
  if (w.actual && (value === null || value === undefined)) return 0;
  if (named.name.endsWith('Connection') && named.getFields().nodes) {
    const nodeType = getNamedType(named.getFields().nodes!.type) as GraphQLCompositeType;
    const sets = nodeSets(field.selectionSet, w.fragments);
    const one = (node: unknown) => 1 + sets.reduce((sum, set) => sum + setCost(w, nodeType, set, node), 0);
    if (w.actual) {
      const conn = value as { edges?: { node?: unknown }[]; nodes?: unknown[] };
      const items = conn.nodes ?? conn.edges?.map((e) => e.node) ?? [];
      return 2 + items.reduce<number>((sum, node) => sum + one(node), 0);
    }
    return 2 + (argInt(field, 'first', w.variables) ?? argInt(field, 'last', w.variables) ?? 1) * one(undefined);
  }
  if (w.actual && Array.isArray(value)) return value.reduce<number>((sum, item) => sum + 1 + setCost(w, named, field.selectionSet, item), 0);
  return 1 + setCost(w, named, field.selectionSet, value);
}

/** Requested and (given the result's data) actual cost of the request's operation; null when it names none. */
export function queryCost(schema: GraphQLSchema, document: DocumentNode, operationName: string | null, variables: Record<string, unknown>, data?: unknown): number | null {
  const operation = selectOperation(document, operationName);
  if (!operation) return null;
  const fragments: Fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  if (operation.operation === 'mutation') return operation.selectionSet.selections.filter((f) => f.kind !== Kind.FIELD || !f.name.value.startsWith('__')).length * 10;
  return setCost({ schema, fragments, variables, actual: data !== undefined }, schema.getQueryType()!, operation.selectionSet, data);
}

/** The token's bucket refilled up to `nowMs` (not stored). */
export function bucketAt(store: DocumentStore, token: string, nowMs: number): number {
  const previous = throttle(store).get(token);
  if (!previous) return MAX_AVAILABLE;
  return Math.min(MAX_AVAILABLE, previous.available + Math.floor((RESTORE_RATE * Math.max(0, nowMs - previous.atMs)) / 1000));
}

export function spend(store: DocumentStore, token: string, nowMs: number, available: number): void {
  throttle(store).put(token, { available, atMs: nowMs });
}

export const throttleStatus = (currentlyAvailable: number): ThrottleStatus => ({ maximumAvailable: MAX_AVAILABLE, currentlyAvailable, restoreRate: RESTORE_RATE });
