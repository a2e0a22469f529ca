// A whole trial in one process, for the egress test (test/security-egress.test.ts): world, proxy,
// the real pinned GitHub MCP server behind its bridge, and an agent that plays the scenario's
// oracle calls over MCP, tries to reach a host outside the catalog through the proxy, and closes
// everything. Run with test/helpers/egress-preload.mjs loaded (NODE_OPTIONS); the MCP server gets
// it too, next to the proxy preload, through its catalog entry's env. Prints one JSON line.
import { connect } from 'node:net';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ProxyAgent, request } from 'undici';
import { loadCatalog } from '../../catalog/load.js';
import { startStack } from '../../catalog/stack.js';
import { PRELOAD_PATH } from '../../proxy/preload-path.js';
import { readFileSync } from 'node:fs';

const [scenarioDir, caDir, guardPath] = process.argv.slice(2) as [string, string, string];
const shipped = loadCatalog();
const catalog = {
  ...shipped,
  catalog: {
    ...shipped.catalog,
    endpoints: shipped.catalog.endpoints.map((endpoint) => ({
      ...endpoint,
      env: {
        ...endpoint.env,
        NODE_OPTIONS: `--import=${pathToFileURL(PRELOAD_PATH).href} --import=${pathToFileURL(guardPath).href}`,
        TOOLBENCH_EGRESS_LOG: process.env.TOOLBENCH_EGRESS_LOG!,
      },
    })),
  },
};

const stack = await startStack({ scenarioDir, ports: 'ephemeral', caDir, endpoints: true, catalog, clients: ['agent'] });
const summary: Record<string, unknown> = {};
try {
  const client = new Client({ name: 'egress-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.addresses().mcp.github!)));
  const calls = stack.manifest.oracle.calls ?? [];
  const results: boolean[] = [];
  for (const call of calls) {
    const result = await client.callTool({ name: call.tool, arguments: call.arguments as Record<string, unknown> });
    results.push(!result.isError);
  }
  for (const [name, args] of [['get_file_contents', { owner: 'acme', repo: 'widgets', path: 'README.md' }], ['list_issues', { owner: 'acme', repo: 'widgets' }]] as const) {
    const result = await client.callTool({ name, arguments: args });
    results.push(!result.isError);
  }
  summary.toolCalls = results.length;
  summary.toolCallsOk = results.filter(Boolean).length;
  await client.close();

  // An agent going around MCP to a host outside the catalog: the proxy refuses it (403) without
  // opening anything.
  const outside = await request('https://example.org/', {
    dispatcher: new ProxyAgent({ uri: stack.proxy!.proxy.urlFor('agent'), requestTls: { ca: readFileSync(stack.caPath!, 'utf8') } }),
  }).then((response) => response.statusCode, (error: Error & { cause?: { message?: string } }) => `error: ${error.cause?.message ?? error.message}`);
  summary.outsideViaProxy = outside;

  // The positive control: a direct connection out from this process; the guard must record and
  // refuse it (it never reaches the network).
  summary.control = await new Promise((resolve) => {
    const socket = connect(443, '192.0.2.1'); // TEST-NET-1 (RFC 5737), never routed
    socket.once('error', (error) => resolve(error.message));
    socket.once('connect', () => { socket.destroy(); resolve('connected'); });
  });
  summary.journal = stack.world.clock.current;
} finally {
  await stack.close();
}
process.stdout.write(JSON.stringify(summary) + '\n');
