import { createServer, Server as HttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Server, Socket } from 'node:net';
import type { World } from '../mocks/core/world.js';
import { blockedResponse } from './blocked.js';
import { verifyForwarded } from './forwarded.js';
import { FORWARDED_HEADER, worldHeaders } from './headers.js';
import { deliverResponse } from './deliver.js';
import { readRequest, DEFAULT_BODY_LIMIT, type ReadRequest } from './http-exchange.js';
import type { HttpTimeouts } from './inner-server.js';
import { KEEP_ALIVE_IDLE_MS } from './context.js';

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ServiceListenerOptions {
  host?: string;
  /** 0 picks any free port. */
  port: number;
  bodyLimit?: number;
  /**
   * The world's secret. With it, a request carrying a valid `X-Toolbench-Forwarded` header (from
   * `toolbench proxy --world`) is journaled with the host, exact headers and attribution the
   * proxy saw; without it (or with a bad signature) the header is ignored. It is never journaled.
   */
  forwardSecret?: Uint8Array;
  /** Header, whole-request and keep-alive idle limits; default `SERVICE_TIMEOUTS`. */
  timeouts?: Partial<HttpTimeouts>;
  /** Open connections allowed from one client address; default `MAX_CONNECTIONS_PER_CLIENT`. */
  maxConnectionsPerClient?: number;
}

/**
 * A service port's time limits (as the proxy's): a client gets 30 s for its request's headers,
 * counted from the connection's first byte or from the end of its previous request (so a silent
 * or trickling client is cut off with a 408), 300 s for the whole request, and a minute idle between
 * kept-alive requests (`KEEP_ALIVE_IDLE_MS`, 65 s). A response the world holds back (a fault's latency) is not limited.
 */
export const SERVICE_TIMEOUTS: HttpTimeouts = { headersMs: 30_000, requestMs: 300_000, keepAliveMs: KEEP_ALIVE_IDLE_MS };

/**
 * Open connections one client address may hold on any one listener: far above what an agent's
 * MCP servers or a replay open (a handful, kept alive), low enough that a runaway client cannot
 * exhaust the process's file descriptors. Over it, a new connection gets a 503 naming the limit
 * (HTTP listeners) or is closed (the TLS port), and the refusal goes to stderr.
 */
export const MAX_CONNECTIONS_PER_CLIENT = 256;

/**
 * A plain-HTTP port for one service: every request on it goes to that service, whatever its
 * Host header says, and is journaled under the service's first catalog hostname.
 */
export function listenService(world: World, service: string, hostname: string, options: ServiceListenerOptions): Promise<Listening> {
  const timeouts = { ...SERVICE_TIMEOUTS, ...options.timeouts };
  const server = createServer({
    keepAlive: true, maxHeaderSize: options.forwardSecret ? 64 * 1024 : undefined,
    headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(timeouts.headersMs / 2))),
  }, (req, res) => {
    readRequest(req, options.bodyLimit ?? DEFAULT_BODY_LIMIT)
      .then((read) => serve(world, service, hostname, req, read, options.forwardSecret))
      .then((response) => {
        if (response.status === 413) res.shouldKeepAlive = false;
        deliverResponse(res, response, world.config.latency);
      })
      .catch((error: unknown) => {
        // Only the journal can fail here (the world answers every request); say so and drop
        // the connection rather than send bytes that were never journaled. (A client that left
        // mid-request made readRequest fail: nobody to answer, nothing to report.)
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') process.stderr.write(`toolbench: ${service} request failed: ${(error as Error).message}\n`);
        res.destroy();
      });
  });
  return listen(server, options.host ?? '127.0.0.1', options.port, { maxConnectionsPerClient: options.maxConnectionsPerClient });
}

function serve(world: World, service: string, hostname: string, req: IncomingMessage, read: ReadRequest, secret: Uint8Array | undefined) {
  const header = req.headers[FORWARDED_HEADER.toLowerCase()];
  const forwarded = verifyForwarded(typeof header === 'string' ? header : undefined, secret);
  if (!forwarded) {
    const headers = header === undefined ? read.headers : read.headers.filter(([name]) => name.toLowerCase() !== FORWARDED_HEADER.toLowerCase());
    return world.dispatch({ ...read, headers, service, host: hostname });
  }
  const request = {
    host: forwarded.host, method: forwarded.method, target: forwarded.target, headers: worldHeaders(forwarded.headers),
    body: read.body, oversize: read.oversize || forwarded.oversize, attribution: forwarded.attribution,
  };
  if (forwarded.refusal) return world.recordBlocked(request, blockedResponse(forwarded.host, forwarded.refusal));
  return world.dispatch({ ...request, service: forwarded.noise ? null : service });
}

/**
 * Listens on `host:port`; `close()` also ends every open connection. At most
 * `maxConnectionsPerClient` connections from one address are open at once (see
 * MAX_CONNECTIONS_PER_CLIENT); the server never sees the ones over it.
 */
export function listen(server: Server, host: string, port: number, options: { maxConnectionsPerClient?: number } = {}): Promise<Listening> {
  const sockets = new Set<Socket>();
  const limit = options.maxConnectionsPerClient ?? MAX_CONNECTIONS_PER_CLIENT;
  const perClient = new Map<string, number>();
  let lastReport = 0;
  // The server's own connection handlers (the HTTP parser, a TLS sniffer) run only for
  // connections under the cap: a refused one is never parsed, so it never reaches the world.
  const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const client = socket.remoteAddress ?? 'unknown';
    const open = perClient.get(client) ?? 0;
    if (open >= limit) {
      if (Date.now() - lastReport > 5_000) {
        lastReport = Date.now();
        process.stderr.write(`toolbench: refusing connections from ${client} to port ${(server.address() as AddressInfo | null)?.port}: it already has ${open} open (limit ${limit})\n`);
      }
      refuseConnection(socket, server instanceof HttpServer, client, limit);
      return;
    }
    perClient.set(client, open + 1);
    socket.once('close', () => {
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    });
    for (const handler of handlers) handler.call(server, socket);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${urlHost}:${address.port}`,
        port: address.port,
        close: () => new Promise<void>((done) => {
          server.close(() => done());
          (server as Partial<{ closeAllConnections(): void }>).closeAllConnections?.();
          for (const socket of sockets) socket.destroy();
        }),
      });
    });
  });
}

/** A connection over the cap: a 503 that names the limit (HTTP), or closed (TLS); its bytes are read and dropped. */
function refuseConnection(socket: Socket, http: boolean, client: string, limit: number): void {
  socket.on('error', () => socket.destroy());
  if (!http) {
    socket.destroy();
    return;
  }
  const body = `toolbench: too many open connections from ${client} (limit ${limit} per client); reuse kept-alive connections or close idle ones\n`;
  socket.end(`HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`);
  socket.resume();
  setTimeout(() => socket.destroy(), 2_000).unref();
}
