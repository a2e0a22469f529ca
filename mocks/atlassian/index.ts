import { defineService } from '../kit/define.js';
import { atlassianAuth, atlassianContext, type AtlassianCtx } from './context.js';
import { AtlassianDatasetSchema, type AtlassianDataset } from './dataset.js';
import { atlassianErrors, atlassianFault, atlassianRefusal } from './errors.js';
import { confluenceOperations, siteNotFound } from './confluence/content.js';
import { agileOperations } from './jira/agile.js';
import { attachmentOperations } from './jira/attachments.js';
import { jiraTail } from './jira/fallback.js';
import { issueOperations } from './jira/issues.js';
import { metaOperations } from './jira/meta.js';
import { searchOperations } from './jira/search-ops.js';
import { loadAtlassian } from './load.js';

/**
 * One Atlassian Cloud site (`{site}.atlassian.net`): the tenant (people, API tokens by basic auth)
 * and its products. Jira: the platform REST API v3 (/rest/api/3) with ADF bodies and a JQL subset,
 * and Jira Software's agile API (/rest/agile/1.0). Atlassian's `{errorMessages, errors}` envelope
 * and its 429. docs/atlassian-mock.md.
 */
export const atlassianService = defineService<AtlassianDataset, AtlassianCtx>({
  id: 'atlassian',
  version: '1',
  dataset: AtlassianDatasetSchema,
  load: loadAtlassian,
  context: atlassianContext,
  operations: [...issueOperations, ...searchOperations, ...metaOperations, ...attachmentOperations, ...agileOperations, ...confluenceOperations, ...siteNotFound],
  errors: (error, context) => atlassianErrors(error, context),
  refusal: atlassianRefusal,
  middleware: [atlassianAuth],
  fault: atlassianFault,
  fallback: jiraTail,
  volatile: {
    // Timestamps of change, ranks renumbered by a move, and the records kept for feeds and queues.
    'jira.issues': ['updated', 'rank', 'resolutiondate'],
    'jira.projects': ['last_number'],
    'jira.changelog': '*',
    'jira.bulk_tasks': '*',
    'jira.deleted_worklogs': '*',
    // An edit's time and its optional note ride with the version number, which graders check.
    'confluence.content': ['version.when', 'version.message'],
  },
});
