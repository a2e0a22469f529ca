import { z } from 'zod';
import { emptyResponse, type ServiceRequest } from '../core/http.js';
import { queryObject } from '../kit/define.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { ASSOCIATION_TYPES } from './association-types.js';
import { associate, associationsOf, batchAnswer, typeOrFail, v3Associations } from './associations.js';
import { hubspotError, objectNotFound, ok, type HubspotCtx } from './context.js';
import { objectTypes, propertiesOf, resolveType, type CrmRecord, type ObjectType } from './model.js';
import { checkProperties, checkUniqueEmail, createRecord, findRecord, knownProperties, shape, updateRecord } from './records.js';
import { SearchBody, checkSearchLimits, search } from './search.js';

/**
 * The CRM v3 object APIs (`/crm/v3/objects/{objectType}…`) for every object type: list with an
 * `after` cursor, read by ID or unique property, create, update, archive, their batch forms, and
 * search. Records are stored per type (collection = the type's name, e.g. `deals`).
 */
const Properties = z.record(z.union([z.string(), z.number(), z.boolean(), z.null()]));
const IdRef = z.union([z.string(), z.number()]).transform(String);
const AssociationInput = z.object({ to: z.object({ id: IdRef }).passthrough(), types: z.array(z.object({ associationCategory: z.enum(['HUBSPOT_DEFINED', 'USER_DEFINED', 'INTEGRATOR_DEFINED']), associationTypeId: z.number().int() }).passthrough()).min(1) }).passthrough();
const CreateBody = z.object({ properties: Properties.default({}), associations: z.array(AssociationInput).default([]) }).passthrough();
const UpdateBody = z.object({ properties: Properties }).passthrough();
const BatchRead = z.object({ inputs: z.array(z.object({ id: IdRef }).passthrough()), properties: z.array(z.string()).default([]), propertiesWithHistory: z.array(z.string()).default([]), idProperty: z.string().optional() }).passthrough();
const BatchCreate = z.object({ inputs: z.array(CreateBody).max(100) }).passthrough();
const BatchUpdate = z.object({ inputs: z.array(z.object({ id: IdRef, properties: Properties, idProperty: z.string().optional() }).passthrough()).max(100) }).passthrough();
const BatchArchive = z.object({ inputs: z.array(z.object({ id: IdRef }).passthrough()).max(100) }).passthrough();

/** A list query parameter as HubSpot reads it: repeated (`properties=a&properties=b`) or comma-separated. */
function listParam(req: ServiceRequest, name: string): string[] | undefined {
  const raw = queryObject(req)[name];
  if (raw === undefined) return undefined;
  return (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

function param(req: ServiceRequest, name: string): string | undefined {
  const raw = queryObject(req)[name];
  return Array.isArray(raw) ? raw[0] : raw;
}

const bool = (req: ServiceRequest, name: string) => param(req, name) === 'true';

function associationTypes(c: HubspotCtx, req: ServiceRequest): ObjectType[] {
  return (listParam(req, 'associations') ?? []).map((s) => resolveType(c.db, s)).filter((t): t is ObjectType => t !== undefined);
}

function render(c: HubspotCtx, type: ObjectType, record: CrmRecord, props: readonly string[] | undefined, assoc: readonly ObjectType[] = []) {
  const out = shape(type, record, props, knownProperties(c.db, type));
  const associations = assoc.length > 0 ? v3Associations(c.db, type.name, record.id, assoc) : undefined;
  // Object.assign on the fresh shape, not `{ ...out, … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  return associations ? Object.assign(out, { associations }) : out;
}

interface Planned { properties: Record<string, string>; targets: { to: ObjectType; id: string; types: z.infer<typeof AssociationInput>['types'] }[] }

/**
 * Checks a create (properties, unique email, associations: `[{to: {id}, types}]`, the target type
 * found from the type ID) without writing anything, so a batch fails whole, as HubSpot's does.
 */
function plan(c: HubspotCtx, type: ObjectType, body: z.infer<typeof CreateBody>): Planned {
  const properties = checkProperties(c, type, body.properties);
  checkUniqueEmail(c, type, properties.email);
  const targets = body.associations.map((a) => {
    const spec = a.types[0]!;
    const known = ASSOCIATION_TYPES.find((t) => t.from === type.name && t.typeId === spec.associationTypeId && t.category === spec.associationCategory);
    if (!known) throw hubspotError(400, 'VALIDATION_ERROR', `${spec.associationCategory}/${spec.associationTypeId} is not a valid association type from ${type.name}`);
    const to = resolveType(c.db, known.to)!;
    const target = c.db.records(to.name).get(a.to.id);
    if (!target || target.archived) throw hubspotError(400, 'VALIDATION_ERROR', `No ${to.name} with ID ${a.to.id} exist`, { subCategory: 'crm.associations.INVALID_OBJECT_IDS' });
    return { to, id: a.to.id, types: a.types };
  });
  return { properties, targets };
}

function create(c: HubspotCtx, type: ObjectType, planned: Planned): CrmRecord {
  const record = createRecord(c, type, planned.properties);
  for (const t of planned.targets) associate(c.db, type, record.id, t.to, t.id, t.types);
  return record;
}

export const objectOperations: Operation<HubspotCtx>[] = [
  operation<HubspotCtx, '/crm/v3/objects/:objectType'>('objects.getPage', rest('GET', '/crm/v3/objects/:objectType'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const limitRaw = param(call.req, 'limit');
    const limit = limitRaw === undefined ? 10 : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1) throw hubspotError(400, 'VALIDATION_ERROR', `Invalid input: limit must be a positive integer, but was ${limitRaw}`);
    const after = param(call.req, 'after');
    const archived = bool(call.req, 'archived');
    const all = c.db.records(type.name).values().filter((r) => r.archived === archived).sort((a, b) => Number(a.id) - Number(b.id));
    const from = after === undefined ? 0 : all.findIndex((r) => Number(r.id) >= Number(after));
    const page = from < 0 ? [] : all.slice(from, from + Math.min(limit, 100));
    const next = from < 0 ? undefined : all[from + page.length];
    const props = listParam(call.req, 'properties');
    const assoc = associationTypes(c, call.req);
    const host = call.req.header('host') ?? 'api.hubapi.com';
    return ok(200, {
      results: page.map((r) => render(c, type, r, props, assoc)),
      ...(next ? { paging: { next: { after: next.id, link: `https://${host}/crm/v3/objects/${call.params.objectType}?after=${next.id}` } } } : {}),
    });
  }),

  operation<HubspotCtx, '/crm/v3/objects/:objectType/:objectId'>('objects.getById', rest('GET', '/crm/v3/objects/:objectType/:objectId'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const record = findRecord(c, type, call.params.objectId, param(call.req, 'idProperty'), bool(call.req, 'archived')) ?? objectNotFound(call.params.objectId);
    return ok(200, render(c, type, record, listParam(call.req, 'properties'), associationTypes(c, call.req)));
  }),

  operation<HubspotCtx, '/crm/v3/objects/:objectType', Record<string, string>, z.infer<typeof CreateBody>>('objects.create', rest('POST', '/crm/v3/objects/:objectType'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const record = create(c, type, plan(c, type, call.body));
    return ok(201, render(c, type, record, Object.keys(record.properties)));
  }, { input: { body: CreateBody }, lazy: true }),

  operation<HubspotCtx, '/crm/v3/objects/:objectType/:objectId', Record<string, string>, z.infer<typeof UpdateBody>>('objects.update', rest('PATCH', '/crm/v3/objects/:objectType/:objectId'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const record = findRecord(c, type, call.params.objectId, param(call.req, 'idProperty')) ?? objectNotFound(call.params.objectId);
    const properties = checkProperties(c, type, call.body.properties, record);
    checkUniqueEmail(c, type, properties.email, record.id);
    const updated = updateRecord(c, type, record, properties);
    return ok(200, render(c, type, updated, Object.keys(updated.properties)));
  }, { input: { body: UpdateBody }, lazy: true }),

  operation<HubspotCtx, '/crm/v3/objects/:objectType/:objectId'>('objects.archive', rest('DELETE', '/crm/v3/objects/:objectType/:objectId'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const record = c.db.records(type.name).get(call.params.objectId);
    // HubSpot answers 204 for an ID that is already archived or never existed. Associations stay
    // (HubSpot restores them with the record); association lists skip archived ends.
    if (record && !record.archived) c.db.records(type.name).put(record.id, { ...record, archived: true, archivedAt: c.now, updatedAt: c.now });
    return emptyResponse(204);
  }),

  operation<HubspotCtx, '/crm/v3/objects/:objectType/search', Record<string, string>, SearchBody>('objects.search', rest('POST', '/crm/v3/objects/:objectType/search'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const body = call.body;
    checkSearchLimits(body);
    const defs = new Map(propertiesOf(c.db, type.name).map((p) => [p.name, p]));
    const associated = (record: CrmRecord, singular: string): string[] => {
      const to = objectTypes(c.db).find((t) => t.singular === singular || t.name === singular);
      return to ? associationsOf(c.db, type.name, record.id, to.name).map((a) => a.toObjectId) : [];
    };
    const found = search(c.db.records(type.name).values(), type, body, defs, associated);
    const start = Number(body.after ?? 0);
    if (!Number.isInteger(start) || start < 0) throw hubspotError(400, 'VALIDATION_ERROR', `Invalid after: ${body.after}`);
    if (start + body.limit > 10000) throw hubspotError(400, 'VALIDATION_ERROR', 'Paging beyond 10000 results is not supported.');
    const page = found.slice(start, start + body.limit);
    const next = start + page.length < found.length && page.length > 0 ? String(start + page.length) : null;
    const known = knownProperties(c.db, type);
    return ok(200, {
      total: found.length,
      results: page.map((r) => shape(type, r, body.properties, known)),
      ...(next ? { paging: { next: { after: next, link: `?after=${next}` } } } : {}),
    });
  }, { input: { body: SearchBody }, lazy: true }),

  operation<HubspotCtx, '/crm/v3/objects/:objectType/batch/read', Record<string, string>, z.infer<typeof BatchRead>>('objects.batch.read', rest('POST', '/crm/v3/objects/:objectType/batch/read'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const archived = bool(call.req, 'archived');
    const known = knownProperties(c.db, type);
    const results: unknown[] = [];
    const missing: string[] = [];
    for (const input of call.body.inputs) {
      const record = findRecord(c, type, input.id, call.body.idProperty, archived);
      if (!record) { missing.push(input.id); continue; }
      const out = shape(type, record, call.body.properties, known);
      const history = call.body.propertiesWithHistory.filter((n) => known.has(n) && record.properties[n] != null);
      results.push(history.length > 0 ? Object.assign(out, { propertiesWithHistory: Object.fromEntries(history.map((n) => [n, [{ value: record.properties[n], timestamp: record.updatedAt, sourceType: 'API' }]])) }) : out);
    }
    const errors = missing.length > 0 ? [{ status: 'error', category: 'OBJECT_NOT_FOUND', message: `Could not get some ${type.singular.toUpperCase()} objects, they may be deleted or not exist. Check that ids are valid.`, context: { ids: missing } }] : [];
    return batchAnswer(c, results, errors, 200);
  }, { input: { body: BatchRead }, lazy: true }),

  operation<HubspotCtx, '/crm/v3/objects/:objectType/batch/create', Record<string, string>, z.infer<typeof BatchCreate>>('objects.batch.create', rest('POST', '/crm/v3/objects/:objectType/batch/create'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    // HubSpot checks every input before it creates any: one bad input fails the batch.
    const emails = call.body.inputs.map((i) => String(i.properties.email ?? '').toLowerCase()).filter(Boolean);
    const twice = emails.find((e, i) => emails.indexOf(e) !== i);
    if (type.name === 'contacts' && twice) throw hubspotError(400, 'VALIDATION_ERROR', `Duplicate email in batch: ${twice}`);
    const plans = call.body.inputs.map((input) => plan(c, type, input));
    const records = plans.map((planned) => create(c, type, planned));
    return batchAnswer(c, records.map((r) => render(c, type, r, Object.keys(r.properties))), []);
  }, { input: { body: BatchCreate }, lazy: true }),

  operation<HubspotCtx, '/crm/v3/objects/:objectType/batch/update', Record<string, string>, z.infer<typeof BatchUpdate>>('objects.batch.update', rest('POST', '/crm/v3/objects/:objectType/batch/update'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const found = call.body.inputs.map((input) => ({ input, record: findRecord(c, type, input.id, input.idProperty) }));
    const missing = found.filter((f) => !f.record).map((f) => f.input.id);
    const checked = found.filter((f) => f.record).map((f) => {
      const properties = checkProperties(c, type, f.input.properties, f.record);
      checkUniqueEmail(c, type, properties.email, f.record!.id);
      return { record: f.record!, properties };
    });
    const results = checked.map(({ record, properties }) => {
      const updated = updateRecord(c, type, record, properties);
      return render(c, type, updated, Object.keys(updated.properties));
    });
    const errors = missing.length > 0 ? [{ status: 'error', category: 'OBJECT_NOT_FOUND', message: `Could not get some ${type.singular.toUpperCase()} objects, they may be deleted or not exist. Check that ids are valid.`, context: { ids: missing } }] : [];
    return batchAnswer(c, results, errors, 200);
  }, { input: { body: BatchUpdate }, lazy: true }),

  operation<HubspotCtx, '/crm/v3/objects/:objectType/batch/archive', Record<string, string>, z.infer<typeof BatchArchive>>('objects.batch.archive', rest('POST', '/crm/v3/objects/:objectType/batch/archive'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    for (const { id } of call.body.inputs) {
      const record = c.db.records(type.name).get(id);
      if (record && !record.archived) c.db.records(type.name).put(id, { ...record, archived: true, archivedAt: c.now, updatedAt: c.now });
    }
    return emptyResponse(204);
  }, { input: { body: BatchArchive }, lazy: true }),
];
