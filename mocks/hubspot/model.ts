import type { DocumentStore, Collection } from '../core/store.js';
import type { PropertyDef, Pipeline } from './dataset.js';

/** A CRM record as the store keeps it (collection = its object type's name, key = its ID). */
export interface CrmRecord {
  id: string;
  /** Every value HubSpot holds for it, as strings (hs_object_id, createdate… included). */
  properties: Record<string, string | null>;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string;
}

/** A stored property definition (`properties` collection, key `<objectType>/<name>`). */
export interface PropertyDoc extends PropertyDef {
  objectType: string;
  createdAt: string;
  updatedAt: string;
  hubspotDefined: boolean;
  archived: boolean;
  displayOrder: number;
  calculated: boolean;
  externalOptions: boolean;
}

/**
 * One direction of an association (`associations` collection, key
 * `<fromObjectType>/<fromObjectId>/<toObjectType>/<toObjectId>`); HubSpot associations are
 * two-way, so the mock always keeps both directions, each with its own type IDs.
 */
export interface AssociationDoc {
  fromObjectType: string;
  fromObjectId: string;
  toObjectType: string;
  toObjectId: string;
  types: { category: 'HUBSPOT_DEFINED' | 'USER_DEFINED' | 'INTEGRATOR_DEFINED'; typeId: number; label: string | null }[];
}

export interface TokenDoc { token: string; userId: number; appId: number; scopes: string[] }
export interface OwnerDoc { id: string; email: string; firstName: string; lastName: string; userId: number; createdAt: string; updatedAt: string; archived: boolean; teams: { id: string; name: string; primary: boolean }[] }
export interface PortalDoc { portalId: number; accountType: string; timeZone: string; companyCurrency: string; additionalCurrencies: string[]; utcOffset: string; utcOffsetMilliseconds: number; uiDomain: string; dataHostingLocation: string }
export interface SchemaDoc { id: string; objectTypeId: string; name: string; fullyQualifiedName: string; labels: { singular: string; plural: string }; primaryDisplayProperty: string; requiredProperties: string[]; searchableProperties: string[]; secondaryDisplayProperties: string[]; archived: boolean; createdAt: string; updatedAt: string; properties: PropertyDef[] }
export interface PipelineDoc extends Pipeline { objectType: string; archived: boolean; createdAt: string; updatedAt: string }
export interface EngagementDoc {
  engagement: { id: number; portalId: number; active: boolean; createdAt: number; lastUpdated: number; ownerId?: number; type: string; timestamp: number; bodyPreview?: string; queueMembershipIds: number[]; bodyPreviewIsTruncated: boolean; bodyPreviewHtml?: string };
  associations: { contactIds: number[]; companyIds: number[]; dealIds: number[]; ownerIds: number[]; workflowIds: number[]; ticketIds: number[]; contentIds: number[]; quoteIds: number[] };
  attachments: unknown[];
  metadata: Record<string, unknown>;
}
export type WorkflowDoc = Record<string, unknown> & { id: string; name: string };

/** How an object type behaves: its type ID, default properties, timestamps and searchable fields. */
export interface ObjectType {
  name: string;
  id: string;
  singular: string;
  /** Returned when the request names no properties. */
  defaults: readonly string[];
  created: string;
  modified: string;
  /** What a search's `query` looks in. */
  searchable: readonly string[];
  /** Names a path may use for it besides `name` and `id` (singular, fully qualified). */
  aliases: readonly string[];
}

const std = (name: string, id: string, singular: string, defaults: string[], searchable: string[], created = 'createdate', modified = 'hs_lastmodifieddate'): ObjectType =>
  ({ name, id, singular, defaults: [...defaults, created, modified, 'hs_object_id'].sort(), created, modified, searchable, aliases: [singular] });

/** HubSpot's standard object types (their IDs are HubSpot's), as far as the mock models them. */
export const STANDARD_TYPES: readonly ObjectType[] = [
  std('contacts', '0-1', 'contact', ['email', 'firstname', 'lastname'], ['firstname', 'lastname', 'email', 'phone', 'mobilephone', 'company'], 'createdate', 'lastmodifieddate'),
  std('companies', '0-2', 'company', ['domain', 'name'], ['name', 'domain', 'website', 'phone']),
  std('deals', '0-3', 'deal', ['amount', 'closedate', 'dealname', 'dealstage', 'pipeline'], ['dealname', 'pipeline', 'dealstage', 'description', 'dealtype']),
  std('tickets', '0-5', 'ticket', ['content', 'hs_pipeline', 'hs_pipeline_stage', 'hs_ticket_category', 'hs_ticket_priority', 'subject'], ['subject', 'content', 'hs_pipeline_stage', 'hs_ticket_category']),
  std('products', '0-7', 'product', ['description', 'name', 'price'], ['name', 'description', 'hs_sku']),
  std('line_items', '0-8', 'line_item', ['amount', 'hs_product_id', 'name', 'price', 'quantity'], ['name']),
  std('notes', '0-46', 'note', [], ['hs_note_body'], 'hs_createdate'),
  std('tasks', '0-27', 'task', [], ['hs_task_subject', 'hs_task_body'], 'hs_createdate'),
  // Types the MCP server names but no scenario fills: they answer, with HubSpot's base properties.
  ...([['appointments', '0-421', 'appointment'], ['courses', '0-410', 'course'], ['leads', '0-136', 'lead'], ['listings', '0-420', 'listing'],
    ['marketing_events', '0-54', 'marketing_event'], ['meetings', '0-47', 'meeting'], ['calls', '0-48', 'call'], ['emails', '0-49', 'email'],
    ['orders', '0-123', 'order'], ['postal_mail', '0-116', 'postal_mail'], ['quotes', '0-14', 'quote'], ['services', '0-162', 'service'],
    ['subscriptions', '0-69', 'subscription'], ['users', '0-115', 'user'], ['communications', '0-18', 'communication']] as const)
    .map(([name, id, singular]) => std(name, id, singular, [], [], 'hs_createdate')),
];

export const db = (store: DocumentStore) => ({
  records: (type: string) => store.collection<CrmRecord>(type),
  properties: store.collection<PropertyDoc>('properties'),
  associations: store.collection<AssociationDoc>('associations'),
  tokens: store.collection<TokenDoc>('tokens'),
  owners: store.collection<OwnerDoc>('owners'),
  portal: store.collection<PortalDoc>('portal'),
  schemas: store.collection<SchemaDoc>('schemas'),
  pipelines: store.collection<PipelineDoc>('pipelines'),
  engagements: store.collection<EngagementDoc>('engagements'),
  workflows: store.collection<WorkflowDoc>('workflows'),
  rateWindows: store.collection<{ used: number; reset: number }>('rate_windows'),
});
export type Db = ReturnType<typeof db>;

/** The object types of this portal: the standard ones and its custom schemas. */
export function objectTypes(d: Db): ObjectType[] {
  const portalId = d.portal.get('portal')?.portalId ?? 0;
  const custom = d.schemas.values().filter((s) => !s.archived).map((s): ObjectType => ({
    name: s.name, id: s.objectTypeId, singular: s.name, defaults: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'],
    created: 'hs_createdate', modified: 'hs_lastmodifieddate', searchable: [s.primaryDisplayProperty],
    aliases: [`p${portalId}_${s.name}`, s.fullyQualifiedName],
  }));
  return [...STANDARD_TYPES, ...custom];
}

/** The type a (decoded) path segment names (`contacts`, `contact`, `0-1`, `p24156789_cars`, `2-1234`), case-insensitively. */
export function resolveType(d: Db, segment: string): ObjectType | undefined {
  const s = segment.toLowerCase();
  return objectTypes(d).find((t) => t.name === s || t.id === s || t.aliases.includes(s));
}

export function propertiesOf(d: Db, type: string, includeArchived = false): PropertyDoc[] {
  const prefix = `${type}/`;
  return d.properties.entries().filter(([key, p]) => key.startsWith(prefix) && (includeArchived || !p.archived)).map(([, p]) => p);
}

/** HubSpot's default pipelines, for a portal whose dataset names none. */
export const DEFAULT_PIPELINES: Readonly<Record<string, Pipeline[]>> = {
  deals: [{ id: 'default', label: 'Sales Pipeline', displayOrder: 0, stages: [
    ['appointmentscheduled', 'Appointment Scheduled', '0.2'], ['qualifiedtobuy', 'Qualified To Buy', '0.4'], ['presentationscheduled', 'Presentation Scheduled', '0.6'],
    ['decisionmakerboughtin', 'Decision Maker Bought-In', '0.8'], ['contractsent', 'Contract Sent', '0.9'], ['closedwon', 'Closed Won', '1.0'], ['closedlost', 'Closed Lost', '0.0'],
  ].map(([id, label, probability], i) => ({ id: id!, label: label!, displayOrder: i, metadata: { isClosed: String(id === 'closedwon' || id === 'closedlost'), probability: probability! } })) }],
  tickets: [{ id: '0', label: 'Support Pipeline', displayOrder: 0, stages: [
    ['1', 'New'], ['2', 'Waiting on contact'], ['3', 'Waiting on us'], ['4', 'Closed'],
  ].map(([id, label], i) => ({ id: id!, label: label!, displayOrder: i, metadata: { ticketState: id === '4' ? 'CLOSED' : 'OPEN' } })) }],
};

/** The pipeline and stage properties checked against pipelines, per type. */
export const PIPELINE_PROPERTIES: Readonly<Record<string, { pipeline: string; stage: string }>> = {
  deals: { pipeline: 'pipeline', stage: 'dealstage' },
  tickets: { pipeline: 'hs_pipeline', stage: 'hs_pipeline_stage' },
};
