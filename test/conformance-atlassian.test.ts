import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/atlassian/conformance.js';
import { conformance } from './helpers/conformance.js';

// The conformance suite over the Atlassian site (test/helpers/conformance.ts): determinism, seeds,
// error and fault shapes, volatile fields, and every tool of both endpoints through MCP: the 91 of
// mcp-jira-cloud (jira) and the 40 of mcp-atlassian (confluence).

// Jira's envelope, and Confluence's (every error under /wiki).
const AtlassianError = z.union([
  z.object({ errorMessages: z.array(z.string()), errors: z.record(z.string()) }).strict(),
  z.object({ statusCode: z.number().int(), data: z.object({ authorized: z.boolean(), valid: z.boolean(), errors: z.array(z.unknown()), successful: z.literal(false) }).strict(), message: z.string(), reason: z.string() }).strict(),
]);
const adf = (text: string) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

conformance(test, {
  service: 'atlassian',
  sweep,
  headers: [['Authorization', `Basic ${Buffer.from('priya.raman@larkspur.example:ATATT3x9ewrejf7GrkHYjzBKVSRJPic').toString('base64')}`]],
  values: {
    issueIdOrKey: ['ENG-5', 'ENG-12', 'MOB-3', '10020', 'ENG-999'], projectIdOrKey: ['ENG', 'MOB', '10002', 'NOPE'], boardId: ['1', '2', '3', '99'],
    sprintId: ['42', '43', '44', '999'], epicIdOrKey: ['ENG-1', 'ENG-2', 'ENG-5', 'none'], id: ['10000', '10001', '10003', '99999'], linkId: ['10001', '99999'],
    taskId: ['10000', '99999'], issueTypeId: ['10001', '10003', '99999'], dashboardId: ['10000'], gadgetId: ['10000'],
    spaceKey: ['ENG', 'OPS', 'NOPE'], type: ['page', 'comment', 'attachment'], pageId: ['65008', '65003'], filename: ['retry-dashboard.txt', 'missing.txt'], label: ['api', 'limits', 'nope'],
    rest: ['user/current', 'content/65003'],
  },
  bodies: {
    'POST /rest/api/3/issue': (r, i) => ({ fields: { project: { key: r.pick(['ENG', 'MOB', 'OPS']) }, issuetype: { name: r.pick(['Bug', 'Task', 'Story']) }, summary: `Generated ${i}`, description: adf(`Body ${i}`), labels: [r.pick(['gen', 'customer'])] } }),
    'PUT /rest/api/3/issue/:issueIdOrKey': (r) => ({ fields: { priority: { name: r.pick(['High', 'Low']) } }, update: { labels: [{ add: 'touched' }] } }),
    'PUT /rest/api/3/issue/:issueIdOrKey/assignee': (r) => ({ accountId: r.pick(['5b10ac8d82e05b22cc7d4e11', '5b10ac8d82e05b22cc7d4e12', null]) }),
    'POST /rest/api/3/issue/:issueIdOrKey/transitions': (r) => ({ transition: { id: r.pick(['11', '21', '31', '41']) } }),
    'POST /rest/api/3/issue/:issueIdOrKey/comment': (_r, i) => ({ body: adf(`Comment ${i}`) }),
    'PUT /rest/api/3/issue/:issueIdOrKey/comment/:id': (_r, i) => ({ body: adf(`Edited ${i}`) }),
    'POST /rest/api/3/issue/:issueIdOrKey/worklog': (r) => ({ timeSpent: r.pick(['30m', '1h', '2h 15m']), started: '2025-09-21T10:00:00.000+0000' }),
    'POST /rest/api/3/issueLink': (r) => ({ type: { name: r.pick(['Blocks', 'Relates']) }, inwardIssue: { key: 'ENG-5' }, outwardIssue: { key: r.pick(['ENG-6', 'MOB-3']) } }),
    'POST /rest/api/3/search/jql': (r) => ({ jql: r.pick(['project = ENG', 'labels = customer ORDER BY created DESC', 'text ~ "sync"']), fields: ['summary', 'status'], maxResults: r.int(1, 10) }),
    'POST /rest/api/3/search': (r) => ({ jql: r.pick(['project = MOB', 'assignee = currentUser()']), startAt: r.int(0, 3), maxResults: 5 }),
    'POST /rest/api/3/jql/parse': () => ({ queries: ['project = ENG AND status = Done', 'nonsense ==='] }),
    'POST /rest/api/3/worklog/list': () => ({ ids: [10001, 10002, 10003] }),
    'POST /rest/api/3/filter': (_r, i) => ({ name: `Generated filter ${i}`, jql: 'project = OPS' }),
    'PUT /rest/api/3/filter/:id': () => ({ description: 'updated' }),
    'POST /rest/api/3/bulk/issues/fields': () => ({ issueIdsOrKeys: ['ENG-11'], editedFieldsInput: { labels: { add: ['bulk'] } } }),
    'POST /rest/api/3/bulk/issues/watch': () => ({ issueIdsOrKeys: ['ENG-11', 'ENG-404'] }),
    'POST /rest/api/3/bulk/issues/unwatch': () => ({ issueIdsOrKeys: ['ENG-11'] }),
    'POST /rest/agile/1.0/sprint': (_r, i) => ({ name: `Gen ${i}`, originBoardId: 2 }),
    'PUT /rest/agile/1.0/sprint/:sprintId': (_r, i) => ({ name: `Renamed ${i}` }),
    'POST /rest/agile/1.0/sprint/:sprintId': (r) => ({ goal: r.pick(['ship it', 'stabilise']) }),
    'POST /rest/agile/1.0/sprint/:sprintId/issue': () => ({ issues: ['ENG-7'] }),
    'POST /rest/agile/1.0/backlog/issue': () => ({ issues: ['ENG-8'] }),
    'PUT /rest/agile/1.0/issue/rank': () => ({ issues: ['ENG-10'], rankAfterIssue: 'ENG-11' }),
    'POST /rest/agile/1.0/epic/:epicIdOrKey/issue': () => ({ issues: ['ENG-12'] }),
    'POST /wiki/rest/api/content': (r, i) => (r.int(0, 2) === 0
      ? { type: 'comment', container: { id: r.pick(['65003', '65008']), type: 'page' }, body: { storage: { value: `<p>Comment ${i}</p>`, representation: 'storage' } } }
      : { type: 'page', title: `Generated page ${i}`, space: { key: r.pick(['ENG', 'OPS']) }, body: { storage: { value: `<p>Body ${i}</p>`, representation: 'storage' } } }),
    'PUT /wiki/rest/api/content/:id': (r, i) => ({ version: { number: r.int(1, 3) }, title: `Renamed ${i}`, type: 'page' }),
    'POST /wiki/rest/api/content/:id/label': (r) => [{ prefix: 'global', name: r.pick(['reviewed', 'draft']) }] as unknown as Record<string, unknown>,
  },
  skipRoutes: ['POST /rest/api/3/issue/:issueIdOrKey/attachments', 'POST /wiki/rest/api/content/:id/child/attachment'],
  requests: [
    (r) => ({ method: 'GET', target: `/rest/api/3/search/jql?jql=${encodeURIComponent(r.pick(['project = ENG AND status != Done ORDER BY priority DESC', 'sprint in openSprints() AND assignee is EMPTY', 'text ~ "export" OR labels in (regression, security)']))}&fields=summary,status,assignee&maxResults=${r.int(1, 20)}` }),
    (r) => ({ method: 'GET', target: `/rest/api/3/search?jql=${encodeURIComponent('project = ENG ORDER BY key ASC')}&startAt=${r.int(0, 30)}&maxResults=${r.int(1, 10)}` }),
    (r) => ({ method: 'GET', target: `/rest/api/3/user/search?query=${r.pick(['pri', 'a', 'zz'])}` }),
    (r) => ({ method: 'GET', target: `/wiki/rest/api/content/search?cql=${encodeURIComponent(r.pick(['space = ENG AND type = page ORDER BY title', 'label = runbook', 'text ~ "on-call" OR title ~ "policy"', 'ancestor = 65001']))}&limit=${r.int(1, 10)}&expand=space,version` }),
    (r) => ({ method: 'GET', target: `/wiki/rest/api/content?spaceKey=${r.pick(['ENG', 'HR'])}&limit=${r.int(1, 5)}&start=${r.int(0, 3)}` }),
  ],
  seeded: {},
  errorShape: AtlassianError,
});
