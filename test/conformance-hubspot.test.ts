import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/hubspot/conformance.js';
import { conformance } from './helpers/conformance.js';

// The conformance suite over HubSpot (test/helpers/conformance.ts): determinism, seeds, error and
// fault shapes, volatile fields, and all 21 tools of the pinned @hubspot/mcp-server through MCP.

const HubspotError = z.union([
  z.object({
    status: z.literal('error'), message: z.string(), correlationId: z.string().uuid(),
    category: z.enum(['VALIDATION_ERROR', 'OBJECT_NOT_FOUND', 'INVALID_AUTHENTICATION', 'MISSING_SCOPES', 'CONFLICT', 'OBJECT_ALREADY_EXISTS', 'BAD_REQUEST']),
    context: z.record(z.array(z.string())).optional(), errors: z.array(z.unknown()).optional(), subCategory: z.string().optional(),
  }).strict(),
  z.object({ status: z.literal('error'), message: z.string(), errorType: z.literal('RATE_LIMIT'), correlationId: z.string().uuid(), policyName: z.string(), requestId: z.string().uuid() }).strict(),
]);

const contacts = ['101', '102', '150', '999999'];
conformance(test, {
  service: 'hubspot',
  sweep,
  headers: [['Authorization', 'Bearer pat-na1-conformance-00000000-0000-0000']],
  values: {
    objectType: ['contacts', 'deals', 'companies', '0-5', 'widgets'], toObjectType: ['companies', 'contacts', 'deals'],
    fromObjectType: ['contacts', 'deals'], objectId: contacts, toObjectId: ['2001', '501', '101'], fromObjectId: contacts,
    propertyName: ['email', 'dealstage', 'nope'], ownerId: ['81234001', '71234002', '1'], flowId: ['1600021', '42'], engagementId: ['3001', '5'],
  },
  bodies: {
    'POST /crm/v3/objects/:objectType': (r, i) => ({ properties: { firstname: `Gen${i}`, email: `gen${i}.${r.int(1, 99)}@example.test` } }),
    'PATCH /crm/v3/objects/:objectType/:objectId': (r) => ({ properties: { lifecyclestage: r.pick(['lead', 'customer', 'bogus']) } }),
    'POST /crm/v3/objects/:objectType/search': (r) => ({ filterGroups: [{ filters: [{ propertyName: 'lifecyclestage', operator: r.pick(['EQ', 'NEQ', 'HAS_PROPERTY']), value: 'customer' }] }], limit: r.int(1, 30) }),
    'POST /crm/v3/objects/:objectType/batch/read': () => ({ inputs: [{ id: '101' }, { id: '404404' }], properties: ['email'] }),
    'POST /crm/v3/objects/:objectType/batch/update': (r) => ({ inputs: [{ id: '102', properties: { jobtitle: r.pick(['CTO', 'Buyer']) } }] }),
    'POST /crm/v4/associations/:fromObjectType/:toObjectType/batch/create': () => ({ inputs: [{ from: { id: '101' }, to: { id: '2002' }, types: [] }] }),
    'POST /crm/v3/properties/:objectType': (_r, i) => ({ name: `gen_${i}`, label: `Gen ${i}`, type: 'string', fieldType: 'text', groupName: 'contactinformation' }),
    'POST /engagements/v1/engagements': () => ({ engagement: { type: 'NOTE', ownerId: 81234001, timestamp: 1740992400000 }, associations: { contactIds: [101] }, metadata: { body: 'Generated' } }),
  },
  requests: [
    (r) => ({ method: 'GET', target: `/crm/v3/objects/contacts?limit=${r.int(1, 40)}&properties=email,phone&associations=companies` }),
    (r) => ({ method: 'POST', target: '/crm/v3/objects/deals/search', body: { query: r.pick(['Harbor', 'Acme', 'renewal']), sorts: [{ propertyName: 'amount', direction: 'DESCENDING' }], limit: 5 } }),
    () => ({ method: 'GET', target: '/crm/v3/nothing/here' }),
  ],
  seeded: { patterns: [/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g], headers: ['X-HubSpot-Correlation-Id'] },
  errorShape: HubspotError,
});
