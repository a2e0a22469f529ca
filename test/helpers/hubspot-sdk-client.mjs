// @hubspot/api-client (the devDependency, 13.5, unmodified) against api.hubapi.com through whatever
// the preload set up: list pages with associations, getAll across pages, search with filter
// groups and sorts, a deal created with an association and updated, v4 associations, properties,
// owners, pipelines, an archive, and the SDK's ApiException for HubSpot's 404 and 409. Prints one
// JSON object.
import { Client } from '@hubspot/api-client';
import { AssociationSpecAssociationCategoryEnum } from '@hubspot/api-client/lib/codegen/crm/deals/index.js';

const client = new Client({ accessToken: process.env.HUBSPOT_TOKEN });
const out = {};
const page = await client.crm.contacts.basicApi.getPage(5, undefined, ['email', 'company'], undefined, ['companies']);
out.page = { ids: page.results.map((c) => c.id), next: page.paging?.next?.after, companies: page.results[0].associations?.companies?.results.map((a) => a.type) };
const all = await client.crm.contacts.getAll(40);
out.all = all.length;
const found = await client.crm.contacts.searchApi.doSearch({
  filterGroups: [{ filters: [{ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: '*@acmecorp.example' }] }, { filters: [{ propertyName: 'lifecyclestage', operator: 'EQ', value: 'customer' }, { propertyName: 'jobtitle', operator: 'EQ', value: 'CTO' }] }],
  sorts: [{ propertyName: 'lastname', direction: 'ASCENDING' }], properties: ['email', 'lastname', 'jobtitle', 'lifecyclestage'], limit: 100, after: '0',
});
out.search = { total: found.total, emails: found.results.map((c) => c.properties.email) };
const deal = await client.crm.deals.basicApi.create({
  properties: { dealname: 'SDK – Growth plan', amount: '12000', pipeline: 'default', dealstage: 'qualifiedtobuy' },
  associations: [{ to: { id: '2004' }, types: [{ associationCategory: AssociationSpecAssociationCategoryEnum.HubspotDefined, associationTypeId: 5 }] }],
});
out.created = { id: deal.id, stage: deal.properties.dealstage, createdAt: deal.createdAt instanceof Date };
await client.crm.deals.basicApi.update(deal.id, { properties: { dealstage: 'closedwon', amount: '13500' } });
const reread = await client.crm.deals.basicApi.getById(deal.id, ['dealname', 'dealstage', 'amount'], undefined, ['companies']);
out.updated = { stage: reread.properties.dealstage, amount: reread.properties.amount, companies: reread.associations?.companies?.results.map((a) => `${a.id}:${a.type}`) };
await client.crm.associations.v4.basicApi.createDefault('deals', deal.id, 'contacts', '101');
const assoc = await client.crm.associations.v4.basicApi.getPage('contacts', '101', 'deals');
out.associations = assoc.results.filter((r) => String(r.toObjectId) === deal.id).map((r) => r.associationTypes.map((t) => `${t.category}/${t.typeId}`));
const labels = await client.crm.associations.v4.schema.definitionsApi.getAll('contacts', 'companies');
out.labels = labels.results.map((l) => `${l.typeId}:${l.label ?? ''}`).sort();
const props = await client.crm.properties.coreApi.getAll('deals');
out.properties = props.results.some((p) => p.name === 'dealstage' && p.type === 'enumeration');
const owners = await client.crm.owners.ownersApi.getPage();
out.owners = owners.results.map((o) => o.email).sort();
const pipelines = await client.crm.pipelines.pipelinesApi.getAll('deals');
out.stages = pipelines.results[0].stages.map((s) => s.id);
await client.crm.deals.basicApi.archive(deal.id);
const errors = {};
try { await client.crm.deals.basicApi.getById(deal.id); } catch (e) { errors.archived = { code: e.code, category: e.body?.category }; }
// Contacts are unique by email, whatever its case.
try { await client.crm.contacts.basicApi.create({ properties: { email: all[0].properties.email.toUpperCase() } }); } catch (e) { errors.duplicate = { code: e.code, category: e.body?.category, message: e.body?.message }; }
try { await client.crm.contacts.basicApi.update('101', { properties: { lifecyclestage: 'bogus' } }); } catch (e) { errors.invalid = { code: e.code, category: e.body?.category }; }
out.errors = errors;
console.log(JSON.stringify(out));
