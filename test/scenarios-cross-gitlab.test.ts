import test from 'ava';
import { join } from 'node:path';
import { gradeNearMiss, scenarioSuite } from './helpers/scenario-suite.js';

// The code cross-service scenario: a failing CircleCI pipeline whose cause is a GitLab merge
// request. Valid, nop 0, oracle 1 with R_b 0 over both MCP servers, replay identical; the merge
// requests the near misses invite (ledger-ui's look-alike !42, the docs !40 merged just before)
// score 0, as does the right comment without the label.

const dir = join('scenarios', 'code', 'cross', 'circleci-failure-gitlab-mr');
const manifest = scenarioSuite({
  service: 'gitlab',
  services: ['circleci', 'gitlab'],
  dirs: [dir],
  credentialOk: (world, credential) => world.state(['gitlab']).gitlab?.tokens?.[credential as string] !== undefined,
}).get(dir)!;

const COMMENT = { body: 'Pipeline 312 on CircleCI fails "rounds VAT per line" since this merge.' };

test('near misses score 0: the look-alike !42 in acme/ledger-ui, the docs !40, the comment without the label', async (t) => {
  const cases: [string, { method: string; target: string; body: unknown }[]][] = [
    ['ledger-ui !42', [
      { method: 'POST', target: '/api/v4/projects/acme%2Fledger-ui/merge_requests/42/notes', body: COMMENT },
      { method: 'PUT', target: '/api/v4/projects/acme%2Fledger-ui/merge_requests/42', body: { add_labels: 'regression' } },
    ]],
    ['ledger !40', [
      { method: 'POST', target: '/api/v4/projects/801/merge_requests/40/notes', body: COMMENT },
      { method: 'PUT', target: '/api/v4/projects/801/merge_requests/40', body: { add_labels: 'regression' } },
    ]],
    ['no label', [{ method: 'POST', target: '/api/v4/projects/801/merge_requests/42/notes', body: COMMENT }]],
  ];
  for (const [what, acts] of cases) {
    const result = await gradeNearMiss(dir, {
      act: async (world) => {
        for (const act of acts) {
          const response = await world.dispatch({
            host: 'gitlab.com', method: act.method, target: act.target, body: new TextEncoder().encode(JSON.stringify(act.body)),
            headers: [['PRIVATE-TOKEN', manifest.credentials.gitlab as string], ['Content-Type', 'application/json']],
          });
          t.true(response.status < 300, `${what}: ${response.status} ${new TextDecoder().decode(response.body)}`);
        }
      },
    });
    t.is(result.reward, 0, what);
  }
});
