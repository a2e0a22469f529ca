import type { Argv, CommandModule } from 'yargs';
import { loadCatalog } from '../../catalog/load.js';
import { DEFAULT_CA_DIR } from '../../certs/index.js';
import { CallTracker } from '../../mocks/core/attribution.js';
import { serveProxy } from '../../proxy/for-world.js';
import { connectRemoteWorld } from '../../proxy/remote-world.js';
import { loadSecret } from '../../proxy/world-secret.js';
import { onShutdown } from '../shared.js';

export interface ProxyArgs {
  'proxy-port'?: number;
  'tls-port'?: number;
  'ca-dir': string;
  client: string[];
}

/** Options shared by `toolbench world` and `toolbench proxy`. */
export function proxyOptions<T>(y: Argv<T>, defaults: { proxy: string; tls: string }) {
  return y
    .option('proxy-port', { type: 'number', describe: `Explicit proxy port, what HTTPS_PROXY points at (0 = any free port; default ${defaults.proxy})` })
    .option('tls-port', { type: 'number', describe: `Transparent TLS port, routed by SNI (0 = any free port; default ${defaults.tls})` })
    .option('ca-dir', { type: 'string', default: DEFAULT_CA_DIR, describe: 'CA directory (made if missing; see `toolbench certs`)' })
    .option('client', { type: 'string', array: true, default: [] as string[], describe: 'Issue a proxy credential for this MCP endpoint name (repeatable); its requests are attributed `mcp`' });
}

/** Credentials named on the command line are endpoints that are ready: their traffic is `mcp`. */
export function commandLineClients(names: readonly string[]): CallTracker {
  const tracker = new CallTracker();
  for (const name of names) {
    tracker.register(name);
    tracker.markReady(name);
  }
  return tracker;
}

interface ProxyCommandArgs extends ProxyArgs {
  world: string;
  'secret-file': string;
  host: string;
  json: boolean;
}

export const proxyCommand: CommandModule<{}, ProxyCommandArgs> = {
  command: 'proxy',
  describe: 'Run the proxy alone in front of a world in another process (`toolbench world --secret-file`)',
  builder: (y) => proxyOptions(y, { proxy: '8080', tls: '8443' })
    .option('world', { type: 'string', demandOption: true, describe: 'The world\'s admin URL, e.g. http://127.0.0.1:8100' })
    .option('secret-file', { type: 'string', demandOption: true, describe: 'The world\'s secret (the file its --secret-file made)' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' })
    .option('json', { type: 'boolean', default: false, describe: 'Print one JSON line with the addresses when ready' }),
  handler: async (args) => {
    const catalog = loadCatalog();
    const secret = loadSecret(args['secret-file'], { create: false });
    const remote = await connectRemoteWorld(args.world, { secret, catalogHash: catalog.hash });
    const tracker = commandLineClients(args.client);
    const { proxy, certs } = await serveProxy(catalog.catalog, remote.upstream, {
      caDir: args['ca-dir'], host: args.host, proxyPort: args['proxy-port'] ?? 8080, tlsPort: args['tls-port'] ?? 8443,
      attribute: (client) => tracker.attribute(client),
    });
    const clients = Object.fromEntries(args.client.map((name) => [name, proxy.urlFor(name)]));
    if (args.json) {
      process.stdout.write(JSON.stringify({ proxy: proxy.url, tls: proxy.tlsPort, ca: certs.ca.certPath, world: remote.admin, clients }) + '\n');
    } else {
      process.stdout.write(`toolbench proxy: in front of the world at ${remote.admin}\n` +
        `  proxy        ${proxy.url}\n  tls          ${proxy.tlsPort}\n  ca           ${certs.ca.certPath}\n` +
        Object.entries(clients).map(([name, url]) => `  client ${name.padEnd(5)} ${url}\n`).join('') + 'Press Ctrl-C to stop.\n');
    }
    await onShutdown(() => proxy.close());
  },
};
