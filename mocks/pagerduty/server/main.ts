import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { PagerDutyClient, type Json } from './client.js';
import { runTool, TOOLS } from './tools.js';

/**
 * toolbench's PagerDuty MCP server over stdio (catalog: endpoint `pagerduty`, kind = "native").
 * Its tools mirror PagerDuty's Python pagerduty-mcp 1.1.0 started with `--enable-write-tools`;
 * it reads the same variables (PAGERDUTY_USER_API_KEY, PAGERDUTY_API_HOST) and calls the real
 * host, https://api.pagerduty.com.
 */
const key = process.env.PAGERDUTY_USER_API_KEY;
if (!key) {
  process.stderr.write('pagerduty-mcp: An API key is required to call the PagerDuty API (set PAGERDUTY_USER_API_KEY)\n');
  process.exit(2);
}
const client = new PagerDutyClient(key, process.env.PAGERDUTY_API_HOST || 'https://api.pagerduty.com');
// The current user (for request scopes and responder requests), fetched once when first needed, as the Python server's context does.
let user: Promise<Json> | null = null;
const me = (): Promise<Json> => (user ??= client.rget('/users/me', 'user') as Promise<Json>).catch((error: unknown) => {
  user = null;
  throw error;
});

const INSTRUCTIONS = `
When the user asks for information about their resources, first get the user data and scope any
requests using the user id.

READ operations are safe to use, but be cautious with WRITE operations as they can modify the
live environment. Always confirm with the user before using any tool marked as destructive.
`;

const server = new Server({ name: 'PagerDuty MCP Server', version: '1.1.0' }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  try {
    const text = await runTool(client, me, request.params.name, request.params.arguments);
    return { content: [{ type: 'text' as const, text }] };
  } catch (error) {
    return { content: [{ type: 'text' as const, text: `Error executing tool ${request.params.name}: ${(error as Error).message}` }], isError: true };
  }
});
await server.connect(new StdioServerTransport());
