import test from 'ava';
import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { tavilyService } from '../mocks/tavily/index.js';
import { gradeNearMiss, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Tavily scenario of the search group (helpers/scenario-suite): valid, nop 0, oracle 1 with
// R_b 0 through the real tavily-mcp, replay identical. Tavily reads by POST: only a research task
// creates anything, so only research.create counts as a write.

const dirs = findScenarios(join('scenarios', 'search')).filter((dir) => dir.includes('/tavily/'));
const manifests = scenarioSuite({
  service: 'tavily',
  dirs,
  credentialOk: (world, credential) => world.state(['tavily']).tavily?.keys?.[credential as string] !== undefined,
  operationNames: tavilyService.kit.operations.map((operation) => operation.name),
  isWrite: (e) => e.operation?.name === 'research.create' && e.response.status < 300,
});

scenarioSetSuite('Tavily', 'tavily', manifests, [
  { collection: 'pages', min: 40, what: 'a non-trivial web (pages)' },
]);

/** The near misses the distractors invite score 0, even with the oracle's calls made. */
test('near-miss answers score 0: stale docs, the announced plan, a blog post setting, the superseded date, the Ember Vault patch', async (t) => {
  const cases: [string, string][] = [
    ['search/tavily/pool-default-latest', 'default=16 version=3.2'],
    ['search/tavily/ubuntu-support-dropped', 'version=4.0'],
    ['search/tavily/wal-sync-default', 'sync_mode=fsync'],
    ['search/tavily/rail-strike-date', 'date=2025-03-12'],
    ['search/tavily/glass-harbor-ranked-removal', 'patch=1.4'],
  ];
  for (const [id, answer] of cases) {
    const result = await gradeNearMiss(join('scenarios', id), { answer });
    t.is(result.reward, 0, `${id}: ${answer}`);
    t.true(result.checks.some((c) => c.kind === 'answer' && !c.ok), `${id}: the answer check fails`);
  }
});
