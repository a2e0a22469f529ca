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

/** The fields of a selection set, fragments expanded (every branch counted, as Shopify's static cost does). */
function fieldsOf(set: SelectionSetNode | undefined, fragments: Fragments, seen = new Set<string>()): FieldNode[] {
  if (!set) return [];
  return set.selections.flatMap((s) => {
    if (s.kind === Kind.FIELD) return [s];
    if (s.kind === Kind.INLINE_FRAGMENT) return fieldsOf(s.selectionSet, fragments, seen);
    if (seen.has(s.name.value)) return [];
    seen.add(s.name.value);
    return fieldsOf(fragments.get(s.name.value)?.selectionSet, fragments, seen);
  });
}

const dataKey = (field: FieldNode) => field.alias?.value ?? field.name.value;

/**
 * The cost of `fields` on `type`. With `data` (the result at this level), connections count the
 * nodes returned and absent objects count nothing: the actual cost; without, the requested cost.
 */
function costOf(schema: GraphQLSchema, type: GraphQLCompositeType, fields: FieldNode[], fragments: Fragments, variables: Record<string, unknown>, data: unknown, actual: boolean): number {
  let total = 0;
  for (const field of fields) {
    if (field.name.value.startsWith('__')) continue;
    const def = isObjectType(type) || isInterfaceType(type) ? type.getFields()[field.name.value] : undefined;
    if (!def) continue;
    const named = getNamedType(def.type);
    if (!isObjectType(named) && !isInterfaceType(named)) continue;
    const value = actual ? (data as Record<string, unknown> | null | undefined)?.[dataKey(field)] : undefined;
    if (actual && (value === null || value === undefined)) continue;
    const children = fieldsOf(field.selectionSet, fragments);
    if (named.name.endsWith('Connection')) {
      const nodeType = named.getFields().nodes ? getNamedType(named.getFields().nodes!.type) as GraphQLCompositeType : named;
      // One node's selections: under edges.node and under nodes.
      const nodeFields = children.flatMap((c) => c.name.value === 'nodes' ? fieldsOf(c.selectionSet, fragments)
        : c.name.value === 'edges' ? fieldsOf(c.selectionSet, fragments).filter((e) => e.name.value === 'node').flatMap((n) => fieldsOf(n.selectionSet, fragments)) : []);
      if (actual) {
        const conn = value as { edges?: { node?: unknown }[]; nodes?: unknown[] };
        const items = conn.nodes ?? conn.edges?.map((e) => e.node) ?? [];
        total += 2 + items.reduce<number>((sum, node) => sum + 1 + costOf(schema, nodeType, nodeFields, fragments, variables, node, true), 0);
      } else {
        const size = argInt(field, 'first', variables) ?? argInt(field, 'last', variables) ?? 1;
        total += 2 + size * (1 + costOf(schema, nodeType, nodeFields, fragments, variables, undefined, false));
      }
      continue;
    }
    if (actual && Array.isArray(value)) {
      total += value.reduce<number>((sum, item) => sum + 1 + costOf(schema, named, children, fragments, variables, item, true), 0);
    } else {
      total += 1 + costOf(schema, named, children, fragments, variables, value, actual);
    }
  }
  return total;
}

/** Requested and (given the result's data) actual cost of the request's operation; null when it names none. */
export function queryCost(schema: GraphQLSchema, document: DocumentNode, operationName: string | null, variables: Record<string, unknown>, data?: unknown): number | null {
  const operation = selectOperation(document, operationName);
  if (!operation) return null;
  const fragments: Fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const fields = fieldsOf(operation.selectionSet, fragments);
  if (operation.operation === 'mutation') return fields.filter((f) => !f.name.value.startsWith('__')).length * 10;
  const root = schema.getQueryType()!;
  return costOf(schema, root, fields, fragments, variables, data, data !== undefined);
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
