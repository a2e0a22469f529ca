import type { CommandModule } from 'yargs';
import { CHAOS_LEVELS, type ChaosLevel } from '../../mocks/core/fault-plan.js';
import { loadAdminToken } from '../../proxy/admin-token.js';
import { loadSecret } from '../../proxy/world-secret.js';
import { parseEndpointSelection } from '../../catalog/endpoint-selection.js';
import { DEFAULT_SCENARIO, endpointsOption, onShutdown, readyTimeoutMs, readyTimeoutOption, seedOption } from '../shared.js';
import { WorldReadySchema, type WorldReady } from '../world-ready.js';
import { proxyOptions, type ProxyArgs } from './proxy.js';

interface WorldArgs extends ProxyArgs {
  proxy: boolean;
  mcp: boolean;
  router: boolean;
  endpoints: string;
  'ready-timeout': number;
  'secret-file'?: string;
  'admin-token-file'?: string;
  scenario: string;
  seed?: number;
  chaos: ChaosLevel;
  'admin-port': number;
  ports: 'catalog' | 'ephemeral';
  journal?: string;
  'log-dir'?: string;
  host: string;
  json: boolean;
}

export const worldCommand: CommandModule<{}, WorldArgs> = {
  command: 'world',
  describe: 'Serve a scenario\'s world: every service on a plain-HTTP port, the admin API, the TLS proxy, and with --mcp the MCP endpoints',
  builder: (y) => proxyOptions(y, { proxy: '8080, any with --ports ephemeral', tls: '8443, any with --ports ephemeral' })
    .option('scenario', { type: 'string', default: DEFAULT_SCENARIO, describe: 'Scenario directory (holds scenario.toml and dataset/)' })
    .option('seed', seedOption)
    .option('chaos', { choices: CHAOS_LEVELS, default: 'none' as ChaosLevel, describe: 'Fault preset added to the scenario\'s [[faults]]: seeded 429/5xx, resets, timeouts and latency (docs/faults.md)' })
    .option('mcp', { type: 'boolean', default: false, describe: 'Also start MCP endpoints (--endpoints) and their Streamable HTTP bridges (catalog ports 7101…), and POST /_bench/grade' })
    .option('endpoints', { ...endpointsOption, describe: `With --mcp: ${endpointsOption.describe}` })
    .option('ready-timeout', readyTimeoutOption)
    .option('router', { type: 'boolean', default: false, describe: 'With --mcp, also serve the router (search_tools, call_tool over every started endpoint; catalog [router] port 7100): docs/catalog.md' })
    .option('admin-port', { type: 'number', default: 8100, describe: 'Admin API port (0 = any free port)' })
    .option('ports', { choices: ['catalog', 'ephemeral'] as const, default: 'catalog' as const, describe: 'Service, bridge, proxy and admin ports: the catalog\'s, or any free ones' })
    .option('journal', { type: 'string', describe: 'Write the journal (LevelDB) to this new directory; default: in memory' })
    .option('log-dir', { type: 'string', describe: 'MCP servers\' stderr logs go here (with --mcp)' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' })
    .option('json', { type: 'boolean', default: false, describe: 'Print one JSON line with the addresses when ready' })
    .option('proxy', { type: 'boolean', default: true, describe: 'Run the TLS proxy in this process (--no-proxy: plain ports only)' })
    .option('secret-file', { type: 'string', describe: 'The world\'s secret (made if missing, mode 0600): lets `toolbench proxy --world` forward with attribution' })
    .option('admin-token-file', { type: 'string', describe: 'The admin API\'s bearer token: read from this file, or made there (mode 0600) if missing; default: a new random token, in the ready line' }),
  handler: async (args) => {
    const [{ startStack }, { gradingRoutes }] = await Promise.all([import('../../catalog/stack.js'), import('../../scenarios/grade-world.js')]);
    const stack = await startStack({
      scenarioDir: args.scenario, seed: args.seed, journalDir: args.journal, chaos: args.chaos, ports: args.ports, host: args.host,
      caDir: args['ca-dir'], proxy: args.proxy, endpoints: args.mcp && parseEndpointSelection(args.endpoints), router: args.router, readyTimeoutMs: readyTimeoutMs(args['ready-timeout']), logDir: args['log-dir'], mcpClients: args.client,
      adminPort: args['admin-port'], proxyPort: args['proxy-port'], tlsPort: args['tls-port'],
      forwardSecret: args['secret-file'] ? loadSecret(args['secret-file'], { create: true }) : undefined,
      adminToken: args['admin-token-file'] ? loadAdminToken(args['admin-token-file']) : undefined,
      adminRoutes: args.mcp ? gradingRoutes : undefined,
      onCrash: (_id, message) => process.stderr.write(`toolbench world: ${message}; its tools now fail (see the journal's MCP records)\n`),
    });
    const { header, world } = stack;
    const a = stack.addresses();
    const proxy = stack.proxy?.proxy ?? null;
    const clients = Object.fromEntries(proxy ? args.client.map((name) => [name, proxy.urlFor(name)]) : []);
    if (args.json) {
      const ready: WorldReady = {
        admin: a.admin, token: a.token, services: a.services, journal: args.journal ?? null, proxy: a.proxy, tls: a.tls, ca: a.ca, clients, mcp: a.mcp,
        ...(a.router ? { router: a.router } : {}),
      };
      process.stdout.write(JSON.stringify(WorldReadySchema.parse(ready)) + '\n');
    } else {
      process.stdout.write(`toolbench world: scenario ${header.scenario} (seed ${header.seed}${args.chaos === 'none' ? '' : `, chaos ${args.chaos}`})\n`);
      for (const [id, url] of Object.entries(a.services)) process.stdout.write(`  ${id.padEnd(12)} ${url}\n`);
      process.stdout.write(`  ${'admin'.padEnd(12)} ${a.admin}/_bench/health   (other routes: Authorization: Bearer ${a.token})\n`);
      if (proxy) {
        process.stdout.write(`  proxy        ${a.proxy}   (HTTPS_PROXY; transparent TLS on port ${a.tls})\n  ca           ${a.ca}\n`);
        for (const [name, url] of Object.entries(clients)) process.stdout.write(`  client ${name.padEnd(5)} ${url}\n`);
      }
      for (const [id, url] of Object.entries(a.mcp)) process.stdout.write(`  mcp ${id.padEnd(16)} ${url}\n`);
      if (a.router) process.stdout.write(`  mcp ${'router'.padEnd(16)} ${a.router}   (search_tools, call_tool over the endpoints above)\n`);
      process.stdout.write(`  journal      ${args.journal ?? '(in memory)'}\nPress Ctrl-C to stop.\n`);
    }
    await onShutdown(async () => {
      await stack.close();
      if (!args.json) process.stdout.write(`toolbench world: stopped after ${world.clock.current} requests\n`);
    });
  },
};
