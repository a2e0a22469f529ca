import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { TOOLBENCH_VERSION } from '../../mocks/version.js';
import type { ToolHost } from '../bridge.js';
import type { McpSink } from '../mcp-log.js';
import { ROUTER_ID, VIA_META_KEY, splitQualifiedName } from './names.js';
import { ToolIndex, type IndexedTool } from './rank.js';
import { CallArgumentsSchema, ROUTER_TOOLS, SearchArgumentsSchema } from './tools.js';

/**
 * How long a forwarded call may take: the agent's own client (and the trial's timeout) decide when
 * to give up, so the router must not cut a call shorter than a direct one (the SDK's default is 60 s).
 */
const FORWARD_TIMEOUT_MS = 30 * 60_000;

/** One endpoint the router reaches: its bridge, and the tools it is indexed by (its snapshot). */
export interface RoutedEndpoint {
  id: string;
  /** Its bridge's Streamable HTTP URL. */
  url: string;
  tools: readonly IndexedTool[];
}

/**
 * The router endpoint: `search_tools` ranks every routed endpoint's tools, `call_tool` forwards a
 * call to the owning endpoint's bridge over MCP, marked as forwarded, so the endpoint journals it
 * (its world requests attributed to the real endpoint and tool, its MCP record `via: "router"`).
 * The router's own calls (every search, and a call it refused before any endpoint saw it) are
 * journaled under endpoint `router`.
 */
export class Router implements ToolHost {
  readonly id = ROUTER_ID;
  readonly serverInfo = { name: 'toolbench-router', version: TOOLBENCH_VERSION };
  readonly tools: Tool[] = ROUTER_TOOLS;
  private readonly index: ToolIndex;
  private readonly urls: Map<string, string>;
  private readonly clients = new Map<string, Promise<Client>>();
  private calls = 0;

  constructor(endpoints: readonly RoutedEndpoint[], private readonly mcpLog: McpSink) {
    this.index = new ToolIndex(endpoints.flatMap((endpoint) => endpoint.tools.map((tool) => ({ endpoint: endpoint.id, tool }))));
    this.urls = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint.url]));
  }

  async callTool(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    if (name === 'search_tools') return this.journaled(name, args, () => this.search(args));
    if (name === 'call_tool') return this.forward(args);
    throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found (the router has search_tools and call_tool)`);
  }

  private search(args: Record<string, unknown> | undefined): CallToolResult {
    const parsed = parse(SearchArgumentsSchema, args);
    if (typeof parsed === 'string') return failure(`search_tools: ${parsed}`);
    const { matched, tools } = this.index.search(parsed.query, parsed.limit);
    const found = tools.map(({ name, endpoint, tool, score }) => {
      // What a reader (or model) wants first: the name, then what it does, then how to call it.
      const { name: own, description, inputSchema, ...rest } = tool;
      return { name, endpoint, tool: own, score: Math.round(score * 1000) / 1000, ...(description === undefined ? {} : { description }), inputSchema, ...rest };
    });
    const note = matched === 0 ? 'No tool matched; try other words (what the tool does, or the service it belongs to).' : undefined;
    return { content: [{ type: 'text', text: JSON.stringify({ query: parsed.query, matched, tools: found, ...(note ? { note } : {}) }) }] };
  }

  private async forward(args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const parsed = parse(CallArgumentsSchema, args);
    if (typeof parsed === 'string') return this.journaled('call_tool', args, () => failure(`call_tool: ${parsed}`));
    const target = splitQualifiedName(parsed.name);
    const url = target && this.urls.get(target.endpoint);
    if (!target || !url || !this.index.find(parsed.name)) {
      return this.journaled('call_tool', args, () => failure(`call_tool: no tool named ${JSON.stringify(parsed.name)}; `
        + 'use a qualified name that search_tools returned (<server>__<tool>, e.g. github__create_issue)'));
    }
    const client = await this.clientFor(target.endpoint, url);
    // The endpoint journals the call (and its world requests) itself, noting the router.
    return await client.callTool({ name: target.tool, arguments: parsed.arguments, _meta: { [VIA_META_KEY]: 'router' } }, undefined,
      { timeout: FORWARD_TIMEOUT_MS }) as CallToolResult;
  }

  private clientFor(endpoint: string, url: string): Promise<Client> {
    let client = this.clients.get(endpoint);
    if (!client) {
      client = (async () => {
        const connected = new Client({ name: 'toolbench-router', version: TOOLBENCH_VERSION });
        await connected.connect(new StreamableHTTPClientTransport(new URL(url)));
        return connected;
      })();
      // A failed connect is not kept: the next call tries again.
      client.catch(() => this.clients.delete(endpoint));
      this.clients.set(endpoint, client);
    }
    return client;
  }

  /** Runs one of the router's own calls and journals it as endpoint `router`. */
  private async journaled(tool: string, args: Record<string, unknown> | undefined, run: () => CallToolResult): Promise<CallToolResult> {
    this.calls += 1;
    const seq = this.mcpLog.worldSeq();
    const result = run();
    await this.mcpLog.record({
      endpoint: this.id, kind: 'call', tool, callId: `${this.id}#${this.calls}`, arguments: args ?? null, result,
      isError: result.isError === true, error: null, worldSeqBefore: seq, worldSeqAfter: seq,
    });
    return result;
  }

  async close(): Promise<void> {
    const clients = await Promise.allSettled(this.clients.values());
    for (const settled of clients) if (settled.status === 'fulfilled') await settled.value.close().catch(() => undefined);
    this.clients.clear();
  }
}

function parse<T extends z.ZodTypeAny>(schema: T, args: Record<string, unknown> | undefined): z.infer<T> | string {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
