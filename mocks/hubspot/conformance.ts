import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call every tool of HubSpot's MCP server: in
 * the conformance portal (mocks/hubspot/conformance), with IDs that exist there. The property is
 * created before it is read and updated; engagement 3001 is in the dataset. The feedback link and
 * the UI link tools compute URLs without calling the API.
 */
export const sweep: SweepProfile = {
  scenario: 'mocks/hubspot/conformance',
  order: ['hubspot-create-property'],
  offline: ['hubspot-generate-feedback-link', 'hubspot-get-link'],
  args: {
    common: { objectType: 'contacts', limit: 20 },
    tools: {
      'hubspot-list-objects': { objectType: 'deals', limit: 5, properties: ['dealname', 'amount'], associations: ['companies'] },
      'hubspot-search-objects': { objectType: 'contacts', filterGroups: [{ filters: [{ propertyName: 'lifecyclestage', operator: 'EQ', value: 'customer' }] }], sorts: [{ propertyName: 'lastname', direction: 'ASCENDING' }], properties: ['email'], limit: 5 },
      'hubspot-batch-read-objects': { objectType: 'companies', inputs: [{ id: '2001' }, { id: '2002' }], properties: ['name', 'domain'], propertiesWithHistory: [] },
      'hubspot-batch-create-objects': { objectType: 'contacts', inputs: [{ properties: { firstname: 'Sweep', lastname: 'Contact', email: 'sweep.contact@example.test' } }] },
      'hubspot-batch-update-objects': { objectType: 'deals', inputs: [{ id: '501', properties: { hs_priority: 'high' } }] },
      'hubspot-batch-create-associations': { fromObjectType: 'contacts', toObjectType: 'companies', types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }], inputs: [{ from: { id: '102' }, to: { id: '2003' } }] },
      'hubspot-get-association-definitions': { fromObjectType: 'contacts', toObjectType: 'companies' },
      'hubspot-list-associations': { objectType: 'deals', objectId: '501', toObjectType: 'companies' },
      'hubspot-list-properties': { objectType: 'deals' },
      'hubspot-get-property': { objectType: 'contacts', propertyName: 'sweep_score' },
      'hubspot-create-property': { objectType: 'contacts', name: 'sweep_score', label: 'Sweep score', type: 'number', fieldType: 'number', groupName: 'contactinformation', description: 'Created by the sweep' },
      'hubspot-update-property': { objectType: 'contacts', propertyName: 'sweep_score', label: 'Sweep score (updated)' },
      'hubspot-create-engagement': { type: 'NOTE', ownerId: 81234001, timestamp: 1740992400000, associations: { contactIds: [101] }, metadata: { body: 'Sweep note' } },
      'hubspot-get-engagement': { engagementId: 3001 },
      'hubspot-update-engagement': { engagementId: 3001, metadata: { body: 'Intro call (edited by the sweep)' }, associations: { contactIds: [101] } },
      'hubspot-get-workflow': { flowId: '1600021' },
      'hubspot-list-workflows': { limit: 10 },
      'hubspot-get-link': { portalId: '24156789', uiDomain: 'app.hubspot.com', pageRequests: [{ pagetype: 'record', objectTypeId: '0-1', objectId: '101' }] },
    },
  },
};
