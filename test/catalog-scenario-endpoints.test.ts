import test from 'ava';
import { loadCatalog } from '../catalog/load.js';
import { baselineCredential, endpointChoiceProblems, scenarioEndpoints } from '../catalog/scenario-endpoints.js';
import { CatalogSchema } from '../catalog/schema.js';
import { validateScenario } from '../scenarios/validate.js';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/journal.js';

// Which endpoints a scenario starts: its `endpoints`, else its services' endpoints but the opt_in ones.

const { catalog } = loadCatalog();
const ids = (list: { id: string }[]) => list.map((e) => e.id);

test('a Slack scenario without endpoints starts server-slack only: slack-go is opt_in', (t) => {
  t.true(catalog.endpoints.find((e) => e.id === 'slack-go')!.opt_in);
  t.deepEqual(ids(scenarioEndpoints({ services: ['slack'] }, catalog)), ['slack']);
  t.deepEqual(ids(scenarioEndpoints({ services: ['github', 'slack'] }, catalog)), ['github', 'slack']);
});

test('endpoints names exactly which start, in catalog order', (t) => {
  t.deepEqual(ids(scenarioEndpoints({ services: ['slack'], endpoints: ['slack-go'] }, catalog)), ['slack-go']);
  t.deepEqual(ids(scenarioEndpoints({ services: ['slack'], endpoints: ['slack-go', 'slack'] }, catalog)), ['slack', 'slack-go']);
  t.deepEqual(endpointChoiceProblems({ services: ['slack'], endpoints: ['slack-go'] }, catalog), []);
});

test('an unknown endpoint, or one of a service the scenario does not name, is a problem naming the field', async (t) => {
  t.deepEqual(endpointChoiceProblems({ services: ['slack'], endpoints: ['slack-gone', 'github'] }, catalog), [
    'field endpoints[0]: no endpoint "slack-gone" in the catalog',
    'field endpoints[1]: "github" serves github, which the scenario\'s services do not list',
  ]);
  const dir = join(tempDir('toolbench-endpoints-'), 'scenario');
  cpSync('scenarios/example/slack/two-servers', dir, { recursive: true, dereference: true });
  const file = join(dir, 'scenario.toml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('endpoints = ["slack", "slack-go"]', 'endpoints = ["slack", "slak-go"]'));
  t.deepEqual(await validateScenario(dir), [`${file}: field endpoints[1]: no endpoint "slak-go" in the catalog`]);
});

test('capture logs an endpoint in with its service\'s baseline credential, else placeholders', (t) => {
  const slackGo = catalog.endpoints.find((e) => e.id === 'slack-go')!;
  t.like(baselineCredential(catalog, slackGo), { user_token: 'xoxp-4101-acme-baseline-dana', team_id: 'T04ACMECORP' });
  const github = catalog.endpoints.find((e) => e.id === 'github')!;
  t.is(baselineCredential(catalog, github), 'ghp_aliceAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  const bare = CatalogSchema.parse({ ...catalog, services: catalog.services.map(({ baseline_credential: _drop, ...service }) => service) });
  t.like(baselineCredential(bare, slackGo), { user_token: 'toolbench-capture-only' });
  t.is(baselineCredential(bare, github), 'toolbench-capture-only');
});
