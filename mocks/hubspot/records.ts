import { numericId } from '../kit/ids.js';
import { hubspotError, type HubspotCtx } from './context.js';
import { PIPELINE_PROPERTIES, propertiesOf, type CrmRecord, type Db, type ObjectType, type PropertyDoc } from './model.js';

/** A record as the v3 object APIs answer it: the asked-for properties (or the type's defaults). */
export function shape(type: ObjectType, record: CrmRecord, asked: readonly string[] | undefined, known: ReadonlySet<string>): Record<string, unknown> {
  const names = asked && asked.length > 0
    ? [...new Set([...asked.filter((n) => known.has(n)), type.created, type.modified, 'hs_object_id'])].sort()
    : type.defaults;
  const properties: Record<string, string | null> = {};
  for (const name of names) properties[name] = record.properties[name] ?? null;
  return {
    id: record.id, properties, createdAt: record.createdAt, updatedAt: record.updatedAt, archived: record.archived,
    ...(record.archivedAt ? { archivedAt: record.archivedAt } : {}),
  };
}

export function knownProperties(d: Db, type: ObjectType): Set<string> {
  return new Set(propertiesOf(d, type.name).map((p) => p.name));
}

const READ_ONLY = new Set(['hs_object_id', 'createdate', 'hs_createdate', 'lastmodifieddate', 'hs_lastmodifieddate']);

interface Invalid { isValid: false; message: string; error: string; name: string; localizedErrorMessage: string }

/**
 * Checks property values as HubSpot does (unknown property, read-only value, enumeration option,
 * number, date, owner, pipeline and stage) and returns them normalized (datetimes as ISO-8601).
 * All problems are reported together in HubSpot's `Property values were not valid` message.
 */
export function checkProperties(c: HubspotCtx, type: ObjectType, input: Record<string, unknown>, existing?: CrmRecord): Record<string, string> {
  const defs = new Map(propertiesOf(c.db, type.name).map((p) => [p.name, p]));
  const out: Record<string, string> = {};
  const invalid: Invalid[] = [];
  const bad = (name: string, error: string, message: string) => invalid.push({ isValid: false, message, error, name, localizedErrorMessage: message });
  for (const [name, raw] of Object.entries(input)) {
    const def = defs.get(name);
    if (!def) { bad(name, 'PROPERTY_DOESNT_EXIST', `Property "${name}" does not exist`); continue; }
    if (READ_ONLY.has(name)) { bad(name, 'READ_ONLY_VALUE', `"${name}" is a read only property; its value cannot be set.`); continue; }
    const value = raw === null || raw === undefined ? '' : String(raw);
    const normalized = value === '' ? '' : normalize(c, def, value, bad);
    if (normalized !== undefined) out[name] = normalized;
  }
  checkPipeline(c, type, { ...(existing?.properties ?? {}), ...out }, out, bad);
  if (invalid.length > 0) {
    throw hubspotError(400, 'VALIDATION_ERROR', `Property values were not valid: ${JSON.stringify(invalid)}`, { errors: invalid.map((i) => ({ message: i.message, code: i.error, context: { propertyName: [i.name] } })) });
  }
  return out;
}

function normalize(c: HubspotCtx, def: PropertyDoc, value: string, bad: (name: string, error: string, message: string) => void): string | undefined {
  const { name } = def;
  if (name === 'hubspot_owner_id') {
    if (!c.db.owners.has(value)) return bad(name, 'INVALID_OWNER_ID', `${value} is not a valid owner id`), undefined;
    return value;
  }
  switch (def.type) {
    case 'number':
      if (!/^-?\d+(\.\d+)?$/.test(value.trim())) return bad(name, 'INVALID_DECIMAL', `${value} was not a valid number.`), undefined;
      return value.trim();
    case 'date':
    case 'datetime': {
      const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
      if (!Number.isFinite(ms)) return bad(name, 'INVALID_DATE', `${value} was not a valid date or datetime.`), undefined;
      return new Date(ms).toISOString();
    }
    case 'bool':
      if (value !== 'true' && value !== 'false') return bad(name, 'INVALID_BOOLEAN', `${value} was not a valid boolean.`), undefined;
      return value;
    case 'enumeration': {
      if (def.options.length === 0) return value;
      const allowed = def.options.map((o) => o.value);
      const parts = def.fieldType === 'checkbox' ? value.split(';') : [value];
      const wrong = parts.find((p) => !allowed.includes(p));
      if (wrong !== undefined) return bad(name, 'INVALID_OPTION', `${wrong} was not one of the allowed options: [${allowed.join(', ')}]`), undefined;
      return value;
    }
    default:
      return value;
  }
}

/** Deal and ticket stages must belong to the record's pipeline; a new record gets the first pipeline and stage. */
function checkPipeline(c: HubspotCtx, type: ObjectType, merged: Record<string, string | null>, out: Record<string, string>, bad: (name: string, error: string, message: string) => void): void {
  const names = PIPELINE_PROPERTIES[type.name];
  if (!names) return;
  const pipelines = c.db.pipelines.values().filter((p) => p.objectType === type.name && !p.archived);
  const pipelineId = merged[names.pipeline] || pipelines[0]?.id;
  const pipeline = pipelines.find((p) => p.id === pipelineId);
  if (!pipeline) { bad(names.pipeline, 'INVALID_OPTION', `${pipelineId} was not one of the allowed options: [${pipelines.map((p) => p.id).join(', ')}]`); return; }
  const stage = merged[names.stage];
  if (stage && !pipeline.stages.some((s) => s.id === stage)) {
    bad(names.stage, 'INVALID_OPTION', `${stage} was not one of the allowed options: [${pipeline.stages.map((s) => s.id).join(', ')}]`);
    return;
  }
  if (!merged[names.pipeline]) out[names.pipeline] = pipeline.id;
  if (!stage) out[names.stage] = pipeline.stages[0]!.id;
}

/** Contacts are unique by email (case-insensitively): HubSpot's 409. */
export function checkUniqueEmail(c: HubspotCtx, type: ObjectType, email: string | undefined, self?: string): void {
  if (type.name !== 'contacts' || !email) return;
  const lower = email.toLowerCase();
  const other = c.db.records('contacts').find((r) => !r.archived && r.id !== self && (r.properties.email ?? '').toLowerCase() === lower);
  if (other) throw hubspotError(409, 'CONFLICT', `Contact already exists. Existing ID: ${other.id}`);
}

/** A new record of `type` with `properties` (already checked), at the logical time. */
export function createRecord(c: HubspotCtx, type: ObjectType, properties: Record<string, string>): CrmRecord {
  const id = String(numericId(c.ctx, `objects:${type.name}`));
  const record: CrmRecord = {
    id,
    properties: { ...properties, hs_object_id: id, [type.created]: c.now, [type.modified]: c.now },
    createdAt: c.now, updatedAt: c.now, archived: false,
  };
  return c.db.records(type.name).put(id, record);
}

export function updateRecord(c: HubspotCtx, type: ObjectType, record: CrmRecord, properties: Record<string, string>): CrmRecord {
  return c.db.records(type.name).put(record.id, { ...record, properties: { ...record.properties, ...properties, [type.modified]: c.now }, updatedAt: c.now });
}

/** The live record, by ID or by a unique property (`idProperty=email`). */
export function findRecord(c: HubspotCtx, type: ObjectType, id: string, idProperty: string | undefined, archived = false): CrmRecord | undefined {
  const records = c.db.records(type.name);
  if (idProperty && idProperty !== 'hs_object_id') {
    const lower = id.toLowerCase();
    return records.find((r) => r.archived === archived && (r.properties[idProperty] ?? '').toLowerCase() === lower);
  }
  const record = records.get(id);
  return record && record.archived === archived ? record : undefined;
}
