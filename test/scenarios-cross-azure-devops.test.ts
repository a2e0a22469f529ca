import test from 'ava';
import { join } from 'node:path';
import { ADO_POST_READS } from '../mocks/azure-devops/index.js';
import { gradeNearMiss, isRestWrite, scenarioSuite } from './helpers/scenario-suite.js';

// The code group's cross-service scenario: an Azure DevOps Bug filed from an Elasticsearch error
// log. payments-api's VaultTimeoutError is found in the logs-app indices and filed in Storefront
// under Checkout\Payments as the wiki's runbook says. Valid, nop 0, oracle 1 with R_b 0 over both
// MCP servers, replay identical; the near misses (the look-alike legacy project, the older resolved
// GatewayAuthError, staging's trace id) score 0.

const dir = join('scenarios', 'code', 'cross', 'bug-from-elasticsearch-error');
const manifest = scenarioSuite({
  service: 'azure-devops',
  services: ['azure-devops', 'elasticsearch'],
  dirs: [dir],
  credentialOk: (world, credential) => world.state(['azure-devops'])['azure-devops']?.tokens?.[(credential as { token: string }).token] !== undefined,
  // Elasticsearch's search and ADO's WIQL, batches and searches are POSTs that read.
  isWrite: (entry) => isRestWrite(entry) && !ADO_POST_READS.has(entry.operation?.name ?? '') && entry.operation?.name !== 'search',
}).get(dir)!;

const FIRST = '4bf92f3577b34da6a3ce929d0e0e4736';
const field = (name: string, value: string) => ({ op: 'add', path: `/fields/${name}`, value });
const bug = (title: string, area: string, trace: string) => [
  field('System.Title', title), field('System.AreaPath', area), field('Microsoft.VSTS.Common.Priority', '1'),
  field('System.Tags', 'incident; payments-api'), field('Microsoft.VSTS.TCM.ReproSteps', `First trace id: ${trace}.`),
];

test('near misses score 0: the Bug in the look-alike legacy project, for the older resolved error, or with staging\'s trace id', async (t) => {
  const token = (manifest.credentials['azure-devops'] as { token: string }).token;
  const cases: [string, string, unknown[]][] = [
    ['legacy project', '/contoso/Storefront-Legacy/_apis/wit/workItems/$Bug', bug('VaultTimeoutError: card vault did not respond within 5000 ms', 'Storefront-Legacy\\Checkout', FIRST)],
    ['older resolved error', '/contoso/Storefront/_apis/wit/workItems/$Bug', bug('GatewayAuthError: payment gateway rejected the API key (401)', 'Storefront\\Checkout\\Payments', '5e1c0d2a9b8f4e7d6c5b4a3f2e1d0c9b')],
    ['staging trace', '/contoso/Storefront/_apis/wit/workItems/$Bug', bug('VaultTimeoutError: card vault did not respond within 5000 ms', 'Storefront\\Checkout\\Payments', '0af7651916cd43dd8448eb211c80319c')],
  ];
  for (const [what, target, ops] of cases) {
    const result = await gradeNearMiss(dir, {
      act: async (world) => {
        const response = await world.dispatch({ host: 'dev.azure.com', method: 'POST', target: `${target}?api-version=7.1-preview.3`, body: new TextEncoder().encode(JSON.stringify(ops)),
          headers: [['Authorization', `Bearer ${token}`], ['Content-Type', 'application/json-patch+json']] });
        t.true(response.status < 300, `${what}: ${response.status} ${new TextDecoder().decode(response.body)}`);
      },
    });
    t.is(result.reward, 0, what);
  }
});
