import test from 'ava';
import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { exaService } from '../mocks/exa/index.js';
import { gradeNearMiss, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Exa scenario of the search group (helpers/scenario-suite): valid, nop 0, oracle 1 with
// R_b 0 through the real exa-mcp-server, replay identical. Exa reads by POST: only a research
// task or an agent run creates anything, so only those count as writes.

const dirs = findScenarios(join('scenarios', 'search')).filter((dir) => dir.includes('/exa/'));
const manifests = scenarioSuite({
  service: 'exa',
  dirs,
  credentialOk: (world, credential) => world.state(['exa']).exa?.keys?.[credential as string] !== undefined,
  operationNames: exaService.kit.operations.map((operation) => operation.name),
  isWrite: (e) => (e.operation?.name === 'research.create' || e.operation?.name === 'agent.runs.create') && e.response.status < 300,
});

scenarioSetSuite('Exa', 'exa', manifests, [
  { collection: 'pages', min: 80, what: 'a non-trivial web (pages)' },
]);

/** The near misses the distractors invite score 0, even with the oracle's calls made. */
test('near-miss answers score 0: the deprecation, the fork, the old start time, the other race, the stale HQ, the rumour, the stale profile, the other firm, the old keyword, the other library', async (t) => {
  const cases: [string, string][] = [
    ['search/exa/tessellate-flag-removed', 'release=2.2'],
    ['search/exa/tessellate-flag-removed', 'release=3.0'],
    ['search/exa/tessellate-flag-removed', 'release=1.4'],
    ['search/exa/marathon-start-time', 'start=08:00'],
    ['search/exa/marathon-start-time', 'start=07:15'],
    ['search/exa/brightwell-headquarters', 'city=Leeds'],
    ['search/exa/brightwell-headquarters', 'city=Sheffield'],
    ['search/exa/replication-team-lead', 'name=Ines Okafor'],
    ['search/exa/replication-team-lead', 'name=Marek Novak'],
    ['search/exa/replication-team-lead', 'name=Tomas Reyes Ortega'],
    ['search/exa/pyrite-backoff-kwarg', 'kwarg=retry_delay'],
    ['search/exa/pyrite-backoff-kwarg', 'kwarg=backoff'],
  ];
  for (const [id, answer] of cases) {
    const result = await gradeNearMiss(join('scenarios', id), { answer });
    t.is(result.reward, 0, `${id}: ${answer}`);
    t.true(result.checks.some((c) => c.kind === 'answer' && !c.ok), `${id}: the answer check fails`);
  }
});
