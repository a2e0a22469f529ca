import test from 'ava';
import { useMcpStack } from './helpers/mcp-stack.js';
import { invalidSlackEntries } from './helpers/slack-openapi.js';

// The real, pinned @modelcontextprotocol/server-slack over MCP (bridge, proxy, preload): each of
// its 8 tools called with valid arguments is answered by a named operation, in Slack's shape,
// with the workspace the scenario's credential names.

const mcp = useMcpStack(test, 'scenarios/example/slack/basic', 'slack');
const entries = () => mcp.entries();

async function call(name: string, args: Record<string, unknown>): Promise<any> {
  const result = await mcp.client().callTool({ name, arguments: args });
  return JSON.parse((result.content as { text: string }[])[0]!.text);
}

test.serial('the bridge lists the server\'s 8 tools', async (t) => {
  const { tools } = await mcp.client().listTools();
  t.deepEqual(tools.map((tool) => tool.name).sort(), ['slack_add_reaction', 'slack_get_channel_history', 'slack_get_thread_replies', 'slack_get_user_profile',
    'slack_get_users', 'slack_list_channels', 'slack_post_message', 'slack_reply_to_thread']);
});

test.serial('every tool, with valid arguments, is answered ok by a named operation; state changes; all requests attributed', async (t) => {
  const channels = await call('slack_list_channels', { limit: 3 });
  t.true(channels.ok);
  t.deepEqual(channels.channels.map((c: { name: string }) => c.name), ['general', 'random', 'engineering']);
  const rest = await call('slack_list_channels', { limit: 100, cursor: channels.response_metadata.next_cursor });
  t.deepEqual(rest.channels.map((c: { name: string }) => c.name), ['design'], 'public, unarchived channels only');

  const posted = await call('slack_post_message', { channel_id: 'C01EXGENRL', text: 'Hello from the agent' });
  t.like(posted, { ok: true, channel: 'C01EXGENRL', message: { text: 'Hello from the agent', user: 'U01EXAMBOT1' } });
  const reply = await call('slack_reply_to_thread', { channel_id: 'C01EXENGIN', thread_ts: '1706781600.000002', text: 'Thanks for fixing it' });
  t.like(reply, { ok: true, message: { thread_ts: '1706781600.000002', parent_user_id: 'U01EXAMPL02' } });
  t.like(await call('slack_add_reaction', { channel_id: 'C01EXGENRL', timestamp: posted.ts, reaction: 'rocket' }), { ok: true });
  const history = await call('slack_get_channel_history', { channel_id: 'C01EXGENRL', limit: 5 });
  t.like(history.messages[0], { text: 'Hello from the agent', reactions: [{ name: 'rocket', count: 1, users: ['U01EXAMBOT1'] }] });
  const replies = await call('slack_get_thread_replies', { channel_id: 'C01EXENGIN', thread_ts: '1706781600.000002' });
  t.deepEqual(replies.messages.map((m: { text: string }) => m.text).at(-1), 'Thanks for fixing it');
  t.is(replies.messages[0].reply_count, 3);
  const users = await call('slack_get_users', { limit: 200 });
  t.is(users.members.length, 7);
  t.like(await call('slack_get_user_profile', { user_id: 'U01EXAMPL03' }), { ok: true, profile: { real_name: 'Carol Díaz', status_emoji: ':palm_tree:' } });

  const messages = mcp.stack().world.state(['slack']).slack!.messages!;
  t.truthy(messages[`C01EXGENRL/${posted.ts}`], 'the message is in the world');

  const made = await entries();
  t.is(made.length, 9);
  for (const entry of made) {
    t.like(entry, { host: 'slack.com', attribution: { kind: 'mcp', client: 'slack', endpoint: 'slack' } }, entry.target);
    t.truthy(entry.attribution?.tool);
    t.is(entry.operation?.via, 'handler', `${entry.target} reached a handler`);
    t.true(entry.response.status < 500);
  }
  t.deepEqual([...new Set(made.map((e) => e.operation!.name))].sort(), ['chat.postMessage', 'conversations.history', 'conversations.list', 'conversations.replies',
    'reactions.add', 'users.list', 'users.profile.get']);
  const list = made.find((e) => e.operation?.name === 'users.list')!;
  t.is(new URLSearchParams(list.target.split('?')[1]).get('team_id'), 'T01EXAMPLE', 'SLACK_TEAM_ID is the dataset\'s team, from the credential table');
  t.deepEqual(invalidSlackEntries(made), []);
});

test.serial('Slack errors come back to the agent as the server passes them on', async (t) => {
  t.deepEqual(await call('slack_get_channel_history', { channel_id: 'G01EXSECRT' }), { ok: false, error: 'channel_not_found' });
  t.deepEqual(await call('slack_post_message', { channel_id: 'C01EXOLDPR', text: 'anyone?' }), { ok: false, error: 'is_archived' });
  t.deepEqual(await call('slack_get_thread_replies', { channel_id: 'C01EXENGIN', thread_ts: '1706781600.999999' }), { ok: false, error: 'thread_not_found' });
  t.deepEqual(await call('slack_add_reaction', { channel_id: 'C01EXGENRL', timestamp: '1706778000.000001', reaction: 'wave' }), { ok: true });
  t.deepEqual(await call('slack_add_reaction', { channel_id: 'C01EXGENRL', timestamp: '1706778000.000001', reaction: 'wave' }), { ok: false, error: 'already_reacted' });
});
