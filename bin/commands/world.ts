import type { CommandModule } from 'yargs';
import { openWorld } from '../../mocks/build.js';
import { CHAOS_LEVELS, type ChaosLevel } from '../../mocks/core/fault-plan.js';
import { serveProxyForWorld, type ServedProxy } from '../../proxy/for-world.js';
import { serveWorld } from '../../proxy/serve.js';
import { loadAdminToken } from '../../proxy/admin-token.js';
import { loadSecret } from '../../proxy/world-secret.js';
import { DEFAULT_SCENARIO, onShutdown, seedOption } from '../shared.js';
import { commandLineClients, proxyOptions, type ProxyArgs } from './proxy.js';

interface WorldArgs extends ProxyArgs {
  proxy: boolean;
  'secret-file'?: string;
  'admin-token-file'?: string;
  scenario: string;
  seed?: number;
  chaos: ChaosLevel;
  'admin-port': number;
  ports: 'catalog' | 'ephemeral';
  journal?: string;
  host: string;
  json: boolean;
}

export const worldCommand: CommandModule<{}, WorldArgs> = {
  command: 'world',
  describe: 'Serve a scenario\'s world: every service on a plain-HTTP port, the admin API, and the TLS proxy',
  builder: (y) => proxyOptions(y, { proxy: '8080, any with --ports ephemeral', tls: '8443, any with --ports ephemeral' })
    .option('scenario', { type: 'string', default: DEFAULT_SCENARIO, describe: 'Scenario directory (holds scenario.toml and dataset/)' })
    .option('seed', seedOption)
    .option('chaos', { choices: CHAOS_LEVELS, default: 'none' as ChaosLevel, describe: 'Fault preset added to the scenario\'s [[faults]]: seeded 429/5xx, resets, timeouts and latency (docs/faults.md)' })
    .option('admin-port', { type: 'number', default: 8100, describe: 'Admin API port (0 = any free port)' })
    .option('ports', { choices: ['catalog', 'ephemeral'] as const, default: 'catalog' as const, describe: 'Service ports: the catalog\'s, or any free ones' })
    .option('journal', { type: 'string', describe: 'Write the journal (LevelDB) to this new directory; default: in memory' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' })
    .option('json', { type: 'boolean', default: false, describe: 'Print one JSON line with the addresses when ready' })
    .option('proxy', { type: 'boolean', default: true, describe: 'Run the TLS proxy in this process (--no-proxy: plain ports only)' })
    .option('secret-file', { type: 'string', describe: 'The world\'s secret (made if missing, mode 0600): lets `toolbench proxy --world` forward with attribution' })
    .option('admin-token-file', { type: 'string', describe: 'The admin API\'s bearer token: read from this file, or made there (mode 0600) if missing; default: a new random token, in the ready line' }),
  handler: async (args) => {
    const opened = await openWorld({ scenarioDir: args.scenario, seed: args.seed, journalDir: args.journal, chaos: args.chaos });
    const { world, header, catalog } = opened;
    let served;
    let proxied: ServedProxy | null = null;
    try {
      const forwardSecret = args['secret-file'] ? loadSecret(args['secret-file'], { create: true }) : undefined;
      const adminToken = args['admin-token-file'] ? loadAdminToken(args['admin-token-file']) : undefined;
      served = await serveWorld(world, catalog.catalog.services, {
        ports: args.ports, host: args.host, adminPort: args['admin-port'], forwardSecret, adminToken,
        info: { scenario: header.scenario, seed: header.seed, catalogHash: header.catalogHash, chaos: args.chaos },
      });
      if (args.proxy) {
        const tracker = commandLineClients(args.client);
        const catalogPorts = args.ports === 'catalog';
        proxied = await serveProxyForWorld(world, catalog.catalog, {
          caDir: args['ca-dir'], host: args.host, attribute: (client) => tracker.attribute(client),
          proxyPort: args['proxy-port'] ?? (catalogPorts ? 8080 : 0), tlsPort: args['tls-port'] ?? (catalogPorts ? 8443 : 0),
        }).catch(async (error: unknown) => {
          await served!.close();
          throw error;
        });
      }
    } catch (error) {
      await world.journal.close();
      throw error;
    }
    const services = Object.fromEntries(Object.entries(served.services).map(([id, l]) => [id, l.url]));
    const proxy = proxied?.proxy ?? null;
    const clients = Object.fromEntries(proxy ? args.client.map((name) => [name, proxy.urlFor(name)]) : []);
    const ca = proxied?.certs.ca.certPath ?? null;
    if (args.json) {
      process.stdout.write(JSON.stringify({
        admin: served.admin.url, token: served.token, services, journal: args.journal ?? null, proxy: proxy?.url ?? null, tls: proxy?.tlsPort ?? null, ca, clients,
      }) + '\n');
    } else {
      process.stdout.write(`toolbench world: scenario ${header.scenario} (seed ${header.seed}${args.chaos === 'none' ? '' : `, chaos ${args.chaos}`})\n`);
      for (const [id, url] of Object.entries(services)) process.stdout.write(`  ${id.padEnd(12)} ${url}\n`);
      process.stdout.write(`  ${'admin'.padEnd(12)} ${served.admin.url}/_bench/health   (other routes: Authorization: Bearer ${served.token})\n`);
      if (proxy) {
        process.stdout.write(`  proxy        ${proxy.url}   (HTTPS_PROXY; transparent TLS on port ${proxy.tlsPort})\n  ca           ${ca}\n`);
        for (const [name, url] of Object.entries(clients)) process.stdout.write(`  client ${name.padEnd(5)} ${url}\n`);
      }
      process.stdout.write(`  journal      ${args.journal ?? '(in memory)'}\nPress Ctrl-C to stop.\n`);
    }
    await onShutdown(async () => {
      await proxy?.close();
      await served.close();
      await world.journal.close();
      if (!args.json) process.stdout.write(`toolbench world: stopped after ${world.clock.current} requests\n`);
    });
  },
};
