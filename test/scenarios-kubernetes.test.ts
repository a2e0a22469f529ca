import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Kubernetes scenario of the ops group (helpers/scenario-suite): valid (oracle arguments
// against the real servers' input schemas), nop 0, oracle 1 with R_b 0 through the real
// kubernetes-mcp-server (client-go) or mcp-server-kubernetes (kubectl), replay identical.
// Scenarios name one endpoint each, so a trial starts one server.

const dirs = findScenarios(join('scenarios', 'ops')).filter((dir) => dir.includes('/kubernetes/'));
const manifests = scenarioSuite({
  service: 'kubernetes',
  dirs,
  endpoints: ['kubernetes', 'kubernetes-node'],
  credentialOk: (world, credential) => world.state().kubernetes?.tokens?.[credential as string] !== undefined,
});

scenarioSetSuite('Kubernetes', 'kubernetes', manifests, [
  { collection: 'pods', min: 10, what: 'a non-trivial cluster (pods)' },
  { collection: 'deployments', min: 6, what: 'a non-trivial cluster (deployments)' },
]);
