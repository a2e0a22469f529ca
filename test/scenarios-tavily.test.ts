import { join } from 'node:path';
import { findScenarios } from '../scenarios/validate.js';
import { tavilyService } from '../mocks/tavily/index.js';
import { scenarioSetSuite, scenarioSuite } from './helpers/scenario-suite.js';

// Every Tavily scenario of the search group (helpers/scenario-suite): valid, nop 0, oracle 1 with
// R_b 0 through the real tavily-mcp, replay identical. Tavily reads by POST: only a research task
// creates anything, so only research.create counts as a write.

const dirs = findScenarios(join('scenarios', 'search')).filter((dir) => dir.includes('/tavily/'));
const manifests = scenarioSuite({
  service: 'tavily',
  dirs,
  credentialOk: (world, credential) => world.state().tavily?.keys?.[credential as string] !== undefined,
  operationNames: tavilyService.kit.operations.map((operation) => operation.name),
  isWrite: (e) => e.operation?.name === 'research.create' && e.response.status < 300,
});

scenarioSetSuite('Tavily', 'tavily', manifests, [
  { collection: 'pages', min: 40, what: 'a non-trivial web (pages)' },
]);
