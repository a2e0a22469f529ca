import { z } from 'zod';
import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { bearer, queryToken, readCredential } from '../kit/auth.js';
import type { DecodedBody } from '../kit/bodies.js';
import { slackError, slackErrorStyle } from '../kit/envelopes/slack.js';
import { cursorPage, InvalidCursorError, type CursorOptions, type CursorPage } from '../kit/pagination/cursor.js';
import type { Middleware } from '../kit/define.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { authenticate } from './auth.js';
import { specScopes } from './spec.js';
import { slackDb, teamOf, type SlackDb, type TeamDoc, type TokenDoc, type UserDoc } from './model.js';

/** What every Slack handler sees: the store, the workspace, the request's world context, the token. */
export interface SlackCtx {
  db: SlackDb;
  team: TeamDoc;
  ctx: ServiceContext;
  /** The token the request carries (header, or `token` in the query or form body), if any. */
  token: string | null;
  /** The dataset's token it matches, or null. */
  grant: TokenDoc | null;
}

/** An authenticated call of a method: its parsed arguments and who makes it. */
export interface MethodCall<A> {
  args: A;
  caller: UserDoc;
  grant: TokenDoc;
  c: SlackCtx;
}

export function slackContext(req: ServiceRequest, ctx: ServiceContext): SlackCtx {
  const db = slackDb(ctx.store);
  const token = tokenOf(req);
  return { db, team: teamOf(db), ctx, token, grant: token === null ? null : db.tokens.get(token) ?? null };
}

/** Slack reads `Authorization: Bearer xoxb-…`, or the legacy `token` argument of the query. */
const AUTH_STYLES = [bearer(), queryToken('token')];

/**
 * The request's token: from the header or query (the kit's auth styles), else a form body's
 * `token`. An `Authorization` header of another scheme counts as a token no one has (`invalid_auth`).
 */
function tokenOf(req: ServiceRequest): string | null {
  const presented = readCredential(req, AUTH_STYLES);
  if (presented.kind === 'credential') return presented.secret;
  if ((req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    const token = new URLSearchParams(req.text()).get('token');
    if (token) return token;
  }
  return presented.kind === 'malformed' ? '' : null;
}

/** Arguments of a method: the query and the body (form or JSON) together; the first of a repeated key. */
function argumentsOf(query: Record<string, string | string[]>, decoded: DecodedBody): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) out[key] = Array.isArray(value) ? value[0] : value;
  if (decoded.kind === 'form') {
    for (const [key, value] of Object.entries(decoded.value)) out[key] = Array.isArray(value) ? value[0] : value;
  } else if (decoded.kind === 'json' && decoded.value && typeof decoded.value === 'object' && !Array.isArray(decoded.value)) {
    Object.assign(out, decoded.value);
  }
  delete out.token;
  return out;
}

/** Argument types as Slack reads them: form values are strings, JSON values typed. */
export const arg = {
  string: () => z.union([z.string(), z.number().transform(String)]),
  id: () => z.string().min(1),
  int: () => z.union([z.number(), z.string().regex(/^-?\d+$/).transform(Number)]).pipe(z.number().int()),
  bool: () => z.union([z.boolean(), z.enum(['true', '1', 'false', '0', '']).transform((v) => v === 'true' || v === '1')]),
};

export interface MethodOptions<A> {
  args: z.ZodType<A, z.ZodTypeDef, unknown>;
  /** Scopes that can grant the method (the `X-Accepted-OAuth-Scopes` header). */
  accepted: readonly string[];
  /** The scopes this call needs (default: none beyond a valid token). */
  needs?(args: A, c: SlackCtx): readonly string[];
}

/** A Web API method: an operation that also says which scopes can grant it. */
export interface SlackOperation extends Operation<SlackCtx> {
  readonly accepted: readonly string[];
}

/**
 * A Web API method, `POST /api/<name>` (GET requests are rewritten to POST: Slack takes either):
 * authenticates, parses the arguments, checks scopes, then runs the handler.
 */
export function method<A>(name: string, options: MethodOptions<A>, handle: (call: MethodCall<A>) => ServiceResponse): SlackOperation {
  const op = operation<SlackCtx, string>(name, rest('POST', `/api/${name}`), (call, c) => {
    const { grant, caller } = authenticate(c);
    const parsed = options.args.safeParse(argumentsOf(call.query, call.decoded));
    if (!parsed.success) {
      throw slackError('invalid_arguments', { response_metadata: { messages: parsed.error.issues.map(describeIssue) } });
    }
    const missing = (options.needs?.(parsed.data, c) ?? []).filter((scope) => !grant.scopes.includes(scope));
    if (missing.length) throw slackError('missing_scope', { needed: missing.join(','), provided: grant.scopes.join(',') });
    return handle({ args: parsed.data, caller, grant, c });
  });
  return { ...op, accepted: options.accepted };
}

function describeIssue(issue: z.ZodIssue): string {
  const field = issue.path.join('.');
  if (issue.code === 'invalid_type' && issue.received === 'undefined') return `[ERROR] missing required field: ${field}`;
  return `[ERROR] invalid value for field ${field}: ${issue.message.toLowerCase()}`;
}

/** Slack's response headers: the request ID, the token's scopes and the method's accepted scopes. */
export const slackHeaders: Middleware<SlackCtx> = (req, c, next, matched) => {
  const response = matched === null ? unknownMethod(req) : next();
  const accepted = matched?.via === 'spec' ? specScopes(matched.name) : (matched?.operation as Partial<SlackOperation> | null | undefined)?.accepted;
  return {
    ...response,
    headers: [
      ...response.headers,
      ...(c.grant ? [['X-OAuth-Scopes', c.grant.scopes.join(',')] as [string, string]] : []),
      ...(accepted ? [['X-Accepted-OAuth-Scopes', accepted.join(',')] as [string, string]] : []),
      ['X-Slack-Req-Id', c.ctx.ids.opaqueOnce('req', c.ctx.seq, 32)],
      ['Access-Control-Allow-Origin', '*'],
    ],
  };
};

/** A cursor page; a cursor that names nothing here is Slack's `invalid_cursor`. */
export function slackPage<T>(items: readonly T[], options: CursorOptions<T>): CursorPage<T> {
  try {
    return cursorPage(items, options);
  } catch (error) {
    if (error instanceof InvalidCursorError) throw slackError('invalid_cursor');
    throw error;
  }
}

/** A path that names no method: HTTP 404 with the method Slack read from the path. */
function unknownMethod(req: ServiceRequest): ServiceResponse {
  const name = req.path.startsWith('/api/') ? req.path.slice('/api/'.length) : req.path.replace(/^\//, '');
  return slackErrorStyle(slackError('unknown_method', { req_method: name }, 404), null);
}
