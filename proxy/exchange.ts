import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProxyContext } from './context.js';
import { readRequest, writeResponse } from './http-exchange.js';
import { worldHeaders } from './headers.js';
import type { Session } from './inner-server.js';

/**
 * One HTTP request the proxy can read (decrypted, tunnelled, or sent to it in absolute form):
 * to the world if its host is a catalog service's, else refused and journaled as blocked.
 */
export function handleRequest(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse, session: Session): void {
  const route = ctx.routes.route(session.host);
  const attribution = ctx.attribute(session.client);
  const target = originForm(req.url ?? '/');
  if (route.kind === 'service' || route.kind === 'noise') {
    ctx.upstream.forward(req, res, { host: route.host, service: route.kind === 'service' ? route.service : null, target, attribution });
    return;
  }
  readRequest(req, ctx.bodyLimit)
    .then((read) => ctx.upstream.refuse({
      host: route.host, method: read.method, target, headers: worldHeaders(read.headers), body: read.body,
      oversize: read.oversize, attribution, why: route.kind === 'passthrough' ? 'passthrough-needs-connect' : route.why,
    }))
    .then((response) => writeResponse(res, response))
    .catch((error: unknown) => {
      ctx.log(`refusing ${route.host} failed: ${(error as Error).message}`);
      res.destroy();
    });
}

/** `/path?query` of an absolute-form target (`http://host/path?query`), exactly as sent; others unchanged. */
export function originForm(target: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(.*)$/is.exec(target);
  if (!match) return target;
  const rest = match[1]!;
  return rest === '' ? '/' : rest.startsWith('?') ? `/${rest}` : rest;
}

/** The host of an absolute-form target, without userinfo or port; null for other forms. */
export function hostOfTarget(target: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(target);
  if (!match) return null;
  const authority = match[1]!.slice(match[1]!.lastIndexOf('@') + 1);
  if (authority.startsWith('[')) return authority.slice(0, authority.indexOf(']') + 1).toLowerCase();
  const colon = authority.lastIndexOf(':');
  return (colon === -1 ? authority : authority.slice(0, colon)).toLowerCase().replace(/\.$/, '') || null;
}
