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

/**
 * The idle limit between kept-alive requests is longer than any client's own (Node's agents and
 * undici drop an idle socket after 4-5 s): when the server closed first, a client that reused the
 * socket at that moment lost its request ("fetch failed", seen under load). Real APIs sit behind
 * load balancers with 60 s or more for the same reason.
 */
export const KEEP_ALIVE_IDLE_MS = 65_000;

export const DEFAULT_TIMEOUTS: ProxyTimeouts = { headersMs: 30_000, requestMs: 300_000, keepAliveMs: KEEP_ALIVE_IDLE_MS, handshakeMs: 10_000 };

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
