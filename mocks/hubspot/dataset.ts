import { z } from 'zod';

/**
 * `<scenario>/dataset/hubspot.json`: one HubSpot portal (account). CRM records are grouped by
 * object type (`contacts`, `companies`, `deals`, `tickets`, `products`, `line_items`, `notes`,
 * `tasks`, or a custom object's name); their property values are strings, as HubSpot keeps them.
 * IDs are numeric strings; a record without one gets the next number of its type. Times are
 * ISO-8601; without one, a record is as old as its place in the file says (an hour apart,
 * before the world's epoch). docs/hubspot-mock.md.
 */
const Time = z.string().datetime({ offset: true });
const NumericId = z.string().regex(/^[1-9][0-9]{0,17}$/, 'must be a numeric string such as "51"');
const PropertyValue = z.union([z.string(), z.number(), z.boolean(), z.null()]).transform((v) => (v === null ? null : String(v)));

export const RecordSchema = z.object({
  id: NumericId.optional(),
  properties: z.record(PropertyValue).default({}),
  createdAt: Time.optional(),
  updatedAt: Time.optional(),
  archived: z.boolean().default(false),
}).strict();
export type RecordInput = z.infer<typeof RecordSchema>;

export const OptionSchema = z.object({
  label: z.string(),
  value: z.string(),
  description: z.string().default(''),
  displayOrder: z.number().int().default(0),
  hidden: z.boolean().default(false),
}).strict();

/** A property beyond HubSpot's own ones (mocks/hubspot/properties-catalog.ts), or one that replaces it. */
export const PropertyDefSchema = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be lower-case letters, digits and underscores'),
  label: z.string(),
  type: z.enum(['string', 'number', 'date', 'datetime', 'enumeration', 'bool', 'phone_number']),
  fieldType: z.string(),
  groupName: z.string(),
  description: z.string().default(''),
  options: z.array(OptionSchema).default([]),
  hasUniqueValue: z.boolean().default(false),
  hidden: z.boolean().default(false),
  formField: z.boolean().default(false),
}).strict();
export type PropertyDef = z.infer<typeof PropertyDefSchema>;

const StageSchema = z.object({
  id: z.string(),
  label: z.string(),
  displayOrder: z.number().int().optional(),
  metadata: z.record(z.string()).default({}),
}).strict();

export const PipelineSchema = z.object({
  id: z.string(),
  label: z.string(),
  displayOrder: z.number().int().default(0),
  stages: z.array(StageSchema).min(1),
}).strict();
export type Pipeline = z.infer<typeof PipelineSchema>;

/** `"deals/501"`: an object type and an ID. */
const Ref = z.string().regex(/^[a-z0-9_-]+\/[1-9][0-9]*$/, 'must be "<objectType>/<id>", e.g. "deals/501"');

export const AssociationInputSchema = z.object({
  from: Ref,
  to: Ref,
  /** Besides the unlabeled default type, which every association has: e.g. 1 (a contact's primary company). */
  types: z.array(z.object({ associationCategory: z.enum(['HUBSPOT_DEFINED', 'USER_DEFINED', 'INTEGRATOR_DEFINED']), associationTypeId: z.number().int().positive() }).strict()).default([]),
}).strict();

export const OwnerSchema = z.object({
  id: NumericId,
  userId: z.number().int().positive(),
  email: z.string().email(),
  firstName: z.string(),
  lastName: z.string(),
  archived: z.boolean().default(false),
  teams: z.array(z.object({ id: z.string(), name: z.string(), primary: z.boolean().default(false) }).strict()).default([]),
}).strict();

export const TokenSchema = z.object({
  token: z.string().min(8),
  /** The user the private app's token acts for (an owner's `userId`). */
  userId: z.number().int().positive(),
  appId: z.number().int().positive().default(3104871),
  scopes: z.array(z.string()).default([
    'crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.objects.companies.read', 'crm.objects.companies.write',
    'crm.objects.deals.read', 'crm.objects.deals.write', 'crm.objects.owners.read', 'crm.schemas.contacts.read',
    'crm.schemas.companies.read', 'crm.schemas.deals.read', 'tickets', 'automation', 'oauth',
  ]),
}).strict();

export const SchemaDefSchema = z.object({
  /** `2-<n>`. */
  objectTypeId: z.string().regex(/^2-[0-9]+$/),
  /** Lower case (`cars`): its records are `objects.<name>`, its API type `p<portalId>_<name>` or the objectTypeId. */
  name: z.string().regex(/^[a-z][a-z0-9_]*$/),
  labels: z.object({ singular: z.string(), plural: z.string() }).strict(),
  primaryDisplayProperty: z.string(),
  properties: z.array(PropertyDefSchema).default([]),
}).strict();

export const WorkflowSchema = z.object({
  id: NumericId,
  name: z.string(),
  isEnabled: z.boolean().default(true),
  flowType: z.enum(['WORKFLOW', 'ACTION_SET']).default('WORKFLOW'),
  objectTypeId: z.string().default('0-1'),
  description: z.string().default(''),
  actions: z.array(z.record(z.unknown())).default([]),
  enrollmentCriteria: z.record(z.unknown()).default({ type: 'MANUAL' }),
  createdAt: Time.optional(),
  updatedAt: Time.optional(),
}).strict();

export const EngagementSchema = z.object({
  id: NumericId,
  type: z.enum(['NOTE', 'TASK', 'CALL', 'EMAIL', 'MEETING']),
  ownerId: z.number().int().positive().optional(),
  timestamp: Time,
  associations: z.object({
    contactIds: z.array(z.number().int()).default([]), companyIds: z.array(z.number().int()).default([]),
    dealIds: z.array(z.number().int()).default([]), ownerIds: z.array(z.number().int()).default([]), ticketIds: z.array(z.number().int()).default([]),
  }).strict().default({}),
  metadata: z.record(z.unknown()).default({}),
}).strict();

export const HubspotDatasetSchema = z.object({
  portal: z.object({
    portalId: z.number().int().positive().default(24156789),
    accountType: z.string().default('STANDARD'),
    timeZone: z.string().default('US/Eastern'),
    companyCurrency: z.string().default('USD'),
    utcOffset: z.string().default('-05:00'),
    utcOffsetMilliseconds: z.number().int().default(-18000000),
    uiDomain: z.string().default('app.hubspot.com'),
    dataHostingLocation: z.string().default('na1'),
  }).strict().default({}),
  tokens: z.array(TokenSchema).default([]),
  owners: z.array(OwnerSchema).default([]),
  /** Extra properties per object type, beside HubSpot's own. */
  properties: z.record(z.array(PropertyDefSchema)).default({}),
  /** Pipelines per object type (`deals`, `tickets`); HubSpot's defaults when absent. */
  pipelines: z.record(z.array(PipelineSchema)).default({}),
  schemas: z.array(SchemaDefSchema).default([]),
  objects: z.record(z.array(RecordSchema)).default({}),
  associations: z.array(AssociationInputSchema).default([]),
  workflows: z.array(WorkflowSchema).default([]),
  engagements: z.array(EngagementSchema).default([]),
}).strict();
export type HubspotDataset = z.infer<typeof HubspotDatasetSchema>;
