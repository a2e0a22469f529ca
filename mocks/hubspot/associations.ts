import { z } from 'zod';
import { emptyResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { associationKey, defaultType, typesBetween, v3Name, type AssociationType } from './association-types.js';
import { hubspotError, ok, unknownType, type HubspotCtx } from './context.js';
import { resolveType, type AssociationDoc, type Db, type ObjectType } from './model.js';

type Spec = { associationCategory: 'HUBSPOT_DEFINED' | 'USER_DEFINED' | 'INTEGRATOR_DEFINED'; associationTypeId: number };
const SpecSchema = z.object({ associationCategory: z.enum(['HUBSPOT_DEFINED', 'USER_DEFINED', 'INTEGRATOR_DEFINED']), associationTypeId: z.number().int() }).passthrough();
const IdRef = z.object({ id: z.union([z.string(), z.number()]).transform(String) }).passthrough();

export function typeOrFail(c: HubspotCtx, segment: string): ObjectType {
  return resolveType(c.db, segment) ?? unknownType(segment);
}

const live = (d: Db, type: string, id: string) => { const r = d.records(type).get(id); return r !== undefined && !r.archived; };

/**
 * Associates two records both ways: the unlabeled default type always, plus `specs` (e.g. 1, a
 * contact's primary company). Throws HubSpot's 400 for a type ID the pair does not have.
 */
export function associate(d: Db, from: ObjectType, fromId: string, to: ObjectType, toId: string, specs: readonly Spec[]): AssociationDoc {
  const all = checkTypes(from, to, specs);
  const write = (fType: string, fId: string, tType: string, tId: string, ids: number[]) => {
    const key = associationKey(fType, fId, tType, tId);
    const old = d.associations.get(key)?.types ?? [];
    const add = ids.map((typeId) => typesBetween(fType, tType).find((t) => t.typeId === typeId)!).map((t) => ({ category: t.category, typeId: t.typeId, label: t.label }));
    const types = [...old, ...add.filter((a) => !old.some((o) => o.typeId === a.typeId))].sort((a, b) => a.typeId - b.typeId);
    return d.associations.put(key, { fromObjectType: fType, fromObjectId: fId, toObjectType: tType, toObjectId: tId, types });
  };
  write(to.name, toId, from.name, fromId, all.map((t) => t.inverse));
  return write(from.name, fromId, to.name, toId, all.map((t) => t.typeId));
}

/** The pair's default type and the given ones; HubSpot's 400 for a type the pair does not have. Writes nothing. */
export function checkTypes(from: ObjectType, to: ObjectType, specs: readonly Spec[]): AssociationType[] {
  const known = typesBetween(from.name, to.name);
  const chosen = specs.map((s) => {
    const t = known.find((k) => k.typeId === s.associationTypeId && k.category === s.associationCategory);
    if (!t) throw hubspotError(400, 'VALIDATION_ERROR', `${s.associationCategory}/${s.associationTypeId} is not a valid association type between ${from.name} and ${to.name}`);
    return t;
  });
  const def = defaultType(from.name, to.name);
  if (!def) throw hubspotError(400, 'VALIDATION_ERROR', `No association types exist between ${from.name} and ${to.name}`);
  return [def, ...chosen];
}

/** Removes the association both ways. */
export function dissociate(d: Db, from: string, fromId: string, to: string, toId: string): void {
  d.associations.delete(associationKey(from, fromId, to, toId));
  d.associations.delete(associationKey(to, toId, from, fromId));
}

/** The records of `to` that a record is associated with, in the order the associations were made. */
export function associationsOf(d: Db, from: string, fromId: string, to: string): AssociationDoc[] {
  const prefix = `${from}/${fromId}/${to}/`;
  return d.associations.entries().filter(([key, a]) => key.startsWith(prefix) && live(d, to, a.toObjectId)).map(([, a]) => a);
}

/** v3's `associations` member of a record (`?associations=companies`). */
export function v3Associations(d: Db, from: string, fromId: string, toTypes: readonly ObjectType[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const to of toTypes) {
    const found = associationsOf(d, from, fromId, to.name);
    if (found.length === 0) continue;
    out[to.name] = { results: found.flatMap((a) => a.types.map((t) => ({ id: a.toObjectId, type: v3Name(from, to.name, t) }))) };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

const v4Result = (from: ObjectType, to: ObjectType, a: AssociationDoc) => ({
  fromObjectTypeId: from.id, fromObjectId: Number(a.fromObjectId), toObjectTypeId: to.id, toObjectId: Number(a.toObjectId),
  labels: a.types.filter((t) => t.label !== null).map((t) => t.label),
});

const ListQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(500), after: z.string().regex(/^\d+$/).optional() }).passthrough();
const BatchCreate = z.object({ inputs: z.array(z.object({ from: IdRef, to: IdRef, types: z.array(SpecSchema).default([]) }).passthrough()).max(2000) }).passthrough();
const BatchDefault = z.object({ inputs: z.array(z.object({ from: IdRef, to: IdRef }).passthrough()) }).passthrough();
const BatchArchive = z.object({ inputs: z.array(z.object({ from: IdRef, to: z.array(IdRef) }).passthrough()) }).passthrough();

export const associationOperations: Operation<HubspotCtx>[] = [
  operation<HubspotCtx, '/crm/v4/objects/:objectType/:objectId/associations/:toObjectType', z.infer<typeof ListQuery>>('associations.getPage',
    rest('GET', '/crm/v4/objects/:objectType/:objectId/associations/:toObjectType'), (call, c) => {
      const from = typeOrFail(c, call.params.objectType);
      const to = typeOrFail(c, call.params.toObjectType);
      const all = associationsOf(c.db, from.name, call.params.objectId, to.name);
      const start = Number(call.query.after ?? 0);
      const page = all.slice(start, start + call.query.limit);
      const next = start + page.length < all.length ? String(start + page.length) : null;
      return ok(200, {
        results: page.map((a) => ({ toObjectId: Number(a.toObjectId), associationTypes: a.types })),
        ...(next ? { paging: { next: { after: next, link: `?after=${next}` } } } : {}),
      });
    }, { input: { query: ListQuery }, lazy: true }),

  operation<HubspotCtx, '/crm/v4/associations/:fromObjectType/:toObjectType/labels'>('associations.labels',
    rest('GET', '/crm/v4/associations/:fromObjectType/:toObjectType/labels'), (call, c) => {
      const from = typeOrFail(c, call.params.fromObjectType);
      const to = typeOrFail(c, call.params.toObjectType);
      return ok(200, { results: typesBetween(from.name, to.name).map((t) => ({ category: t.category, typeId: t.typeId, label: t.label })) });
    }),

  operation<HubspotCtx, '/crm/v4/associations/:fromObjectType/:toObjectType/batch/create', Record<string, string>, z.infer<typeof BatchCreate>>('associations.batch.create',
    rest('POST', '/crm/v4/associations/:fromObjectType/:toObjectType/batch/create'), (call, c) => {
      const from = typeOrFail(c, call.params.fromObjectType);
      const to = typeOrFail(c, call.params.toObjectType);
      // Every input's types are checked before any is written: a bad type fails the batch.
      for (const input of call.body.inputs) checkTypes(from, to, input.types);
      const results: unknown[] = [];
      const errors: unknown[] = [];
      for (const input of call.body.inputs) {
        const missing = [[from, input.from.id], [to, input.to.id]].find(([t, id]) => !live(c.db, (t as ObjectType).name, id as string));
        if (missing) {
          errors.push({ status: 'error', category: 'VALIDATION_ERROR', subCategory: 'crm.associations.INVALID_OBJECT_IDS', message: `No ${(missing[0] as ObjectType).name} with ID ${missing[1] as string} exist`, context: { objectIds: [missing[1]] } });
          continue;
        }
        results.push(v4Result(from, to, associate(c.db, from, input.from.id, to, input.to.id, input.types)));
      }
      return batchAnswer(c, results, errors);
    }, { input: { body: BatchCreate } }),

  operation<HubspotCtx, '/crm/v4/associations/:fromObjectType/:toObjectType/batch/associate/default', Record<string, string>, z.infer<typeof BatchDefault>>('associations.batch.createDefault',
    rest('POST', '/crm/v4/associations/:fromObjectType/:toObjectType/batch/associate/default'), (call, c) => {
      const from = typeOrFail(c, call.params.fromObjectType);
      const to = typeOrFail(c, call.params.toObjectType);
      checkTypes(from, to, []);
      const results: unknown[] = [];
      const errors: unknown[] = [];
      for (const input of call.body.inputs) {
        if (!live(c.db, from.name, input.from.id) || !live(c.db, to.name, input.to.id)) {
          errors.push({ status: 'error', category: 'VALIDATION_ERROR', message: `No ${from.name} with ID ${input.from.id} or ${to.name} with ID ${input.to.id} exist`, context: {} });
          continue;
        }
        associate(c.db, from, input.from.id, to, input.to.id, []);
        results.push(...defaultSpecs(from, input.from.id, to, input.to.id));
      }
      return batchAnswer(c, results, errors, 200);
    }, { input: { body: BatchDefault } }),

  operation<HubspotCtx, '/crm/v4/associations/:fromObjectType/:toObjectType/batch/archive', Record<string, string>, z.infer<typeof BatchArchive>>('associations.batch.archive',
    rest('POST', '/crm/v4/associations/:fromObjectType/:toObjectType/batch/archive'), (call, c) => {
      const from = typeOrFail(c, call.params.fromObjectType);
      const to = typeOrFail(c, call.params.toObjectType);
      for (const input of call.body.inputs) for (const t of input.to) dissociate(c.db, from.name, input.from.id, to.name, t.id);
      return emptyResponse(204);
    }, { input: { body: BatchArchive } }),

  operation<HubspotCtx, '/crm/v4/objects/:fromObjectType/:fromObjectId/associations/default/:toObjectType/:toObjectId'>('associations.createDefault',
    rest('PUT', '/crm/v4/objects/:fromObjectType/:fromObjectId/associations/default/:toObjectType/:toObjectId'), (call, c) => {
      const from = typeOrFail(c, call.params.fromObjectType);
      const to = typeOrFail(c, call.params.toObjectType);
      requireLive(c, from, call.params.fromObjectId);
      requireLive(c, to, call.params.toObjectId);
      associate(c.db, from, call.params.fromObjectId, to, call.params.toObjectId, []);
      return batchAnswer(c, defaultSpecs(from, call.params.fromObjectId, to, call.params.toObjectId), [], 200);
    }),

  operation<HubspotCtx, '/crm/v4/objects/:objectType/:objectId/associations/:toObjectType/:toObjectId', Record<string, string>, Spec[]>('associations.create',
    rest('PUT', '/crm/v4/objects/:objectType/:objectId/associations/:toObjectType/:toObjectId'), (call, c) => {
      const from = typeOrFail(c, call.params.objectType);
      const to = typeOrFail(c, call.params.toObjectType);
      requireLive(c, from, call.params.objectId);
      requireLive(c, to, call.params.toObjectId);
      return ok(201, v4Result(from, to, associate(c.db, from, call.params.objectId, to, call.params.toObjectId, call.body)));
    }, { input: { body: z.array(SpecSchema) } }),

  operation<HubspotCtx, '/crm/v4/objects/:objectType/:objectId/associations/:toObjectType/:toObjectId'>('associations.archive',
    rest('DELETE', '/crm/v4/objects/:objectType/:objectId/associations/:toObjectType/:toObjectId'), (call, c) => {
      const from = typeOrFail(c, call.params.objectType);
      const to = typeOrFail(c, call.params.toObjectType);
      dissociate(c.db, from.name, call.params.objectId, to.name, call.params.toObjectId);
      return emptyResponse(204);
    }),
];

function requireLive(c: HubspotCtx, type: ObjectType, id: string): void {
  if (!live(c.db, type.name, id)) throw hubspotError(400, 'VALIDATION_ERROR', `No ${type.name} with ID ${id} exist`, { subCategory: 'crm.associations.INVALID_OBJECT_IDS' });
}

function defaultSpecs(from: ObjectType, fromId: string, to: ObjectType, toId: string): unknown[] {
  const def = defaultType(from.name, to.name)!;
  return [
    { from: { id: fromId }, to: { id: toId }, associationSpec: { associationCategory: def.category, associationTypeId: def.typeId } },
    { from: { id: toId }, to: { id: fromId }, associationSpec: { associationCategory: def.category, associationTypeId: def.inverse } },
  ];
}

/** HubSpot's batch answer: 201 COMPLETE, or 207 with `numErrors`/`errors` when some inputs failed. */
export function batchAnswer(c: HubspotCtx, results: unknown[], errors: unknown[], status = 201) {
  return ok(errors.length > 0 ? 207 : status, {
    status: 'COMPLETE', results, ...(errors.length > 0 ? { numErrors: errors.length, errors } : {}), startedAt: c.now, completedAt: c.now,
  });
}
