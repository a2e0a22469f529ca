import test from 'ava';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWorld } from '../scenarios/world.js';
import type { HeaderList } from '../mocks/core/http.js';
import type { JournalEntry } from '../mocks/core/journal-format.js';
import type { World } from '../mocks/core/world.js';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { tempDir } from './helpers/journal.js';
import { invalidSlackEntries, validateSlackResponse } from './helpers/slack-openapi.js';

// The Slack mock in process: determinism, seeds, auth and scopes, argument forms, faults, and
// dataset errors a person can act on.

const SCENARIO = 'scenarios/example/slack/basic';
const TOKEN = 'xoxb-1-example-helper';
const enc = (text: string) => new TextEncoder().encode(text);
const dec = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function world(seed?: number): Promise<World> {
  return (await openWorld({ scenarioDir: SCENARIO, ...(seed === undefined ? {} : { seed }) })).world;
}

function send(w: World, method: string, target: string, body = '', headers: HeaderList = [['Authorization', `Bearer ${TOKEN}`]]): { entry: JournalEntry; json: any } {
  const entry = w.process({ host: 'slack.com', method, target, headers, body: enc(body) });
  return { entry, json: JSON.parse(dec(entry.response.body)) };
}
const form = (token = TOKEN): HeaderList => [['Authorization', `Bearer ${token}`], ['Content-Type', 'application/x-www-form-urlencoded']];
const json = (token = TOKEN): HeaderList => [['Authorization', `Bearer ${token}`], ['Content-Type', 'application/json; charset=utf-8']];

/** A session touching every method, reads and writes, some errors. */
function session(w: World): JournalEntry[] {
  const out: JournalEntry[] = [];
  const go = (...args: Parameters<typeof send> extends [World, ...infer R] ? R : never) => out.push(send(w, ...args).entry);
  go('GET', '/api/auth.test');
  go('GET', '/api/conversations.list?types=public_channel,private_channel&limit=2');
  go('POST', '/api/chat.postMessage', JSON.stringify({ channel: 'C01EXENGIN', text: 'Status: green' }), json());
  go('POST', '/api/chat.postMessage', 'channel=C01EXENGIN&thread_ts=1706781600.000002&text=late+reply', form());
  go('POST', '/api/reactions.add', JSON.stringify({ channel: 'C01EXGENRL', timestamp: '1706778000.000001', name: 'tada' }), json());
  go('GET', '/api/conversations.history?channel=C01EXENGIN&limit=3');
  go('GET', '/api/conversations.replies?channel=C01EXENGIN&ts=1706781600.000002');
  go('GET', '/api/users.list?limit=4');
  go('GET', '/api/users.info?user=U01EXAMPL03');
  go('GET', '/api/users.profile.get?user=U01EXAMPL01&include_labels=true');
  go('GET', '/api/conversations.info?channel=G01EXPRIVT');
  go('GET', '/api/conversations.members?channel=C01EXENGIN');
  go('GET', '/api/conversations.history?channel=C01EXNOBOT');
  go('GET', '/api/nope.nothing');
  return out;
}
const bytes = (entries: JournalEntry[]) => entries.map((e) => `${e.response.status} ${JSON.stringify(e.response.headers)} ${dec(e.response.body)}`);

test('two fresh worlds answer the same session with the same bytes and the same state', async (t) => {
  const [a, b] = [await world(), await world()];
  t.deepEqual(bytes(session(a)), bytes(session(b)));
  t.deepEqual(a.state(), b.state());
  await a.journal.close();
  await b.journal.close();
});

test('another seed changes only seeded IDs and what derives from them', async (t) => {
  const [a, b] = [await world(1), await world(2)];
  const [ea, eb] = [session(a), session(b)];
  t.notDeepEqual(bytes(ea), bytes(eb));
  // What the seed decides: request IDs, block IDs, avatar hashes (and the colour and URLs made
  // from them), and the ID of the one user the dataset gives none (frank).
  const frank = (w: World) => Object.values(w.state(['slack']).slack!.users!).find((u: any) => u.name === 'frank') as { id: string; avatar_hash: string };
  const seeded = (w: World) => {
    const users = Object.values(w.state(['slack']).slack!.users!) as { avatar_hash: string }[];
    return [frank(w).id, ...users.flatMap((u) => [u.avatar_hash, u.avatar_hash.slice(0, 6)])];
  };
  const normalize = (entries: JournalEntry[], w: World) => bytes(entries).map((text) => {
    let out = text.replace(/"X-Slack-Req-Id","[0-9a-f]{32}"/g, '"X-Slack-Req-Id","<req>"').replace(/"block_id":"[^"]+"/g, '"block_id":"<block>"');
    for (const value of seeded(w)) out = out.replaceAll(value, '<seeded>');
    out = out.replace(/"Content-Length","\d+"/, '"Content-Length","<n>"');
    return out;
  });
  t.deepEqual(normalize(ea, a), normalize(eb, b));
  t.not(frank(a).id, frank(b).id);
  t.is(ea.filter((e) => e.operation?.name === 'chat.postMessage').length, 2);
  t.deepEqual(ea.map((e) => JSON.parse(dec(e.response.body)).ts ?? null), eb.map((e) => JSON.parse(dec(e.response.body)).ts ?? null), 'message timestamps come from the clock, not the seed');
  t.deepEqual(invalidSlackEntries(ea), []);
  await a.journal.close();
  await b.journal.close();
});

test('auth: no token, an unknown token, a token in the form body, a missing scope', async (t) => {
  const w = await world();
  t.deepEqual(send(w, 'GET', '/api/auth.test', '', []).json, { ok: false, error: 'not_authed' });
  t.deepEqual(send(w, 'GET', '/api/auth.test', '', [['Authorization', 'Bearer xoxb-nope']]).json, { ok: false, error: 'invalid_auth' });
  t.deepEqual(send(w, 'GET', '/api/auth.test', '', [['Authorization', `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`]]).json, { ok: false, error: 'invalid_auth' }, 'Slack reads only Bearer');
  t.like(send(w, 'POST', '/api/auth.test', `token=${TOKEN}`, [['Content-Type', 'application/x-www-form-urlencoded']]).json, { ok: true, user_id: 'U01EXAMBOT1' });
  t.like(send(w, 'GET', `/api/auth.test?token=${TOKEN}`, '', []).json, { ok: true });
  t.deepEqual(send(w, 'GET', '/api/auth.test', '', [['Authorization', 'Bearer xoxp-4-example-erin']]).json, { ok: false, error: 'account_inactive' }, 'a deactivated user\'s token');
  const denied = send(w, 'GET', '/api/users.list', '', [['Authorization', 'Bearer xoxb-2-example-readonly']]);
  t.deepEqual(denied.json, { ok: false, error: 'missing_scope', needed: 'users:read', provided: 'channels:read' });
  t.is(denied.entry.response.status, 200);
  t.true(denied.entry.response.headers.some(([k, v]) => k === 'X-Accepted-OAuth-Scopes' && v === 'users:read'));
  t.deepEqual(send(w, 'GET', '/api/conversations.list?types=private_channel', '', [['Authorization', 'Bearer xoxb-2-example-readonly']]).json,
    { ok: false, error: 'missing_scope', needed: 'groups:read', provided: 'channels:read' });
  await w.journal.close();
});

test('arguments from the query, a form or JSON alike; bad values are Slack\'s errors', async (t) => {
  const w = await world();
  const viaQuery = send(w, 'GET', '/api/conversations.history?channel=C01EXRANDM&limit=2').json;
  const viaForm = send(w, 'POST', '/api/conversations.history', 'channel=C01EXRANDM&limit=2', form()).json;
  const viaJson = send(w, 'POST', '/api/conversations.history', JSON.stringify({ channel: 'C01EXRANDM', limit: 2 }), json()).json;
  t.deepEqual(viaQuery, viaForm);
  t.deepEqual(viaQuery, viaJson);
  t.is(viaQuery.messages.length, 2);
  t.true(viaQuery.has_more);
  const next = send(w, 'GET', `/api/conversations.history?channel=C01EXRANDM&limit=20&cursor=${encodeURIComponent(viaQuery.response_metadata.next_cursor)}`).json;
  t.is(next.messages.length, 10);
  t.false(next.has_more);
  t.deepEqual(send(w, 'GET', '/api/conversations.list?cursor=bogus').json, { ok: false, error: 'invalid_cursor' });
  t.deepEqual(send(w, 'GET', '/api/conversations.history?channel=C01EXRANDM&limit=many').json.error, 'invalid_arguments');
  t.deepEqual(send(w, 'POST', '/api/chat.postMessage', '{"channel":', json()).json, { ok: false, error: 'invalid_json' });
  t.deepEqual(send(w, 'POST', '/api/chat.postMessage', JSON.stringify({ channel: 'C01EXGENRL' }), json()).json, { ok: false, error: 'no_text' });
  t.deepEqual(send(w, 'POST', '/api/chat.postMessage', JSON.stringify({ channel: 'C01EXGENRL', thread_ts: '1706778000.999999', text: 'x' }), json()).json, { ok: false, error: 'thread_not_found' });
  t.deepEqual(send(w, 'POST', '/api/reactions.add', JSON.stringify({ channel: 'C01EXGENRL', timestamp: '1706778000.000001', name: ':tada:' }), json()).json, { ok: false, error: 'invalid_name' });
  t.like(send(w, 'POST', '/api/chat.postMessage', JSON.stringify({ channel: '#general', text: 'by name' }), json()).json, { ok: true, channel: 'C01EXGENRL' });
  t.deepEqual(send(w, 'GET', '/api/conversations.history?channel=general').json, { ok: false, error: 'channel_not_found' }, 'conversations.* take IDs only');
  const unknown = send(w, 'POST', '/api/chat.postMessagee', '', json());
  t.is(unknown.entry.response.status, 404);
  t.is(unknown.entry.operation, null);
  t.deepEqual(unknown.json, { ok: false, error: 'unknown_method', req_method: 'chat.postMessagee' });
  await w.journal.close();
});

test('a reply to a reply joins the parent thread; history shows parents and broadcasts only', async (t) => {
  const w = await world();
  const reply = send(w, 'POST', '/api/chat.postMessage', JSON.stringify({ channel: 'C01EXENGIN', thread_ts: '1706781900.000003', text: 'nested?' }), json()).json;
  t.is(reply.message.thread_ts, '1706781600.000002');
  const history = send(w, 'GET', '/api/conversations.history?channel=C01EXENGIN').json;
  t.deepEqual(history.messages.map((m: { ts: string }) => m.ts), ['1706782800.000004', '1706781600.000002']);
  t.is(history.messages[1].reply_count, 3);
  t.is(history.messages[0].subtype, 'thread_broadcast');
  await w.journal.close();
});

test('a 429 fault is Slack\'s ratelimited with Retry-After; other faults keep the envelope', async (t) => {
  const rules = [FaultRuleSchema.parse({ service: 'slack', operation: 'chat.*', kind: 429, nth: [1], retry_after: 7 }), FaultRuleSchema.parse({ service: 'slack', operation: 'users.list', kind: 503, nth: [1] })];
  const { world: w } = await openWorld({ scenarioDir: SCENARIO });
  await w.journal.close();
  const { World: WorldClass } = await import('../mocks/core/world.js');
  const faulted = new WorldClass({ ...w.config, faults: { chaos: 'none', rules } as never });
  const limited = send(faulted, 'POST', '/api/chat.postMessage', JSON.stringify({ channel: 'C01EXGENRL', text: 'x' }), json());
  t.is(limited.entry.response.status, 429);
  t.deepEqual(limited.json, { ok: false, error: 'ratelimited' });
  t.true(limited.entry.response.headers.some(([k, v]) => k === 'Retry-After' && v === '7'));
  t.true(validateSlackResponse(limited.entry.target, 429, limited.entry.response.body).ok);
  t.like(send(faulted, 'POST', '/api/chat.postMessage', JSON.stringify({ channel: 'C01EXGENRL', text: 'x' }), json()).json, { ok: true }, 'the second call passes');
  const unavailable = send(faulted, 'GET', '/api/users.list');
  t.is(unavailable.entry.response.status, 503);
  t.deepEqual(unavailable.json, { ok: false, error: 'service_unavailable' });
});

test('the OpenAPI check itself rejects a body Slack would not send', (t) => {
  const bad = enc(JSON.stringify({ ok: true, channel: 'C01EXGENRL', ts: '17', message: { text: 'x' } }));
  t.false(validateSlackResponse('/api/chat.postMessage', 200, bad).ok);
  t.false(validateSlackResponse('/api/conversations.history', 200, enc(JSON.stringify({ ok: true, messages: [], extra: 1 }))).ok);
});

test('dataset errors name the file, the field and the problem', async (t) => {
  const dir = tempDir('toolbench-slack-dataset-');
  mkdirSync(join(dir, 'dataset'));
  writeFileSync(join(dir, 'scenario.toml'), readFileSync(join(SCENARIO, 'scenario.toml')));
  const write = (data: unknown) => writeFileSync(join(dir, 'dataset', 'slack.json'), JSON.stringify(data));
  write({ users: [{ name: 'Bad Name' }] });
  await t.throwsAsync(openWorld({ scenarioDir: dir }), { message: /slack\.json:\n {2}field users\[0\]\.name: must be lower case/ });
  write({ users: [{ name: 'a' }], channels: [{ name: 'x', created: '2024-01-01T00:00:00Z', creator: 'a', members: ['ghost'] }] });
  await t.throwsAsync(openWorld({ scenarioDir: dir }), { message: 'slack dataset, channels[0].members[0]: no user "ghost" (give a user\'s id or name)' });
  write({ users: [{ name: 'a' }], channels: [{ name: 'x', created: '2024-01-01T00:00:00Z', creator: 'a' }], messages: [{ channel: 'x', user: 'a', text: 'hi', at: '2024-01-01T00:00:00Z', thread_ts: '#3' }] });
  await t.throwsAsync(openWorld({ scenarioDir: dir }), { message: /messages\[0\]\.thread_ts: #3 is not an earlier message/ });
});

test('a scenario that does not name Slack gets the baseline workspace, which answers its bot token', async (t) => {
  const { world: w } = await openWorld({ scenarioDir: 'scenarios/example/github/basic' });
  try {
    await w.importServices(['slack']);
    const state = w.state(['slack']).slack!;
    t.deepEqual(Object.keys(state.team!), ['T04ACMECORP']);
    t.true(Object.keys(state.users!).length >= 25 && Object.keys(state.channels!).length >= 20 && Object.keys(state.messages!).length >= 50);
    const me = send(w, 'GET', '/api/auth.test', '', [['Authorization', 'Bearer xoxb-4101-acme-baseline-bot']]);
    t.like(me.json, { ok: true, team: 'Acme Corp', user: 'acmebot' });
    const channels = send(w, 'GET', '/api/conversations.list?types=public_channel,private_channel&limit=1000', '', [['Authorization', 'Bearer xoxb-4101-acme-baseline-bot']]).json;
    t.false(channels.channels.some((c: { name: string }) => c.name === 'leadership'), 'a private channel the bot is not in stays hidden');
  } finally {
    await w.journal.close();
  }
});

test('join, update, reactions get/remove, lookup by email, a user\'s conversations', async (t) => {
  const w = await world();
  // The example bot lacks channels:join and reactions:read: scopes are checked.
  t.like(send(w, 'POST', '/api/conversations.join', JSON.stringify({ channel: 'C01EXNOBOT' }), json()).json, { ok: false, error: 'missing_scope', needed: 'channels:join' });
  t.like(send(w, 'GET', '/api/reactions.get?channel=C01EXGENRL&timestamp=1706778000.000001').json, { ok: false, error: 'missing_scope', needed: 'reactions:read' });
  const posted = send(w, 'POST', '/api/chat.postMessage', JSON.stringify({ channel: 'C01EXGENRL', text: 'draft' }), json()).json;
  const updated = send(w, 'POST', '/api/chat.update', JSON.stringify({ channel: 'C01EXGENRL', ts: posted.ts, text: 'final' }), json());
  t.like(updated.json, { ok: true, channel: 'C01EXGENRL', ts: posted.ts, text: 'final', message: { text: 'final' } });
  t.like(w.state(['slack']).slack!.messages![`C01EXGENRL/${posted.ts}`], { text: 'final', edited: { user: 'U01EXAMBOT1' } });
  t.deepEqual(send(w, 'POST', '/api/chat.update', JSON.stringify({ channel: 'C01EXGENRL', ts: '1706778000.000001', text: 'not mine' }), json()).json, { ok: false, error: 'cant_update_message' });
  t.deepEqual(send(w, 'POST', '/api/reactions.remove', JSON.stringify({ channel: 'C01EXGENRL', timestamp: '1706778000.000001', name: 'wave' }), json()).json, { ok: false, error: 'no_reaction' });
  t.like(send(w, 'POST', '/api/reactions.add', JSON.stringify({ channel: 'C01EXGENRL', timestamp: '1706778000.000001', name: 'wave' }), json()).json, { ok: true });
  t.like(send(w, 'POST', '/api/reactions.remove', JSON.stringify({ channel: 'C01EXGENRL', timestamp: '1706778000.000001', name: 'wave' }), json()).json, { ok: true });
  t.deepEqual((w.state(['slack']).slack!.messages!['C01EXGENRL/1706778000.000001'] as { reactions: unknown }).reactions, [{ name: 'wave', users: ['U01EXAMPL02', 'U01EXAMPL03'] }]);
  t.like(send(w, 'GET', '/api/users.lookupByEmail?email=Carol@Example.test').json, { ok: true, user: { id: 'U01EXAMPL03', name: 'carol' } });
  t.deepEqual(send(w, 'GET', '/api/users.lookupByEmail?email=nobody@example.test').json, { ok: false, error: 'users_not_found' });
  const mine = send(w, 'GET', '/api/users.conversations?types=public_channel,private_channel').json;
  t.deepEqual(mine.channels.map((c: { name: string }) => c.name), ['general', 'random', 'engineering', 'old-project', 'leads']);
  t.false('is_member' in mine.channels[0]);
  const bobs = send(w, 'GET', '/api/users.conversations?user=U01EXAMPL02&types=public_channel,private_channel&exclude_archived=true').json;
  t.deepEqual(bobs.channels.map((c: { name: string }) => c.name), ['general', 'random', 'engineering'], 'Bob\'s private channel stays hidden from the bot');
  t.deepEqual(invalidSlackEntries(await entriesOf(w)), []);
  await w.journal.close();
});

test('with channels:join and reactions:read: join a channel once, read reactions', async (t) => {
  const dir = tempDir('toolbench-slack-scopes-');
  mkdirSync(join(dir, 'dataset'));
  writeFileSync(join(dir, 'scenario.toml'), readFileSync(join(SCENARIO, 'scenario.toml')));
  const data = JSON.parse(readFileSync(join(SCENARIO, 'dataset', 'slack.json'), 'utf8')) as { tokens: { token: string; user: string; scopes: string[] }[] };
  data.tokens.push({ token: 'xoxb-3-example-more', user: 'helper', scopes: ['channels:join', 'reactions:read', 'groups:read'] });
  writeFileSync(join(dir, 'dataset', 'slack.json'), JSON.stringify(data));
  const { world: w } = await openWorld({ scenarioDir: dir });
  const more = json('xoxb-3-example-more');
  const joined = send(w, 'POST', '/api/conversations.join', JSON.stringify({ channel: 'C01EXNOBOT' }), more).json;
  t.like(joined, { ok: true, channel: { id: 'C01EXNOBOT', is_member: true, num_members: 3 } });
  t.like(send(w, 'POST', '/api/conversations.join', JSON.stringify({ channel: 'C01EXNOBOT' }), more).json, { ok: true, warning: 'already_in_channel', response_metadata: { warnings: ['already_in_channel'] } });
  t.deepEqual(send(w, 'POST', '/api/conversations.join', JSON.stringify({ channel: 'C01EXOLDPR' }), more).json, { ok: false, error: 'is_archived' });
  t.deepEqual(send(w, 'POST', '/api/conversations.join', JSON.stringify({ channel: 'G01EXPRIVT' }), more).json, { ok: false, error: 'method_not_supported_for_channel_type' });
  t.like(send(w, 'GET', '/api/reactions.get?channel=C01EXGENRL&timestamp=1706778000.000001', '', more).json,
    { ok: true, type: 'message', channel: 'C01EXGENRL', message: { reactions: [{ name: 'wave', count: 2 }] } });
  t.deepEqual(invalidSlackEntries(await entriesOf(w)), []);
  await w.journal.close();
});

async function entriesOf(w: World): Promise<JournalEntry[]> {
  await w.journal.flush();
  const out: JournalEntry[] = [];
  for await (const entry of w.journal.entries()) out.push(entry);
  return out;
}
