import { createHash } from 'node:crypto';
import { ServiceRequest, emptyResponse, headerValue, type HeaderList, type ServiceResponse } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { authenticate, makeGh, type Gh } from './context.js';
import { GENERIC_DOCS, GitHubError, badCredentials, notFound } from './errors.js';
import { db } from './model.js';
import { errorResponse } from './operation.js';
import { count, rateHeaders, rateLimited, rateState, resourceFor, type RateState } from './ratelimit.js';
import { router } from './routes.js';

/**
 * One request, start to finish: authenticate (an unknown token is 401 even for public reads),
 * check and count the rate limit, route (unknown paths and unsupported methods are GitHub's 404),
 * answer 304 to a matching `If-None-Match`, then add GitHub's headers in a fixed order.
 */
const EXPOSE = 'ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, '
  + 'X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, '
  + 'X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset';

export function handleRequest(req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  const auth = authenticate(req, db(ctx.store));
  const gh = makeGh(ctx, req, auth);
  if (req.method === 'OPTIONS') return decorate(gh, req, emptyResponse(204), null);
  const request = rewriteRepositoryId(gh, req);
  const resource = resourceFor(request.path);
  let rate = resource === null ? rateState(gh, 'core') : rateState(gh, resource);
  let response: ServiceResponse;
  let counts = resource !== null;
  if (auth.kind === 'bad') {
    response = errorResponse(badCredentials(), GENERIC_DOCS);
  } else if (counts && rate.used >= rate.limit) {
    response = errorResponse(rateLimited(gh), GENERIC_DOCS);
    counts = false;
  } else {
    const match = router.match(request.method, request.path);
    response = match.kind === 'found' ? match.route.handler(request, match.params, gh) : errorResponse(notFound(), GENERIC_DOCS);
  }
  const etag = isCacheable(request, response) ? `W/"${createHash('sha256').update(response.body).digest('hex')}"` : null;
  if (etag !== null && matchesEtag(request.header('if-none-match'), etag)) {
    response = { status: 304, headers: [], body: new Uint8Array(0) };
    counts = false;
  }
  if (counts) rate = count(gh, rate);
  return decorate(gh, request, response, rate, etag);
}

/** `/repositories/:id/…` (what GitHub's Link headers use) is `/repos/:owner/:name/…`. */
function rewriteRepositoryId(gh: Gh, req: ServiceRequest): ServiceRequest {
  const match = /^\/repositories\/(\d+)(\/.*)?$/.exec(req.path);
  if (!match) return req;
  const repo = gh.db.repos.find((r) => r.id === Number(match[1]));
  if (!repo) return req;
  const query = req.target.slice(req.path.length);
  return new ServiceRequest(req.method, `/repos/${repo.full_name}${match[2] ?? ''}${query}`, req.headers, req.body);
}

function isCacheable(req: ServiceRequest, response: ServiceResponse): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && response.status === 200;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === bare || candidate.trim() === '*');
}

/** GitHub's headers around an answer, in GitHub's order (faults.ts dresses fault answers with them too). */
export function decorate(gh: Gh, req: ServiceRequest, response: ServiceResponse, rate: RateState | null, etag: string | null = null): ServiceResponse {
  const own = response.headers.filter(([name]) => !/^(content-type|x-github-media-type)$/i.test(name));
  const headers: HeaderList = [];
  const contentType = headerValue(response.headers, 'content-type');
  if (contentType !== undefined) headers.push(['Content-Type', contentType]);
  if (etag !== null) {
    headers.push(['Cache-Control', `${gh.viewer ? 'private' : 'public'}, max-age=60, s-maxage=60`]);
    headers.push(['Vary', 'Accept, Authorization, Cookie, X-GitHub-OTP,Accept-Encoding, Accept, X-Requested-With']);
    headers.push(['ETag', etag]);
  }
  if (gh.token) headers.push(['X-OAuth-Scopes', gh.token.scopes.join(', ')]);
  headers.push(['X-GitHub-Media-Type', headerValue(response.headers, 'x-github-media-type') ?? 'github.v3; format=json']);
  headers.push(...own);
  headers.push(['X-GitHub-Api-Version-Selected', '2022-11-28']);
  if (rate) headers.push(...rateHeaders(rate));
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

/** `CB1D:3F2A:1234567:12345678:6650A1B2`-shaped, from (seed, sequence number). */
export function requestId(gh: Gh): string {
  const hex = gh.ctx.ids.opaque('request', gh.ctx.seq).toUpperCase();
  return [hex.slice(0, 4), hex.slice(4, 8), hex.slice(8, 15), hex.slice(15, 22), hex.slice(22, 30)].join(':');
}

/** The world answered before the handler: 413 for an oversized body, 500 when a handler threw. */
export function rejectRequest(reason: 'payload_too_large' | 'internal_error', ctx: ServiceContext): ServiceResponse {
  const req = new ServiceRequest('GET', '/', [], new Uint8Array(0));
  const gh = makeGh(ctx, req, { kind: 'anonymous' });
  const error = reason === 'payload_too_large'
    ? new GitHubError(413, 'Payload too large', { docs: GENERIC_DOCS })
    : new GitHubError(500, 'Server Error', { docs: GENERIC_DOCS });
  return decorate(gh, req, errorResponse(error, GENERIC_DOCS), null);
}
