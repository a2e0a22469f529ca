/**
 * Path "a0" of the bench: a bare Node HTTP server that answers the bytes the world answered.
 * One request of each kind is sent to the world's plain port first and its status, headers (in
 * order) and body are kept; a0 then answers every request of that method and path with exactly
 * those bytes (a request body is read and dropped), written the way the world's port writes
 * them (`writeHead` with the raw header list, `end(body)`). What a0 costs is Node's HTTP parsing
 * and socket writes; what the world costs over a0 is its own work per request.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoadRequest } from './load-client.js';

export interface RecordedAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** Sends `request` to `origin` (http://127.0.0.1:PORT) with Host `host`; the answer's bytes. */
export function recordAnswer(origin: string, host: string, request: LoadRequest): Promise<RecordedAnswer> {
  const url = new URL(request.path, origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: request.method, headers: { ...request.headers, host }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: [string, string][] = [];
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!;
          // Transport headers are Node's to write, as on the world's port.
          if (!/^(connection|keep-alive|transfer-encoding)$/i.test(name)) headers.push([name, res.rawHeaders[i + 1]!]);
        }
        resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(request.body);
  });
}

/** Serves `answers` (keyed `METHOD path`) on 127.0.0.1, any free port; 404 for anything else. */
export async function serveBare(answers: ReadonlyMap<string, RecordedAnswer>): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer({ keepAlive: true }, (req, res) => {
    const answer = answers.get(`${req.method} ${req.url}`);
    req.on('data', () => undefined);
    req.on('end', () => {
      res.sendDate = false;
      if (!answer) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(answer.status, answer.headers.flat());
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
