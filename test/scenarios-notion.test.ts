import test from 'ava';
import { join } from 'node:path';
import { notionService } from '../mocks/notion/index.js';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { openWorld } from '../scenarios/world.js';
import { isRestWrite, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Notion scenario of the collab group (helpers/scenario-suite): valid (oracle arguments
// against the real server's input schemas), nop 0, oracle 1 through the real
// @notionhq/notion-mcp-server, replay identical; and near misses score 0.

const dirs = findScenarios(join('scenarios', 'collab')).filter((dir) => dir.includes('/notion/'));
const manifests = scenarioSuite({
  service: 'notion',
  dirs,
  credentialOk: (world, token) => typeof token === 'string' && token in (world.state(['notion']).notion!.tokens ?? {}),
  operationNames: notionService.kit.operations.map((operation) => operation.name),
  // Search and queries are POSTs that only read.
  isWrite: (entry) => isRestWrite(entry) && !['search', 'dataSources.query'].includes(entry.operation?.name ?? ''),
});

scenarioSetSuite('Notion', 'notion', manifests, { collection: 'pages', min: 40, what: 'a non-trivial workspace' });

const H = (token: string): [string, string][] => [['Authorization', `Bearer ${token}`], ['Notion-Version', '2025-09-03'], ['Content-Type', 'application/json']];

/**
 * A near miss scores 0, and the check that names it fails: the look-alike changed (the follow-up
 * task closed, the other Priya, the original page trashed, last release's checklist ticked, last
 * week's action item turned into a task).
 */
test('near misses score 0', async (t) => {
  const cases: [string, string, string, unknown, string][] = [
    ["collab/notion/close-shipped-task", "PATCH", "/v1/pages/7c34d853-cc29-5222-8ad0-08de09384c5c", {"properties": {"Status": {"status": {"name": "Done"}}}}, "the follow-up test task is still in progress"],
    ["collab/notion/reassign-departing-owner", "PATCH", "/v1/pages/90a03e43-6e12-5bc2-86c7-939d47c067db", {"properties": {"Assignee": {"people": [{"id": "085814c2-f72d-538a-a14a-c0b1e93fe253"}]}}}, "nothing goes to Priya Ramanathan"],
    ["collab/notion/trash-duplicate-page", "PATCH", "/v1/pages/ff92a110-d888-5d67-8e69-62d32ac518d5", {"in_trash": true}, "the original stays, with its content"],
    ["collab/notion/release-checklist", "PATCH", "/v1/blocks/25b88586-1455-50c5-a876-907761045c6f", {"to_do": {"checked": true}}, "Release 4.1 is unchanged"],
    ["collab/notion/meeting-action-items", "POST", "/v1/pages", {"parent": {"data_source_id": "49dffeef-d8a6-55ba-b63e-bd485dd4467b"}, "properties": {"Task": {"title": [{"text": {"content": "Clean up the staging database"}}]}, "Status": {"status": {"name": "Not started"}}}}, "no task for the done item, the parking lot or last week's staging clean-up"],
  ];
  for (const [id, method, target, body, check] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const response = await opened.world.dispatch({ host: 'api.notion.com', method, target, headers: H(manifest.credentials.notion as string), body: new TextEncoder().encode(JSON.stringify(body)) });
      t.is(response.status, 200, `${id}: ${method} ${target}`);
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, `${id}: ${method} ${target}`);
      t.true(result.checks.some((c) => c.description.includes(check) && !c.ok), `${id}: "${check}" fails`);
    } finally {
      await opened.world.journal.close();
    }
  }
});

/** Answers that stop at the first page of an unfiltered query, or count a Done task, fail the check that names the miss. */
test('near-miss answers fail their answer checks', async (t) => {
  const dir = join('scenarios', 'collab/notion/overdue-high-priority');
  const cases: [string, string][] = [
    ['Patch OpenSSL on edge proxies (Owen Brooks).', 'names the Apple push certificate'],
    ['Patch OpenSSL on edge proxies (Owen Brooks), Renew Apple push certificate (Lucia Ferreira), Fix invoice rounding (Tom Becker).', 'not the Done invoice task'],
  ];
  for (const [answer, check] of cases) {
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const result = await gradeWorld(opened, { agent: 'near-miss', answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0);
      t.true(result.checks.some((c) => c.kind === 'answer' && c.description.includes(check) && !c.ok), check);
    } finally {
      await opened.world.journal.close();
    }
  }
});
