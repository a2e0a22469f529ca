import { Buffer } from 'node:buffer';
import type { ServiceRequest } from '../core/http.js';
import type { Matched, Middleware } from './define.js';
import type { ServiceError } from './errors.js';

/**
 * Where a service reads its caller's credential from. A service lists the styles it accepts, in
 * the order it looks:
 * - `authorization`: `Authorization: <scheme> <secret>` for each scheme (`Bearer`, GitHub's
 *   `token`); the scheme `Basic` decodes `base64(user:password)` and the secret is the password
 *   (GitHub: a token as the password) or the user (Stripe: the key as the user name);
 * - `header`: an API key in its own header (`X-Api-Key: …`, `Linear`'s bare `Authorization`);
 * - `query`: a token in the query string (`?access_token=…`, `?token=…`).
 * An `Authorization` header that none of the declared schemes reads is a malformed credential
 * (a 401 for most services), not an anonymous request.
 */
export type AuthStyle =
  | { readonly kind: 'authorization'; readonly schemes: readonly string[]; readonly basicSecret?: 'password' | 'user' }
  | { readonly kind: 'header'; readonly name: string }
  | { readonly kind: 'query'; readonly name: string };

export const bearer = (...schemes: string[]): AuthStyle => ({ kind: 'authorization', schemes: schemes.length > 0 ? schemes : ['Bearer'] });
export const basic = (secret: 'password' | 'user' = 'password'): AuthStyle => ({ kind: 'authorization', schemes: ['Basic'], basicSecret: secret });
export const apiKeyHeader = (name: string): AuthStyle => ({ kind: 'header', name });
export const queryToken = (name: string): AuthStyle => ({ kind: 'query', name });

/** What the request presented. */
export type Presented =
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed'; readonly where: string }
  | {
    readonly kind: 'credential';
    /** `authorization` (with `scheme`), `header` or `query`. */
    readonly style: AuthStyle['kind'];
    readonly secret: string;
    /** The scheme as the style declares it (`Bearer`, `Basic`), for `authorization`. */
    readonly scheme: string | null;
    /** The user half of a Basic credential. */
    readonly user: string | null;
  };

const AUTHORIZATION = /^\s*(\S+)\s+(\S+)\s*$/;

/** The credential of a request under `styles` (see AuthStyle); pure. */
export function readCredential(req: ServiceRequest, styles: readonly AuthStyle[]): Presented {
  const authorization = req.header('authorization');
  let readsAuthorization = false;
  for (const style of styles) {
    if (style.kind === 'authorization') {
      if (authorization === undefined) continue;
      readsAuthorization = true;
      const match = AUTHORIZATION.exec(authorization);
      const scheme = match && style.schemes.find((s) => s.toLowerCase() === match[1]!.toLowerCase());
      if (!match || !scheme) continue;
      if (scheme.toLowerCase() !== 'basic') return { kind: 'credential', style: 'authorization', secret: match[2]!, scheme, user: null };
      const decoded = Buffer.from(match[2]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const user = colon === -1 ? '' : decoded.slice(0, colon);
      const password = decoded.slice(colon + 1);
      return { kind: 'credential', style: 'authorization', secret: style.basicSecret === 'user' ? user : password, scheme, user };
    }
    if (style.kind === 'header') {
      const value = req.header(style.name);
      if (value === undefined) continue;
      const secret = value.trim();
      if (secret === '') return { kind: 'malformed', where: style.name };
      return { kind: 'credential', style: 'header', secret, scheme: null, user: null };
    }
    const value = req.query.get(style.name);
    if (value === null) continue;
    if (value === '') return { kind: 'malformed', where: `?${style.name}` };
    return { kind: 'credential', style: 'query', secret: value, scheme: null, user: null };
  }
  return readsAuthorization ? { kind: 'malformed', where: 'Authorization' } : { kind: 'none' };
}

/** Who is asking: nobody, someone with a credential the service does not know, or a principal. */
export type Authenticated<P> =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'bad'; readonly presented: Presented }
  | { readonly kind: 'ok'; readonly principal: P; readonly secret: string };

/**
 * Reads the credential and looks it up (in the store: `lookup` sees only the secret and its
 * style). A malformed credential and an unknown secret are both `bad`.
 */
export function authenticate<P>(
  req: ServiceRequest,
  styles: readonly AuthStyle[],
  lookup: (secret: string, presented: Extract<Presented, { kind: 'credential' }>) => P | undefined,
): Authenticated<P> {
  const presented = readCredential(req, styles);
  if (presented.kind === 'none') return { kind: 'anonymous' };
  if (presented.kind === 'malformed') return { kind: 'bad', presented };
  const principal = lookup(presented.secret, presented);
  return principal === undefined ? { kind: 'bad', presented } : { kind: 'ok', principal, secret: presented.secret };
}

/**
 * A middleware that refuses bad credentials always, and anonymous callers of operations that
 * need a caller (`Operation.auth`, or `required`). The context carries the authentication
 * (built once in the service's `context`), so handlers see the same principal.
 */
export function authGate<C>(options: {
  /** What the service's `context` found: `anonymous`, `bad` or `ok`. */
  authenticated(context: C): Authenticated<unknown>['kind'];
  /** The service's 401 for an unknown or malformed credential. */
  bad(context: C, matched: Matched | null): ServiceError;
  /** The service's 401 for a missing credential where one is needed. */
  missing(context: C, matched: Matched | null): ServiceError;
  /** Whether the matched operation needs a caller; default `Operation.auth`, else false. */
  required?(matched: Matched | null): boolean;
}): Middleware<C> {
  const required = options.required ?? ((matched: Matched | null) => matched?.operation?.auth ?? false);
  return (_req, context, next, matched) => {
    const auth = options.authenticated(context);
    if (auth === 'bad') throw options.bad(context, matched);
    if (auth === 'anonymous' && required(matched)) throw options.missing(context, matched);
    return next();
  };
}
