import { defineService } from '../kit/define.js';
import { accountOperations } from './account.js';
import { associationOperations } from './associations.js';
import { hubspotContext, hubspotErrors, hubspotRefusal, type HubspotCtx } from './context.js';
import { HubspotDatasetSchema, type HubspotDataset } from './dataset.js';
import { engagementOperations } from './engagements.js';
import { loadHubspot } from './load.js';
import { hubspotAuth, hubspotFault, hubspotHeaders } from './middleware.js';
import { objectOperations } from './objects.js';
import { propertyOperations } from './properties.js';

/**
 * The HubSpot API (api.hubapi.com, and api.hubspot.com, which the MCP server calls) on the
 * service kit: CRM v3 objects with HubSpot's search (filter groups, sorts, cursor paging),
 * associations v4, properties, owners, pipelines, engagements v1, private-app token info,
 * account details, custom object schemas and automation flows; private-app bearer tokens,
 * HubSpot's error body and categories, its rate-limit headers and 429s. No published OpenAPI
 * description exists, so there is no spec fallback: any other path is HubSpot's 404.
 * docs/hubspot-mock.md.
 */
export const hubspotService = defineService<HubspotDataset, HubspotCtx>({
  id: 'hubspot',
  version: '1',
  dataset: HubspotDatasetSchema,
  load: loadHubspot,
  context: hubspotContext,
  operations: [...objectOperations, ...associationOperations, ...propertyOperations, ...accountOperations, ...engagementOperations],
  errors: hubspotErrors,
  refusal: hubspotRefusal,
  middleware: [hubspotHeaders, hubspotAuth],
  fault: hubspotFault,
  volatile: {
    rate_windows: '*',
    contacts: ['createdAt', 'updatedAt', 'properties.createdate', 'properties.lastmodifieddate'],
    companies: ['createdAt', 'updatedAt', 'properties.createdate', 'properties.hs_lastmodifieddate'],
    deals: ['createdAt', 'updatedAt', 'properties.createdate', 'properties.hs_lastmodifieddate'],
    tickets: ['createdAt', 'updatedAt', 'properties.createdate', 'properties.hs_lastmodifieddate'],
    notes: ['createdAt', 'updatedAt', 'properties.hs_createdate', 'properties.hs_lastmodifieddate'],
    properties: ['createdAt', 'updatedAt'],
    engagements: ['engagement.createdAt', 'engagement.lastUpdated'],
  },
});
