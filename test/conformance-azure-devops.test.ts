import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/azure-devops/conformance.js';
import { conformance } from './helpers/conformance.js';

// Azure DevOps through the conformance suite (test/helpers/conformance.ts): determinism, seeds,
// ADO's error envelope and fault shapes, volatile fields, and the 40 tools of @azure-devops/mcp
// through MCP (location discovery, tenant probe, almsearch, vstmr and advsec hosts included).

const TOKEN = 'ado-conformance-Wm3Kp8Qz2Lx6Tn4Rv9Hb5Jc';

const suite = conformance(test, {
  fullSweep: true, // a test below reads every tool's outcome
  service: 'azure-devops',
  sweep,
  headers: [['Authorization', `Bearer ${TOKEN}`], ['Accept', 'application/json']],
  values: {
    org: ['contoso'], project: ['Storefront', 'Storefront', 'Platform', '-', 'Nope'], team: ['-', '-', 'Payments'],
    id: ['103', '107', '113', '999'], projectId: ['Storefront', 'Platform'], repositoryId: ['storefront-web', 'payments-api', 'missing'], pullRequestId: ['57', '58', '404'],
    threadId: ['1', '2', '9'], buildId: ['880', '884', '886', '1'], logId: ['1', '2'], definitionId: ['11', '12'], pipelineId: ['11', '13'], runId: ['880', '884'],
    planId: ['501'], suiteId: ['511', '512'], wiki: ['Storefront.wiki', 'Platform.wiki'], area: ['wit', 'git', 'build', 'Location'], type: ['$Bug', 'Bug'],
  },
  bodies: {
    'POST /:org/:project/:team/_apis/wit/wiql': (random) => ({ query: random.pick(["SELECT [System.Id] FROM WorkItems WHERE [System.State] = 'Active'", 'SELECT [System.Id] FROM WorkItems WHERE', "SELECT [System.Id] FROM WorkItems WHERE [System.Tags] CONTAINS 'search' ORDER BY [System.ChangedDate] DESC"]) }),
    'POST /:org/:project/:team/_apis/wit/workItemsBatch': () => ({ ids: [103, 107], fields: ['System.Title'] }),
  },
  requests: [
    (random) => ({ method: 'OPTIONS', target: `/contoso/_apis/${random.pick(['wit', 'git', 'build', 'work', 'Location', 'testplan'])}` }),
    (random) => ({ method: 'GET', target: `/contoso/Storefront/_apis/git/repositories/storefront-web/pullRequests?searchCriteria.status=${random.pick(['active', 'all', 'completed'])}` }),
    // JSON Patch documents are arrays: a create and an update with valid and rule-breaking values.
    (random) => ({ method: 'POST', target: '/contoso/Storefront/_apis/wit/workItems/$Bug', body: JSON.stringify([{ op: 'add', path: '/fields/System.Title', value: random.pick(['Flaky checkout test', '']) }]) }),
    (random) => ({ method: 'PATCH', target: `/contoso/_apis/wit/workItems/${random.pick(['107', '113', '999'])}`, body: JSON.stringify([{ op: 'replace', path: '/fields/System.State', value: random.pick(['Active', 'Resolved', 'Shipped']) }]) }),
  ],
  seeded: { patterns: [/(?<![0-9a-f])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f])/g, /\b[0-9a-f]{40}\b/g, /aad\.[A-Za-z0-9_-]{24}/g] },
  errorShape: z.object({ $id: z.literal('1'), innerException: z.null(), message: z.string(), typeName: z.string(), typeKey: z.string(), errorCode: z.literal(0), eventId: z.number() }).strict(),
});

test('azure-devops: the 40 tools answer without errors (the attachment download meets ADO\'s 404: the world has no attachments)', async (t) => {
  const result = await suite.sweep();
  t.is(result.outcomes.length, 40);
  const failed = result.outcomes.filter((o) => o.tool !== 'wit_work_item_attachment' && (o.isError || o.transportError !== null || o.entries.length === 0 || o.entries.some((e) => e.response.status >= 300)))
    .map((o) => `${o.tool}: ${o.text.slice(0, 300)}`);
  t.deepEqual(failed, []);
  // typed-rest-client tunnels through HTTPS_PROXY with an agent of its own: the preload gives its
  // CONNECT the endpoint's credential, so its requests are the tool call's, not direct.
  t.true(result.outcomes.every((o) => o.entries.every((e) => e.attribution?.kind === 'mcp' && e.attribution.tool === o.tool)));
  const attachment = result.outcomes.find((o) => o.tool === 'wit_work_item_attachment')!;
  t.is(attachment.entries.at(-1)!.response.status, 404);
});
