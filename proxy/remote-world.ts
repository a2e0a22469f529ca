import { ToolbenchError } from '../mocks/core/errors.js';
import { remoteUpstream } from './remote-upstream.js';
import type { Upstream } from './upstream.js';

/** What a split proxy learns from the world's admin API (`/_bench/health`). */
export interface RemoteWorld {
  admin: string;
  /** Base URL of each service port, on the admin URL's host. */
  services: Record<string, string>;
  catalogHash: string | null;
  upstream: Upstream;
}

/**
 * Connects a proxy to a world in another process: its service ports come from the admin API
 * (on the admin URL's host, so a world listening on 0.0.0.0 in another container works), and
 * its catalog must be the proxy's (same hosts, same routing).
 */
export async function connectRemoteWorld(adminUrl: string, options: { secret: Uint8Array; catalogHash: string; log?: (message: string) => void }): Promise<RemoteWorld> {
  let admin: URL;
  try {
    admin = new URL(adminUrl);
  } catch {
    throw new ToolbenchError('TB_ERR_USAGE', `--world must be the world's admin URL (http://host:port), got "${adminUrl}"`);
  }
  const healthUrl = new URL('/_bench/health', admin);
  let health: { services?: Record<string, string>; catalogHash?: string };
  try {
    const response = await fetch(healthUrl, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    health = await response.json() as typeof health;
  } catch (error) {
    throw new ToolbenchError('TB_ERR_PROXY', `cannot reach the world's admin API at ${healthUrl.href}: ${(error as Error).message}`, { cause: error });
  }
  if (!health.services || Object.keys(health.services).length === 0) {
    throw new ToolbenchError('TB_ERR_PROXY', `the world at ${admin.origin} lists no service ports (is it a toolbench world?)`);
  }
  if (health.catalogHash && health.catalogHash !== options.catalogHash) {
    throw new ToolbenchError('TB_ERR_PROXY', `the world at ${admin.origin} runs another catalog (hash ${health.catalogHash.slice(0, 12)}…, ours ${options.catalogHash.slice(0, 12)}…); start both from the same catalog/services.toml`);
  }
  const services = Object.fromEntries(Object.entries(health.services).map(([id, url]) => {
    const service = new URL(url);
    service.hostname = admin.hostname;
    return [id, service.origin];
  }));
  return {
    admin: admin.origin,
    services,
    catalogHash: health.catalogHash ?? null,
    upstream: remoteUpstream({ services, secret: options.secret, log: options.log }),
  };
}
