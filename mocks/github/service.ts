import { ServiceRequest, emptyResponse, type HeaderList, type ServiceResponse } from '../core/http.js';
import type { RejectReason, ServiceContext } from '../core/service.js';
import type { Middleware } from '../kit/define.js';
import { githubErrors } from '../kit/envelopes/github.js';
import { makeGh, type Gh } from './context.js';
import { GENERIC_DOCS, worldRefusal } from './errors.js';

/**
 * GitHub's headers around every answer, in GitHub's order. The kit's middleware (rate windows,
 * ETags) and the handlers put their headers on the response; `decorate` sorts them into place:
 * Content-Type, the cache headers and ETag, the token's scopes, the media type, the handler's own
 * (Location, Link, Retry-After), the API version, the rate-limit headers, CORS, the request ID.
 */
const EXPOSE = 'ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, '
  + 'X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, '
  + 'X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset';

const CACHE = new Map([['cache-control', 0], ['vary', 1], ['etag', 2]]);
const RATE_PLACED = /^x-ratelimit-[a-z]+$/;

export function decorate(gh: Gh, req: ServiceRequest, response: ServiceResponse): ServiceResponse {
  // One pass over the handler's headers, each name lowercased once, into the places below.
  let contentType: string | undefined;
  let mediaType: string | undefined;
  const cache: [HeaderList, HeaderList, HeaderList] = [[], [], []];
  const others: HeaderList = [];
  const rates: HeaderList = [];
  for (const header of response.headers) {
    const lower = header[0].toLowerCase();
    if (lower === 'content-type') contentType ??= header[1];
    else if (lower === 'x-github-media-type') mediaType ??= header[1];
    else if (CACHE.has(lower)) cache[CACHE.get(lower)!]!.push(header);
    else if (lower.startsWith('x-ratelimit-')) {
      rates.push(header);
      // A name the rate-limit block does not place (x-ratelimit-a-b) also stays among the others.
      if (!RATE_PLACED.test(lower)) others.push(header);
    } else others.push(header);
  }
  const headers: HeaderList = [];
  if (contentType !== undefined) headers.push(['Content-Type', contentType]);
  for (const list of cache) for (const header of list) headers.push(header);
  if (gh.token) headers.push(['X-OAuth-Scopes', gh.token.scopes.join(', ')]);
  headers.push(['X-GitHub-Media-Type', mediaType ?? 'github.v3; format=json']);
  for (const header of others) headers.push(header);
  headers.push(['X-GitHub-Api-Version-Selected', '2022-11-28']);
  for (const header of rates) headers.push(header);
  headers.push(['Access-Control-Expose-Headers', EXPOSE]);
  headers.push(['Access-Control-Allow-Origin', '*']);
  if (req.method === 'OPTIONS') {
    headers.push(['Access-Control-Allow-Headers', 'Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, If-Unmodified-Since, X-GitHub-OTP, X-Requested-With']);
    headers.push(['Access-Control-Allow-Methods', 'GET, POST, PATCH, PUT, DELETE']);
    headers.push(['Access-Control-Max-Age', '86400']);
  }
  headers.push(['X-GitHub-Request-Id', requestId(gh)]);
  return { status: response.status, headers, body: response.body };
}

/** The outermost middleware: CORS preflights answered at once, every answer dressed by `decorate`. */
export const githubHeaders: Middleware<Gh> = (req, gh, next) =>
  decorate(gh, req, req.method === 'OPTIONS' ? emptyResponse(204) : next());

/** The ETag middleware's cache headers: private for a signed-in caller. */
export function cacheHeaders(gh: Gh): HeaderList {
  return [
    ['Cache-Control', `${gh.viewer ? 'private' : 'public'}, max-age=60, s-maxage=60`],
    ['Vary', 'Accept, Authorization, Cookie, X-GitHub-OTP,Accept-Encoding, Accept, X-Requested-With'],
  ];
}

/** `CB1D:3F2A:1234567:12345678:6650A1B2`-shaped, from (seed, sequence number). */
export function requestId(gh: Gh): string {
  const hex = gh.ctx.ids.opaqueOnce('request', gh.ctx.seq).toUpperCase();
  return [hex.slice(0, 4), hex.slice(4, 8), hex.slice(8, 15), hex.slice(15, 22), hex.slice(22, 30)].join(':');
}

/** A GitHub error as an answer (the envelope, mocks/kit/envelopes/github.ts), before `decorate`. */
export const errorResponse = githubErrors<unknown>(GENERIC_DOCS);

/**
 * The world answered before the handler (413 for an oversized body, 500 when a handler threw):
 * no middleware runs, so the answer is dressed here.
 */
export function rejectRequest(reason: RejectReason, ctx: ServiceContext): ServiceResponse {
  const req = new ServiceRequest('GET', '/', [], new Uint8Array(0));
  const gh = makeGh(ctx, req, { kind: 'anonymous' });
  return decorate(gh, req, errorResponse(worldRefusal(reason), null));
}
