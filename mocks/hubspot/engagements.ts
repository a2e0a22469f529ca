import { z } from 'zod';
import { numericId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { hubspotError, ok, type HubspotCtx } from './context.js';
import { associate, dissociate } from './associations.js';
import { resolveType, type Db, type EngagementDoc } from './model.js';

/**
 * Engagements v1 (`/engagements/v1/engagements`), the notes and tasks the MCP server writes: kept
 * in the `engagements` collection by ID, with their associations by record ID. In HubSpot a v1
 * note or task is the same object as a v3 `notes`/`tasks` record: each is mirrored there (same
 * ID, its body, time and owner as properties, its associations as v4 associations).
 */
const Ids = z.array(z.number().int()).default([]);
const Associations = z.object({ contactIds: Ids, companyIds: Ids, dealIds: Ids, ownerIds: Ids, ticketIds: Ids, workflowIds: Ids, contentIds: Ids, quoteIds: Ids }).passthrough();
const CreateBody = z.object({
  engagement: z.object({ active: z.boolean().default(true), ownerId: z.number().int().optional(), type: z.enum(['NOTE', 'TASK', 'EMAIL', 'CALL', 'MEETING']), timestamp: z.number().int().optional() }).passthrough(),
  associations: Associations.default({}),
  metadata: z.record(z.unknown()).default({}),
  attachments: z.array(z.unknown()).default([]),
}).passthrough();
const UpdateBody = z.object({
  engagement: z.object({ ownerId: z.number().int().optional(), timestamp: z.number().int().optional(), active: z.boolean().optional() }).passthrough().optional(),
  associations: Associations.partial().optional(),
  metadata: z.record(z.unknown()).optional(),
}).passthrough();

const TYPES: Record<string, string> = { contactIds: 'contacts', companyIds: 'companies', dealIds: 'deals', ticketIds: 'tickets' };

function checkAssociations(c: HubspotCtx, associations: Record<string, unknown>): void {
  for (const [field, type] of Object.entries(TYPES)) {
    for (const id of (associations[field] as number[] | undefined) ?? []) {
      const r = c.db.records(type).get(String(id));
      if (!r || r.archived) throw hubspotError(400, 'VALIDATION_ERROR', `One or more associated objects do not exist: ${type} ${id}`);
    }
  }
  for (const id of (associations.ownerIds as number[] | undefined) ?? []) {
    if (!c.db.owners.has(String(id))) throw hubspotError(400, 'VALIDATION_ERROR', `One or more associated objects do not exist: owner ${id}`);
  }
}

/** Writes the v3 `notes`/`tasks` record of a v1 NOTE or TASK, and its associations (those `dropped` removed). */
export function mirror(d: Db, doc: EngagementDoc, dropped: Partial<Record<string, number[]>> = {}): void {
  const { engagement, metadata } = doc;
  const typeName = engagement.type === 'NOTE' ? 'notes' : engagement.type === 'TASK' ? 'tasks' : null;
  if (typeName === null) return;
  const type = resolveType(d, typeName)!;
  const id = String(engagement.id);
  const createdAt = new Date(engagement.createdAt).toISOString();
  const updatedAt = new Date(engagement.lastUpdated).toISOString();
  const text = (v: unknown) => (v === undefined || v === null ? null : String(v));
  const own: Record<string, string | null> = typeName === 'notes'
    ? { hs_note_body: text(metadata.body) }
    : { hs_task_subject: text(metadata.subject), hs_task_body: text(metadata.body), hs_task_status: text(metadata.status) ?? 'NOT_STARTED' };
  d.records(typeName).put(id, {
    id, createdAt, updatedAt, archived: false,
    properties: { ...own, hs_timestamp: new Date(engagement.timestamp).toISOString(), hubspot_owner_id: engagement.ownerId === undefined ? null : String(engagement.ownerId), hs_object_id: id, hs_createdate: createdAt, hs_lastmodifieddate: updatedAt },
  });
  for (const [field, toName] of Object.entries(TYPES)) {
    const to = resolveType(d, toName)!;
    for (const n of dropped[field] ?? []) dissociate(d, typeName, id, toName, String(n));
    for (const n of (doc.associations as unknown as Record<string, number[]>)[field] ?? []) {
      if (d.records(toName).has(String(n))) associate(d, type, id, to, String(n), []);
    }
  }
}

const preview = (metadata: Record<string, unknown>) => String(metadata.body ?? metadata.subject ?? '').replace(/<[^>]*>/g, '');

export const engagementOperations: Operation<HubspotCtx>[] = [
  operation<HubspotCtx, '/engagements/v1/engagements', Record<string, string>, z.infer<typeof CreateBody>>('engagements.create', rest('POST', '/engagements/v1/engagements'), (call, c) => {
    const { engagement, associations, metadata, attachments } = call.body;
    if (engagement.ownerId !== undefined && !c.db.owners.has(String(engagement.ownerId))) throw hubspotError(400, 'VALIDATION_ERROR', `Invalid ownerId: ${engagement.ownerId}`);
    checkAssociations(c, associations);
    const id = numericId(c.ctx, 'engagements');
    const text = preview(metadata);
    const doc: EngagementDoc = {
      engagement: {
        id, portalId: c.portal.portalId, active: engagement.active, createdAt: c.ctx.nowMs, lastUpdated: c.ctx.nowMs,
        ...(engagement.ownerId !== undefined ? { ownerId: engagement.ownerId } : {}), type: engagement.type, timestamp: engagement.timestamp ?? c.ctx.nowMs,
        bodyPreview: text.slice(0, 200), queueMembershipIds: [], bodyPreviewIsTruncated: text.length > 200, bodyPreviewHtml: String(metadata.body ?? ''),
      },
      associations: { contactIds: associations.contactIds, companyIds: associations.companyIds, dealIds: associations.dealIds, ownerIds: associations.ownerIds, workflowIds: associations.workflowIds, ticketIds: associations.ticketIds, contentIds: associations.contentIds, quoteIds: associations.quoteIds },
      attachments, metadata,
    };
    mirror(c.db, doc);
    return ok(200, c.db.engagements.put(String(id), doc));
  }, { input: { body: CreateBody }, lazy: true }),

  operation<HubspotCtx, '/engagements/v1/engagements/:engagementId'>('engagements.get', rest('GET', '/engagements/v1/engagements/:engagementId'), (call, c) => {
    const doc = c.db.engagements.get(call.params.engagementId);
    if (!doc) throw hubspotError(404, 'OBJECT_NOT_FOUND', `Engagement ${call.params.engagementId} does not exist`);
    return ok(200, doc);
  }),

  operation<HubspotCtx, '/engagements/v1/engagements/:engagementId', Record<string, string>, z.infer<typeof UpdateBody>>('engagements.update', rest('PATCH', '/engagements/v1/engagements/:engagementId'), (call, c) => {
    const doc = c.db.engagements.get(call.params.engagementId);
    if (!doc) throw hubspotError(404, 'OBJECT_NOT_FOUND', `Engagement ${call.params.engagementId} does not exist`);
    const { engagement, associations, metadata } = call.body;
    if (engagement?.ownerId !== undefined && !c.db.owners.has(String(engagement.ownerId))) throw hubspotError(400, 'VALIDATION_ERROR', `Invalid ownerId: ${engagement.ownerId}`);
    if (associations) checkAssociations(c, associations);
    const merged = { ...doc.metadata, ...(metadata ?? {}) };
    const text = preview(merged);
    const next: EngagementDoc = {
      ...doc,
      engagement: { ...doc.engagement, ...(engagement?.ownerId !== undefined ? { ownerId: engagement.ownerId } : {}), ...(engagement?.timestamp !== undefined ? { timestamp: engagement.timestamp } : {}),
        ...(engagement?.active !== undefined ? { active: engagement.active } : {}), lastUpdated: c.ctx.nowMs, bodyPreview: text.slice(0, 200), bodyPreviewIsTruncated: text.length > 200, bodyPreviewHtml: String(merged.body ?? '') },
      associations: { ...doc.associations, ...Object.fromEntries(Object.entries(associations ?? {}).filter(([, v]) => v !== undefined)) },
      metadata: merged,
    };
    const dropped = Object.fromEntries(Object.keys(TYPES).map((field) => {
      const before = (doc.associations as unknown as Record<string, number[]>)[field] ?? [];
      const after = (next.associations as unknown as Record<string, number[]>)[field] ?? [];
      return [field, before.filter((n) => !after.includes(n))];
    }));
    mirror(c.db, next, dropped);
    return ok(200, c.db.engagements.put(call.params.engagementId, next));
  }, { input: { body: UpdateBody }, lazy: true }),
];
