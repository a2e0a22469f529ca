import test from 'ava';
import { readFileSync } from 'node:fs';
import type { HeaderList } from '../mocks/core/http.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import type { JournalEntry, JournalHeader } from '../mocks/core/journal-format.js';
import { World } from '../mocks/core/world.js';
import { SlackDatasetSchema } from '../mocks/slack/dataset.js';
import { slackService } from '../mocks/slack/index.js';
import { SLACK_SPEC, specScopes } from '../mocks/slack/spec.js';
import { invalidSlackEntries, validateSlackResponse } from './helpers/slack-openapi.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// Every method of Slack's OpenAPI description (mocks/slack/spec/), called through a world: the
// 17 with handlers and the rest through the kit's spec fallback. Each answers HTTP 200 `ok: true`
// valid against the method's success schema (ajv, test/helpers/slack-openapi.ts), and Slack's
// own errors (invalid_arguments, not_authed, missing_scope) for bad input, valid against its error
// schema. One world for the file.

const EPOCH = Date.parse('2024-03-01T09:00:00Z');
const ADMIN = 'xoxp-9-example-everything';
// Every scope the description names, and the newer granular ones handlers ask for.
const ALL_SCOPES = [...Object.keys((SLACK_SPEC as any).components.securitySchemes.slackAuth.flows.authorizationCode.scopes), 'channels:join', 'channels:manage'];
const dataset = JSON.parse(readFileSync(new URL('../scenarios/example/slack/basic/dataset/slack.json', sourceUrl(import.meta.url)), 'utf8'));
dataset.tokens.push({ token: ADMIN, user: 'alice', scopes: ALL_SCOPES });

const header: JournalHeader = { format: 2, toolbench: 'test', scenario: 'slack-spec', datasetHash: '', seed: 43, catalogHash: '', epoch: new Date(EPOCH).toISOString(), tickMs: 1000, scenarioDir: '/nowhere' };
const world = new World({ seed: 43, epochMs: EPOCH, tickMs: 1000, journal: new MemoryJournal(header), services: [{ id: 'slack', hostnames: ['slack.com'], definition: slackService, data: SlackDatasetSchema.parse(dataset) }] });

const dec = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const sent: JournalEntry[] = [];
function send(name: string, args: Record<string, string>, token: string | null = ADMIN): { entry: JournalEntry; json: any } {
  const headers: HeaderList = [['Content-Type', 'application/x-www-form-urlencoded'], ...(token === null ? [] : [['Authorization', `Bearer ${token}`] as [string, string]])];
  const entry = world.process({ host: 'slack.com', method: 'POST', target: `/api/${name}`, headers, body: new TextEncoder().encode(new URLSearchParams(args).toString()) });
  sent.push(entry);
  return { entry, json: JSON.parse(dec(entry.response.body)) };
}

/** Values for a method's arguments: IDs that exist in the example workspace. */
const VALUES: Record<string, string> = {
  channel: 'C01EXENGIN', channel_id: 'C01EXENGIN', user: 'U01EXAMPL01', users: 'U01EXAMPL01', user_id: 'U01EXAMPL01',
  ts: '1706781600.000002', timestamp: '1706781600.000002', name: 'spec-sweep', text: 'From the spec sweep', time: 'in 5 minutes',
  email: 'someone@example.test', team_id: 'T01EXAMPLE',
};

function requiredOf(name: string): string[] {
  const item = SLACK_SPEC.paths[`/${name}`]!;
  const op = item.post ?? item.get!;
  const fromParams = ((op.parameters ?? []) as { name: string; required?: boolean; in: string }[]).filter((p) => p.required && p.in !== 'header').map((p) => p.name);
  let body = op.requestBody ?? {};
  if (body.$ref) body = (SLACK_SPEC as any).components.requestBodies[body.$ref.split('/').at(-1)];
  const schema = body.content?.['application/x-www-form-urlencoded']?.schema ?? body.content?.['application/json']?.schema ?? {};
  return [...new Set([...fromParams, ...(schema.required ?? [])])].filter((n) => n !== 'token');
}

const methods = Object.keys(SLACK_SPEC.paths).map((path) => path.slice(1));
/** What removes state runs after what reads it. */
const LAST = ['reminders.delete', 'pins.remove', 'reactions.remove', 'chat.delete', 'conversations.kick', 'conversations.archive', 'conversations.unarchive', 'conversations.leave'];
const ordered = [...methods.filter((m) => !LAST.includes(m)), ...LAST];

test('every method of the description answers ok:true in its success schema, named by the method', (t) => {
  t.true(methods.length >= 170, `${methods.length} methods`);
  const posted = send('chat.postMessage', { channel: 'C01EXENGIN', text: 'To be edited, reacted to and pinned' }).json.ts as string;
  const doomed = send('chat.postMessage', { channel: 'C01EXENGIN', text: 'To be deleted' }).json.ts as string;
  let reminder = '';
  let created = '';
  let usergroup = '';
  const sweep = () => created;
  // Handlers check arguments the description does not mark required; give them what they need.
  const extra: Record<string, () => Record<string, string>> = {
    'chat.postMessage': () => ({ channel: 'C01EXENGIN', text: 'Hello from the spec sweep' }),
    'chat.update': () => ({ channel: 'C01EXENGIN', ts: posted, text: 'Edited' }),
    'chat.delete': () => ({ channel: 'C01EXENGIN', ts: doomed }),
    'reactions.add': () => ({ channel: 'C01EXENGIN', timestamp: posted, name: 'tada' }),
    'reactions.remove': () => ({ channel: 'C01EXENGIN', timestamp: posted, name: 'tada' }),
    'reactions.get': () => ({ channel: 'C01EXENGIN', timestamp: posted }),
    'pins.add': () => ({ channel: 'C01EXENGIN', timestamp: posted }),
    'pins.remove': () => ({ channel: 'C01EXENGIN', timestamp: posted }),
    'conversations.replies': () => ({ channel: 'C01EXENGIN', ts: '1706781600.000002' }),
    'conversations.history': () => ({ channel: 'C01EXENGIN' }), 'conversations.info': () => ({ channel: 'C01EXENGIN' }),
    'conversations.join': () => ({ channel: 'C01EXENGIN' }), 'conversations.members': () => ({ channel: 'C01EXENGIN' }),
    'users.info': () => ({ user: 'U01EXAMPL01' }),
    'conversations.mark': () => ({ channel: 'C01EXENGIN', ts: '1706781600.000002' }), 'search.messages': () => ({ query: 'deploy' }),
    'files.info': () => ({ file: 'F01EXFILE01' }),
    // Channel management on a channel of its own (created first, alphabetically).
    'conversations.rename': () => ({ channel: sweep(), name: 'spec-sweep-renamed' }),
    'conversations.setTopic': () => ({ channel: sweep(), topic: 'Topic' }), 'conversations.setPurpose': () => ({ channel: sweep(), purpose: 'Purpose' }),
    'conversations.invite': () => ({ channel: sweep(), users: 'U01EXAMPL02' }), 'conversations.kick': () => ({ channel: sweep(), user: 'U01EXAMPL02' }),
    'conversations.archive': () => ({ channel: sweep() }), 'conversations.unarchive': () => ({ channel: sweep() }), 'conversations.leave': () => ({ channel: sweep() }),
    'conversations.create': () => ({ name: 'spec-sweep' }),
    'users.lookupByEmail': () => ({ email: 'alice@example.test' }),
    // The fallback keeps usergroups: the sweep's own (created first, alphabetically).
    'usergroups.update': () => ({ usergroup }), 'usergroups.disable': () => ({ usergroup }), 'usergroups.enable': () => ({ usergroup }),
    'reminders.info': () => ({ reminder }), 'reminders.complete': () => ({ reminder }), 'reminders.delete': () => ({ reminder }),
  };
  const problems: string[] = [];
  const via = { handler: 0, spec: 0 };
  for (const name of ordered) {
    const args = { ...Object.fromEntries(requiredOf(name).map((arg) => [arg, VALUES[arg] ?? 'x'])), ...extra[name]?.() };
    const { entry, json } = send(name, args);
    if (name === 'reminders.add') reminder = json.reminder?.id;
    if (name === 'conversations.create') created = json.channel?.id;
    if (name === 'usergroups.create') usergroup = json.usergroup?.id;
    const verdict = validateSlackResponse(entry.target, entry.response.status, entry.response.body);
    if (entry.operation) via[entry.operation.via]++;
    if (json.ok !== true || !verdict.ok || entry.operation?.name !== name) problems.push(`${name} ${JSON.stringify(args)} → ${entry.response.status} ${dec(entry.response.body).slice(0, 200)} (${entry.operation?.name}/${entry.operation?.via}): ${verdict.errors}`);
  }
  t.deepEqual(problems, []);
  t.is(via.handler + via.spec, methods.length);
  t.true(via.handler >= 35 && via.spec >= 130, JSON.stringify(via));
});

test('the fallback answers bad input with Slack errors in the method error schema', (t) => {
  const check = (name: string, args: Record<string, string>, token: string | null, error: string) => {
    const { entry, json } = send(name, args, token);
    t.is(json.error, error, `${name}: ${dec(entry.response.body)}`);
    t.is(entry.response.status, 200);
    t.deepEqual(entry.operation, { name, via: 'spec' });
    const verdict = validateSlackResponse(entry.target, entry.response.status, entry.response.body);
    t.true(verdict.ok, verdict.errors);
    return json;
  };
  const missing = check('chat.getPermalink', { channel: 'C01EXENGIN' }, ADMIN, 'invalid_arguments');
  t.deepEqual(missing.response_metadata.messages, ['[ERROR] missing required field: message_ts']);
  const args = { channel: 'C01EXENGIN', message_ts: '1706781600.000002' };
  check('chat.getPermalink', args, null, 'not_authed');
  check('chat.getPermalink', args, 'xoxb-nobody', 'invalid_auth');
  const scope = check('dnd.info', {}, 'xoxb-1-example-helper', 'missing_scope');
  t.is(scope.needed, 'dnd:read');
  // GET with query arguments, as Slack takes them; the accepted scopes come from the description.
  const got = world.process({ host: 'slack.com', method: 'GET', target: '/api/dnd.info?user=U01EXAMPL01', headers: [['Authorization', `Bearer ${ADMIN}`]], body: new Uint8Array() });
  t.is(JSON.parse(dec(got.response.body)).ok, true);
  t.is(got.response.headers.find(([k]) => k === 'X-Accepted-OAuth-Scopes')?.[1], specScopes('dnd.info').join(','));
  // A method Slack does not have is still unknown.
  const unknown = send('no.such.method', {});
  t.is(unknown.entry.response.status, 404);
  t.is(unknown.json.error, 'unknown_method');
  t.is(unknown.entry.operation, null);
});

test('stateful methods have handlers: channels created and managed, messages deleted, pins, reminders', (t) => {
  const from = sent.length;
  const created = send('conversations.create', { name: 'launch-plans', is_private: 'false' }).json;
  t.true(created.ok);
  t.is(created.channel.name, 'launch-plans');
  t.is(send('conversations.info', { channel: created.channel.id }).json.channel.name, 'launch-plans');
  t.true(send('conversations.list', { limit: '1000' }).json.channels.some((ch: { id: string }) => ch.id === created.channel.id));
  t.is(send('conversations.create', { name: 'launch-plans' }).json.error, 'name_taken');
  t.is(send('conversations.create', { name: 'Launch Plans' }).json.error, 'invalid_name_specials');

  const id = created.channel.id as string;
  t.is(send('conversations.rename', { channel: id, name: 'launch' }).json.channel.name, 'launch');
  t.deepEqual(send('conversations.info', { channel: id }).json.channel.previous_names, ['launch-plans']);
  t.is(send('conversations.setTopic', { channel: id, topic: 'Ship it' }).json.channel.topic.value, 'Ship it');
  t.is(send('conversations.info', { channel: id }).json.channel.topic.value, 'Ship it');
  t.is(send('conversations.setPurpose', { channel: id, purpose: 'x'.repeat(251) }).json.error, 'too_long');
  t.true(send('conversations.invite', { channel: id, users: 'U01EXAMPL02,U01EXAMPL03' }).json.ok);
  t.is(send('conversations.invite', { channel: id, users: 'U01EXAMPL02' }).json.error, 'already_in_channel');
  t.true(send('conversations.kick', { channel: id, user: 'U01EXAMPL03' }).json.ok);
  t.deepEqual(send('conversations.members', { channel: id }).json.members, ['U01EXAMPL01', 'U01EXAMPL02']);
  t.true(send('conversations.archive', { channel: id }).json.ok);
  t.is(send('conversations.archive', { channel: id }).json.error, 'already_archived');
  t.is(send('chat.postMessage', { channel: id, text: 'hello?' }).json.error, 'is_archived');
  t.true(send('conversations.unarchive', { channel: id }).json.ok);
  const ts = send('chat.postMessage', { channel: created.channel.id, text: 'pin me' }).json.ts as string;
  t.true(send('pins.add', { channel: created.channel.id, timestamp: ts }).json.ok);
  t.is(send('pins.add', { channel: created.channel.id, timestamp: ts }).json.error, 'already_pinned');
  const pins = send('pins.list', { channel: created.channel.id });
  t.deepEqual(pins.json.items.map((item: { message: { text: string } }) => item.message.text), ['pin me']);
  t.true(validateSlackResponse(pins.entry.target, 200, pins.entry.response.body).ok);
  t.true(send('chat.delete', { channel: created.channel.id, ts }).json.ok);
  t.deepEqual(send('pins.list', { channel: created.channel.id }).json.items, [], 'a deleted message is no longer pinned');
  t.deepEqual(send('conversations.history', { channel: created.channel.id }).json.messages, []);
  t.is(send('chat.delete', { channel: created.channel.id, ts }).json.error, 'message_not_found');
  t.is(send('chat.delete', { channel: 'C01EXENGIN', ts: '1706781600.000002' }).json.error, 'cant_delete_message', "bob's message");

  t.true(send('conversations.leave', { channel: id }).json.ok);
  t.true(send('conversations.leave', { channel: id }).json.not_in_channel);

  const adding = send('reminders.add', { text: 'Send the launch notes', time: 'in 2 hours' });
  const added = adding.json;
  t.is(added.reminder.time, Date.parse(adding.entry.time) / 1000 + 7200, 'two hours after the request, on the logical clock');
  t.is(send('reminders.add', { text: 'Later', time: '1800000000' }).json.reminder.time, 1800000000);
  t.true(send('reminders.list', {}).json.reminders.some((r: { id: string; text: string }) => r.id === added.reminder.id && r.text === 'Send the launch notes'));
  t.is(send('reminders.info', { reminder: added.reminder.id }).json.reminder.text, 'Send the launch notes');
  t.is(send('reminders.add', { text: 'x', time: 'whenever' }).json.error, 'cannot_parse');
  t.true(send('reminders.delete', { reminder: added.reminder.id }).json.ok);
  t.is(send('reminders.info', { reminder: added.reminder.id }).json.error, 'not_found');
  t.deepEqual(invalidSlackEntries(sent.slice(from)), [], 'every answer, success or error, in its schema');
});

test('the fallback keeps families by name: usergroups and remote files created, listed, read, updated and removed', (t) => {
  const from = sent.length;
  t.false('/bookmarks.add' in SLACK_SPEC.paths, 'bookmarks.* are not in the description (its methods answer unknown_method)');
  const made = send('usergroups.create', { name: 'Launch crew', handle: 'launch-crew', description: 'Ships things' });
  t.deepEqual(made.entry.operation, { name: 'usergroups.create', via: 'spec' });
  const group = made.json.usergroup;
  t.regex(group.id, /^S[A-Z0-9]{8,}$/);
  t.like(group, { name: 'Launch crew', handle: 'launch-crew', description: 'Ships things' });
  const listed = () => send('usergroups.list', {}).json.usergroups as { id: string; name: string; date_delete?: number }[];
  t.deepEqual(listed().filter((g) => g.id === group.id).map((g) => g.name), ['Launch crew']);
  const updated = send('usergroups.update', { usergroup: group.id, name: 'Launch team' }).json;
  t.like(updated.usergroup, { id: group.id, name: 'Launch team', handle: 'launch-crew' });
  t.is(listed().find((g) => g.id === group.id)?.name, 'Launch team');
  const disabled = send('usergroups.disable', { usergroup: group.id });
  t.true(disabled.json.ok);
  t.is(disabled.json.usergroup.date_delete, Date.parse(disabled.entry.time) / 1000, 'marked at the logical time');
  t.false(listed().some((g) => g.id === group.id), 'a disabled group is left out of the list');
  t.true(send('usergroups.list', { include_disabled: 'true' }).json.usergroups.some((g: { id: string }) => g.id === group.id));
  t.is(send('usergroups.enable', { usergroup: group.id }).json.usergroup.date_delete, 0);
  t.true(listed().some((g) => g.id === group.id));
  const unknown = send('usergroups.update', { usergroup: 'S0NOSUCHGRP', name: 'x' });
  t.is(unknown.json.error, 'invalid_arguments', 'the usergroups error schema lists no *_not_found');

  const added = send('files.remote.add', { external_id: 'doc-42', external_url: 'https://docs.example.test/42', title: 'Launch plan' }).json;
  t.true(added.ok);
  t.regex(added.file.id, /^F[A-Z0-9]{8,}$/);
  t.like(added.file, { external_id: 'doc-42', title: 'Launch plan' });
  t.is(send('files.remote.info', { file: added.file.id }).json.file.title, 'Launch plan');
  t.is(send('files.remote.info', { external_id: 'doc-42' }).json.file.id, added.file.id, 'found by its external id too');
  t.is(send('files.remote.update', { file: added.file.id, title: 'Launch plan v2' }).json.file.title, 'Launch plan v2');
  const files = () => send('files.remote.list', {}).json.files as { id: string; title: string }[];
  t.deepEqual(files().filter((f) => f.id === added.file.id).map((f) => f.title), ['Launch plan v2']);
  t.true(send('files.remote.remove', { file: added.file.id }).json.ok);
  t.false(files().some((f) => f.id === added.file.id));
  t.is(send('files.remote.info', { file: added.file.id }).json.error, 'invalid_arguments', 'removed: no longer found');
  t.deepEqual(invalidSlackEntries(sent.slice(from)), [], 'every answer, success or error, in its schema');
});
