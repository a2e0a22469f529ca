import { z } from 'zod';
import { ROUTER_ID } from '../catalog/router/names.js';

/** `mcp.json` as Claude Code reads it (`--mcp-config FILE` or a project's `.mcp.json`). */
export const ClaudeMcpConfigSchema = z.object({
  mcpServers: z.record(z.object({ type: z.literal('http'), url: z.string().url() })),
});
export type ClaudeMcpConfig = z.infer<typeof ClaudeMcpConfigSchema>;

/** `mcp.generic.json`: the same endpoints for any client, with the transport spelled out. */
export const GenericMcpConfigSchema = z.object({
  endpoints: z.array(z.object({ name: z.string(), transport: z.literal('streamable-http'), url: z.string().url() })),
});
export type GenericMcpConfig = z.infer<typeof GenericMcpConfigSchema>;

export function claudeMcpConfig(endpoints: Record<string, string>): ClaudeMcpConfig {
  return { mcpServers: Object.fromEntries(Object.entries(endpoints).map(([name, url]) => [name, { type: 'http' as const, url }])) };
}

export function genericMcpConfig(endpoints: Record<string, string>): GenericMcpConfig {
  return { endpoints: Object.entries(endpoints).map(([name, url]) => ({ name, transport: 'streamable-http' as const, url })) };
}

/**
 * The tool arms of a trial (`record --tools`): `all` lists every started endpoint in the agent's
 * MCP config, so every tool is upfront; `router` lists only the router, whose two tools reach the
 * same endpoints (which still run) by search (docs/agents.md, "The router arm").
 */
export const TOOL_ARMS = ['all', 'router'] as const;
export type ToolArm = (typeof TOOL_ARMS)[number];

/** The endpoints an arm's MCP config names, from a stack's addresses. */
export function armEndpoints(arm: ToolArm, addresses: { mcp: Record<string, string>; router: string | null }): Record<string, string> {
  if (arm === 'all') return addresses.mcp;
  if (addresses.router === null) throw new Error('the router arm needs a stack started with its router');
  return { [ROUTER_ID]: addresses.router };
}
