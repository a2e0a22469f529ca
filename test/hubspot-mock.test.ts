import test from 'ava';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { hubspotService } from '../mocks/hubspot/index.js';
import { prepareWorld } from './helpers/prepare-world.js';

// The HubSpot mock's behaviour in one world (the conformance portal, 10 ms ticks so the rate
// window can fill): search semantics, list cursors, property checks, associations both ways,
// HubSpot's error bodies, the 429 of a full window and the fault 429. Serial: one clock.

const TOKEN = 'pat-na1-conformance-00000000-0000-0000';
const { header, services } = prepareWorld({ scenarioDir: 'mocks/hubspot/conformance' });
const faults = { chaos: 'none' as const, rules: [FaultRuleSchema.parse({ route: '/account-info/v3/details', kind: '429', nth: [1], retry_after: 1 })] };
const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: 10, services, journal: new MemoryJournal({ ...header, tickMs: 10, faults }), faults });

async function call(method: string, target: string, body?: unknown, token: string | null = TOKEN) {
  const headers: [string, string][] = [['Content-Type', 'application/json']];
  if (token !== null) headers.push(['Authorization', `Bearer ${token}`]);
  const r = await world.dispatch({ host: 'api.hubapi.com', method, target, headers, body: new TextEncoder().encode(body === undefined ? '' : JSON.stringify(body)) });
  const text = new TextDecoder().decode(r.body);
  return { status: r.status, headers: new Map(r.headers.map(([k, v]) => [k.toLowerCase(), v])), json: text ? JSON.parse(text) : null };
}
const search = (type: string, body: unknown) => call('POST', `/crm/v3/objects/${type}/search`, body);
const ids = (r: { json: { results: { id: string }[] } }) => r.json.results.map((x) => x.id);

test.serial('search: operators on text, numbers and dates, OR of groups, the query, sorts and the after cursor', async (t) => {
  const customers = await search('contacts', { filterGroups: [{ filters: [{ propertyName: 'lifecyclestage', operator: 'EQ', value: 'CUSTOMER' }] }], limit: 200, properties: ['lifecyclestage'] });
  t.true(customers.json.total > 0);
  t.true(customers.json.results.every((r: { properties: { lifecyclestage: string } }) => r.properties.lifecyclestage === 'customer'), 'EQ ignores case');
  const rest = await search('contacts', { filterGroups: [{ filters: [{ propertyName: 'lifecyclestage', operator: 'NEQ', value: 'customer' }] }], limit: 1 });
  t.is(customers.json.total + rest.json.total, 90);

  const big = await search('deals', { filterGroups: [{ filters: [{ propertyName: 'amount', operator: 'GTE', value: '36000' }, { propertyName: 'amount', operator: 'LT', value: 75000 }] }], sorts: [{ propertyName: 'amount', direction: 'DESCENDING' }], properties: ['amount'], limit: 100 });
  const amounts = big.json.results.map((r: { properties: { amount: string } }) => Number(r.properties.amount));
  t.true(amounts.length > 0 && amounts.every((a: number) => a >= 36000 && a < 75000), 'numbers compare as numbers');
  t.deepEqual(amounts, [...amounts].sort((a: number, b: number) => b - a));

  const q1 = await search('deals', { filterGroups: [{ filters: [{ propertyName: 'closedate', operator: 'BETWEEN', value: '2025-01-01', highValue: String(Date.parse('2025-03-31T23:59:59Z')) }] }], properties: ['closedate'], limit: 100 });
  t.true(q1.json.results.every((r: { properties: { closedate: string } }) => r.properties.closedate >= '2025-01-01' && r.properties.closedate < '2025-04'), 'dates as ISO or milliseconds');

  const either = await search('contacts', { filterGroups: [
    { filters: [{ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: '*@acmecorp.example' }] },
    { filters: [{ propertyName: 'company', operator: 'IN', values: ['Cedar Health', 'Pixel Forge'] }] },
  ], properties: ['email', 'company'], limit: 100 });
  t.true(either.json.results.every((r: { properties: { email: string; company: string } }) => r.properties.email.endsWith('@acmecorp.example') || ['Cedar Health', 'Pixel Forge'].includes(r.properties.company)));
  t.true(new Set(either.json.results.map((r: { properties: { company: string } }) => r.properties.company)).size >= 2, 'groups are ORed');

  const text = await search('companies', { query: 'harbor', properties: ['name'] });
  t.deepEqual(text.json.results.map((r: { properties: { name: string } }) => r.properties.name), ['Harbor Logistics']);
  const none = await search('contacts', { filterGroups: [{ filters: [{ propertyName: 'mobilephone', operator: 'HAS_PROPERTY' }] }] });
  t.is(none.json.total, 0);

  const p1 = await search('contacts', { limit: 40 });
  const p2 = await search('contacts', { limit: 40, after: p1.json.paging.next.after });
  const p3 = await search('contacts', { limit: 40, after: p2.json.paging.next.after });
  t.is(p3.json.paging, undefined);
  t.is(new Set([...ids(p1), ...ids(p2), ...ids(p3)]).size, 90, 'pages cover every record once');

  const wide = await search('contacts', { filterGroups: [{ filters: Array.from({ length: 7 }, () => ({ propertyName: 'email', operator: 'HAS_PROPERTY' })) }] });
  t.is(wide.status, 400);
  t.is(wide.json.category, 'VALIDATION_ERROR');
  t.is((await search('contacts', { limit: 201 })).status, 400);
});

test.serial('lists: after cursors, default and asked-for properties, associations, archived records', async (t) => {
  const first = await call('GET', '/crm/v3/objects/deals?limit=15&associations=companies');
  t.is(first.json.results.length, 15);
  t.deepEqual(Object.keys(first.json.results[0].properties), ['amount', 'closedate', 'createdate', 'dealname', 'dealstage', 'hs_lastmodifieddate', 'hs_object_id', 'pipeline']);
  t.regex(first.json.results[0].associations.companies.results[0].type, /^deal_to_company/);
  const next = await call('GET', `/crm/v3/objects/deals?limit=30&after=${first.json.paging.next.after}&properties=dealname,nope`);
  t.is(next.json.results.length, 25);
  t.is(next.json.paging, undefined);
  t.deepEqual(Object.keys(next.json.results[0].properties), ['createdate', 'dealname', 'hs_lastmodifieddate', 'hs_object_id']);
  t.is((await call('DELETE', '/crm/v3/objects/deals/540')).status, 204);
  t.is((await call('GET', '/crm/v3/objects/deals/540')).status, 404);
  const archived = await call('GET', '/crm/v3/objects/deals?archived=true');
  t.deepEqual(ids(archived), ['540']);
  t.is((await call('GET', '/crm/v3/objects/contacts/101?idProperty=email')).status, 404);
  const byEmail = await call('GET', `/crm/v3/objects/contacts/${encodeURIComponent((await call('GET', '/crm/v3/objects/contacts/101')).json.properties.email.toUpperCase())}?idProperty=email`);
  t.is(byEmail.json.id, '101');
});

test.serial('writes are checked as HubSpot checks them: unknown and read-only properties, options, stages, owners, unique emails', async (t) => {
  const bad = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'X', colour: 'red', hs_object_id: '1', dealstage: 'won', hubspot_owner_id: '42', hs_priority: 'urgent' } });
  t.is(bad.status, 400);
  t.is(bad.json.category, 'VALIDATION_ERROR');
  const problems = JSON.parse(bad.json.message.replace('Property values were not valid: ', '')) as { name: string; error: string }[];
  t.deepEqual(problems.map((p) => `${p.name}:${p.error}`).sort(), ['colour:PROPERTY_DOESNT_EXIST', 'dealstage:INVALID_OPTION', 'hs_object_id:READ_ONLY_VALUE', 'hs_priority:INVALID_OPTION', 'hubspot_owner_id:INVALID_OWNER_ID']);
  const made = await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'Defaults', amount: 1200, closedate: Date.parse('2025-06-30T00:00:00Z') } });
  t.is(made.status, 201);
  t.like(made.json.properties, { pipeline: 'default', dealstage: 'appointmentscheduled', amount: '1200', closedate: '2025-06-30T00:00:00.000Z' });
  const dup = await call('POST', '/crm/v3/objects/contacts/batch/create', { inputs: [{ properties: { email: 'new.one@example.test' } }, { properties: { email: 'NEW.one@example.test' } }] });
  t.is(dup.status, 400);
  t.is((await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'new.one@example.test' } })).status, 201);
  t.is((await call('POST', '/crm/v3/objects/contacts', { properties: { email: 'New.One@example.test' } })).status, 409);
});

test.serial('associations are two-way, keep their labels, and list from either side', async (t) => {
  const made = await call('POST', '/crm/v4/associations/contacts/companies/batch/create', { inputs: [{ from: { id: '110' }, to: { id: '2020' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 1 }] }] });
  t.is(made.status, 201);
  t.deepEqual(made.json.results, [{ fromObjectTypeId: '0-1', fromObjectId: 110, toObjectTypeId: '0-2', toObjectId: 2020, labels: ['Primary'] }]);
  const back = await call('GET', '/crm/v4/objects/companies/2020/associations/contacts');
  t.deepEqual(back.json.results.find((r: { toObjectId: number }) => r.toObjectId === 110).associationTypes, [
    { category: 'HUBSPOT_DEFINED', typeId: 2, label: 'Primary' }, { category: 'HUBSPOT_DEFINED', typeId: 280, label: null },
  ]);
  const missing = await call('POST', '/crm/v4/associations/contacts/companies/batch/create', { inputs: [{ from: { id: '110' }, to: { id: '9999' }, types: [] }] });
  t.is(missing.status, 207);
  t.is(missing.json.numErrors, 1);
  const wrongType = await call('POST', '/crm/v4/associations/contacts/companies/batch/create', { inputs: [{ from: { id: '110' }, to: { id: '2020' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }] }] });
  t.is(wrongType.status, 400);
  t.is((await call('DELETE', '/crm/v4/objects/contacts/110/associations/companies/2020')).status, 204);
  t.false((await call('GET', '/crm/v4/objects/companies/2020/associations/contacts')).json.results.some((r: { toObjectId: number }) => r.toObjectId === 110));
});

test.serial('HubSpot\'s error bodies: no token, an unknown object type, an unknown path; a fault 429 names its policy', async (t) => {
  const anonymous = await call('GET', '/crm/v3/objects/contacts', undefined, null);
  t.is(anonymous.status, 401);
  t.like(anonymous.json, { status: 'error', category: 'INVALID_AUTHENTICATION' });
  t.is(anonymous.json.correlationId, anonymous.headers.get('x-hubspot-correlation-id'));
  t.like((await call('GET', '/crm/v3/objects/widgets')).json, { status: 'error', message: 'Unable to infer object type from: widgets', category: 'VALIDATION_ERROR' });
  t.like((await call('GET', '/marketing/v3/emails')), { status: 404, json: { status: 'error', category: 'OBJECT_NOT_FOUND' } });
  const fault = await call('GET', '/account-info/v3/details');
  t.is(fault.status, 429);
  t.like(fault.json, { status: 'error', message: 'You have reached your secondly limit.', errorType: 'RATE_LIMIT', policyName: 'SECONDLY' });
  t.is(fault.headers.get('x-hubspot-ratelimit-secondly-remaining'), '0');
  t.is(fault.headers.get('retry-after'), '1');
  t.like((await call('GET', '/account-info/v3/details')), { status: 200, json: { portalId: 24156789 } });
});

test.serial('190 requests in ten seconds fill the window: the next is HubSpot\'s TEN_SECONDLY_ROLLING 429; the window reopens', async (t) => {
  // Start a fresh window: wait it out on the logical clock (10 ms a request).
  const before = await call('GET', '/crm/v3/owners');
  let remaining = Number(before.headers.get('x-hubspot-ratelimit-remaining'));
  let last = before;
  while (remaining > 0) {
    last = await call('GET', '/crm/v3/owners');
    remaining = Number(last.headers.get('x-hubspot-ratelimit-remaining'));
  }
  const limited = await call('GET', '/crm/v3/owners');
  t.is(limited.status, 429);
  t.like(limited.json, { errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING' });
  let again = limited;
  while (again.status === 429) again = await call('GET', '/crm/v3/owners');
  t.is(again.status, 200);
  t.is(again.headers.get('x-hubspot-ratelimit-remaining'), '189');
});

test.serial('a batch is all or nothing: one bad input creates no record and no association', async (t) => {
  const before = Object.keys(world.state(['hubspot']).hubspot!.deals!).length;
  const batch = await call('POST', '/crm/v3/objects/deals/batch/create', { inputs: [
    { properties: { dealname: 'Fine' }, associations: [{ to: { id: '2001' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 5 }] }] },
    { properties: { dealname: 'Bad link' }, associations: [{ to: { id: '424242' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }] }] },
  ] });
  t.is(batch.status, 400);
  t.is(Object.keys(world.state(['hubspot']).hubspot!.deals!).length, before);
  const assoc = await call('POST', '/crm/v4/associations/contacts/companies/batch/create', { inputs: [
    { from: { id: '120' }, to: { id: '2021' }, types: [] }, { from: { id: '121' }, to: { id: '2021' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 5 }] },
  ] });
  t.is(assoc.status, 400);
  t.false('contacts/120/companies/2021' in world.state(['hubspot']).hubspot!.associations!);
});

test.serial('custom objects: the schema lists, and its records answer by name, fully qualified name and type ID', async (t) => {
  const schemas = await call('GET', '/crm-object-schemas/v3/schemas');
  t.like(schemas.json.results[0], { objectTypeId: '2-3508', name: 'cars', fullyQualifiedName: 'p24156789_cars' });
  for (const name of ['cars', 'p24156789_cars', '2-3508']) {
    const list = await call('GET', `/crm/v3/objects/${name}?properties=vin,model`);
    t.deepEqual(list.json.results.map((r: { properties: { model: string } }) => r.properties.model), ['Accord', 'Model 3'], name);
  }
  const found = await search('2-3508', { filterGroups: [{ filters: [{ propertyName: 'year', operator: 'LT', value: '2020' }] }], properties: ['vin'] });
  t.deepEqual(ids(found), ['8802']);
  t.is((await call('POST', '/crm/v3/objects/cars', { properties: { vin: 'X', colour: 'red' } })).status, 400);
});

test.serial('the owner property lists the portal\'s owners as its options; an owner by user ID', async (t) => {
  const owner = await call('GET', '/crm/v3/properties/deals/hubspot_owner_id');
  t.deepEqual(owner.json.options.map((o: { label: string; value: string }) => `${o.value}:${o.label}`), ['81234001:Maria Lopez', '81234002:Tom Becker', '81234003:Aisha Khan', '81234004:Leo Martin', '81234005:Sofia Rossi']);
  t.like((await call('GET', '/crm/v3/owners/71234003?idProperty=userId&archived=false')).json, { id: '81234003', email: 'aisha.khan@northwind-crm.example' });
  t.is((await call('GET', '/crm/v3/owners/71234003')).status, 404);
});

test.serial('search by association: the deals of a company (`associations.company`)', async (t) => {
  const links = await call('GET', '/crm/v4/objects/companies/2004/associations/deals');
  const expected = links.json.results.map((r: { toObjectId: number }) => String(r.toObjectId)).filter((id: string) => world.state(['hubspot']).hubspot!.deals![id] && !(world.state(['hubspot']).hubspot!.deals![id] as { archived: boolean }).archived).sort();
  t.true(expected.length > 0);
  const deals = await search('deals', { filterGroups: [{ filters: [{ propertyName: 'associations.company', operator: 'EQ', value: '2004' }] }], limit: 100 });
  t.deepEqual(ids(deals).sort(), expected);
  const none = await search('deals', { filterGroups: [{ filters: [{ propertyName: 'associations.company', operator: 'EQ', value: '999' }] }] });
  t.is(none.json.total, 0);
});

test.serial('a v1 note is also a v3 note: same ID, body and owner as properties, associated with its records; an update moves its associations', async (t) => {
  const made = await call('POST', '/engagements/v1/engagements', { engagement: { type: 'NOTE', ownerId: 81234002, timestamp: Date.parse('2025-03-01T12:00:00Z') }, associations: { contactIds: [130], dealIds: [505] }, metadata: { body: 'Left a voicemail.' } });
  const id = String(made.json.engagement.id);
  const note = await call('GET', `/crm/v3/objects/notes/${id}?properties=hs_note_body,hubspot_owner_id,hs_timestamp`);
  t.like(note.json.properties, { hs_note_body: 'Left a voicemail.', hubspot_owner_id: '81234002', hs_timestamp: '2025-03-01T12:00:00.000Z' });
  const onContact = await call('GET', '/crm/v4/objects/contacts/130/associations/notes');
  t.deepEqual(onContact.json.results.map((r: { toObjectId: number }) => String(r.toObjectId)), [id]);
  await call('PATCH', `/engagements/v1/engagements/${id}`, { associations: { contactIds: [131] }, metadata: { body: 'Called back.' } });
  t.is((await call('GET', '/crm/v4/objects/contacts/130/associations/notes')).json.results.length, 0);
  t.is((await call('GET', '/crm/v4/objects/contacts/131/associations/notes')).json.results.length, 1);
  t.is((await call('GET', `/crm/v3/objects/notes/${id}?properties=hs_note_body`)).json.properties.hs_note_body, 'Called back.');
  t.is((await call('GET', '/crm/v4/objects/deals/505/associations/notes')).json.results.length, 1, 'associations the update does not name stay');
});

test.serial('odd requests on every route get HubSpot\'s 2xx or 4xx, never a 500', async (t) => {
  const values = ['101', '2001', '%E0%A4%A', 'contacts', '0-3', 'p24156789_cars', '9999999999999999999', '-1', 'x y'];
  const bodies: unknown[] = [null, [], {}, 'text', 7, { properties: null }, { properties: { email: ['a'] } }, { properties: { amount: 'lots', closedate: 'soon' } },
    { inputs: 'x' }, { inputs: [{}] }, { inputs: [{ id: 5, properties: {} }] }, { inputs: [{ from: {}, to: [] }] }, [{ associationCategory: 'NOPE', associationTypeId: -1 }],
    { filterGroups: [{ filters: [{ propertyName: 'amount', operator: 'BETWEEN', value: '1' }] }] }, { sorts: ['-', 7], after: 'abc', limit: -3 }, { query: '*' },
    { name: 'UPPER', label: '', type: 'enumeration', fieldType: 'select', groupName: 'x' }, { engagement: { type: 'NOTE' }, associations: { contactIds: ['a'] }, metadata: null }, { tokenKey: 42 }];
  let n = 0;
  for (const route of hubspotService.routes ?? []) {
    for (const value of values) {
      const target = route.pattern.replace(/:[A-Za-z]+/g, () => values[(n++ * 7) % values.length] ?? value) + (n % 3 === 0 ? '?limit=abc&after=zz&properties=,,&archived=maybe' : '');
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : bodies[n % bodies.length];
      const r = await call(route.method, target, body);
      t.true(r.status < 500, `${route.method} ${target} ${JSON.stringify(body)} → ${r.status} ${JSON.stringify(r.json)}`);
      n += 1;
    }
  }
});
