import type { ServiceContext } from '../core/service.js';
import { slackError } from '../kit/envelopes/slack.js';
import type { Fallback } from '../kit/define.js';
import { slackStyleId } from '../kit/ids.js';
import { loadSpec } from '../kit/openapi.js';
import { specFallback, type OpenApiDocument, type Schema } from '../kit/spec-fallback.js';
import { authenticate } from './auth.js';
import type { SlackCtx } from './method.js';
import { slackTs } from './model.js';

/**
 * Every Web API method no handler implements, answered from Slack's OpenAPI description
 * (mocks/slack/spec/, docs/provenance.md) by the kit's spec fallback in its `method` style:
 * `POST /api/<method>` (GET too: the service rewrites it) is named by the method, authenticated
 * like a handler (the token, then one of the scopes the description's `security` accepts),
 * checked for its required arguments (`invalid_arguments`) and answered `{ok: true, …}` with the
 * method's success schema filled in: the caller's user and team IDs, the logical time for `ts`
 * fields, seeded Slack-style IDs for the rest. Families with a create are kept by the kit's naming
 * convention (usergroups.*, files.remote.*: created, listed, read, updated, disabled or removed);
 * the rest of the obvious state has handlers (conversations.create, chat.delete, pins.*, reminders.*).
 */
export const SLACK_SPEC: OpenApiDocument = withOk(readAnyOf(loadSpec(import.meta.url, './spec/slack-web-api.json')) as OpenApiDocument);

/** Every success answers `ok: true`; one schema (admin.conversations.search) forgot to say so. */
function withOk(spec: OpenApiDocument): OpenApiDocument {
  for (const item of Object.values(spec.paths)) {
    for (const op of Object.values(item)) {
      const schema = op.responses?.['200']?.content?.['application/json']?.schema as Schema | undefined;
      if (schema?.properties && !schema.properties.ok) {
        schema.properties.ok = { $ref: '#/components/schemas/defs_ok_true' };
        schema.required = ['ok', ...(schema.required ?? [])];
      }
    }
  }
  return spec;
}

/**
 * The description was converted from an older format that wrote "one of" as
 * `{items: {anyOf: [...]}}` without a `type`, which validates nothing on an object; read it as
 * the `anyOf` it means (test/helpers/slack-openapi.ts reads it the same way).
 */
function readAnyOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(readAnyOf);
  if (!node || typeof node !== 'object') return node;
  let source = node as Schema;
  if (source.items && !source.type && (source.items as Schema).anyOf) source = source.items as Schema;
  return Object.fromEntries(Object.entries(source).map(([key, value]) => [key, readAnyOf(value)]));
}

const operationOf = (name: string): Schema | undefined => {
  const item = SLACK_SPEC.paths[`/${name}`];
  return item?.post ?? item?.get;
};

/** The granular bot scopes that replaced the description's older ones (Slack accepts either). */
const GRANULAR: Record<string, string> = { 'chat:write:bot': 'chat:write', 'chat:write:user': 'chat:write', 'channels:write': 'channels:manage' };

/** The scopes any one of which grants a method (its `security`, plus their granular successors), `none` left out. */
export function specScopes(name: string): string[] {
  const security = (operationOf(name)?.security ?? []) as { slackAuth?: string[] }[];
  const listed = security.flatMap((entry) => entry.slackAuth ?? []).filter((scope) => scope !== 'none');
  return [...new Set([...listed, ...listed.flatMap((scope) => GRANULAR[scope] ?? [])])];
}

/** Methods that take a token (all but api.test and the oauth exchanges). */
function takesToken(name: string): boolean {
  const op = operationOf(name);
  return JSON.stringify([op?.parameters ?? [], op?.requestBody ?? {}]).includes('"token"');
}

/** Values for patterned string fields: the caller (its user, bot and app IDs), the workspace, the logical time, seeded IDs. */
function sample(schema: Schema, _field: string, c: SlackCtx, ctx: ServiceContext): unknown {
  const pattern = schema.pattern;
  if (typeof pattern !== 'string') return undefined;
  if (/^\^\[(UW|WU)\]/.test(pattern)) return c.grant?.user ?? slackStyleId(ctx, 'U');
  if (/^\^\[TE?\]/.test(pattern)) return c.team.id;
  const caller = c.grant ? c.db.users.get(c.grant.user) : undefined;
  if (pattern.startsWith('^B') && caller?.bot_id) return caller.bot_id;
  if (/^\^\(?A/.test(pattern) && caller?.app_id) return caller.app_id;
  if (pattern === '^\\d{10}\\.\\d{6}$') return slackTs(ctx.nowMs, ctx.seq);
  if (pattern === '^\\d{10}$') return String(Math.floor(ctx.nowMs / 1000));
  if (pattern.includes('{6}')) return ctx.ids.opaque('color', ctx.seq, 6);
  if (pattern.includes('{12}')) return ctx.ids.opaque('hash', ctx.seq, 12);
  if (pattern.startsWith('^(')) return '';
  const prefix = /^\^\[?([A-Z][a-z]?)/.exec(pattern)?.[1];
  return prefix ? slackStyleId(ctx, prefix) : undefined;
}

const fromSpec = specFallback<SlackCtx>({
  spec: SLACK_SPEC,
  style: 'method',
  basePath: '/api',
  notFound: () => slackError('unknown_method', {}, 404),
  invalid: (_param, message) => slackError('invalid_arguments', { response_metadata: { messages: [`[ERROR] ${message}`] } }),
  malformed: () => slackError('invalid_json'),
  sample,
  stateful: true,
  // files.remote.* answer the bare success template; Slack's answers carry the file.
  objects: { 'files.remote': { field: 'file', schema: { $ref: '#/components/schemas/objs_file' }, list: 'files' } },
  missing: (code) => slackError(code),
});

export const slackSpecFallback: Fallback<SlackCtx> & { readonly operations: typeof fromSpec.operations } = {
  operations: fromSpec.operations,
  operation: (req) => fromSpec.operation(req),
  operationNames: () => fromSpec.operationNames(),
  handle(req, name, c, ctx) {
    if (takesToken(name)) {
      const { grant } = authenticate(c);
      const accepted = specScopes(name);
      if (accepted.length > 0 && !accepted.some((scope) => grant.scopes.includes(scope))) {
        throw slackError('missing_scope', { needed: accepted[0], provided: grant.scopes.join(',') });
      }
    }
    return fromSpec.handle(req, name, c, ctx);
  },
};
