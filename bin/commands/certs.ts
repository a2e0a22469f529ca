import type { CommandModule } from 'yargs';
import { loadCatalog } from '../../catalog/load.js';
import { DEFAULT_CA_DIR, ensureCa, LeafCache, loadCa } from '../../certs/index.js';
import { caTrustEnvironment, childEnvironment, shellExports } from '../../proxy/child-env.js';
import { HostRoutes } from '../../proxy/routes.js';

interface InitArgs { dir: string; force: boolean; json: boolean }
interface EnvArgs { dir: string; proxy?: string; json: boolean }

const initCommand: CommandModule<{}, InitArgs> = {
  command: 'init',
  describe: 'Create the local CA (Name Constraints: the catalog\'s hostnames only) and its leaves, or check the existing one',
  builder: (y) => y
    .option('dir', { type: 'string', default: DEFAULT_CA_DIR, describe: 'CA directory' })
    .option('force', { type: 'boolean', default: false, describe: 'Replace an existing CA (clients must trust the new ca.pem)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print one JSON line' }),
  handler: async (args) => {
    // Concrete hosts and `.suffix` names for host patterns, exactly as the proxy asks for them.
    const hostnames = new HostRoutes(loadCatalog().catalog).tlsNames;
    const { ca, created } = ensureCa(args.dir, hostnames, { force: args.force });
    const stats = LeafCache.open(ca).prepare(hostnames);
    if (args.json) {
      process.stdout.write(JSON.stringify({ ca: ca.certPath, key: ca.keyPath, bundle: ca.bundlePath, fingerprint: ca.fingerprint, permitted: ca.permitted, created, leaves: stats }) + '\n');
      return;
    }
    process.stdout.write(`toolbench certs: ${created ? 'created' : 'using'} the CA in ${ca.dir}\n` +
      `  certificate  ${ca.certPath}\n  private key  ${ca.keyPath} (0600)\n  sha256       ${ca.fingerprint}\n` +
      `  permits      ${ca.permitted.join(', ')}\n  leaves       ${stats.signed} signed, ${stats.loaded} cached\n` +
      `Trust it in a shell with: eval "$(toolbench certs env --dir ${args.dir})"\n`);
  },
};

const envCommand: CommandModule<{}, EnvArgs> = {
  command: 'env',
  describe: 'Print the environment that makes Node, Python, curl and Go trust the CA (and, with --proxy, use the proxy)',
  builder: (y) => y
    .option('dir', { type: 'string', default: DEFAULT_CA_DIR, describe: 'CA directory' })
    .option('proxy', { type: 'string', describe: 'Proxy URL (with a client credential): adds HTTPS_PROXY and friends and the Node preload' })
    .option('json', { type: 'boolean', default: false, describe: 'Print a JSON object instead of shell exports' }),
  handler: async (args) => {
    const ca = loadCa(args.dir);
    const env = args.proxy ? childEnvironment({ proxyUrl: args.proxy, ca }) : caTrustEnvironment(ca);
    process.stdout.write(args.json ? JSON.stringify(env) + '\n' : shellExports(env));
  },
};

export const certsCommand: CommandModule = {
  command: 'certs <command>',
  describe: 'The local CA the proxy signs its certificates with',
  builder: (y) => y.command(initCommand).command(envCommand).demandCommand(1),
  handler: () => {},
};
