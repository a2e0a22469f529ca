import { Agent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import httpProxy from 'http-proxy';
import { signForwarded, type Forwarded } from './forwarded.js';
import { FORWARDED_HEADER, isHopByHop, worldHeaders } from './headers.js';
import { pairHeaders, type WrittenResponse } from './http-exchange.js';
import type { Upstream } from './upstream.js';

export interface RemoteUpstreamOptions {
  /** Base URL of each service's plain-HTTP port on the world (`http://world:8101`). */
  services: Record<string, string>;
  /** The world's secret: it signs every forwarded request's identity. */
  secret: Uint8Array;
  log?: (message: string) => void;
}

const TRANSPORT_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/**
 * A world in another process (`toolbench proxy --world`): decrypted requests are forwarded with
 * http-proxy to the service's port, carrying a signed `X-Toolbench-Forwarded` header with the
 * host, exact method, target, headers and attribution, so the world journals what the in-process
 * proxy would. Refused requests are sent to the world the same way, flagged, to be journaled as
 * blocked; the world builds the 403.
 */
export function remoteUpstream(options: RemoteUpstreamOptions): Upstream {
  const log = options.log ?? ((message: string) => process.stderr.write(`toolbench proxy: ${message}\n`));
  // Idle connections to the world are dropped before its 5 s keep-alive timeout can race a reuse.
  const agent = new Agent({ keepAlive: true, timeout: 4_000 });
  const forwarding = new WeakMap<IncomingMessage, Forwarded>();
  const proxy = httpProxy.createProxyServer({ agent, preserveHeaderKeyCase: true, xfwd: false });

  // A world answer cut mid-body (a reset fault, docs/faults.md) cuts the client's too, rather than
  // leaving it waiting for the rest.
  proxy.on('proxyRes', (proxyRes: IncomingMessage, _req: IncomingMessage, res: ServerResponse) => {
    proxyRes.once('close', () => { if (!proxyRes.complete) res.destroy(); });
  });

  proxy.on('error', (error: Error, req: IncomingMessage, res: ServerResponse | Socket) => {
    log(`cannot reach the world for ${forwarding.get(req)?.host ?? 'a request'}: ${error.message}`);
    if ('writeHead' in res && !res.headersSent) {
      res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`toolbench proxy: the world is unreachable (${error.message})\n`);
    } else {
      res.destroy();
    }
  });

  const firstService = Object.values(options.services)[0];
  return {
    forward(req, res, to) {
      // A noise host goes to any port, flagged: the world answers it by host.
      const target = to.service === null ? firstService : options.services[to.service];
      if (!target) {
        res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(`toolbench proxy: the world serves no service ${to.service}\n`);
        return;
      }
      const forwarded: Forwarded = {
        host: to.host, method: req.method ?? 'GET', target: to.target, headers: worldHeaders(pairHeaders(req.rawHeaders)),
        attribution: to.attribution, oversize: false, refusal: null, noise: to.service === null,
      };
      forwarding.set(req, forwarded);
      // http-proxy sends Node's lower-cased header object and a normalised path; the world journals
      // the signed copy instead, so only the proxy's own headers need to stay off the wire.
      for (const name of Object.keys(req.headers)) if (isHopByHop(name)) delete req.headers[name];
      try {
        proxy.web(req, res, { target, changeOrigin: false, headers: { [FORWARDED_HEADER]: signForwarded(forwarded, options.secret) } });
      } catch (error) {
        log(`cannot forward ${to.host}${to.target}: ${(error as Error).message}`);
        res.destroy();
      }
    },
    refuse(request) {
      if (!firstService) return Promise.reject(new Error('the world serves no service to journal through'));
      const forwarded: Forwarded = {
        host: request.host, method: request.method, target: request.target, headers: request.headers,
        attribution: request.attribution, oversize: request.oversize, refusal: request.why, noise: false,
      };
      return send(firstService, agent, forwarded, request.body, options.secret);
    },
    async close() {
      proxy.close();
      agent.destroy();
    },
  };
}

/** A flagged request to a world port; resolves to the world's response without transport headers. */
function send(base: string, agent: Agent, forwarded: Forwarded, body: Uint8Array, secret: Uint8Array): Promise<WrittenResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: url.hostname, port: url.port, method: 'POST', path: '/', agent,
      headers: ['Host', url.host, FORWARDED_HEADER, signForwarded(forwarded, secret), 'Content-Length', String(body.length)],
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({
        status: res.statusCode ?? 502,
        headers: pairHeaders(res.rawHeaders).filter(([name]) => !TRANSPORT_HEADERS.has(name.toLowerCase())),
        body: Buffer.concat(chunks),
      }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
