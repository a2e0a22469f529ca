import test from 'ava';
import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { gitlabService } from '../mocks/gitlab/index.js';
import { gradeNearMiss, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every GitLab scenario of the code group (helpers/scenario-suite): valid, nop 0, oracle 1 with
// R_b 0 through the real @zereight/mcp-gitlab, replay identical; and near misses straight through
// the API (the look-alike project, the red merge request, the wrong diff line) score 0.

const dirs = findScenarios(join('scenarios', 'code')).filter((dir) => dir.includes('/gitlab/'));
const manifests = scenarioSuite({
  service: 'gitlab',
  dirs,
  credentialOk: (world, credential) => world.state().gitlab?.tokens?.[credential as string] !== undefined,
  operationNames: gitlabService.kit.operations.map((operation) => operation.name),
});

scenarioSetSuite('GitLab', 'gitlab', manifests, [
  { collection: 'issues', min: 20, what: 'a non-trivial instance (issues)' },
  { collection: 'users', min: 4, what: 'a non-trivial instance (users)' },
]);

interface Act { method: string; target: string; body?: unknown }

async function nearMiss(t: import('ava').ExecutionContext, id: string, acts: Act[]): Promise<void> {
  const result = await gradeNearMiss(join('scenarios', id), {
    act: async (world, manifest) => {
      for (const act of acts) {
        const response = await world.dispatch({
          host: 'gitlab.com', method: act.method, target: act.target, body: new TextEncoder().encode(act.body === undefined ? '' : JSON.stringify(act.body)),
          headers: [['PRIVATE-TOKEN', manifest.credentials.gitlab as string], ['Content-Type', 'application/json']],
        });
        t.true(response.status < 300, `${id}: ${act.method} ${act.target}: ${response.status} ${new TextDecoder().decode(response.body)}`);
      }
    },
  });
  t.is(result.reward, 0, `${id}: ${acts.map((a) => `${a.method} ${a.target}`).join(', ')}`);
}

test('near misses straight through the API score 0', async (t) => {
  // The look-alike !14 in the archive project, and the green draft.
  await nearMiss(t, 'code/gitlab/merge-green-charge-idempotency', [{ method: 'PUT', target: '/api/v4/projects/orbital-archive%2Fpayments/merge_requests/14/merge', body: {} }]);
  await nearMiss(t, 'code/gitlab/merge-green-charge-idempotency', [{ method: 'PUT', target: '/api/v4/projects/301/merge_requests/13', body: { title: 'Redis store for idempotency keys' } }, { method: 'PUT', target: '/api/v4/projects/301/merge_requests/13/merge', body: {} }]);
});
