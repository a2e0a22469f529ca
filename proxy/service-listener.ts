import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { World } from '../mocks/core/world.js';
import { readRequest, writeResponse, DEFAULT_BODY_LIMIT } from './http-exchange.js';

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
}

/**
 * A plain-HTTP port for one service: every request on it goes to that service, whatever its
 * Host header says, and is journaled under the service's first catalog hostname.
 */
export function listenService(world: World, service: string, hostname: string, options: ServiceListenerOptions): Promise<Listening> {
  const server = createServer({ keepAlive: true }, (req, res) => {
    readRequest(req, options.bodyLimit ?? DEFAULT_BODY_LIMIT)
      .then((read) => world.dispatch({ ...read, service, host: hostname }))
      .then((response) => {
        if (response.status === 413) res.shouldKeepAlive = false;
        writeResponse(res, response);
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

export function listen(server: Server, host: string, port: number): Promise<Listening> {
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
          server.closeAllConnections();
        }),
      });
    });
  });
}
