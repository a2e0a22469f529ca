import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { braveService } from '../mocks/brave/index.js';
import { scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Brave scenario of the search group (helpers/scenario-suite): valid (oracle arguments
// against the real server's input schemas), nop 0, oracle 1 with R_b 0 through the real
// @brave/brave-search-mcp-server, replay identical. The answers are graded; every request is a GET.

const dirs = findScenarios(join('scenarios', 'search')).filter((dir) => dir.includes('/brave/'));
const manifests = scenarioSuite({
  service: 'brave',
  dirs,
  credentialOk: (world, credential) => world.state().brave?.subscriptions?.[credential as string] !== undefined,
  operationNames: braveService.kit.operations.map((operation) => operation.name),
});

scenarioSetSuite('Brave', 'brave', manifests, [
  { collection: 'pages', min: 40, what: 'a non-trivial web (pages)' },
]);
