import type { CommandModule } from 'yargs';
import { openWorld } from '../../mocks/build.js';
import { serveWorld } from '../../proxy/serve.js';
import { DEFAULT_SCENARIO, onShutdown, seedOption } from '../shared.js';

interface WorldArgs {
  scenario: string;
  seed?: number;
  'admin-port': number;
  ports: 'catalog' | 'ephemeral';
  journal?: string;
  host: string;
  json: boolean;
}

export const worldCommand: CommandModule<{}, WorldArgs> = {
  command: 'world',
  describe: 'Serve a scenario\'s world: every service on a plain-HTTP port, plus the admin API',
  builder: (y) => y
    .option('scenario', { type: 'string', default: DEFAULT_SCENARIO, describe: 'Scenario directory (holds scenario.toml and dataset/)' })
    .option('seed', seedOption)
    .option('admin-port', { type: 'number', default: 8100, describe: 'Admin API port (0 = any free port)' })
    .option('ports', { choices: ['catalog', 'ephemeral'] as const, default: 'catalog' as const, describe: 'Service ports: the catalog\'s, or any free ones' })
    .option('journal', { type: 'string', describe: 'Write the journal (LevelDB) to this new directory; default: in memory' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' })
    .option('json', { type: 'boolean', default: false, describe: 'Print one JSON line with the addresses when ready' }),
  handler: async (args) => {
    const opened = await openWorld({ scenarioDir: args.scenario, seed: args.seed, journalDir: args.journal });
    const { world, header, catalog } = opened;
    let served;
    try {
      served = await serveWorld(world, catalog.catalog.services, {
        ports: args.ports, host: args.host, adminPort: args['admin-port'], info: { scenario: header.scenario, seed: header.seed },
      });
    } catch (error) {
      await world.journal.close();
      throw error;
    }
    const services = Object.fromEntries(Object.entries(served.services).map(([id, l]) => [id, l.url]));
    if (args.json) {
      process.stdout.write(JSON.stringify({ admin: served.admin.url, services, journal: args.journal ?? null }) + '\n');
    } else {
      process.stdout.write(`toolbench world: scenario ${header.scenario} (seed ${header.seed})\n`);
      for (const [id, url] of Object.entries(services)) process.stdout.write(`  ${id.padEnd(12)} ${url}\n`);
      process.stdout.write(`  ${'admin'.padEnd(12)} ${served.admin.url}/_bench/health\n`);
      process.stdout.write(`  journal      ${args.journal ?? '(in memory)'}\nPress Ctrl-C to stop.\n`);
    }
    await onShutdown(async () => {
      await served.close();
      await world.journal.close();
      if (!args.json) process.stdout.write(`toolbench world: stopped after ${world.clock.current} requests\n`);
    });
  },
};
