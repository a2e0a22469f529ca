import test from 'ava';
import { join } from 'node:path';
import { alternatives } from '../scenarios/expectations.js';
import { findScenarios } from '../scenarios/validate.js';
import { openWorld } from '../scenarios/world.js';
import { scenarioSuite } from './helpers/scenario-suite.js';

// Every Kubernetes scenario of the ops group (helpers/scenario-suite): valid (oracle arguments
// against the real servers' input schemas), nop 0, oracle 1 with R_b 0 through the real
// kubernetes-mcp-server (client-go) or mcp-server-kubernetes (kubectl), replay identical.
// Scenarios name one endpoint each, so a trial starts one server.

const dirs = findScenarios(join('scenarios', 'ops')).filter((dir) => dir.includes('/kubernetes/'));
const manifests = scenarioSuite({
  service: 'kubernetes',
  dirs,
  endpoints: ['kubernetes', 'kubernetes-node'],
  credentialOk: (world, credential) => world.state(['kubernetes']).kubernetes?.tokens?.[credential as string] !== undefined,
});

// scenarioSetSuite's checks, with the service's two endpoints (it expects one named as the service).
test('at least 5 Kubernetes scenarios, each with its own seed and epoch, non-trivial state, writes required through MCP by operation', async (t) => {
  t.true(manifests.size >= 5, `${manifests.size} scenarios`);
  const seeds = [...manifests.values()].map((m) => m.seed);
  const epochs = [...manifests.values()].map((m) => m.epoch);
  t.is(new Set(seeds).size, seeds.length);
  t.is(new Set(epochs).size, epochs.length);
  const endpoints = new Set<string>();
  for (const [dir, manifest] of manifests) {
    const calls = manifest.expect.required_calls.flatMap(alternatives);
    t.true(calls.every((call) => call.operation !== undefined && ['kubernetes', 'kubernetes-node'].includes(call.tool?.endpoint ?? '')), `${manifest.id}: required calls name the operation and the MCP tool`);
    for (const call of calls) endpoints.add(call.tool!.endpoint!);
    const { world } = await openWorld({ scenarioDir: dir });
    try {
      const state = world.state(['kubernetes']).kubernetes!;
      t.true(Object.keys(state.pods ?? {}).length >= 10, `${manifest.id}: a non-trivial cluster (pods)`);
      t.true(Object.keys(state.deployments ?? {}).length >= 6, `${manifest.id}: a non-trivial cluster (deployments)`);
    } finally {
      await world.journal.close();
    }
  }
  t.deepEqual([...endpoints].sort(), ['kubernetes', 'kubernetes-node'], 'both servers have scenarios');
});
