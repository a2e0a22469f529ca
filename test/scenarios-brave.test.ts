import test from 'ava';
import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { braveService } from '../mocks/brave/index.js';
import { gradeNearMiss, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Brave scenario of the search group (helpers/scenario-suite): valid (oracle arguments
// against the real server's input schemas), nop 0, oracle 1 with R_b 0 through the real
// @brave/brave-search-mcp-server, replay identical. The answers are graded; every request is a GET.

const dirs = findScenarios(join('scenarios', 'search')).filter((dir) => dir.includes('/brave/'));
const manifests = scenarioSuite({
  service: 'brave',
  dirs,
  credentialOk: (world, credential) => world.state(['brave']).brave?.subscriptions?.[credential as string] !== undefined,
  operationNames: braveService.kit.operations.map((operation) => operation.name),
});

scenarioSetSuite('Brave', 'brave', manifests, [
  { collection: 'pages', min: 40, what: 'a non-trivial web (pages)' },
]);

/** The near misses the distractors invite score 0, even with the oracle's calls made. */
test('near-miss answers score 0: stale docs, the Ember Vault patch, the superseded date, the Eastbrook bakery, the teaser', async (t) => {
  const cases: [string, string][] = [
    ['search/brave/pool-default-latest', 'default=16 version=3.2'],
    ['search/brave/pool-default-latest', 'default=10 version=4.0'],
    ['search/brave/glass-harbor-ranked-removal', 'patch=1.4'],
    ['search/brave/rail-strike-date', 'date=2025-03-12'],
    ['search/brave/sunday-bakery', 'bakery=Hearth Street Bakery closes=12:00'],
    ['search/brave/keynote-length', 'duration=1:30'],
  ];
  for (const [id, answer] of cases) {
    const result = await gradeNearMiss(join('scenarios', id), { answer });
    t.is(result.reward, 0, `${id}: ${answer}`);
    t.true(result.checks.some((c) => c.kind === 'answer' && !c.ok), `${id}: the answer check fails`);
  }
});
