import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { makeClients, runTool, TOOLS } from './tools.js';

/**
 * toolbench's AWS MCP server over stdio (catalog: endpoint `aws`, kind = "native"). It reads the
 * standard AWS variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION) through the SDK's
 * default credential chain and calls the real AWS hosts with the AWS SDK v3 clients; the proxy's
 * preload routes them, so nothing here knows the proxy.
 */
const missing = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION'].filter((name) => !process.env[name]);
if (missing.length > 0) {
  process.stderr.write(`aws-mcp-server: set ${missing.join(', ')}\n`);
  process.exit(2);
}
const clients = makeClients(process.env.AWS_REGION!);

const server = new Server({ name: 'AWS', version: '0.1.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  try {
    const text = await runTool(clients, request.params.name, request.params.arguments);
    return { content: [{ type: 'text' as const, text }] };
  } catch (error) {
    const e = error as Error & { $metadata?: { httpStatusCode?: number } };
    const status = e.$metadata?.httpStatusCode;
    return { content: [{ type: 'text' as const, text: `Error: ${e.name}${status ? ` (HTTP ${status})` : ''}: ${e.message}` }], isError: true };
  }
});
await server.connect(new StdioServerTransport());
