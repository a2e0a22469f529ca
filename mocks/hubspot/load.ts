import { ToolbenchError } from '../core/errors.js';
import type { LoadContext } from '../core/service.js';
import { associate } from './associations.js';
import { mirror } from './engagements.js';
import type { HubspotDataset, PropertyDef } from './dataset.js';
import { DEFAULT_PIPELINES, db, objectTypes, resolveType, type CrmRecord, type PropertyDoc } from './model.js';
import { BUILT_IN_PROPERTIES, fullProperty } from './properties-catalog.js';

/** Loads the portal: properties, pipelines, owners, tokens, records and their associations. */
export function loadHubspot(data: HubspotDataset, ctx: LoadContext): void {
  const d = db(ctx.store);
  const fail = (where: string, message: string): never => { throw new ToolbenchError('TB_ERR_DATASET', `dataset/hubspot.json: field ${where}: ${message}`); };
  // Definitions are as old as the portal: a year before the epoch.
  const born = new Date(ctx.epochMs - 365 * 86400_000).toISOString();

  d.portal.put('portal', { portalId: data.portal.portalId, accountType: data.portal.accountType, timeZone: data.portal.timeZone, companyCurrency: data.portal.companyCurrency, additionalCurrencies: [], utcOffset: data.portal.utcOffset, utcOffsetMilliseconds: data.portal.utcOffsetMilliseconds, uiDomain: data.portal.uiDomain, dataHostingLocation: data.portal.dataHostingLocation });
  for (const t of data.tokens) d.tokens.put(t.token, { token: t.token, userId: t.userId, appId: t.appId, scopes: t.scopes });
  for (const o of data.owners) d.owners.put(o.id, { id: o.id, email: o.email, firstName: o.firstName, lastName: o.lastName, userId: o.userId, createdAt: born, updatedAt: born, archived: o.archived, teams: o.teams });
  data.schemas.forEach((s, i) => {
    if (resolveType(d, s.name)) fail(`schemas[${i}].name`, `${s.name} is already an object type`);
    d.schemas.put(s.objectTypeId, {
      id: s.objectTypeId.split('-')[1]!, objectTypeId: s.objectTypeId, name: s.name, fullyQualifiedName: `p${data.portal.portalId}_${s.name}`, labels: s.labels,
      primaryDisplayProperty: s.primaryDisplayProperty, requiredProperties: [s.primaryDisplayProperty], searchableProperties: [s.primaryDisplayProperty], secondaryDisplayProperties: [],
      archived: false, createdAt: born, updatedAt: born, properties: s.properties,
    });
  });

  const putProperty = (type: string, def: PropertyDef, hubspotDefined: boolean, order: number) => {
    const doc: PropertyDoc = { ...def, objectType: type, createdAt: born, updatedAt: born, hubspotDefined, archived: false, displayOrder: order, calculated: false, externalOptions: false };
    d.properties.put(`${type}/${def.name}`, doc);
  };
  for (const type of objectTypes(d)) {
    const builtIn = BUILT_IN_PROPERTIES[type.name] ?? [
      { name: 'hs_createdate', label: 'Create date', type: 'datetime', fieldType: 'date', groupName: `${type.singular}information` },
      { name: 'hs_lastmodifieddate', label: 'Last Modified Date', type: 'datetime', fieldType: 'date', groupName: `${type.singular}information` },
      { name: 'hs_object_id', label: 'Record ID', type: 'number', fieldType: 'number', groupName: `${type.singular}information` },
    ] as const;
    builtIn.forEach((def, i) => putProperty(type.name, fullProperty({ ...def }), true, i));
    const schema = d.schemas.values().find((s) => s.name === type.name);
    schema?.properties.forEach((def, i) => putProperty(type.name, def, false, i));
  }
  for (const [typeName, defs] of Object.entries(data.properties)) {
    const type = resolveType(d, typeName) ?? fail(`properties.${typeName}`, 'no such object type');
    defs.forEach((def, i) => putProperty(type.name, def, false, i));
  }

  for (const type of ['deals', 'tickets']) {
    const pipelines = data.pipelines[type] ?? DEFAULT_PIPELINES[type]!;
    for (const p of pipelines) d.pipelines.put(`${type}/${p.id}`, { ...p, objectType: type, archived: false, createdAt: born, updatedAt: born });
  }
  for (const typeName of Object.keys(data.pipelines)) if (typeName !== 'deals' && typeName !== 'tickets') fail(`pipelines.${typeName}`, 'only deals and tickets have pipelines');

  // Records: without a time, an hour apart, the last one an hour before the epoch.
  const total = Object.values(data.objects).reduce((n, list) => n + list.length, 0);
  let k = 0;
  for (const [typeName, list] of Object.entries(data.objects)) {
    const type = resolveType(d, typeName) ?? fail(`objects.${typeName}`, 'no such object type');
    if (type.name !== typeName) fail(`objects.${typeName}`, `name the type ${type.name}`);
    const known = new Set(d.properties.values().filter((p) => p.objectType === type.name).map((p) => p.name));
    const numbered = list.map((r) => (r.id === undefined ? 0 : Number(r.id)));
    let nextId = Math.max(100, ...numbered);
    const seen = new Set<string>();
    list.forEach((r, i) => {
      k += 1;
      const id = r.id ?? String(++nextId);
      if (seen.has(id)) fail(`objects.${typeName}[${i}].id`, `id ${id} is used twice`);
      seen.add(id);
      for (const name of Object.keys(r.properties)) if (!known.has(name)) fail(`objects.${typeName}[${i}].properties.${name}`, `no property ${name} on ${type.name}`);
      const createdAt = r.createdAt ?? new Date(ctx.epochMs - 3600_000 - (total - k) * 3600_000).toISOString();
      const updatedAt = r.updatedAt ?? createdAt;
      const record: CrmRecord = {
        id, properties: { ...r.properties, hs_object_id: id, [type.created]: createdAt, [type.modified]: updatedAt }, createdAt, updatedAt, archived: r.archived,
        ...(r.archived ? { archivedAt: updatedAt } : {}),
      };
      d.records(type.name).put(id, record);
    });
    ctx.ids.reserve(`objects:${type.name}`, nextId);
  }

  data.associations.forEach((a, i) => {
    const [fromName, fromId] = a.from.split('/') as [string, string];
    const [toName, toId] = a.to.split('/') as [string, string];
    const from = resolveType(d, fromName) ?? fail(`associations[${i}].from`, `no such object type ${fromName}`);
    const to = resolveType(d, toName) ?? fail(`associations[${i}].to`, `no such object type ${toName}`);
    if (!d.records(from.name).has(fromId)) fail(`associations[${i}].from`, `no ${from.name} ${fromId}`);
    if (!d.records(to.name).has(toId)) fail(`associations[${i}].to`, `no ${to.name} ${toId}`);
    try {
      associate(d, from, fromId, to, toId, a.types);
    } catch (error) {
      fail(`associations[${i}]`, error instanceof Error ? error.message : String(error));
    }
  });

  for (const w of data.workflows) {
    const at = w.createdAt ?? born;
    d.workflows.put(w.id, { id: w.id, isEnabled: w.isEnabled, flowType: w.flowType, revisionId: '1', name: w.name, description: w.description, createdAt: at, updatedAt: w.updatedAt ?? at, objectTypeId: w.objectTypeId, type: 'CONTACT_FLOW', actions: w.actions, enrollmentCriteria: w.enrollmentCriteria });
  }
  let maxEngagement = 0;
  for (const e of data.engagements) {
    const ts = Date.parse(e.timestamp);
    maxEngagement = Math.max(maxEngagement, Number(e.id));
    const text = String(e.metadata.body ?? e.metadata.subject ?? '').replace(/<[^>]*>/g, '');
    d.engagements.put(e.id, {
      engagement: { id: Number(e.id), portalId: data.portal.portalId, active: true, createdAt: ts, lastUpdated: ts, ...(e.ownerId !== undefined ? { ownerId: e.ownerId } : {}), type: e.type, timestamp: ts, bodyPreview: text.slice(0, 200), queueMembershipIds: [], bodyPreviewIsTruncated: text.length > 200, bodyPreviewHtml: String(e.metadata.body ?? '') },
      associations: { ...e.associations, workflowIds: [], contentIds: [], quoteIds: [] }, attachments: [], metadata: e.metadata,
    });
  }
  for (const doc of d.engagements.values()) mirror(d, doc);
  ctx.ids.reserve('engagements', Math.max(maxEngagement, 4000));
}
