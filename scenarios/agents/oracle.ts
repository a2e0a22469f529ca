// The oracle agent: replays the scenario's solution (`[oracle]` in scenario.toml) over MCP,
// through the bridges named in TOOLBENCH_MCP_CONFIG, then writes the scenario's answer. It uses
// only what any agent gets: the MCP config, the answer file, and (its privilege) the scenario.
// In the router arm (the config lists the router, not the call's endpoint) each call goes through
// the router's call_tool by its qualified name (`github__create_issue`).
import { readFileSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { qualifiedName, ROUTER_ID } from '../../catalog/router/names.js';
import { loadScenarioManifest } from '../manifest.js';
import { ClaudeMcpConfigSchema } from '../mcp-config.js';

const need = (name: string) => {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`oracle: ${name} is not set (run me through toolbench record)\n`);
    process.exit(2);
  }
  return value;
};

const config = ClaudeMcpConfigSchema.parse(JSON.parse(readFileSync(need('TOOLBENCH_MCP_CONFIG'), 'utf8')));
const scenario = loadScenarioManifest(need('TOOLBENCH_SCENARIO'));
const clients = new Map<string, Client>();

async function clientFor(endpoint: string): Promise<Client> {
  let client = clients.get(endpoint);
  if (!client) {
    const server = config.mcpServers[endpoint];
    if (!server) throw new Error(`the solution calls endpoint ${endpoint}, which the MCP config does not list`);
    client = new Client({ name: 'toolbench-oracle', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    clients.set(endpoint, client);
  }
  return client;
}

let failed = false;
try {
  for (const [i, call] of scenario.oracle.calls.entries()) {
    const routed = !config.mcpServers[call.endpoint] && config.mcpServers[ROUTER_ID] !== undefined;
    const result = routed
      ? await (await clientFor(ROUTER_ID)).callTool({ name: 'call_tool', arguments: { name: qualifiedName(call.endpoint, call.tool), arguments: call.arguments } })
      : await (await clientFor(call.endpoint)).callTool({ name: call.tool, arguments: call.arguments });
    if (result.isError) {
      process.stderr.write(`oracle: call ${i + 1} (${call.endpoint}.${call.tool}) failed: ${JSON.stringify(result.content)}\n`);
      failed = true;
      break;
    }
    process.stdout.write(`oracle: ${call.endpoint}.${call.tool} ok\n`);
  }
  if (!failed) writeFileSync(need('TOOLBENCH_ANSWER_FILE'), scenario.oracle.answer);
} finally {
  for (const client of clients.values()) await client.close();
}
process.exitCode = failed ? 1 : 0;
