import test from 'ava';
import { fileURLToPath } from 'node:url';
import { invalidSlackEntries } from './helpers/slack-openapi.js';
import { nodeClientEnv, run } from './helpers/proxy-processes.js';
import { startProxiedWorld, type ProxiedWorld } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// @slack/web-api, unmodified, in a Node child that reaches https://slack.com/api through the
// proxy (the preload, NODE_EXTRA_CA_CERTS, certificate checks on): cursor pagination, posting and
// threading, reactions, users, and Slack's HTTP 200 errors as the SDK's platform errors. Every
// answer it received must match Slack's OpenAPI description.

const SCENARIO = 'scenarios/example/slack/basic';
let w: ProxiedWorld;
type Step = { step: string; result?: any; code?: string; error?: string; data?: any };
let steps: Map<string, Step>;

test.before(async () => {
  w = await startProxiedWorld({ scenarioDir: SCENARIO });
  w.tracker.register('slack');
  w.tracker.markReady('slack');
  const script = fileURLToPath(new URL('./helpers/slack-web-api-client.mjs', sourceUrl(import.meta.url)));
  const names = ['auth.test', 'paginate channels', 'conversations.info', 'post and reply', 'history', 'replies', 'paginate history', 'reactions.add', 'update and unreact', 'users.lookupByEmail', 'users.conversations',
    'users.list', 'users.info', 'users.profile.get', 'conversations.members', 'spec tail', 'spec missing_scope', 'channel_not_found', 'not_in_channel', 'missing_scope', 'invalid_auth'];
  const result = await run(process.execPath, [script, ...names], {
    ...nodeClientEnv(w.urlFor('slack'), w.caPath), SLACK_TOKEN: 'xoxb-1-example-helper', SLACK_READONLY_TOKEN: 'xoxb-2-example-readonly',
  });
  if (result.code !== 0) throw new Error(result.stderr);
  steps = new Map(result.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Step).map((s) => [s.step, s]));
});
test.after.always(() => w?.close());

const ok = (name: string) => {
  const step = steps.get(name)!;
  if (step.error) throw new Error(`${name}: ${step.error} ${JSON.stringify(step.data)}`);
  return step.result;
};

test('auth.test names the bot, its team and workspace URL', (t) => {
  t.like(ok('auth.test'), { ok: true, team: 'Example Co', team_id: 'T01EXAMPLE', user: 'helper', user_id: 'U01EXAMBOT1', bot_id: 'B01EXAMBOT1', url: 'https://example-co.slack.com/' });
  t.is(ok('auth.test').response_metadata.scopes.length, 9, 'the SDK read X-OAuth-Scopes');
});

test('paginate follows next_cursor over every page: public channels and the private one the bot is in', (t) => {
  const { pages, names } = ok('paginate channels');
  t.deepEqual(names, ['general', 'random', 'engineering', 'old-project', 'design', 'leads']);
  t.is(pages, 3);
  t.like(ok('conversations.info').channel, { id: 'C01EXENGIN', name: 'engineering', is_member: true, num_members: 3 });
  const history = ok('paginate history').texts as string[];
  t.is(history.length, 12);
  t.is(history[0], 'Random chatter number 12', 'newest first');
  t.deepEqual(ok('users.list').ids.slice(0, 5), ['U01EXAMPL01', 'U01EXAMPL02', 'U01EXAMPL03', 'U01EXAMPL04', 'U01EXAMPL05']);
  t.is(ok('users.list').ids.length, 7);
  t.regex(ok('users.list').ids[5], /^U[0-9A-Z]{10}$/, 'frank\'s ID is seeded');
});

test('post a message and a reply: the thread shows in history and replies', (t) => {
  const { posted, reply } = ok('post and reply');
  t.like(posted, { ok: true, channel: 'C01EXENGIN', message: { text: 'Build is green again :white_check_mark:', user: 'U01EXAMBOT1', bot_id: 'B01EXAMBOT1' } });
  t.regex(posted.ts, /^\d{10}\.\d{6}$/);
  t.is(reply.message.thread_ts, posted.ts);
  const history = ok('history').messages as any[];
  t.is(history[0].ts, posted.ts);
  t.like(history[0], { reply_count: 1, thread_ts: posted.ts });
  t.false(history.some((m) => m.text === 'Details in the CI log.'), 'a reply stays in its thread');
  t.true(history.some((m) => m.subtype === 'thread_broadcast'), 'a broadcast reply shows in the channel');
  const replies = ok('replies').messages as any[];
  t.deepEqual(replies.map((m) => m.user), ['U01EXAMPL02', 'U01EXAMPL01', 'U01EXAMPL02']);
  t.like(replies[0], { reply_count: 2, reply_users: ['U01EXAMPL01', 'U01EXAMPL02'] });
});

test('reactions, edits, users and profiles', (t) => {
  t.like(ok('reactions.add'), { ok: true });
  t.like(ok('update and unreact'), { updated: { ok: true, text: 'Standup in 10' }, removed: { ok: true } });
  t.like(ok('users.lookupByEmail').user, { id: 'U01EXAMPL04', name: 'dave' });
  t.deepEqual(ok('users.conversations').names, ['general', 'random', 'engineering', 'old-project', 'leads']);
  t.like(ok('users.info').user, { id: 'U01EXAMPL01', name: 'alice', tz: 'Europe/Paris', is_admin: true, profile: { email: 'alice@example.test' } });
  const profile = ok('users.profile.get').profile;
  t.like(profile, { real_name: 'Alice Moreau', title: 'Engineering Lead' });
  t.deepEqual(Object.values(profile.fields), [{ value: 'Platform', alt: '', label: 'Team' }]);
  t.deepEqual(ok('conversations.members').members, ['U01EXAMPL01', 'U01EXAMBOT1']);
});

test('methods without a handler answer from Slack\'s description through the SDK: ok, its shape, Slack\'s scopes', (t) => {
  const { bot, scheduled, presence, permalink } = ok('spec tail');
  t.like(bot, { ok: true });
  t.regex(bot.bot.id, /^B[A-Z0-9]{8,}$/);
  t.like(scheduled.message, { user: 'U01EXAMBOT1', bot_id: 'B01EXAMBOT1', team: 'T01EXAMPLE' }, 'the caller fills the IDs a schema asks for');
  t.like(scheduled, { ok: true, channel: 'C01EXENGIN', post_at: 1709290800 });
  t.regex(scheduled.scheduled_message_id, /^Q[A-Z0-9]{10}$/, 'a seeded ID in the pattern of the description');
  t.like(presence, { ok: true });
  t.like(permalink, { ok: true, channel: 'C01EXENGIN' });
  const denied = steps.get('spec missing_scope')!;
  t.is(denied.code, 'platform');
  t.like(denied.data, { ok: false, error: 'missing_scope', needed: 'team:read' });
});

test('Slack\'s errors reach the SDK as platform errors with Slack\'s body', (t) => {
  t.like(steps.get('channel_not_found'), { code: 'platform', data: { ok: false, error: 'channel_not_found' } }, 'a private channel the bot is not in does not exist for it');
  t.like(steps.get('not_in_channel'), { code: 'platform', data: { ok: false, error: 'not_in_channel' } });
  t.like(steps.get('missing_scope'), { code: 'platform', data: { ok: false, error: 'missing_scope', needed: 'chat:write', provided: 'channels:read' } });
  t.like(steps.get('invalid_auth'), { code: 'platform', data: { ok: false, error: 'invalid_auth' } });
});

test('every request went through the proxy to slack.com, attributed, and every answer matches Slack\'s OpenAPI description', async (t) => {
  const entries = await w.entries();
  t.true(entries.length >= 20);
  for (const entry of entries) {
    t.like(entry, { host: 'slack.com', service: 'slack', attribution: { kind: 'mcp', client: 'slack' } });
    t.truthy(entry.operation, `${entry.target} is a named operation`);
  }
  t.true(entries.some((e) => e.method === 'POST' && /x-www-form-urlencoded/.test(e.request.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '')), 'the SDK posts forms');
  t.deepEqual(invalidSlackEntries(entries), []);
});
