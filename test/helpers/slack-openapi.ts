import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import type { JournalEntry } from '../../mocks/core/journal-format.js';
import { sourceUrl } from '../../mocks/core/source-url.js';

/**
 * Validates Slack mock responses against Slack's Web API description (the pruned copy in
 * mocks/slack/spec/, docs/provenance.md): `ok: true` bodies against the method's 200 schema,
 * `ok: false` bodies against its `default` (error) schema. The description is Slack's own but
 * older than the API, so a few corrections are applied, each named here:
 * - `minItems: 1` is dropped: Slack answers empty lists (a quiet channel, a last page).
 * - conversations.history and .replies may carry `response_metadata.next_cursor` (cursor
 *   pagination came after the description), and a message of .replies may be any message
 *   object (objs_message: its two thread shapes predate reactions, bots and broadcasts).
 * - chat.update's `message.blocks` is declared an object; Slack sends the array every message
 *   object has (`blocks` of objs_message).
 * - error enums gain errors the methods' documentation pages list but the description lacks.
 * - admin.conversations.search's success schema lacks the `ok: true` every answer has.
 * - a schema written as `items: {anyOf: [...]}` without `type` (a conversion artefact that
 *   validates nothing on an object) is read as the `anyOf` it means.
 */
type Json = Record<string, any>;

const SPEC = new URL('../../mocks/slack/spec/slack-web-api.json', sourceUrl(import.meta.url));

/** Errors Slack documents (api.slack.com/methods/<name>) that the description's enums lack. */
const DOCUMENTED_ERRORS = ['not_in_channel', 'invalid_arguments', 'invalid_cursor', 'ratelimited', 'missing_scope', 'thread_not_found',
  'invalid_types', 'user_not_found', 'channel_not_found', 'no_text', 'is_archived', 'msg_too_long', 'invalid_name', 'already_reacted',
  'too_many_emoji', 'message_not_found', 'bad_timestamp', 'invalid_ts_latest', 'invalid_ts_oldest', 'not_authed', 'invalid_auth'];

function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  let source = node as Json;
  if (source.items && !source.type && (source.items as Json).anyOf) source = source.items as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'minItems' || key === 'example' || key === 'examples') continue;
    out[key] = toJsonSchema(value);
  }
  if (out.nullable !== true) return out;
  delete out.nullable;
  const rest = Object.keys(out).filter((key) => key !== 'title' && key !== 'description');
  if (rest.length === 0) return {};
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

let loaded: { spec: Json; ajv: Ajv; cache: Map<string, ValidateFunction> } | undefined;
function load() {
  if (loaded) return loaded;
  const spec = toJsonSchema(JSON.parse(readFileSync(SPEC, 'utf8').replaceAll('"#/components/', '"slack#/components/'))) as Json;
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, validateFormats: false });
  ajv.addSchema({ $id: 'slack', components: spec.components }, 'slack');
  loaded = { spec, ajv, cache: new Map() };
  return loaded;
}

function schemaFor(name: string, ok: boolean): Json | null {
  const item = load().spec.paths[`/${name}`] as Json | undefined;
  if (!item) return null;
  const op = (item.get ?? item.post) as Json;
  const schema = structuredClone(op.responses[ok ? '200' : 'default'].content['application/json'].schema) as Json;
  if (ok && (name === 'conversations.history' || name === 'conversations.replies')) {
    schema.properties.response_metadata = { type: 'object', additionalProperties: false, required: ['next_cursor'], properties: { next_cursor: { type: 'string' } } };
  }
  if (ok && schema.properties && !schema.properties.ok) {
    schema.properties.ok = { $ref: 'slack#/components/schemas/defs_ok_true' };
    schema.required = ['ok', ...(schema.required ?? [])];
  }
  if (ok && name === 'chat.update') schema.properties.message.properties.blocks = { $ref: 'slack#/components/schemas/blocks' };
  if (ok && name === 'conversations.replies') {
    schema.properties.messages.items.anyOf.push({ allOf: [{ $ref: 'slack#/components/schemas/objs_message' }, { required: ['thread_ts'] }] });
  }
  if (!ok && Array.isArray(schema.properties?.error?.enum)) {
    schema.properties.error.enum = [...new Set([...schema.properties.error.enum, ...DOCUMENTED_ERRORS])];
    // invalid_arguments explains itself in response_metadata.messages.
    schema.properties.response_metadata = { type: 'object', properties: { messages: { type: 'array', items: { type: 'string' } } } };
    schema.properties.needed = { type: 'string' };
    schema.properties.provided = { type: 'string' };
  }
  return schema;
}

export interface SlackVerdict {
  ok: boolean;
  method: string;
  errors: string;
}

/** Validates one Slack answer (`/api/<method>`). */
export function validateSlackResponse(target: string, status: number, body: Uint8Array): SlackVerdict {
  const { ajv, cache } = load();
  const method = target.split('?')[0]!.replace(/^\/api\//, '');
  const data = JSON.parse(new TextDecoder().decode(body)) as Json;
  if (status === 429) {
    const ok = status === 429 && data.ok === false && data.error === 'ratelimited';
    return { ok, method, errors: ok ? '' : 'a 429 is {ok:false, error:"ratelimited"}' };
  }
  if (status === 404) {
    // A method Slack does not have: no description to check, only the envelope.
    const ok = data.ok === false && data.error === 'unknown_method' && data.req_method === method;
    return { ok, method, errors: ok ? '' : 'a 404 is {ok:false, error:"unknown_method", req_method}' };
  }
  const key = `${method}:${data.ok === true}`;
  let validate = cache.get(key);
  if (!validate) {
    const schema = schemaFor(method, data.ok === true);
    if (!schema) return { ok: false, method, errors: `no method ${method} in the description` };
    validate = ajv.compile(schema);
    cache.set(key, validate);
  }
  const ok = validate(data) && status === 200;
  return { ok, method, errors: ok ? '' : status !== 200 ? `HTTP ${status}` : ajv.errorsText(validate.errors?.slice(0, 5), { separator: '\n  ' }) };
}

/** The Slack entries that fail their schema, as readable lines. */
export function invalidSlackEntries(entries: Iterable<JournalEntry>): string[] {
  const problems: string[] = [];
  for (const entry of entries) {
    if (entry.service !== 'slack' || entry.response.body.length === 0) continue;
    const verdict = validateSlackResponse(entry.target, entry.response.status, entry.response.body);
    if (!verdict.ok) problems.push(`#${entry.seq} ${entry.method} ${entry.target} → ${entry.response.status} (${verdict.method}):\n  ${verdict.errors}`);
  }
  return problems;
}
