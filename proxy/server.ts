import { CallTracker } from '../mocks/core/attribution.js';
import { AttributionSchema, type Attribution } from '../mocks/core/journal-format.js';
import { DEFAULT_TIMEOUTS, type ProxyContext, type ProxyTimeouts } from './context.js';
import { ProxyCredentials } from './credentials.js';
import { handleRequest } from './exchange.js';
import { createBaseUrlServer, createExplicitServer } from './explicit-listener.js';
import { DEFAULT_BODY_LIMIT } from './http-exchange.js';
import { InnerServer } from './inner-server.js';
import type { HostRoutes } from './routes.js';
import { listen, type Listening } from './service-listener.js';
import { SecureContexts, type LeafSource } from './tls-terminate.js';
import { createTransparentServer } from './transparent-listener.js';
import { connectToInternet, type Connector } from './tunnel.js';
import type { Upstream } from './upstream.js';

export interface ProxyOptions {
  routes: HostRoutes;
  /** Leaves for every service hostname, issued before the proxy starts (certs/). */
  leaves: LeafSource;
  upstream: Upstream;
  credentials?: ProxyCredentials;
  /** Attribution of a request from a client (null: no or unknown credential); default: `direct`. */
  attribute?: (client: string | null) => Attribution;
  /** Address of both listeners; default loopback. */
  host?: string;
  /** The explicit proxy's port (0 = any free port). */
  proxyPort: number;
  /** The transparent TLS port (0 = any free port), or null for none. */
  tlsPort: number | null;
  /** Opens passthrough tunnels (default: the real host). */
  connect?: Connector;
  timeouts?: Partial<ProxyTimeouts>;
  bodyLimit?: number;
  log?: (message: string) => void;
}

export interface RunningProxy {
  /** `http://127.0.0.1:PORT`: what HTTPS_PROXY points at (add a credential with `urlFor`). */
  url: string;
  port: number;
  tlsPort: number | null;
  credentials: ProxyCredentials;
  /** The proxy URL with `client`'s credential (issued on first use). */
  urlFor(client: string): string;
  /**
   * A plain-HTTP loopback URL that stands for `host` and speaks for `client`: every request on it
   * goes to `host` as if `client` had sent it through the proxy (for a server that takes its
   * API's base URL but no proxy, `reach = "base-url"`). Closed with the proxy.
   */
  baseUrlFor(client: string, host: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts the explicit proxy and (unless `tlsPort` is null) the transparent TLS listener. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const host = options.host ?? '127.0.0.1';
  const credentials = options.credentials ?? new ProxyCredentials();
  const tracker = new CallTracker();
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const ctx: ProxyContext = {
    routes: options.routes,
    contexts: new SecureContexts(options.leaves),
    upstream: options.upstream,
    credentials,
    // Through the schema, so entries are alike (key order included) in process and split.
    attribute: (client) => AttributionSchema.parse((options.attribute ?? ((c) => tracker.attribute(c)))(client)),
    connect: options.connect ?? connectToInternet,
    timeouts,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    inner: new InnerServer((req, res, session) => handleRequest(ctx, req, res, session), timeouts),
    log: options.log ?? ((message) => process.stderr.write(`toolbench proxy: ${message}\n`)),
  };
  // TLS contexts are built on each host's first handshake (~1 ms from a cached leaf, ~5 ms to
  // sign one): a world serves some fifty names and its clients reach a few, and building all at
  // start was most of the certificates' share of every world's start. The leaf source has
  // already checked every name against the CA's constraints.
  const opened: Listening[] = [];
  try {
    const explicit = await listen(createExplicitServer(ctx), host, options.proxyPort);
    opened.push(explicit);
    const transparent = options.tlsPort === null ? null : await listen(createTransparentServer(ctx), host, options.tlsPort);
    if (transparent) opened.push(transparent);
    return {
      url: explicit.url,
      port: explicit.port,
      tlsPort: transparent?.port ?? null,
      credentials,
      urlFor: (client) => credentials.url(client, explicit.url),
      async baseUrlFor(client, hostname) {
        const listening = await listen(createBaseUrlServer(ctx, { host: hostname, client }), host, 0);
        opened.push(listening);
        return listening.url;
      },
      async close() {
        await Promise.all(opened.map((l) => l.close()));
        ctx.inner.close();
        await options.upstream.close();
      },
    };
  } catch (error) {
    await Promise.all(opened.map((l) => l.close()));
    ctx.inner.close();
    throw error;
  }
}
