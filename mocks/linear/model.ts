import type { Collection, DocumentStore } from '../core/store.js';
import type { LoadContext } from '../core/service.js';
import { uuidId } from '../kit/ids.js';

/**
 * Linear's records as the store keeps them: one collection per GraphQL type (`Issue`, `Team`,
 * `WorkflowState`, …), each record a flat object with Linear's own field names; a reference is
 * its `…Id` field (`teamId`, `stateId`, `assigneeId`) and a list of references `…Ids`
 * (`labelIds`, `teamIds`), as Linear's own inputs name them. Resolvers derive the rest.
 */
export type Rec = Readonly<Record<string, unknown>> & { readonly id: string };

export function col(store: DocumentStore, type: string): Collection<Rec> {
  return store.collection<Rec>(type);
}

/** What creating a record needs: the store, seeded ids, the logical time. */
export interface Make {
  readonly store: DocumentStore;
  readonly ids: LoadContext['ids'];
  readonly nowIso: string;
}

export function newId(make: Make, type: string): string {
  return uuidId(make, type);
}

/** Puts a new record with Linear's common fields (id, createdAt, updatedAt, archivedAt). */
export function insert(make: Make, type: string, fields: Record<string, unknown>, id?: string): Rec {
  const at = (fields.createdAt as string | undefined) ?? make.nowIso;
  const record = { id: id ?? newId(make, type), createdAt: at, updatedAt: at, archivedAt: null, ...fields } as Rec;
  return col(make.store, type).put(record.id, record);
}

export function patch(make: Make, type: string, record: Rec, fields: Record<string, unknown>): Rec {
  return col(make.store, type).put(record.id, { ...record, ...fields, updatedAt: make.nowIso } as Rec);
}

export const DEFAULT_STATES = [
  { name: 'Backlog', type: 'backlog', color: '#bec2c8' },
  { name: 'Todo', type: 'unstarted', color: '#e2e2e2' },
  { name: 'In Progress', type: 'started', color: '#f2c94c' },
  { name: 'In Review', type: 'started', color: '#0f783c' },
  { name: 'Done', type: 'completed', color: '#5e6ad2' },
  { name: 'Canceled', type: 'canceled', color: '#95a2b3' },
  { name: 'Duplicate', type: 'canceled', color: '#95a2b3' },
] as const;

const PRIORITY_LABELS = ['No priority', 'Urgent', 'High', 'Medium', 'Low'];
export function priorityLabel(priority: number): string {
  return PRIORITY_LABELS[priority] ?? 'No priority';
}

export function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
}

export function organization(store: DocumentStore): Rec | undefined {
  return col(store, 'Organization').values()[0];
}

/** A team's default state for new issues: its first backlog state, else its first unstarted one. */
export function defaultState(store: DocumentStore, teamId: string): Rec | undefined {
  const states = col(store, 'WorkflowState').filter((s) => s.teamId === teamId && s.archivedAt === null);
  return states.find((s) => s.type === 'backlog') ?? states.find((s) => s.type === 'unstarted') ?? states[0];
}

export function createTeamStates(make: Make, teamId: string, states: readonly { name: string; type: string; color: string; description?: string | undefined }[]): void {
  states.forEach((state, position) => insert(make, 'WorkflowState', { teamId, name: state.name, type: state.type, color: state.color, description: state.description ?? null, position }));
}

/** The fields Linear derives for a new issue in a team: number, identifier, url, branch name. */
export function issueNumbering(store: DocumentStore, team: Rec, title: string, number?: number): Record<string, unknown> {
  const n = number ?? Math.max(0, ...col(store, 'Issue').filter((i) => i.teamId === team.id).map((i) => i.number as number)) + 1;
  const identifier = `${team.key as string}-${n}`;
  const org = organization(store);
  return {
    number: n,
    identifier,
    url: `https://linear.app/${(org?.urlKey as string | undefined) ?? 'acme'}/issue/${identifier.toLowerCase()}/${slug(title)}`,
    branchName: `${identifier.toLowerCase()}-${slug(title)}`.slice(0, 80),
  };
}

/** Timestamps Linear keeps per state type: entering started/completed/canceled stamps them. */
export function stateStamps(state: Rec | undefined, nowIso: string, previous: Rec | null): Record<string, unknown> {
  const type = state?.type;
  return {
    startedAt: type === 'started' ? (previous?.startedAt ?? nowIso) : type === 'completed' || type === 'canceled' ? (previous?.startedAt ?? null) : null,
    completedAt: type === 'completed' ? nowIso : null,
    canceledAt: type === 'canceled' ? nowIso : null,
  };
}
