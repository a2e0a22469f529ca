import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ScenarioManifest } from '../../scenarios/manifest.js';

/** The oracle agent, in process: each solution call over MCP, one after another; the failures. */
export async function runOracle(manifest: ScenarioManifest, endpoints: Record<string, string>): Promise<string[]> {
  const clients = new Map<string, Client>();
  const failures: string[] = [];
  try {
    for (const [i, call] of manifest.oracle.calls.entries()) {
      let client = clients.get(call.endpoint);
      if (!client) {
        client = new Client({ name: 'toolbench-oracle-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(endpoints[call.endpoint]!)));
        clients.set(call.endpoint, client);
      }
      const result = await client.callTool({ name: call.tool, arguments: call.arguments });
      if (result.isError) {
        failures.push(`oracle.calls[${i}] ${call.tool}: ${JSON.stringify(result.content)}`);
        break;
      }
    }
  } finally {
    for (const client of clients.values()) await client.close();
  }
  return failures;
}
