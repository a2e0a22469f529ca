import test from 'ava';
import { join } from 'node:path';
import { hubspotService } from '../mocks/hubspot/index.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { openWorld } from '../scenarios/world.js';
import { scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every HubSpot scenario of the business group (helpers/scenario-suite): valid (oracle arguments
// against the real server's input schemas), nop 0, oracle 1 with R_b 0 through the real
// @hubspot/mcp-server, replay identical, bypassed writes fail; and near misses score 0.

const dirs = findScenarios(join('scenarios', 'business')).filter((dir) => dir.includes('/hubspot/'));
const manifests = scenarioSuite({
  service: 'hubspot',
  dirs,
  credentialOk: (world, token) => typeof token === 'string' && token in (world.state(['hubspot']).hubspot!.tokens ?? {}),
  operationNames: hubspotService.kit.operations.map((operation) => operation.name),
});

scenarioSetSuite('HubSpot', 'hubspot', manifests, [
  { collection: 'contacts', min: 90, what: 'a non-trivial portal (contacts)' },
  { collection: 'deals', min: 40, what: 'a non-trivial portal (deals)' },
]);

/** A write straight to the world (as a confused agent's tool call would make it), then the grade. */
async function nearMiss(id: string, method: string, target: string, body: unknown): Promise<{ status: number; reward: number; forbidden: boolean; state: boolean }> {
  const dir = join('scenarios', 'business', 'hubspot', id);
  const manifest = manifests.get(dir)!;
  const opened = await openWorld({ scenarioDir: dir });
  try {
    const response = await opened.world.dispatch({ host: 'api.hubspot.com', method, target, body: new TextEncoder().encode(JSON.stringify(body)),
      headers: [['Authorization', `Bearer ${manifest.credentials.hubspot as string}`], ['Content-Type', 'application/json']] });
    const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
    return { status: response.status, reward: result.reward, forbidden: result.forbidden_calls_ok, state: result.state_ok };
  } finally {
    await opened.world.journal.close();
  }
}

test('near misses score 0: the look-alike deal, a duplicate contact, the other Jordan Blake, the other Marcus Okafor, the look-alike company and contact', async (t) => {
  const wrongDeal = await nearMiss('close-won-renewal', 'POST', '/crm/v3/objects/deals/batch/update', { inputs: [{ id: '603', properties: { dealstage: 'closedwon', amount: '48000' } }] });
  t.deepEqual(wrongDeal, { status: 200, reward: 0, forbidden: false, state: false });
  const lastYear = await nearMiss('close-won-renewal', 'POST', '/crm/v3/objects/deals/batch/update', { inputs: [{ id: '601', properties: { amount: '48000' } }] });
  t.deepEqual(lastYear, { status: 200, reward: 0, forbidden: false, state: false });
  // Her email is taken: HubSpot refuses the duplicate (409), and the attempt is still a forbidden call.
  const duplicate = await nearMiss('update-existing-contact', 'POST', '/crm/v3/objects/contacts/batch/create', { inputs: [{ properties: { firstname: 'Priya', lastname: 'Raman', email: 'priya.raman@lumenanalytics.example', phone: '+1 617 555 0199' } }] });
  t.deepEqual(duplicate, { status: 409, reward: 0, forbidden: false, state: false });
  const otherJordan = await nearMiss('associate-champion', 'POST', '/crm/v4/associations/deals/contacts/batch/create', { inputs: [{ from: { id: '611' }, to: { id: '312' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }] }] });
  t.deepEqual(otherJordan, { status: 201, reward: 0, forbidden: false, state: false });
  const otherMarcus = await nearMiss('log-call-note', 'POST', '/engagements/v1/engagements', { engagement: { type: 'NOTE', ownerId: 81234003, timestamp: 1749147600000 }, associations: { contactIds: [322] }, metadata: { body: 'Call: wants a quote for 40 Growth seats by Friday; loop in procurement (Dana).' } });
  t.deepEqual(otherMarcus, { status: 200, reward: 0, forbidden: false, state: false });
  const lookAlikes = await nearMiss('new-deal-with-associations', 'POST', '/crm/v3/objects/deals/batch/create', { inputs: [{
    properties: { dealname: 'Cedar Health – Growth plan expansion', amount: '24000', pipeline: 'default', dealstage: 'qualifiedtobuy', closedate: '2025-12-31', hubspot_owner_id: '81234005' },
    associations: [{ to: { id: '2102' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 5 }] }, { to: { id: '332' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }] }],
  }] });
  t.deepEqual(lookAlikes, { status: 201, reward: 0, forbidden: true, state: false });
});
