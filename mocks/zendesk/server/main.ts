import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ZendeskClient } from './client.js';
import { runTool, TOOLS } from './tools.js';

/**
 * toolbench's Zendesk MCP server over stdio (catalog: endpoint `zendesk`, kind = "native"). Its
 * tools mirror reminia/zendesk-mcp-server; it reads the same variables (ZENDESK_SUBDOMAIN,
 * ZENDESK_EMAIL, ZENDESK_API_KEY) and calls the real host, https://{subdomain}.zendesk.com.
 */
const missing = ['ZENDESK_SUBDOMAIN', 'ZENDESK_EMAIL', 'ZENDESK_API_KEY'].filter((name) => !process.env[name]);
if (missing.length > 0) {
  process.stderr.write(`zendesk-mcp-server: set ${missing.join(', ')}\n`);
  process.exit(2);
}
const client = new ZendeskClient({ subdomain: process.env.ZENDESK_SUBDOMAIN!, email: process.env.ZENDESK_EMAIL!, token: process.env.ZENDESK_API_KEY! });

const server = new Server({ name: 'Zendesk', version: '0.1.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  try {
    const text = await runTool(client, request.params.name, request.params.arguments);
    return { content: [{ type: 'text' as const, text }] };
  } catch (error) {
    return { content: [{ type: 'text' as const, text: `Error: ${(error as Error).message}` }], isError: true };
  }
});
await server.connect(new StdioServerTransport());
