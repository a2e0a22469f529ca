import { createServer, type IncomingMessage, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { looksLikeTls } from './client-hello.js';
import type { ProxyContext } from './context.js';
import { handleRequest, hostOfTarget } from './exchange.js';
import { pairHeaders } from './http-exchange.js';
import { worldHeaders } from './headers.js';
import { endWithResponse, textResponse } from './raw-response.js';
import { hostOfHeader, parseAuthority } from './routes.js';
import type { Session } from './inner-server.js';
import { terminateTls } from './tls-terminate.js';
import { openTunnel } from './tunnel.js';

const ESTABLISHED = 'HTTP/1.1 200 Connection Established\r\n\r\n';

/**
 * The explicit proxy (what HTTPS_PROXY points at): `CONNECT host:port`, then TLS with the leaf
 * for that host or plain HTTP inside the tunnel; absolute-form plain-HTTP requests; and, for
 * clients whose DNS points a hostname here, origin-form requests routed by their Host header.
 */
export function createExplicitServer(ctx: ProxyContext): Server {
  const server = createServer(serverOptions(ctx), (req, res) => {
    const url = req.url ?? '/';
    const host = hostOfTarget(url) ?? (req.headers.host ? hostOfHeader(req.headers.host) : null);
    if (!host) {
      const response = textResponse(400, 'toolbench proxy: send CONNECT host:port, an absolute-form request (http://host/path), or a Host header');
      res.writeHead(response.status, response.headers.flat());
      res.end(response.body);
      return;
    }
    handleRequest(ctx, req, res, { host, client: ctx.credentials.clientOf(req.headers['proxy-authorization']) });
  });
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => onConnect(ctx, req, socket, head));
  return server;
}

/**
 * A base-URL listener: one client's plain-HTTP stand-in for one host. Whatever its Host header
 * says (the client names a loopback address), every request is the session's host, from the
 * session's client, so it is journaled and attributed as if it came through the proxy.
 */
export function createBaseUrlServer(ctx: ProxyContext, session: Session): Server {
  return createServer(serverOptions(ctx), (req, res) => handleRequest(ctx, req, res, session));
}

/** The proxy's time limits on a plain-HTTP listener. */
function serverOptions(ctx: ProxyContext): ServerOptions {
  return {
    headersTimeout: ctx.timeouts.headersMs,
    requestTimeout: ctx.timeouts.requestMs,
    keepAliveTimeout: ctx.timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(ctx.timeouts.headersMs / 2))),
  };
}

function onConnect(ctx: ProxyContext, req: IncomingMessage, socket: Socket, head: Buffer): void {
  socket.on('error', () => socket.destroy());
  const authority = parseAuthority(req.url ?? '');
  if (!authority) {
    endWithResponse(socket, textResponse(400, `toolbench proxy: CONNECT needs host:port, got "${req.url ?? ''}"`));
    return;
  }
  const client = ctx.credentials.clientOf(req.headers['proxy-authorization']);
  const route = ctx.routes.route(authority.host);
  if (route.kind === 'blocked') {
    ctx.upstream.refuse({
      host: route.host, method: 'CONNECT', target: req.url!, headers: worldHeaders(pairHeaders(req.rawHeaders)),
      body: new Uint8Array(0), oversize: false, attribution: ctx.attribute(client), why: route.why,
    }).then((response) => endWithResponse(socket, response), (error: unknown) => {
      ctx.log(`refusing ${route.host} failed: ${(error as Error).message}`);
      socket.destroy();
    });
    return;
  }
  if (route.kind === 'passthrough') {
    openTunnel(socket, ctx.connect, authority.host, authority.port, {
      first: head,
      onOpen: () => socket.write(ESTABLISHED),
      onFail: (error) => endWithResponse(socket, textResponse(502, `toolbench proxy: cannot reach passthrough host ${authority.host}:${authority.port}: ${error.message}`)),
    });
    return;
  }
  const context = ctx.contexts.get(route.host);
  if (!context) {
    ctx.log(`no certificate prepared for ${route.host}`);
    endWithResponse(socket, textResponse(502, `toolbench proxy: no certificate for ${route.host}`));
    return;
  }
  socket.write(ESTABLISHED);
  const session = { host: route.host, client };
  firstData(socket, head, ctx.timeouts.handshakeMs, (first) => {
    if (looksLikeTls(first)) {
      socket.unshift(first);
      terminateTls(socket, context, ctx.timeouts.handshakeMs, (tls) => ctx.inner.adopt(tls, session));
    } else {
      ctx.inner.adopt(socket, session, first);
    }
  });
}

/** The first bytes the client sends into a tunnel (to tell TLS from plain HTTP), or a timeout. */
function firstData(socket: Socket, head: Buffer, timeoutMs: number, then: (first: Buffer) => void): void {
  if (head.length > 0) {
    socket.pause();
    then(head);
    return;
  }
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  socket.once('close', () => clearTimeout(timer));
  socket.once('data', (first: Buffer) => {
    clearTimeout(timer);
    socket.pause();
    then(first);
  });
  socket.resume();
}
