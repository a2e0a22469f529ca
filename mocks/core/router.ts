import type { ServiceRequest, ServiceResponse } from './http.js';

/**
 * Routes as data (as in Hono): `get('/repos/:owner/:repo/issues', listIssues)`. `:name` matches
 * one path segment (percent-decoded); a final `*name` matches the rest of the path, possibly
 * empty. Parameter names are checked by the compiler from the pattern.
 */
type SegmentParams<S extends string> = S extends `:${infer Name}`
  ? { [K in Name]: string }
  : S extends `*${infer Name}`
    ? { [K in Name]: string }
    : {};
type Split<P extends string> = P extends `${infer Head}/${infer Rest}` ? SegmentParams<Head> & Split<Rest> : SegmentParams<P>;
export type PathParams<P extends string> = { [K in keyof Split<P>]: string };

export type Handler<C, P = Record<string, string>> = (req: ServiceRequest, params: P, ctx: C) => ServiceResponse;

export interface Route<C> {
  readonly method: string;
  readonly pattern: string;
  readonly handler: Handler<C, any>;
  match(path: string): Record<string, string> | null;
  /** `match` on a path already split (`path.split('/').slice(1)`), so a router splits once. */
  matchParts?(parts: readonly string[]): Record<string, string> | null;
}

export function route<C, P extends string>(method: string, pattern: P, handler: Handler<C, PathParams<P>>): Route<C> {
  const segments = pattern.split('/').slice(1);
  const rest = segments.at(-1)?.startsWith('*') ? segments.pop()!.slice(1) : null;
  const literal = segments.map((want) => !want.startsWith(':'));
  const matchParts = (parts: readonly string[]): Record<string, string> | null => {
    if (rest === null ? parts.length !== segments.length : parts.length < segments.length) return null;
    // Literal segments first: most routes fail there, before any parameter is decoded.
    for (let i = 0; i < segments.length; i++) {
      if (literal[i] ? segments[i] !== parts[i] : parts[i] === '') return null;
    }
    const params: Record<string, string> = {};
    for (let i = 0; i < segments.length; i++) {
      if (literal[i]) continue;
      const got = parts[i]!;
      // Without '%', decoding changes nothing (and cannot fail).
      const decoded = got.includes('%') ? safeDecode(got) : got;
      if (decoded === null) return null;
      params[segments[i]!.slice(1)] = decoded;
    }
    if (rest !== null) {
      const tail = parts.slice(segments.length).join('/');
      const decoded = safeDecode(tail);
      if (decoded === null) return null;
      params[rest] = decoded;
    }
    return params;
  };
  return {
    method,
    pattern,
    handler,
    match: (path) => matchParts(path.split('/').slice(1)),
    matchParts,
  };
}

export const get = <C, P extends string>(pattern: P, handler: Handler<C, PathParams<P>>) => route('GET', pattern, handler);
export const post = <C, P extends string>(pattern: P, handler: Handler<C, PathParams<P>>) => route('POST', pattern, handler);
export const put = <C, P extends string>(pattern: P, handler: Handler<C, PathParams<P>>) => route('PUT', pattern, handler);
export const patch = <C, P extends string>(pattern: P, handler: Handler<C, PathParams<P>>) => route('PATCH', pattern, handler);
export const del = <C, P extends string>(pattern: P, handler: Handler<C, PathParams<P>>) => route('DELETE', pattern, handler);

export type RouteMatch<C> =
  | { kind: 'found'; route: Route<C>; params: Record<string, string> }
  /** The path exists but not for this method: services answer 404 or 405 as they do. */
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

export class Router<C> {
  /** Routes whose first segment is a parameter (or the rest): candidates for any path. */
  private readonly anyFirst: readonly Route<C>[];
  /** Per literal first segment, the routes that can match a path starting with it, in declared order. */
  private readonly byFirst = new Map<string, readonly Route<C>[]>();

  constructor(readonly routes: readonly Route<C>[]) {
    // The first segment rules out most routes at once (a GitHub path starting `repos` is never
    // one of the `user`, `orgs` or `search` routes); order within each list is declared order.
    const firsts = routes.map((r) => {
      const first = r.pattern.split('/')[1] ?? '';
      return first.startsWith(':') || first.startsWith('*') ? null : first;
    });
    this.anyFirst = routes.filter((_, i) => firsts[i] === null);
    for (const first of new Set(firsts)) {
      if (first !== null) this.byFirst.set(first, routes.filter((_, i) => firsts[i] === null || firsts[i] === first));
    }
  }

  match(method: string, path: string): RouteMatch<C> {
    const allowed: string[] = [];
    const parts = path.split('/').slice(1);
    const candidates = parts.length === 0 ? this.anyFirst : this.byFirst.get(parts[0]!) ?? this.anyFirst;
    for (const candidate of candidates) {
      const params = candidate.matchParts ? candidate.matchParts(parts) : candidate.match(path);
      if (!params) continue;
      if (candidate.method === method || (method === 'HEAD' && candidate.method === 'GET')) {
        return { kind: 'found', route: candidate, params };
      }
      allowed.push(candidate.method);
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
