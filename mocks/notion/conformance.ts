import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call every tool of Notion's MCP server: in
 * the conformance world (the baseline workspace), with IDs that exist there. Block tools take a
 * block of the "Release checklist" page, the delete its last one.
 */
/** IDs of the conformance world (the baseline workspace) that sweeps and tests name. */
export const IDS = {
  token: 'ntn_conformance_token_00000000000',
  tasks: '49dffeef-d8a6-55ba-b63e-bd485dd4467b', // the Sprint Tasks data source
  tasksDb: 'a46e8460-824f-5049-86ff-40f44429f1d3',
  task: '9bfd22b9-e904-59fd-8839-f006ee90623e', // "Migrate billing webhooks"
  incidentDoc: '6080af5a-0655-5b60-83c1-1aa49e200bab', // "Incident response", one comment
  engineering: 'db6c1c9d-53a2-5637-8cce-ea8c6f7f8a30',
  priya: '5c6e4f2b-f8a8-5f0b-8e9e-33582fabfbd4',
  hana: '9def87cc-819d-5542-b3e7-bf5689a8e558',
} as const;
const { tasks: TASKS, tasksDb: TASKS_DB, task: TASK, incidentDoc: INCIDENT_DOC, engineering: ENGINEERING, priya: PRIYA } = IDS;
const text = (content: string) => [{ type: 'text', text: { content } }];

/** Blocks of the "Release checklist" page (the dataset gives them fixed IDs). */
const CHECKLIST = ['09312e0c-1e51-5aa3-90fa-5f2de1208533', '06f79cd6-80fa-5adc-bbbb-87bc75589afe', '98e8f81a-d433-5f2c-8f78-f5b484b07990'] as const;

export const sweep: SweepProfile = {
  scenario: 'mocks/notion/conformance',
  // Reads of a block before its update and the delete (which trashes the page's last block).
  order: (tool) => (tool === 'API-delete-a-block' ? 2 : tool === 'API-update-a-block' ? 1 : 0),
  args: {
    common: { data_source_id: TASKS, database_id: TASKS_DB, user_id: PRIYA },
    tools: {
      'API-create-a-comment': { parent: { page_id: INCIDENT_DOC }, rich_text: text('Added the status page step.') },
      'API-create-a-data-source': { parent: { type: 'database_id', database_id: TASKS_DB }, title: text('Backlog'), properties: { Name: { title: {} }, Points: { number: {} } } },
      'API-get-block-children': { block_id: ENGINEERING, page_size: 10 },
      'API-get-users': { page_size: 5 },
      'API-list-data-source-templates': { page_size: 10 },
      'API-move-page': { page_id: INCIDENT_DOC, parent: { type: 'page_id', page_id: ENGINEERING } },
      'API-patch-block-children': { block_id: INCIDENT_DOC, children: [{ type: 'paragraph', paragraph: { rich_text: text('Update the status page.') } }] },
      'API-patch-page': { page_id: TASK, properties: { Status: { status: { name: 'Done' } } } },
      'API-post-page': { parent: { data_source_id: TASKS }, properties: { Task: { title: text('Sweep task') }, Status: { status: { name: 'Not started' } } } },
      'API-post-search': { query: 'search', page_size: 5 },
      'API-query-data-source': { filter: { property: 'Status', status: { equals: 'In review' } }, sorts: [{ property: 'Due', direction: 'ascending' }], page_size: 5 },
      'API-retrieve-a-comment': { block_id: INCIDENT_DOC },
      'API-retrieve-a-page': { page_id: TASK },
      'API-retrieve-a-page-property': { page_id: TASK, property_id: 'title' },
      'API-retrieve-page-markdown': { page_id: INCIDENT_DOC },
      'API-update-a-data-source': { title: text('Sprint Tasks'), properties: { Points: { number: {} } } },
      'API-retrieve-a-block': { block_id: CHECKLIST[0] },
      'API-update-a-block': { block_id: CHECKLIST[1], type: { bulleted_list_item: { rich_text: text('Migrations reviewed twice') } }, archived: false },
      'API-delete-a-block': { block_id: CHECKLIST[2] },
      'API-update-page-markdown': { page_id: INCIDENT_DOC, type: 'insert_content', insert_content: { content: '- Notify customers' } },
    },
  },
};
