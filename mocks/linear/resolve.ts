import {
  getNamedType, isEnumType, isInterfaceType, isListType, isNonNullType, isObjectType, isUnionType,
  type GraphQLFieldResolver, type GraphQLObjectType, type GraphQLOutputType, type GraphQLSchema, type GraphQLTypeResolver,
} from 'graphql';
import type { DocumentStore } from '../core/store.js';
import { connection, ConnectionArgumentError, type ConnectionArgs } from '../kit/pagination/connection.js';
import { invalidInput, notFound } from './errors.js';
import { col, organization, priorityLabel, type Make, type Rec } from './model.js';

/** What every resolver sees: the store, how to make records, who is asking. */
export interface LinearContext {
  readonly store: DocumentStore;
  readonly make: Make;
  readonly viewer: Rec | null;
  readonly schema: GraphQLSchema;
  readonly nowMs: number;
  readonly seq: number;
}

const lcfirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);
const ucfirst = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** Derived values Linear computes from a record (never stored twice). */
const COMPUTED: Record<string, (rec: Rec, c: LinearContext) => unknown> = {
  'Issue.priorityLabel': (rec) => priorityLabel(rec.priority as number),
  'Issue.labelIds': (rec) => rec.labelIds ?? [],
  'Issue.trashed': (rec) => rec.trashed ?? false,
  'Team.activeCycle': (rec, c) => col(c.store, 'Cycle').find((cy) => cy.teamId === rec.id && Date.parse(cy.startsAt as string) <= c.nowMs && c.nowMs < Date.parse(cy.endsAt as string)) ?? null,
  'Team.displayName': (rec) => rec.name,
  'User.isMe': (rec, c) => rec.id === c.viewer?.id,
  'User.assignedIssueCount': (rec, c) => col(c.store, 'Issue').filter((i) => i.assigneeId === rec.id).length,
  'Cycle.isActive': (rec, c) => Date.parse(rec.startsAt as string) <= c.nowMs && c.nowMs < Date.parse(rec.endsAt as string),
  'Cycle.isPast': (rec, c) => Date.parse(rec.endsAt as string) <= c.nowMs,
  'Cycle.isFuture': (rec, c) => Date.parse(rec.startsAt as string) > c.nowMs,
  'IssueLabel.parent': (rec, c) => (rec.parentId ? col(c.store, 'IssueLabel').get(rec.parentId as string) ?? null : null),
  'Project.status': (rec, c) => col(c.store, 'ProjectStatus').get(rec.statusId as string) ?? col(c.store, 'ProjectStatus').find((s) => s.type === rec.state) ?? null,
};

/** Relations that are not a plain `…Id` back reference: parent type and connection field → records. */
const RELATIONS: Record<string, (rec: Rec, c: LinearContext) => Rec[]> = {
  'Issue.labels': (rec, c) => ids(c, 'IssueLabel', rec.labelIds),
  'Issue.children': (rec, c) => col(c.store, 'Issue').filter((i) => i.parentId === rec.id),
  'Issue.subscribers': (rec, c) => ids(c, 'User', rec.subscriberIds),
  'Issue.relations': (rec, c) => col(c.store, 'IssueRelation').filter((r) => r.issueId === rec.id),
  'Issue.inverseRelations': (rec, c) => col(c.store, 'IssueRelation').filter((r) => r.relatedIssueId === rec.id),
  'Issue.needs': (rec, c) => col(c.store, 'CustomerNeed').filter((n) => n.issueId === rec.id),
  'Team.members': (rec, c) => ids(c, 'User', memberships(c, rec.id).map((m) => m.userId)),
  'Team.memberships': (rec, c) => memberships(c, rec.id),
  'Team.projects': (rec, c) => col(c.store, 'Project').filter((p) => (p.teamIds as string[]).includes(rec.id)),
  'User.teams': (rec, c) => ids(c, 'Team', col(c.store, 'TeamMembership').filter((m) => m.userId === rec.id).map((m) => m.teamId)),
  'User.teamMemberships': (rec, c) => col(c.store, 'TeamMembership').filter((m) => m.userId === rec.id),
  'User.assignedIssues': (rec, c) => col(c.store, 'Issue').filter((i) => i.assigneeId === rec.id),
  'User.createdIssues': (rec, c) => col(c.store, 'Issue').filter((i) => i.creatorId === rec.id),
  'Project.teams': (rec, c) => ids(c, 'Team', rec.teamIds),
  'Project.members': (rec, c) => ids(c, 'User', rec.memberIds),
  'Project.initiatives': (rec, c) => ids(c, 'Initiative', col(c.store, 'InitiativeToProject').filter((l) => l.projectId === rec.id).map((l) => l.initiativeId)),
  'Initiative.projects': (rec, c) => ids(c, 'Project', col(c.store, 'InitiativeToProject').filter((l) => l.initiativeId === rec.id).map((l) => l.projectId)),
  'Roadmap.projects': (rec, c) => ids(c, 'Project', rec.projectIds),
  'IssueLabel.issues': (rec, c) => col(c.store, 'Issue').filter((i) => ((i.labelIds as string[] | undefined) ?? []).includes(rec.id)),
  'IssueLabel.children': (rec, c) => col(c.store, 'IssueLabel').filter((l) => l.parentId === rec.id),
  'Organization.users': (_rec, c) => col(c.store, 'User').values(),
  'Organization.teams': (_rec, c) => col(c.store, 'Team').values(),
  'Organization.templates': (_rec, c) => col(c.store, 'Template').values(),
  'Organization.integrations': (_rec, c) => col(c.store, 'Integration').values(),
  'Organization.labels': (_rec, c) => col(c.store, 'IssueLabel').values(),
  'Organization.projectLabels': (_rec, c) => col(c.store, 'ProjectLabel').values(),
};

function memberships(c: LinearContext, teamId: string): Rec[] {
  return col(c.store, 'TeamMembership').filter((m) => m.teamId === teamId);
}

function ids(c: LinearContext, type: string, list: unknown): Rec[] {
  const collection = col(c.store, type);
  return ((list as string[] | undefined) ?? []).flatMap((id) => collection.get(id) ?? []);
}

/** The records behind a connection field of a record. */
export function related(parentType: string, rec: Rec, field: string, nodeType: string, c: LinearContext): Rec[] {
  const explicit = RELATIONS[`${parentType}.${field}`];
  if (explicit) return explicit(rec, c);
  const singular = field.endsWith('ies') ? `${field.slice(0, -3)}y` : field.replace(/s$/, '');
  const idList = rec[`${singular}Ids`];
  if (Array.isArray(idList)) return ids(c, nodeType, idList);
  const back = `${lcfirst(parentType)}Id`;
  return col(c.store, nodeType).filter((r) => r[back] === rec.id);
}

/** The record a to-one field points at: its `…Id` field, or the organization. */
export function single(rec: Rec, field: string, type: string, c: LinearContext): Rec | null {
  const ref = rec[`${field}Id`];
  if (typeof ref === 'string') return col(c.store, type).get(ref) ?? null;
  if (type === 'Organization') return organization(c.store) ?? null;
  return null;
}

/** What a field holds when the store has nothing for it: null, or a value of its non-null type. */
export function emptyValue(type: GraphQLOutputType, rec: Record<string, unknown> | null, c: LinearContext): unknown {
  if (!isNonNullType(type)) return null;
  const inner = type.ofType;
  if (isListType(inner)) return [];
  const named = getNamedType(inner);
  if (isEnumType(named)) return named.getValues()[0]!.value;
  if (isObjectType(named) || isInterfaceType(named) || isUnionType(named)) {
    if (named.name.endsWith('Connection')) return connection([], {}, () => '');
    return {};
  }
  switch (named.name) {
    case 'String': case 'ID': return '';
    case 'Int': case 'Float': return 0;
    case 'Boolean': return false;
    case 'DateTime': case 'DateTimeOrDuration': return (rec?.createdAt as string | undefined) ?? new Date(c.make.nowIso).toISOString();
    case 'TimelessDate': case 'TimelessDateOrDuration': return ((rec?.createdAt as string | undefined) ?? c.make.nowIso).slice(0, 10);
    case 'JSON': case 'JSONObject': return {};
    default: return '';
  }
}

/** Arguments of a connection field or list query. */
export interface ListArgs extends ConnectionArgs {
  filter?: Record<string, unknown> | null;
  includeArchived?: boolean | null;
  orderBy?: string | null;
}

/** Filters, orders (newest first by `orderBy`, default createdAt) and pages records. */
export function page(type: string, records: readonly Rec[], args: ListArgs, c: LinearContext) {
  let list = records.filter((r) => (args.includeArchived || r.archivedAt === null || r.archivedAt === undefined) && r.trashed !== true);
  if (args.filter) list = list.filter((r) => matches(type, r, args.filter!, c));
  const key = args.orderBy === 'updatedAt' ? 'updatedAt' : 'createdAt';
  const indexed = list.map((r, i) => [r, i] as const);
  indexed.sort(([a, i], [b, j]) => String(b[key] ?? '').localeCompare(String(a[key] ?? '')) || j - i);
  try {
    return connection(indexed.map(([r]) => r), args, (r) => r.id, { defaultFirst: 50, max: 250 });
  } catch (error) {
    if (error instanceof ConnectionArgumentError) throw invalidInput(error.message);
    throw error;
  }
}

/** A field's value for filtering: stored, computed, or related. */
function valueOf(type: string, rec: Rec, field: string, c: LinearContext): unknown {
  const computed = COMPUTED[`${type}.${field}`];
  if (computed) return computed(rec, c);
  return rec[field];
}

const COMPARATORS = new Set(['eq', 'neq', 'in', 'nin', 'null', 'lt', 'lte', 'gt', 'gte', 'contains', 'notContains', 'containsIgnoreCase', 'notContainsIgnoreCase', 'startsWith', 'startsWithIgnoreCase', 'notStartsWith', 'endsWith', 'notEndsWith', 'eqIgnoreCase', 'neqIgnoreCase', 'containsIgnoreCaseAndAccent']);

/** Linear's filter language over a record: comparators, nested entity filters, and/or, collection some/every/none. */
export function matches(type: string, rec: Rec, filter: Record<string, unknown>, c: LinearContext): boolean {
  const object = c.schema.getType(type) as GraphQLObjectType | undefined;
  for (const [key, cond] of Object.entries(filter)) {
    if (cond === null || cond === undefined) continue;
    if (key === 'and') { if (!(cond as Record<string, unknown>[]).every((f) => matches(type, rec, f, c))) return false; continue; }
    if (key === 'or') { if (!(cond as Record<string, unknown>[]).some((f) => matches(type, rec, f, c))) return false; continue; }
    const condition = cond as Record<string, unknown>;
    if (key === 'searchableContent' || key === 'fullText') {
      const text = `${String(rec.title ?? rec.name ?? '')} ${String(rec.description ?? rec.body ?? rec.content ?? '')}`;
      if (!compare(text, condition, c)) return false;
      continue;
    }
    if (type === 'User' && key === 'isMe') { if (!compare(rec.id === c.viewer?.id, condition, c)) return false; continue; }
    const field = object && 'getFields' in object ? object.getFields()[key] : undefined;
    const named = field ? getNamedType(field.type) : null;
    if (named && (isObjectType(named) || isInterfaceType(named))) {
      if (named.name.endsWith('Connection')) {
        const nodeType = getNamedType((named as GraphQLObjectType).getFields().nodes!.type).name;
        if (!collectionMatches(nodeType, related(type, rec, key, nodeType, c), condition, c)) return false;
        continue;
      }
      const target = COMPUTED[`${type}.${key}`] ? (COMPUTED[`${type}.${key}`]!(rec, c) as Rec | null) : single(rec, key, named.name, c);
      if ('null' in condition) {
        if ((target === null) !== condition.null) return false;
        const { null: _ignored, ...rest } = condition;
        if (target === null || Object.keys(rest).length === 0) continue;
        if (!matches(named.name, target, rest, c)) return false;
        continue;
      }
      if (target === null || !matches(named.name, target, condition, c)) return false;
      continue;
    }
    if (!Object.keys(condition).every((k) => COMPARATORS.has(k))) continue; // a filter Linear has that the store cannot back: no restriction
    if (!compare(valueOf(type, rec, key, c), condition, c)) return false;
  }
  return true;
}

function collectionMatches(nodeType: string, records: Rec[], condition: Record<string, unknown>, c: LinearContext): boolean {
  const { some, every, none, length, ...direct } = condition as Record<string, Record<string, unknown> | undefined>;
  if (some && !records.some((r) => matches(nodeType, r, some, c))) return false;
  if (every && !records.every((r) => matches(nodeType, r, every, c))) return false;
  if (none && records.some((r) => matches(nodeType, r, none, c))) return false;
  if (length && !compare(records.length, length, c)) return false;
  if (Object.keys(direct).length > 0 && !records.some((r) => matches(nodeType, r, direct, c))) return false;
  return true;
}

/** `-P2W`, `P1D`, `PT3H`: a duration from now, as Linear's date comparators accept. */
function resolveDate(value: unknown, c: LinearContext): unknown {
  if (typeof value !== 'string') return value;
  const m = /^(-)?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/.exec(value);
  if (!m || value === 'P' || value === '-P') return value;
  const [, sign, y, mo, w, d, h, mi] = m;
  const days = Number(y ?? 0) * 365 + Number(mo ?? 0) * 30 + Number(w ?? 0) * 7 + Number(d ?? 0);
  const ms = days * 86_400_000 + Number(h ?? 0) * 3_600_000 + Number(mi ?? 0) * 60_000;
  return new Date(c.nowMs + (sign ? -ms : ms)).toISOString();
}

function compare(value: unknown, condition: Record<string, unknown>, c: LinearContext): boolean {
  const lower = (v: unknown) => String(v ?? '').toLowerCase();
  for (const [op, rawOperand] of Object.entries(condition)) {
    if (rawOperand === undefined) continue;
    const operand = resolveDate(rawOperand, c);
    const ok = (() => {
      switch (op) {
        case 'eq': return value === operand;
        case 'neq': return value !== operand;
        case 'in': return (operand as unknown[]).includes(value);
        case 'nin': return !(operand as unknown[]).includes(value);
        case 'null': return (value === null || value === undefined) === operand;
        case 'lt': return value !== null && value !== undefined && (value as number) < (operand as number);
        case 'lte': return value !== null && value !== undefined && (value as number) <= (operand as number);
        case 'gt': return value !== null && value !== undefined && (value as number) > (operand as number);
        case 'gte': return value !== null && value !== undefined && (value as number) >= (operand as number);
        case 'contains': return String(value ?? '').includes(String(operand));
        case 'notContains': return !String(value ?? '').includes(String(operand));
        case 'containsIgnoreCase': case 'containsIgnoreCaseAndAccent': return lower(value).includes(lower(operand));
        case 'notContainsIgnoreCase': return !lower(value).includes(lower(operand));
        case 'startsWith': return String(value ?? '').startsWith(String(operand));
        case 'startsWithIgnoreCase': return lower(value).startsWith(lower(operand));
        case 'notStartsWith': return !String(value ?? '').startsWith(String(operand));
        case 'endsWith': return String(value ?? '').endsWith(String(operand));
        case 'notEndsWith': return !String(value ?? '').endsWith(String(operand));
        case 'eqIgnoreCase': return lower(value) === lower(operand);
        case 'neqIgnoreCase': return lower(value) !== lower(operand);
        default: return true;
      }
    })();
    if (!ok) return false;
  }
  return true;
}

/** A record by id; Linear also takes an issue's identifier (`ENG-12`), a team's key, a slug. */
export function entity(type: string, id: string, c: LinearContext): Rec {
  const collection = col(c.store, type);
  const found = collection.get(id)
    ?? (type === 'Issue' ? collection.find((i) => String(i.identifier).toLowerCase() === id.toLowerCase()) : undefined)
    ?? (type === 'Team' ? collection.find((t) => t.key === id) : undefined)
    ?? (type === 'User' && id === 'me' ? c.viewer ?? undefined : undefined)
    ?? collection.find((r) => r.slugId === id);
  if (!found) throw notFound(type);
  return found;
}

export type RootResolver = (args: Record<string, any>, c: LinearContext, returnType: GraphQLOutputType) => unknown;

/**
 * The field resolver for every object type: the root resolvers by name, then computed fields,
 * stored values, relations (connections and `…Id` references), else the type's empty value.
 */
export function fieldResolver(roots: { Query: Record<string, RootResolver>; Mutation: Record<string, RootResolver> }, fallbackRoot: (operation: 'Query' | 'Mutation', field: string) => RootResolver): GraphQLFieldResolver<any, LinearContext> {
  return (source, args, c, info) => {
    const parent = info.parentType.name;
    if (parent === 'Query' || parent === 'Mutation') {
      const resolver = roots[parent][info.fieldName] ?? fallbackRoot(parent, info.fieldName);
      return resolver(args, c, info.returnType);
    }
    const rec = source as Rec;
    const computed = COMPUTED[`${parent}.${info.fieldName}`];
    if (computed) return computed(rec, c) ?? emptyValue(info.returnType, rec, c);
    const stored = rec[info.fieldName];
    const named = getNamedType(info.returnType);
    if (stored !== undefined && stored !== null) return stored;
    if (stored === null && !isNonNullType(info.returnType)) return null;
    if (isObjectType(named) || isInterfaceType(named)) {
      if (named.name.endsWith('Connection') && typeof rec.id === 'string') {
        const nodeType = getNamedType((named as GraphQLObjectType).getFields().nodes!.type).name;
        return page(nodeType, related(parent, rec, info.fieldName, nodeType, c), args as ListArgs, c);
      }
      if (!isListType(isNonNullType(info.returnType) ? info.returnType.ofType : info.returnType)) {
        const target = single(rec, info.fieldName, named.name, c);
        if (target) return target;
      }
    }
    return emptyValue(info.returnType, rec, c);
  };
}

/** The concrete type of a record behind an interface or union: the collection that holds its id. */
export const typeResolver: GraphQLTypeResolver<any, LinearContext> = (value, c, _info, abstract) => {
  if (typeof value?.__typename === 'string') return value.__typename;
  for (const type of c.schema.getPossibleTypes(abstract)) if (typeof value?.id === 'string' && col(c.store, type.name).get(value.id) === value) return type.name;
  return c.schema.getPossibleTypes(abstract)[0]?.name;
};

export { ucfirst };
