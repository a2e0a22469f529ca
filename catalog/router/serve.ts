import type { Listening } from '../../proxy/service-listener.js';
import { serveBridge } from '../bridge.js';
import type { McpSink } from '../mcp-log.js';
import { readSnapshots, DEFAULT_SNAPSHOT_DIR } from '../snapshots.js';
import type { IndexedTool } from './rank.js';
import { Router } from './router.js';

export interface ServedRouter {
  router: Router;
  bridge: Listening;
  close(): Promise<void>;
}

/**
 * The router over running endpoints, served on its own bridge. Each endpoint is indexed by its
 * committed snapshot (the same index in every trial, read in milliseconds); one without a
 * snapshot yet (a service still being added) by the tools its server listed at start.
 */
export async function serveRouter(
  endpoints: readonly { id: string; url: string; tools: readonly IndexedTool[] }[],
  mcpLog: McpSink,
  options: { host?: string; port: number; snapshotDir?: string },
): Promise<ServedRouter> {
  const snapshots = new Map(readSnapshots(options.snapshotDir ?? DEFAULT_SNAPSHOT_DIR).map((s) => [s.endpoint, s.tools as IndexedTool[]]));
  const router = new Router(endpoints.map((e) => ({ id: e.id, url: e.url, tools: snapshots.get(e.id) ?? e.tools })), mcpLog);
  const bridge = await serveBridge(router, { host: options.host, port: options.port });
  return {
    router,
    bridge,
    close: async () => {
      await bridge.close();
      await router.close();
    },
  };
}
