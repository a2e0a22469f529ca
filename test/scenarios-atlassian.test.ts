import test from 'ava';
import { join } from 'node:path';
import { atlassianService } from '../mocks/atlassian/index.js';
import { findScenarios } from '../scenarios/validate.js';
import { loadScenarioManifest } from '../scenarios/manifest.js';
import type { World } from '../mocks/core/world.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// Every Atlassian scenario (Jira through mcp-jira-cloud, Confluence through mcp-atlassian): valid, nop 0, oracle 1 with R_b 0 through
// the real server, replay identical, bypassed writes fail (helpers/scenario-suite).

const dirs = [...findScenarios(join('scenarios', 'collab')), ...findScenarios(join('scenarios', 'search'))]
  .filter((dir) => dir.includes('/atlassian/'));
// One site, two servers: a scenario belongs to the endpoint its oracle works through.
const oracleUses = (dir: string, endpoint: string) => loadScenarioManifest(dir).oracle.calls.some((call) => call.endpoint === endpoint);

const credentialOk = (world: World, credential: unknown): boolean => {
  const tokens = world.state(['atlassian']).atlassian?.tokens ?? {};
  const c = credential as { site?: string; email?: string; token?: string };
  const site = (world.state(['atlassian']).atlassian?.site?.site as { name?: string } | undefined)?.name;
  return typeof c === 'object' && c !== null && c.site === site && `${(c.email ?? '').toLowerCase()}:${c.token}` in tokens;
};

const manifests = scenarioSuite({
  service: 'atlassian',
  endpoints: ['jira'],
  dirs: dirs.filter((dir) => !oracleUses(dir, 'confluence')),
  credentialOk,
  operationNames: atlassianService.kit.operations.map((operation) => operation.name),
});

const confluenceManifests = scenarioSuite({
  service: 'atlassian',
  endpoints: ['confluence'],
  dirs: dirs.filter((dir) => oracleUses(dir, 'confluence')),
  credentialOk,
  operationNames: atlassianService.kit.operations.map((operation) => operation.name),
});

test('at least 5 Jira and 5 Confluence scenarios (one a search task), each with its own seed and epoch', (t) => {
  t.true(manifests.size >= 5, `${manifests.size} Jira scenarios`);
  t.true(confluenceManifests.size >= 5, `${confluenceManifests.size} Confluence scenarios`);
  t.true([...confluenceManifests.values()].some((m) => m.group === 'search'), 'a search task');
  const all = [...manifests.values(), ...confluenceManifests.values()];
  const seeds = all.map((m) => m.seed);
  const epochs = all.map((m) => m.epoch);
  t.is(new Set(seeds).size, seeds.length);
  t.is(new Set(epochs).size, epochs.length);
});

/** Near misses score 0: the wrong issue closed, the look-alike user assigned, the done issue carried over, the archived runbook edited, the archived policy answered. */
test('near misses score 0: the forbidden write is caught', async (t) => {
  const { openWorld } = await import('../scenarios/world.js');
  const { gradeWorld } = await import('../scenarios/grade-world.js');
  const cases: [string, string, string, unknown][] = [
    ['collab/atlassian/close-duplicate-bug', 'POST', '/rest/api/3/issue/ENG-36/transitions', { transition: { id: '41' }, fields: { resolution: { name: 'Duplicate' } } }],
    ['collab/atlassian/assign-oncall-bugs', 'PUT', '/rest/api/3/issue/ENG-36/assignee', { accountId: '5b10ac8d82e05b22cc7d4e30' }],
    ['collab/atlassian/sprint-carryover', 'POST', '/rest/agile/1.0/sprint/43/issue', { issues: ['ENG-39'] }],
    ['collab/atlassian/update-runbook-replicas', 'PUT', '/wiki/rest/api/content/65022', { version: { number: 2 }, title: 'Runbook: payment webhook retries (v1)', type: 'page', body: { storage: { value: '<p>scale to 10 replicas</p>', representation: 'storage' } } }],
    ['collab/atlassian/answer-travel-question', 'POST', '/wiki/rest/api/content', { type: 'comment', container: { id: '65023', type: 'page' }, body: { storage: { value: '<p>Business class is fine over 8 hours.</p>', representation: 'storage' } } }],
  ];
  for (const [id, method, target, body] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir) ?? confluenceManifests.get(dir)!;
    const c = manifest.credentials.atlassian as { email: string; token: string };
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const response = await opened.world.dispatch({ host: 'larkspur.atlassian.net', method, target, body: new TextEncoder().encode(JSON.stringify(body)),
        headers: [['Authorization', `Basic ${Buffer.from(`${c.email}:${c.token}`).toString('base64')}`], ['Content-Type', 'application/json']] });
      t.true(response.status < 300, `${id}: ${method} ${target} answered ${response.status}`);
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, `${id}: ${method} ${target}`);
      t.false(result.forbidden_calls_ok, `${id}: ${method} ${target}`);
    } finally {
      await opened.world.journal.close();
    }
  }
});
