// @slack/web-api, unmodified, through whatever the preload set up: runs a fixed sequence of Web
// API calls and prints one JSON line per step ({step, result} or {step, error, data}). The bot
// token comes from SLACK_TOKEN, a token without the needed scopes from SLACK_READONLY_TOKEN.
import { WebClient, ErrorCode } from '@slack/web-api';

const quiet = { debug() {}, info() {}, warn() {}, error() {}, setLevel() {}, getLevel() { return 'error'; }, setName() {} };
const client = new WebClient(process.env.SLACK_TOKEN, { logger: quiet, retryConfig: { retries: 0 } });
const readonly = new WebClient(process.env.SLACK_READONLY_TOKEN, { logger: quiet, retryConfig: { retries: 0 } });

const steps = {
  'auth.test': () => client.auth.test(),
  'paginate channels': async () => {
    const names = [];
    let pages = 0;
    for await (const page of client.paginate('conversations.list', { types: 'public_channel,private_channel', limit: 2 })) {
      pages += 1;
      names.push(...page.channels.map((c) => c.name));
    }
    return { pages, names };
  },
  'conversations.info': () => client.conversations.info({ channel: 'C01EXENGIN', include_num_members: true }),
  'post and reply': async () => {
    const posted = await client.chat.postMessage({ channel: 'C01EXENGIN', text: 'Build is green again :white_check_mark:' });
    const reply = await client.chat.postMessage({ channel: 'C01EXENGIN', thread_ts: posted.ts, text: 'Details in the CI log.' });
    return { posted, reply };
  },
  'history': () => client.conversations.history({ channel: 'C01EXENGIN', limit: 10 }),
  'replies': () => client.conversations.replies({ channel: 'C01EXENGIN', ts: '1706781600.000002' }),
  'paginate history': async () => {
    const texts = [];
    for await (const page of client.paginate('conversations.history', { channel: 'C01EXRANDM', limit: 5 })) texts.push(...page.messages.map((m) => m.text));
    return { texts };
  },
  'reactions.add': () => client.reactions.add({ channel: 'C01EXGENRL', timestamp: '1706778000.000001', name: 'tada' }),
  'update and unreact': async () => {
    const posted = await client.chat.postMessage({ channel: 'C01EXGENRL', text: 'Standup in 5' });
    const updated = await client.chat.update({ channel: 'C01EXGENRL', ts: posted.ts, text: 'Standup in 10' });
    const removed = await client.reactions.remove({ channel: 'C01EXGENRL', timestamp: '1706778000.000001', name: 'tada' });
    return { updated, removed };
  },
  'users.lookupByEmail': () => client.users.lookupByEmail({ email: 'dave@example.test' }),
  'users.conversations': async () => {
    const names = [];
    for await (const page of client.paginate('users.conversations', { types: 'public_channel,private_channel', limit: 2 })) names.push(...page.channels.map((c) => c.name));
    return { names };
  },
  'users.list': async () => {
    const ids = [];
    for await (const page of client.paginate('users.list', { limit: 3 })) ids.push(...page.members.map((m) => m.id));
    return { ids };
  },
  'users.info': () => client.users.info({ user: 'U01EXAMPL01' }),
  'users.profile.get': () => client.users.profile.get({ user: 'U01EXAMPL01', include_labels: true }),
  'conversations.members': () => client.conversations.members({ channel: 'G01EXPRIVT' }),
  // Methods without a handler, answered by the spec fallback in the description's shape.
  'spec tail': async () => ({
    bot: await client.bots.info({ bot: 'B01EXAMBOT1' }),
    scheduled: await client.chat.scheduleMessage({ channel: 'C01EXENGIN', text: 'Retro at 4', post_at: 1709290800 }),
    presence: await client.users.getPresence({ user: 'U01EXAMPL01' }),
    permalink: await client.chat.getPermalink({ channel: 'C01EXENGIN', message_ts: '1706781600.000002' }),
  }),
  'spec missing_scope': () => client.team.info(),
  'channel_not_found': () => client.conversations.history({ channel: 'G01EXSECRT' }),
  'not_in_channel': () => client.chat.postMessage({ channel: 'C01EXNOBOT', text: 'hello?' }),
  'missing_scope': () => readonly.chat.postMessage({ channel: 'C01EXGENRL', text: 'no scope' }),
  'invalid_auth': () => new WebClient('xoxb-not-a-token', { logger: quiet, retryConfig: { retries: 0 } }).auth.test(),
};

for (const name of process.argv.slice(2)) {
  try {
    process.stdout.write(JSON.stringify({ step: name, result: await steps[name]() }) + '\n');
  } catch (error) {
    process.stdout.write(JSON.stringify({ step: name, code: error.code === ErrorCode.PlatformError ? 'platform' : error.code, error: error.message, data: error.data ?? null }) + '\n');
  }
}
