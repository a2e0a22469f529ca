import { Agent, request as httpRequest } from 'node:http';
import type { ServiceResponse } from '../mocks/core/http.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import type { World, WorldRequest } from '../mocks/core/world.js';
import { listenService, type Listening } from '../proxy/service-listener.js';
import type { ReplayedResponse } from './diff.js';
import { serviceHeaders } from './identity.js';

/** Re-issues journal entries, one at a time in sequence order, to a fresh world. */
export interface Reissuer {
  readonly via: 'process' | 'http';
  issue(entry: JournalEntry): Promise<ReplayedResponse>;
  /** Entries that could only be re-issued in process (resets, blocked or oversize requests, hosts outside the catalog). */
  readonly inProcess: number;
  close(): Promise<void>;
}

/** The request a journal entry records, as the world takes it. */
export function worldRequest(entry: JournalEntry): WorldRequest {
  return {
    service: entry.service,
    host: entry.host,
    method: entry.method,
    target: entry.target,
    headers: entry.request.headers,
    body: entry.request.body,
    oversize: entry.request.oversize,
    attribution: entry.attribution,
  };
}

/**
 * The proxy's recorded answer to a refused request, as `World.processBlocked` takes it. The
 * world drops a HEAD answer's body and keeps its length in `Content-Length` (the world's last
 * header), so a HEAD's body is rebuilt as that many bytes: only its length reaches the journal.
 */
function proxyAnswer(entry: JournalEntry): ServiceResponse {
  const { status, headers, body } = entry.response;
  if (entry.method !== 'HEAD') return { status, headers: serviceHeaders(headers), body };
  const last = headers[headers.length - 1];
  const length = last?.[0].toLowerCase() === 'content-length' && /^\d{1,9}$/.test(last[1]) ? Number(last[1]) : 0;
  return { status, headers: serviceHeaders(headers), body: new Uint8Array(length) };
}

/** Straight into `World.process` (and `World.reset` for reset entries): no sockets. */
export function inProcess(world: World): Reissuer {
  let count = 0;
  return {
    via: 'process',
    get inProcess() { return count; },
    async issue(entry) {
      count += 1;
      if (entry.kind === 'reset') {
        const { seq, status, headers, body } = await world.reset();
        return { seq, status, headers, body, fault: null };
      }
      const request = worldRequest(entry);
      // A refused request's answer is the proxy's, not the world's: replay re-journals it with
      // its recorded words, which checks its place in the sequence (seq, Date).
      if (entry.attribution?.kind === 'blocked') {
        const replayed = world.processBlocked(request, proxyAnswer(entry));
        return { seq: replayed.seq, ...replayed.response, fault: replayed.fault };
      }
      const importing = world.importFor(request);
      if (importing) await importing;
      const replayed = world.process(request);
      return { seq: replayed.seq, ...replayed.response, fault: replayed.fault };
    },
    async close() {},
  };
}

/**
 * Over HTTP: each service of the world on its own loopback port (as `toolbench world` serves
 * it), every request sent with its recorded method, target, headers (in order) and body, the
 * response read back with transport headers left to the comparison's ignore list. Resets,
 * blocked or oversize requests and hosts outside the catalog have no port and go in process.
 */
export async function overHttp(world: World): Promise<Reissuer> {
  const ports = new Map<string, Listening>();
  const close = async () => {
    agent.destroy();
    await Promise.all([...ports.values()].map((listening) => listening.close()));
  };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const hosted of world.config.services) {
      ports.set(hosted.id, await listenService(world, hosted.id, hosted.hostnames[0]!, { host: '127.0.0.1', port: 0 }));
    }
  } catch (error) {
    await close();
    throw error;
  }
  const fallback = inProcess(world);
  return {
    via: 'http',
    get inProcess() { return fallback.inProcess; },
    issue(entry) {
      const port = entry.service === null ? undefined : ports.get(entry.service);
      if (entry.kind === 'reset' || entry.request.oversize || entry.attribution?.kind === 'blocked' || !port) return fallback.issue(entry);
      return send(agent, port.port, entry, world);
    },
    close,
  };
}

function send(agent: Agent, port: number, entry: JournalEntry, world: World): Promise<ReplayedResponse> {
  const headers = entry.request.headers;
  const hasHost = headers.some(([name]) => name.toLowerCase() === 'host');
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1', port, agent, method: entry.method, path: entry.target, headers: headers.flat(), setHost: !hasHost,
    }, (res) => {
      const chunks: Buffer[] = [];
      const answer = (cut: boolean) => {
        const raw = res.rawHeaders;
        const pairs: [string, string][] = [];
        for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
        // One request at a time: the world's last sequence number is this response's.
        resolve({ seq: world.clock.current, status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks), cut });
      };
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      // Only a reset fault closes a loopback connection mid-answer (proxy/deliver.ts).
      res.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? answer(true) : reject(error)));
      res.on('end', () => answer(false));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A reset of an answer without a body closes the connection before the status line.
      if (error.code === 'ECONNRESET') resolve({ seq: world.clock.current, status: 0, headers: [], body: new Uint8Array(0), cut: true });
      else reject(error);
    });
    req.end(entry.request.body);
  });
}
