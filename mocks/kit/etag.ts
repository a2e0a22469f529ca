import { sha256 } from '../core/sha256.js';
import type { HeaderList, ServiceRequest, ServiceResponse } from '../core/http.js';
import type { Middleware } from './define.js';

/**
 * Entity tags and conditional GETs: a weak ETag from a hash of the body on every cacheable
 * answer, and `304 Not Modified` (no body) when `If-None-Match` names it (or is `*`). Weak
 * comparison, as RFC 9110 requires for If-None-Match: `W/"x"` matches `"x"`.
 */
export function weakEtag(body: Uint8Array): string {
  return `W/"${sha256(body, 'hex')}"`;
}

/** Whether an `If-None-Match` value names `etag` (weak comparison; `*` names any). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim() === '*' || candidate.trim().replace(/^W\//, '') === bare);
}

/** GET and HEAD answers with status 200 are cacheable. */
export function cacheable(req: ServiceRequest, response: ServiceResponse): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && response.status === 200;
}

/**
 * The ETag middleware: on a cacheable answer adds `headers(context)` (the service's
 * `Cache-Control`, `Vary`) then `ETag`; answers 304 with those headers alone when the client's
 * `If-None-Match` matches. Place it inside rate windows that must not count a 304.
 */
export function etag<C>(options: {
  headers?(context: C): HeaderList;
  tag?(body: Uint8Array): string;
  cacheable?(req: ServiceRequest, response: ServiceResponse): boolean;
} = {}): Middleware<C> {
  const tagOf = options.tag ?? weakEtag;
  const isCacheable = options.cacheable ?? cacheable;
  return (req, context, next) => {
    const response = next();
    if (!isCacheable(req, response)) return response;
    const tag = tagOf(response.body);
    const headers: HeaderList = [...(options.headers?.(context) ?? []), ['ETag', tag]];
    if (etagMatches(req.header('if-none-match'), tag)) return { status: 304, headers, body: new Uint8Array(0) };
    return { ...response, headers: [...response.headers, ...headers] };
  };
}
