import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpRecord } from '../mocks/core/journal-format.js';
import { KEEP_ALIVE_IDLE_MS } from '../proxy/context.js';
import { listen, type Listening } from '../proxy/service-listener.js';
import { VIA_META_KEY } from './router/names.js';

/** What a bridge serves: a running endpoint (catalog/supervisor.ts) or the router (catalog/router/). */
export interface ToolHost {
  readonly id: string;
  readonly serverInfo: { name: string; version: string };
  readonly tools: Tool[];
  callTool(name: string, args: Record<string, unknown> | undefined, via?: McpRecord['via']): Promise<CallToolResult>;
}

/** The path agents connect to: `http://127.0.0.1:7101/mcp`. */
export const BRIDGE_PATH = '/mcp';

/** Open sessions per bridge; a client that keeps initializing closes its own oldest, not memory. */
export const DEFAULT_MAX_SESSIONS = 64;

/**
 * Serves one endpoint to agents as Streamable HTTP (stateful sessions). Every session's tools/list
 * answers from the tools listed at start; every tools/call goes through the running endpoint,
 * which serialises, attributes and journals it.
 */
export async function serveBridge(endpoint: ToolHost, options: { host?: string; port: number; maxSessions?: number }): Promise<Listening> {
  // Insertion order is use order (a session is moved to the end on each request), so the first
  // one is the least recently used: the one closed when a new session would pass the cap.
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;

  const openSession = async (): Promise<StreamableHTTPServerTransport> => {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        while (sessions.size > maxSessions) {
          const [oldestId, oldest] = sessions.entries().next().value as [string, StreamableHTTPServerTransport];
          sessions.delete(oldestId);
          void oldest.close().catch(() => undefined);
        }
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await bridgeServer(endpoint).connect(transport);
    return transport;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== BRIDGE_PATH) return jsonRpcError(res, 404, `toolbench bridge for ${endpoint.id}: MCP is served at ${BRIDGE_PATH}`);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (!transport) return jsonRpcError(res, 404, 'Session not found');
      sessions.delete(sessionId);
      sessions.set(sessionId, transport);
      return transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return jsonRpcError(res, 400, 'Bad Request: no valid session ID provided');
    return (await openSession()).handleRequest(req, res);
  };

  // Kept-alive sockets idle for as long as the proxy's (65 s, not Node's 5 s). The SDK's responses
  // set `Connection: keep-alive`, so Node sends no `Keep-Alive: timeout=` hint and a client keeps
  // its own idle limit (undici: 4 s on a coarse timer): with the bridge closing at 5 s, a tool call
  // sent on a socket in that second was lost ("fetch failed", seen in CI under load).
  const server = createServer({ keepAliveTimeout: KEEP_ALIVE_IDLE_MS }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) jsonRpcError(res, 500, `toolbench bridge: ${(error as Error).message}`);
      else res.destroy();
    });
  });
  const listening = await listen(server, options.host ?? '127.0.0.1', options.port);
  return {
    ...listening,
    url: `${listening.url}${BRIDGE_PATH}`,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      await listening.close();
    },
  };
}

function bridgeServer(endpoint: ToolHost): Server {
  const server = new Server(endpoint.serverInfo, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: endpoint.tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const via = request.params._meta?.[VIA_META_KEY] === 'router' ? 'router' : undefined;
    return endpoint.callTool(request.params.name, request.params.arguments, via);
  });
  return server;
}

function jsonRpcError(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
