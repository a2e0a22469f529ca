import { createServer, type Server, type Socket } from 'node:net';
import { readClientHello } from './client-hello.js';
import type { ProxyContext } from './context.js';
import { terminateTls, UNRECOGNIZED_NAME_ALERT } from './tls-terminate.js';
import { openTunnel } from './tunnel.js';

/**
 * Transparent TLS (for clients whose DNS maps the real hostnames here): the ClientHello's server
 * name picks the service. Catalog hosts are terminated with their leaf; passthrough hosts are
 * tunnelled raw to port 443; any other name is journaled as blocked (`CONNECT host:443`) and
 * refused with a TLS alert; anything that is not TLS is dropped.
 */
export function createTransparentServer(ctx: ProxyContext): Server {
  return createServer((socket) => {
    socket.on('error', () => socket.destroy());
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), ctx.timeouts.handshakeMs);
    socket.once('close', () => clearTimeout(timer));
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const verdict = readClientHello(received);
      if (verdict.kind === 'incomplete') return;
      socket.off('data', onData);
      socket.pause();
      clearTimeout(timer);
      if (verdict.kind === 'not-tls' || verdict.sni === null) {
        if (verdict.kind === 'hello') socket.end(UNRECOGNIZED_NAME_ALERT);
        else socket.destroy();
        return;
      }
      route(ctx, socket, verdict.sni, received);
    };
    socket.on('data', onData);
  });
}

function route(ctx: ProxyContext, socket: Socket, sni: string, hello: Buffer): void {
  const route = ctx.routes.route(sni);
  if (route.kind === 'service' || route.kind === 'noise') {
    const context = ctx.contexts.get(route.host);
    if (!context) {
      ctx.log(`no certificate prepared for ${route.host}`);
      socket.end(UNRECOGNIZED_NAME_ALERT);
      return;
    }
    socket.unshift(hello);
    terminateTls(socket, context, ctx.timeouts.handshakeMs, (tls) => ctx.inner.adopt(tls, { host: route.host, client: null }));
    return;
  }
  if (route.kind === 'passthrough') {
    openTunnel(socket, ctx.connect, route.host, 443, { first: hello, onFail: () => socket.destroy() });
    return;
  }
  ctx.upstream.refuse({
    host: route.host, method: 'CONNECT', target: `${route.host}:443`, headers: [], body: new Uint8Array(0),
    oversize: false, attribution: ctx.attribute(null), why: route.why,
  }).then(() => socket.end(UNRECOGNIZED_NAME_ALERT), (error: unknown) => {
    ctx.log(`refusing ${route.host} failed: ${(error as Error).message}`);
    socket.destroy();
  });
}
