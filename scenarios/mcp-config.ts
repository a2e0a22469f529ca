import { z } from 'zod';

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
