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
  credentialOk: (world, credential) => world.state(['gitlab']).gitlab?.tokens?.[credential as string] !== undefined,
  operationNames: gitlabService.kit.operations.map((operation) => operation.name),
});

scenarioSetSuite('GitLab', 'gitlab', manifests, [
  { collection: 'issues', min: 20, what: 'a non-trivial instance (issues)' },
  { collection: 'users', min: 4, what: 'a non-trivial instance (users)' },
]);

// !8's diff_refs in comment-on-window-diff-line (dataset commit ids).
const BASE = 'b32f8ef01ea07889a96f56dcf1042d6043042f12';
const HEAD = '864e2b48751ccf3e73a99ee23a54e765fd8bf54d';

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
  // The same-titled #36 in the legacy project.
  await nearMiss(t, 'code/gitlab/close-duplicate-push-issue', [
    { method: 'POST', target: '/api/v4/projects/harbor%2Fmobile-app-legacy/issues/36/notes', body: { body: 'Duplicate of #31' } },
    { method: 'PUT', target: '/api/v4/projects/harbor%2Fmobile-app-legacy/issues/36', body: { add_labels: 'duplicate', state_event: 'close' } },
  ]);
  // The MAX_REQUESTS line (1) instead of WINDOW_MS (2); a general comment instead of a diff note.
  const position = { base_sha: BASE, start_sha: BASE, head_sha: HEAD, position_type: 'text', old_path: 'src/ratelimit.ts', new_path: 'src/ratelimit.ts' };
  await nearMiss(t, 'code/gitlab/comment-on-window-diff-line', [{ method: 'POST', target: '/api/v4/projects/501/merge_requests/8/discussions', body: { body: 'Should be 60 * 1000', position: { ...position, new_line: 1 } } }]);
  await nearMiss(t, 'code/gitlab/comment-on-window-diff-line', [{ method: 'POST', target: '/api/v4/projects/501/merge_requests/8/notes', body: { body: 'WINDOW_MS should be 60 * 1000' } }]);
});
