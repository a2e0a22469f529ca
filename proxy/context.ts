import type { Attribution } from '../mocks/core/journal-format.js';
import type { ProxyCredentials } from './credentials.js';
import type { HttpTimeouts, InnerServer } from './inner-server.js';
import type { HostRoutes } from './routes.js';
import type { SecureContexts } from './tls-terminate.js';
import type { Connector } from './tunnel.js';
import type { Upstream } from './upstream.js';

export interface ProxyTimeouts extends HttpTimeouts {
  /** Time from accepting a connection (or answering CONNECT) to a finished TLS handshake. */
  handshakeMs: number;
}

export const DEFAULT_TIMEOUTS: ProxyTimeouts = { headersMs: 30_000, requestMs: 300_000, keepAliveMs: 5_000, handshakeMs: 10_000 };

/** What every listener of one proxy shares. */
export interface ProxyContext {
  routes: HostRoutes;
  contexts: SecureContexts;
  upstream: Upstream;
  credentials: ProxyCredentials;
  /** Attribution of a request from `client` (null: no or unknown credential). */
  attribute(client: string | null): Attribution;
  connect: Connector;
  timeouts: ProxyTimeouts;
  bodyLimit: number;
  inner: InnerServer;
  log(message: string): void;
}
