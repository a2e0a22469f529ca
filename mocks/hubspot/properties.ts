import { z } from 'zod';
import { operation, rest, type Operation } from '../kit/operation.js';
import { typeOrFail } from './associations.js';
import { hubspotError, ok, type HubspotCtx } from './context.js';
import { OptionSchema } from './dataset.js';
import { propertiesOf, type OwnerDoc, type PropertyDoc } from './model.js';

/** `/crm/v3/properties/{objectType}`: list, read, create and update property definitions. */
export function renderProperty(p: PropertyDoc, owners: readonly OwnerDoc[] = []): Record<string, unknown> {
  // The owner property's options are the portal's owners, as HubSpot lists them.
  const options = p.name === 'hubspot_owner_id'
    ? owners.filter((o) => !o.archived).map((o, i) => ({ label: `${o.firstName} ${o.lastName}`, value: o.id, description: o.email, displayOrder: i, hidden: false }))
    : p.options;
  return {
    updatedAt: p.updatedAt, createdAt: p.createdAt, name: p.name, label: p.label, type: p.type, fieldType: p.fieldType,
    description: p.description, groupName: p.groupName, options, displayOrder: p.displayOrder, calculated: p.calculated,
    externalOptions: p.externalOptions, hasUniqueValue: p.hasUniqueValue, hidden: p.hidden, hubspotDefined: p.hubspotDefined,
    modificationMetadata: { archivable: !p.hubspotDefined, readOnlyDefinition: p.hubspotDefined, readOnlyValue: ['hs_object_id', 'createdate', 'hs_createdate', 'lastmodifieddate', 'hs_lastmodifieddate'].includes(p.name) },
    formField: p.formField, ...(p.archived ? { archived: true } : {}),
  };
}

const Type = z.enum(['string', 'number', 'date', 'datetime', 'enumeration', 'bool', 'phone_number']);
const FieldType = z.enum(['textarea', 'text', 'date', 'file', 'number', 'select', 'radio', 'checkbox', 'booleancheckbox', 'calculation_equation', 'html', 'phonenumber']);
const Option = OptionSchema.partial({ description: true, displayOrder: true, hidden: true });
const CreateBody = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'Property names must start with a letter and contain only lower-case letters, digits and underscores'),
  label: z.string().min(1), type: Type, fieldType: FieldType, groupName: z.string().min(1),
  description: z.string().default(''), options: z.array(Option).default([]), displayOrder: z.number().int().default(-1),
  hasUniqueValue: z.boolean().default(false), hidden: z.boolean().default(false), formField: z.boolean().default(false),
  calculationFormula: z.string().optional(), referencedObjectType: z.string().optional(), externalOptions: z.boolean().optional(),
}).passthrough();
const UpdateBody = CreateBody.omit({ name: true }).partial().passthrough();

const fullOptions = (options: z.infer<typeof Option>[]) => options.map((o, i) => ({ label: o.label, value: o.value, description: o.description ?? '', displayOrder: o.displayOrder ?? i, hidden: o.hidden ?? false }));

export const propertyOperations: Operation<HubspotCtx>[] = [
  operation<HubspotCtx, '/crm/v3/properties/:objectType'>('properties.getAll', rest('GET', '/crm/v3/properties/:objectType'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const q = new Map(call.req.query);
    const archived = q.get('archived') === 'true';
    const includeHidden = q.get('includeHidden') === 'true';
    const all = propertiesOf(c.db, type.name, true).filter((p) => p.archived === archived && (includeHidden || !p.hidden));
    return ok(200, { results: all.map((p) => renderProperty(p, c.db.owners.values())) });
  }),

  operation<HubspotCtx, '/crm/v3/properties/:objectType/:propertyName'>('properties.getByName', rest('GET', '/crm/v3/properties/:objectType/:propertyName'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const p = c.db.properties.get(`${type.name}/${call.params.propertyName}`);
    if (!p || p.archived) throw hubspotError(404, 'OBJECT_NOT_FOUND', `Unable to find property ${call.params.propertyName} for object type ${type.id}`);
    return ok(200, renderProperty(p, c.db.owners.values()));
  }),

  operation<HubspotCtx, '/crm/v3/properties/:objectType', Record<string, string>, z.infer<typeof CreateBody>>('properties.create', rest('POST', '/crm/v3/properties/:objectType'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const body = call.body;
    const key = `${type.name}/${body.name}`;
    if (c.db.properties.get(key) && !c.db.properties.get(key)!.archived) throw hubspotError(409, 'OBJECT_ALREADY_EXISTS', `Property named '${body.name}' already exists.`);
    if (body.type === 'enumeration' && body.options.length === 0 && body.fieldType !== 'booleancheckbox') throw hubspotError(400, 'VALIDATION_ERROR', `Enumeration property ${body.name} must have options`);
    const doc: PropertyDoc = {
      objectType: type.name, name: body.name, label: body.label, type: body.type, fieldType: body.fieldType, groupName: body.groupName,
      description: body.description, options: fullOptions(body.options), hasUniqueValue: body.hasUniqueValue, hidden: body.hidden, formField: body.formField,
      displayOrder: body.displayOrder, calculated: false, externalOptions: false, hubspotDefined: false, archived: false, createdAt: c.now, updatedAt: c.now,
    };
    return ok(201, renderProperty(c.db.properties.put(key, doc)));
  }, { input: { body: CreateBody }, lazy: true }),

  operation<HubspotCtx, '/crm/v3/properties/:objectType/:propertyName', Record<string, string>, z.infer<typeof UpdateBody>>('properties.update', rest('PATCH', '/crm/v3/properties/:objectType/:propertyName'), (call, c) => {
    const type = typeOrFail(c, call.params.objectType);
    const key = `${type.name}/${call.params.propertyName}`;
    const p = c.db.properties.get(key);
    if (!p || p.archived) throw hubspotError(404, 'OBJECT_NOT_FOUND', `Unable to find property ${call.params.propertyName} for object type ${type.id}`);
    const body = call.body;
    if (p.hubspotDefined && (body.type !== undefined || body.fieldType !== undefined)) throw hubspotError(400, 'VALIDATION_ERROR', `Cannot change the type of HubSpot defined property ${p.name}`);
    const { options, ...rest } = body;
    const known = Object.fromEntries(Object.entries(rest).filter(([k, v]) => v !== undefined && k in p)) as Partial<PropertyDoc>;
    return ok(200, renderProperty(c.db.properties.put(key, { ...p, ...known, ...(options ? { options: fullOptions(options) } : {}), updatedAt: c.now })));
  }, { input: { body: UpdateBody }, lazy: true }),
];
