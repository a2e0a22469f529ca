import test from 'ava';
import { z } from 'zod';
import { IDS, sweep } from '../mocks/notion/conformance.js';
import { conformance } from './helpers/conformance.js';

// Notion through the conformance suite (test/helpers/conformance.ts): determinism, seeds, error
// and fault shapes, volatile fields, and every tool of @notionhq/notion-mcp-server over MCP.

const { tasks: TASKS, task: TASK, incidentDoc: DOC } = IDS;
const text = (content: string) => [{ type: 'text', text: { content } }];

conformance(test, {
  service: 'notion',
  sweep,
  headers: [['Authorization', `Bearer ${IDS.token}`], ['Notion-Version', '2025-09-03']],
  values: {
    page_id: [TASK, DOC, '00000000-0000-4000-8000-000000000000'], block_id: [DOC, '09312e0c-1e51-5aa3-90fa-5f2de1208533', 'not-a-uuid'],
    data_source_id: [TASKS, '00000000-0000-4000-8000-000000000001'], database_id: ['a46e8460-824f-5049-86ff-40f44429f1d3'],
    user_id: ['5c6e4f2b-f8a8-5f0b-8e9e-33582fabfbd4'], property_id: ['title', 'missing'],
  },
  bodies: {
    'POST /v1/pages': (random, i) => ({ parent: { data_source_id: TASKS }, properties: { Task: { title: text(`Task ${i}`) }, Priority: { select: { name: random.pick(['High', 'Low', 'Someday']) } } } }),
    'PATCH /v1/pages/:page_id': (random) => ({ properties: { Status: { status: { name: random.pick(['Done', 'In progress', 'Unknown']) } } } }),
    'PATCH /v1/blocks/:block_id/children': (_random, i) => ({ children: [{ type: 'to_do', to_do: { rich_text: text(`Item ${i}`) } }] }),
    'POST /v1/comments': (_random, i) => ({ parent: { page_id: DOC }, rich_text: text(`Comment ${i}`) }),
    'POST /v1/search': (random) => ({ query: random.pick(['search', 'billing', '']), page_size: random.int(1, 4) }),
    'POST /v1/data_sources/:data_source_id/query': (random) => ({ filter: { property: 'Status', status: { equals: random.pick(['Done', 'In review']) } }, page_size: random.int(1, 5) }),
  },
  requests: [
    (random) => ({ method: 'POST', target: `/v1/data_sources/${TASKS}/query`, body: { sorts: [{ property: 'Due', direction: random.pick(['ascending', 'descending']) }], page_size: 3 } }),
    () => ({ method: 'POST', target: `/v1/data_sources/${TASKS}/query`, body: { filter: { property: 'Nope', select: { equals: 'x' } } } }),
    () => ({ method: 'POST', target: '/v1/pages', body: { parent: { data_source_id: TASKS }, properties: { Nope: { title: text('x') } } } }),
  ],
  seeded: { patterns: [/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/, /[0-9a-f]{32}/] },
  errorShape: z.object({ object: z.literal('error'), status: z.number().int(), code: z.string(), message: z.string() }).strict(),
});
