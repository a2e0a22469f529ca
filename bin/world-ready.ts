import { z } from 'zod';

/** The first line `toolbench world --json` prints: scripts and tests start worlds on ephemeral ports with it. */
export const WorldReadySchema = z.object({
  admin: z.string().url(),
  /** The admin API's bearer token (every route but `/_bench/health` needs it). */
  token: z.string(),
  services: z.record(z.string().url()),
  journal: z.string().nullable(),
  /** Null with --no-proxy. */
  proxy: z.string().url().nullable(),
  tls: z.number().int().nullable(),
  ca: z.string().nullable(),
  /** Proxy URLs with the credential of each `--client`. */
  clients: z.record(z.string()),
  /** Each MCP endpoint's Streamable HTTP URL (with --mcp). */
  mcp: z.record(z.string().url()),
  /** The router's Streamable HTTP URL (with --router). */
  router: z.string().url().optional(),
});
export type WorldReady = z.infer<typeof WorldReadySchema>;
