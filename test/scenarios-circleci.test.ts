import test from 'ava';
import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { circleciService } from '../mocks/circleci/index.js';
import { gradeNearMiss, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every CircleCI scenario of the code group (helpers/scenario-suite): valid, nop 0, oracle 1 with
// R_b 0 through the real @circleci/mcp-server-circleci, replay identical; and near misses (a
// rerun from the start, the nightly pipeline, staging's rollback) score 0.

const dirs = findScenarios(join('scenarios', 'code')).filter((dir) => dir.includes('/circleci/'));
const manifests = scenarioSuite({
  service: 'circleci',
  dirs,
  credentialOk: (world, credential) => world.state(['circleci']).circleci?.tokens?.[credential as string] !== undefined,
  operationNames: circleciService.kit.operations.map((operation) => operation.name),
});

scenarioSetSuite('CircleCI', 'circleci', manifests, [
  { collection: 'pipelines', min: 15, what: 'a non-trivial organization (pipelines)' },
  { collection: 'jobs', min: 50, what: 'a non-trivial organization (jobs)' },
]);

test('near misses straight through the API score 0: a rerun from the start, the nightly pipeline, a rollback in staging or two versions back', async (t) => {
  const cases: [string, (state: Record<string, Record<string, unknown>>) => [string, string, unknown]][] = [
    ['code/circleci/rerun-failed-release-workflow', (s) => {
      const wf = Object.values(s.workflows!).find((w) => (w as { project: string; pipeline_number: number }).project === 'gh/acme/payments-api' && (w as { pipeline_number: number }).pipeline_number === 105) as { id: string };
      return ['POST', `/api/v2/workflow/${wf.id}/rerun`, { from_failed: false }];
    }],
    ['code/circleci/rerun-failed-release-workflow', (s) => {
      const wf = Object.values(s.workflows!).find((w) => (w as { project: string; pipeline_number: number }).project === 'gh/acme/payments-api' && (w as { pipeline_number: number }).pipeline_number === 107) as { id: string };
      return ['POST', `/api/v2/workflow/${wf.id}/rerun`, { from_failed: true }];
    }],
    ['code/circleci/run-hotfix-build', (s) => {
      const project = s.projects!['gh/acme/storefront'] as { definitions: { id: string; name: string }[] };
      return ['POST', '/api/v2/project/gh/acme/storefront/pipeline/run', { definition_id: project.definitions.find((d) => d.name === 'nightly')!.id, config: { branch: 'hotfix/tax-rounding' }, checkout: { branch: 'hotfix/tax-rounding' } }];
    }],
    ['code/circleci/rollback-payments-production', (s) => [
      'POST', `/api/v2/projects/${(s.projects!['gh/acme/payments-api'] as { id: string }).id}/rollback`,
      { component_name: 'payments-api', environment_name: 'production', current_version: '2.4.0', target_version: '2.3.8' }]],
    ['code/circleci/rollback-payments-production', (s) => [
      'POST', `/api/v2/projects/${(s.projects!['gh/acme/payments-api'] as { id: string }).id}/rollback`,
      { component_name: 'payments-api', environment_name: 'staging', current_version: '2.4.1', target_version: '2.4.0' }]],
  ];
  for (const [id, make] of cases) {
    const result = await gradeNearMiss(join('scenarios', id), {
      act: async (world, manifest) => {
        const [method, path, body] = make(world.state(['circleci']).circleci as Record<string, Record<string, unknown>>);
        const response = await world.dispatch({ host: 'circleci.com', method, target: path, body: new TextEncoder().encode(JSON.stringify(body)),
          headers: [['Circle-Token', manifest.credentials.circleci as string], ['Content-Type', 'application/json']] });
        t.true(response.status < 300, `${id}: ${response.status} ${new TextDecoder().decode(response.body)}`);
      },
    });
    t.is(result.reward, 0, id);
  }
});
