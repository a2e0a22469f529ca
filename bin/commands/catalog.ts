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

interface WarmAuditArgs {
  endpoint?: string[];
  tools: number;
  rounds: number;
  json: boolean;
  'ca-dir': string;
}

const warmAudit: CommandModule<{}, WarmAuditArgs> = {
  command: 'warm-audit',
  describe: 'Check that endpoints marked warm_safe (or those named) keep nothing between trials: the same tool calls in fresh worlds on one running server must reach the world alike',
  builder: (y) => y
    .option('endpoint', { type: 'string', array: true, describe: 'Audit these endpoints (default: every warm_safe one)' })
    .option('tools', { type: 'number', default: 8, describe: 'Tools called per world, spread over the endpoint\'s list' })
    .option('rounds', { type: 'number', default: 2, describe: 'Fresh worlds in a row on the one server' })
    .option('json', { type: 'boolean', default: false, describe: 'One JSON line per endpoint' })
    .option('ca-dir', { type: 'string', default: DEFAULT_CA_DIR, describe: 'CA directory (made if missing)' })
    .epilogue('Exit 1 when an audited endpoint is not safe to keep warm (docs/trials.md, "Warm lanes").'),
  handler: async (args) => {
    if (!Number.isInteger(args.tools) || args.tools < 1) throw new ToolbenchError('TB_ERR_USAGE', `--tools ${args.tools}: give a whole number ≥ 1`);
    if (!Number.isInteger(args.rounds) || args.rounds < 2) throw new ToolbenchError('TB_ERR_USAGE', `--rounds ${args.rounds}: give a whole number ≥ 2 (one fresh start and at least one warm reuse)`);
    const { auditWarm } = await import('../../catalog/warm-audit.js');
    const loaded = loadCatalog();
    const ids = args.endpoint ?? loaded.catalog.endpoints.filter((e) => e.warm_safe).map((e) => e.id);
    let unsafe = 0;
    for (const endpoint of ids) {
      const result = await auditWarm({ catalog: loaded, endpoint, tools: args.tools, rounds: args.rounds, caDir: args['ca-dir'] });
      if (!result.safe) unsafe += 1;
      if (args.json) {
        process.stdout.write(JSON.stringify(result) + '\n');
        continue;
      }
      const why = result.startupRequests > 0 ? `${result.startupRequests} requests while starting`
        : result.strays.length > 0 ? `requests between worlds: ${result.strays[0]}` : result.difference ?? '';
      process.stdout.write(`${result.safe ? 'safe  ' : 'UNSAFE'} ${endpoint.padEnd(16)} ${result.tools.length} tools, requests per world ${result.requests.join('/')}${why ? `: ${why}` : ''}\n`);
    }
    if (unsafe > 0) process.exitCode = 1;
  },
};

export const catalogCommand: CommandModule = {
  command: 'catalog <command>',
  describe: 'Inspect and check the catalog of services and MCP endpoints',
  builder: (y) => y.command(validate).command(capture).command(warmAudit).demandCommand(1, 'Name a catalog command; see toolbench catalog --help.'),
  handler: () => undefined,
};
