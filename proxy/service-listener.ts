import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Server, Socket } from 'node:net';
import type { World } from '../mocks/core/world.js';
import { blockedResponse } from './blocked.js';
import { verifyForwarded } from './forwarded.js';
import { FORWARDED_HEADER, worldHeaders } from './headers.js';
import { deliverResponse } from './deliver.js';
import { readRequest, DEFAULT_BODY_LIMIT, type ReadRequest } from './http-exchange.js';

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
}

/**
 * A plain-HTTP port for one service: every request on it goes to that service, whatever its
 * Host header says, and is journaled under the service's first catalog hostname.
 */
export function listenService(world: World, service: string, hostname: string, options: ServiceListenerOptions): Promise<Listening> {
  const server = createServer({ keepAlive: true, maxHeaderSize: options.forwardSecret ? 64 * 1024 : undefined }, (req, res) => {
    readRequest(req, options.bodyLimit ?? DEFAULT_BODY_LIMIT)
      .then((read) => serve(world, service, hostname, req, read, options.forwardSecret))
      .then((response) => {
        if (response.status === 413) res.shouldKeepAlive = false;
        deliverResponse(res, response, world.config.latency);
      })
      .catch((error: unknown) => {
        // Only the journal can fail here (the world answers every request); say so and drop
        // the connection rather than send bytes that were never journaled.
        process.stderr.write(`toolbench: ${service} request failed: ${(error as Error).message}\n`);
        res.destroy();
      });
  });
  return listen(server, options.host ?? '127.0.0.1', options.port);
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
  return world.dispatch({ ...request, service });
}

/** Listens on `host:port`; `close()` also ends every open connection. */
export function listen(server: Server, host: string, port: number): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
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
