import { jsonResponse, type ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import type { Middleware } from '../kit/index.js';
import { googleError, unauthenticated } from './errors.js';
import { masked } from './fields.js';
import { dbOf, iso, type GoogleCtx } from './model.js';

export function googleContext(req: ServiceRequest, ctx: ServiceContext): GoogleCtx {
  const db = dbOf(ctx.store);
  const token = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '')?.[1] ?? null;
  const email = token === null ? undefined : db.tokens.get(token)?.email;
  return { db, ctx, user: email === undefined ? null : db.users.get(email) ?? null, now: iso(ctx.nowMs), path: req.path };
}

/** Every Google API wants an OAuth access token of a known user. */
export const googleAuth: Middleware<GoogleCtx> = (_req, c, next) => {
  if (c.user === null) throw unauthenticated();
  return next();
};

/** The caller; the auth middleware has refused requests without one. */
export function me(c: GoogleCtx): NonNullable<GoogleCtx['user']> {
  if (c.user === null) throw unauthenticated();
  return c.user;
}

/** The first value of query parameter `name`. */
export function q(req: ServiceRequest, name: string): string | undefined {
  return req.query.get(name) ?? undefined;
}

export function qBool(req: ServiceRequest, name: string): boolean | undefined {
  const v = q(req, name);
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw googleError(400, 'invalidParameter', `Invalid value '${v}'. Values must match the following regular expression: '(?i)(true|false)'`, { location: name, locationType: 'parameter' });
}

export function qInt(req: ServiceRequest, name: string, min: number, max: number): number | undefined {
  const v = q(req, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^-?\d+$/.test(v) || n < min || n > max) {
    throw googleError(400, 'invalid', `Invalid value '${v}'. Values must be within the range: [${min}, ${max}]`, { location: name, locationType: 'parameter' });
  }
  return n;
}

/** 200 with `value` cut to the request's `fields` mask. */
export function ok(req: ServiceRequest, value: unknown, status = 200): ServiceResponse {
  return jsonResponse(status, masked(value, q(req, 'fields')));
}

/** The JSON body as an object (`{}` when empty); anything else is Google's parse error. */
export function jsonBody(req: ServiceRequest): Record<string, unknown> {
  if (req.body.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(req.text());
  } catch {
    throw googleError(400, 'parseError', 'Invalid JSON payload received. Unexpected token.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw googleError(400, 'parseError', 'Invalid JSON payload received. Expected an object.');
  return value as Record<string, unknown>;
}

/** Page tokens: the offset into the ordered result, opaque to clients. */
export function pageStart(req: ServiceRequest): number {
  const token = q(req, 'pageToken');
  if (token === undefined || token === '') return 0;
  const m = /^~!!~(\d+)$/.exec(Buffer.from(token, 'base64url').toString('latin1'));
  if (!m) throw googleError(400, 'invalid', 'Invalid Value', { location: 'pageToken', locationType: 'parameter' });
  return Number(m[1]);
}

export function pageToken(offset: number): string {
  return Buffer.from(`~!!~${offset}`, 'latin1').toString('base64url');
}

export function str(value: unknown, field: string): string {
  if (typeof value !== 'string') throw googleError(400, 'invalid', `Invalid value at '${field}' (TYPE_STRING)`, { location: field, locationType: 'body' });
  return value;
}
