import test from 'ava';
import { nearMissOverMcp, nearMissTest } from './helpers/near-miss-mcp.js';
import { join } from 'node:path';
import type { ScenarioManifest } from '../scenarios/manifest.js';
import type { World } from '../mocks/core/world.js';
import { atlassianService } from '../mocks/atlassian/index.js';
import { notionService } from '../mocks/notion/index.js';
import { isRestWrite, scenarioSuite } from './helpers/scenario-suite.js';

// The collab group's cross-service scenarios: a Jira bug whose fix is a GitHub pull request and
// whose status goes to Slack. Valid, nop 0, oracle 1 with R_b 0 over every MCP server, replay
// identical, bypassed writes fail (helpers/scenario-suite); and near-miss agents, driven over MCP
// with the oracle's calls but one wrong choice, score 0.

const jiraDir = join('scenarios', 'collab', 'cross', 'jira-bug-github-fix-slack');

const jira = scenarioSuite({
  service: 'atlassian',
  services: ['atlassian', 'github', 'slack'],
  endpoints: ['jira', 'github', 'slack'],
  dirs: [jiraDir],
  credentialOk: (world: World, credential: unknown) => {
    const state = world.state(['atlassian']).atlassian!;
    const c = credential as { site?: string; email?: string; token?: string };
    const site = (state.site?.site as { name?: string } | undefined)?.name;
    return c.site === site && `${(c.email ?? '').toLowerCase()}:${c.token}` in (state.tokens ?? {});
  },
  operationNames: atlassianService.kit.operations.map((operation) => operation.name),
}).get(jiraDir)!;

type Call = ScenarioManifest['oracle']['calls'][number];

/** The oracle's calls with `change` applied to each, over MCP; then the grade. */
const nearMiss = async (dir: string, manifest: ScenarioManifest, change: (call: Call) => Call) => (await nearMissOverMcp(dir, manifest, change)).result;

const failed = (result: Awaited<ReturnType<typeof nearMiss>>) => [...new Set(result.checks.filter((c) => !c.ok).map((c) => c.description.split(': ')[0]))];

nearMissTest()(`${jira.id}: an agent that links the closed first attempt (#39) instead of the live fix scores 0`, async (t) => {
  const result = await nearMiss(jiraDir, jira, (call) => {
    if (call.tool === 'jira_add_comment') return { ...call, arguments: { ...call.arguments, body: 'The fix is https://github.com/larkspur/platform-api/pull/39 (Fix webhook signatures for non-ASCII payloads).' } };
    if (call.tool === 'slack_post_message') return { ...call, arguments: { ...call.arguments, text: 'Status on ENG-36: the fix is larkspur/platform-api#39; the Jira issue is now In Review.' } };
    return call;
  });
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.false(result.state_ok);
  t.deepEqual(failed(result), ['the comment links pull request #41', 'the status names ENG-36 and pull request #41']);
});

nearMissTest()(`${jira.id}: an agent that posts the status in the look-alike #eng-escalations scores 0`, async (t) => {
  const result = await nearMiss(jiraDir, jira, (call) => (call.tool === 'slack_post_message' ? { ...call, arguments: { ...call.arguments, channel_id: 'C07LRKESC1' } } : call));
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.true(result.r_b > 0, `r_b ${result.r_b}`);
  t.deepEqual(failed(result), ['one message by the bot in #cs-escalations', 'the status names ENG-36 and pull request #41', 'no a message by the bot in another channel', 'the status is posted in #cs-escalations through the Slack MCP server', 'no Slack message outside #cs-escalations']);
});

// Meeting notes in a Google Doc become Notion tasks.

const notesDir = join('scenarios', 'collab', 'cross', 'meeting-notes-doc-to-notion');

const notes = scenarioSuite({
  service: 'notion',
  services: ['google', 'notion'],
  dirs: [notesDir],
  credentialOk: (world: World, token: unknown) => typeof token === 'string' && token in (world.state(['notion']).notion!.tokens ?? {}),
  operationNames: notionService.kit.operations.map((operation) => operation.name),
  // Notion's search and queries are POSTs that only read.
  isWrite: (entry) => isRestWrite(entry) && !['search', 'dataSources.query'].includes(entry.operation?.name ?? ''),
}).get(notesDir)!;

const HANA = '9def87cc-819d-5542-b3e7-bf5689a8e558';
const OWEN = '61b94892-4599-5a9b-ae09-8aec9995ca97';
const PRIYA_RAMANATHAN = '085814c2-f72d-538a-a14a-c0b1e93fe253';
const postPage = (title: string, assignee: string, due: string, database = 'a46e8460-824f-5049-86ff-40f44429f1d3'): Call => ({
  endpoint: 'notion', tool: 'API-post-page',
  arguments: { parent: { database_id: database }, properties: { Task: { title: [{ text: { content: title } }] }, Status: { status: { name: 'Not started' } }, Assignee: { people: [{ id: assignee }] }, Due: { date: { start: due } } } },
});

nearMissTest()(`${notes.id}: an agent that also files the item already in Sprint Tasks, assigns the wrong Priya and takes the agenda's date scores 0`, async (t) => {
  const calls = [...notes.oracle.calls, postPage('Renew the TLS certificates on the edge proxies', OWEN, '2025-10-08')];
  const result = await nearMiss(notesDir, { ...notes, oracle: { ...notes.oracle, calls } }, (call) => {
    const content = JSON.stringify(call.arguments);
    if (content.includes('on-call rotation')) return postPage('Review the on-call rotation for Q4', PRIYA_RAMANATHAN, '2025-10-15');
    if (content.includes('hiring plan')) return postPage('Draft the Q4 hiring plan', HANA, '2025-10-17');
    return call;
  });
  t.is(result.reward, 0);
  t.true(result.forbidden_calls_ok);
  t.deepEqual(failed(result), [
    'one Not started task for Hana, the Q4 hiring plan, due 2025-10-10',
    'one Not started task for Priya Raman, the Q4 on-call rotation review, due 2025-10-15',
    'the TLS renewal stays one task, unchanged',
  ]);
});

nearMissTest()(`${notes.id}: an agent that files the Design team's item in Design Tasks scores 0`, async (t) => {
  const calls = [...notes.oracle.calls, postPage('Refresh the onboarding illustrations', 'a84f06fe-db80-5f1b-b1c7-c1edbf93c844', '2025-10-17', '7ddb226e-83fb-5535-af6d-6ae47f4dc5e8')];
  const result = await nearMiss(notesDir, { ...notes, oracle: { ...notes.oracle, calls } }, (call) => call);
  t.is(result.reward, 0);
  t.false(result.forbidden_calls_ok);
  t.false(result.state_ok);
  t.deepEqual(failed(result), [
    'no a task for the Design team\'s illustrations or the parking-lot standup',
    'Design Tasks keeps its two rows',
    'nothing is created in the Design team\'s database (by database)',
  ]);
});
