import type { CommandModule } from 'yargs';
import { loadCatalog } from '../../catalog/load.js';
import { packageProblem } from '../../catalog/packages.js';
import { captureTools } from '../../catalog/capture.js';
import { DEFAULT_SNAPSHOT_DIR } from '../../catalog/snapshots.js';
import { DEFAULT_CA_DIR } from '../../certs/index.js';
import { ToolbenchError } from '../../mocks/core/errors.js';
import { DEFAULT_SCENARIO } from '../shared.js';

interface ValidateArgs {
  catalog?: string;
  json: boolean;
}

const validate: CommandModule<{}, ValidateArgs> = {
  command: 'validate',
  describe: 'Check the catalog: schema, unique ids and ports, pinned packages installed at their exact versions',
  builder: (y) => y
    .option('catalog', { type: 'string', describe: 'Catalog file (default: the shipped catalog/services.toml)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' }),
  handler: async (args) => {
    const { path, catalog, hash } = loadCatalog(args.catalog);
    const problems = catalog.endpoints.flatMap((endpoint) => {
      const problem = packageProblem(endpoint);
      return problem ? [`endpoints.${endpoint.id}: ${problem}`] : [];
    });
    if (args.json) {
      process.stdout.write(JSON.stringify({ catalog: path, hash, services: catalog.services.length, endpoints: catalog.endpoints.length, problems }) + '\n');
      if (problems.length > 0) process.exitCode = 2;
      return;
    }
    if (problems.length > 0) throw new ToolbenchError('TB_ERR_CATALOG', `catalog ${path}:\n  ${problems.join('\n  ')}`);
    process.stdout.write(`catalog ${path}: ${catalog.services.length} services, ${catalog.endpoints.length} endpoints, all pinned packages installed\n`);
  },
};

interface CaptureArgs {
  out: string;
  endpoint?: string[];
  scenario: string;
  'ca-dir': string;
}

const capture: CommandModule<{}, CaptureArgs> = {
  command: 'capture',
  describe: 'Start every endpoint (or those named by --endpoint) and write its tool list to <out>/<endpoint>.json (canonical JSON)',
  builder: (y) => y
    .option('endpoint', { type: 'string', array: true, describe: 'Capture only these endpoints (repeatable)' })
    .option('out', { type: 'string', default: DEFAULT_SNAPSHOT_DIR, describe: 'Folder for the snapshots' })
    .option('scenario', { type: 'string', default: DEFAULT_SCENARIO, describe: 'Scenario whose world answers any start-up requests' })
    .option('ca-dir', { type: 'string', default: DEFAULT_CA_DIR, describe: 'CA directory (made if missing)' }),
  handler: async (args) => {
    const files = await captureTools(args.out, { scenarioDir: args.scenario, caDir: args['ca-dir'], only: args.endpoint });
    for (const file of files) process.stdout.write(`wrote ${file}\n`);
  },
};

export const catalogCommand: CommandModule = {
  command: 'catalog <command>',
  describe: 'Inspect and check the catalog of services and MCP endpoints',
  builder: (y) => y.command(validate).command(capture).demandCommand(1, 'Name a catalog command; see toolbench catalog --help.'),
  handler: () => undefined,
};
