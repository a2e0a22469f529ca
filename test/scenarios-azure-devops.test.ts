import test from 'ava';
import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { ADO_POST_READS, azureDevopsService } from '../mocks/azure-devops/index.js';
import { gradeNearMiss, isRestWrite, scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Azure DevOps scenario of the code group (helpers/scenario-suite): valid, nop 0, oracle 1
// with R_b 0 through the real @azure-devops/mcp, replay identical; and near misses made straight
// through the API (the legacy look-alike bug, a vote on the draft PR, the branch from main, a
// closed item carried over) score 0.

const dirs = findScenarios(join('scenarios', 'code')).filter((dir) => dir.includes('/azure-devops/'));
const manifests = scenarioSuite({
  service: 'azure-devops',
  dirs,
  credentialOk: (world, credential) => world.state(['azure-devops'])['azure-devops']?.tokens?.[(credential as { token: string }).token] !== undefined,
  operationNames: azureDevopsService.kit.operations.map((operation) => operation.name),
  // WIQL, batch reads and searches are POSTs that read.
  isWrite: (entry) => isRestWrite(entry) && !ADO_POST_READS.has(entry.operation?.name ?? ''),
});

scenarioSetSuite('Azure DevOps', 'azure-devops', manifests, [
  { collection: 'work_items', min: 20, what: 'a non-trivial organization (work items)' },
  { collection: 'pull_requests', min: 4, what: 'a non-trivial organization (pull requests)' },
]);

type State = Record<string, Record<string, Record<string, unknown>>>;
const patch = (ops: unknown[]) => ops;

test('near misses straight through the API score 0: the legacy look-alike bug, a vote on the draft PR, a branch from main, a closed item carried over', async (t) => {
  const cases: [string, (s: State) => [string, string, unknown, string?]][] = [
    ['code/azure-devops/triage-coupon-bug', () => ['PATCH', '/contoso/_apis/wit/workItems/203?api-version=7.1', patch([
      { op: 'add', path: '/fields/Microsoft.VSTS.Common.Priority', value: 1 }, { op: 'add', path: '/fields/System.AssignedTo', value: 'sofia.lindqvist@contoso.com' }, { op: 'add', path: '/fields/System.Tags', value: 'checkout; customer-impact' }])]],
    ['code/azure-devops/approve-coupon-pr', (s) => {
      const dana = Object.values(s['azure-devops']!.users!).find((u) => (u as { uniqueName: string }).uniqueName === 'dana.whitfield@contoso.com') as { id: string };
      return ['PUT', `/contoso/Storefront/_apis/git/repositories/payments-api/pullRequests/58/reviewers/${dana.id}`, { vote: 10 }];
    }],
    ['code/azure-devops/hotfix-branch-from-release', (s) => {
      const main = Object.values(s['azure-devops']!.refs!).find((r) => (r as { name: string; repo: string }).name === 'refs/heads/main'
        && (s['azure-devops']!.repositories![(r as { repo: string }).repo] as { name: string }).name === 'storefront-web') as { objectId: string };
      return ['POST', '/contoso/Storefront/_apis/git/repositories/storefront-web/refs', [{ name: 'refs/heads/hotfix/3.8.1', oldObjectId: '0'.repeat(40), newObjectId: main.objectId }]];
    }],
    ['code/azure-devops/carry-over-payments-sprint', () => ['PATCH', '/contoso/_apis/wit/$batch?api-version=5.0', [103, 105, 119].map((id) => ({
      method: 'PATCH', uri: `/_apis/wit/workitems/${id}?api-version=5.0`, headers: { 'Content-Type': 'application/json-patch+json' },
      body: [{ op: 'Replace', path: '/fields/System.IterationPath', value: 'Storefront\\Sprint 43' }] }))]],
  ];
  for (const [id, make] of cases) {
    const result = await gradeNearMiss(join('scenarios', id), {
      act: async (world, manifest) => {
        const [method, target, body] = make(world.state() as State);
        const response = await world.dispatch({ host: 'dev.azure.com', method, target, body: new TextEncoder().encode(JSON.stringify(body)),
          headers: [['Authorization', `Bearer ${(manifest.credentials['azure-devops'] as { token: string }).token}`], ['Content-Type', method === 'PATCH' && !target.includes('$batch') ? 'application/json-patch+json' : 'application/json']] });
        t.true(response.status < 300, `${id}: ${response.status} ${new TextDecoder().decode(response.body)}`);
      },
    });
    t.is(result.reward, 0, id);
  }
});
