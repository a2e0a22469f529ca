import test from 'ava';
import { join } from 'node:path';
import { gradeWorld } from '../scenarios/grade-world.js';
import { findScenarios } from '../scenarios/validate.js';
import { openWorld } from '../scenarios/world.js';
import { launchdarklyService } from '../mocks/launchdarkly/index.js';
import { scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every LaunchDarkly scenario of the ops group (helpers/scenario-suite): valid (oracle arguments
// against the real server's input schemas), nop 0, oracle 1 with R_b 0 through the real
// @launchdarkly/mcp-server, replay identical; and near misses (the same key in the other project,
// the wrong environment, this year's sale) score 0.

const dirs = findScenarios(join('scenarios', 'ops')).filter((dir) => dir.includes('/launchdarkly/'));
const manifests = scenarioSuite({
  service: 'launchdarkly',
  dirs,
  credentialOk: (world, credential) => {
    const token = world.state(['launchdarkly']).launchdarkly?.tokens?.[credential as string] as { role: string } | undefined;
    return token !== undefined && token.role !== 'reader';
  },
  operationNames: launchdarklyService.kit.operations.map((operation) => operation.name),
});

scenarioSetSuite('LaunchDarkly', 'launchdarkly', manifests, [
  { collection: 'flags', min: 25, what: 'a non-trivial account (flags)' },
  { collection: 'environments', min: 5, what: 'a non-trivial account (environments)' },
]);

/** A near miss straight through the API (as an agent with the wrong pick would make it) scores 0. */
test('near misses score 0: the mobile app\'s flag, staging instead of production, this year\'s sale, the wrong variation', async (t) => {
  const cases: [string, string, unknown][] = [
    ['ops/launchdarkly/rollback-checkout-in-production', '/api/v2/flags/mobile-app/new-checkout-flow', { patch: [{ op: 'replace', path: '/environments/production/on', value: false }] }],
    ['ops/launchdarkly/rollback-checkout-in-production', '/api/v2/flags/storefront/new-checkout-flow', { patch: [{ op: 'replace', path: '/environments/staging/on', value: false }] }],
    ['ops/launchdarkly/archive-last-summer-sale', '/api/v2/flags/storefront/summer-sale-2025', { patch: [{ op: 'replace', path: '/archived', value: true }] }],
    ['ops/launchdarkly/switch-button-colour', '/api/v2/flags/storefront/checkout-button-color', { patch: [{ op: 'replace', path: '/environments/production/fallthrough/variation', value: 1 }] }],
    ['ops/launchdarkly/target-customer-in-staging', '/api/v2/flags/storefront/search-ranking-ml', { patch: [{ op: 'add', path: '/environments/staging/targets/-', value: { values: ['user-4471'], variation: 1 } }] }],
  ];
  for (const [id, path, body] of cases) {
    const dir = join('scenarios', id);
    const manifest = manifests.get(dir)!;
    const opened = await openWorld({ scenarioDir: dir });
    try {
      const response = await opened.world.dispatch({ host: 'app.launchdarkly.com', method: 'PATCH', target: path, body: new TextEncoder().encode(JSON.stringify(body)),
        headers: [['Authorization', manifest.credentials.launchdarkly as string], ['Content-Type', 'application/json']] });
      t.true(response.status < 300, `${id}: ${response.status} ${new TextDecoder().decode(response.body)}`);
      const result = await gradeWorld(opened, { agent: 'near-miss', answer: manifest.oracle.answer, output: '', exit: { code: 0, signal: null }, interrupted: false });
      t.is(result.reward, 0, `${id}: ${path}`);
    } finally {
      await opened.world.journal.close();
    }
  }
});
