import type { SweepProfile } from '../kit/sweep-profile.js';

const CHANNEL = 'C01EXENGIN';
const THREAD = '1706781600.000002';
const MESSAGE = { channel_id: 'C01EXGENRL', timestamp: '1706778000.000001' };

/**
 * How the conformance suite and `toolbench coverage` call every tool of both Slack servers, in the
 * example workspace: server-slack as the Helper bot, slack-go as Alice (a user token). A channel
 * both are in, a thread that exists, a message neither has reacted to yet; slack-go joins a
 * channel Alice is not in and leaves one she is.
 */
export const sweep: SweepProfile = {
  scenario: 'scenarios/example/slack/two-servers',
  args: {
    common: { channel_id: CHANNEL, thread_ts: THREAD, user_id: 'U01EXAMPL01', text: 'From the conformance sweep', limit: 5 },
    tools: {
      slack_add_reaction: { ...MESSAGE, reaction: 'rocket' },
      // slack-go (its `limit` is a string: a count or a time range).
      conversations_history: { limit: '10' },
      conversations_replies: { limit: '10' },
      conversations_join: { channel_id: 'C01EXNOBOT' },
      conversations_leave: { channel_id: 'C01EXRANDM' },
      conversations_mark: { ts: THREAD },
      conversations_search_messages: { search_query: 'deploy', filter_in_channel: '#engineering' },
      conversations_unreads: { max_channels: 10 },
      reactions_add: { ...MESSAGE, emoji: 'tada' },
      reactions_remove: { ...MESSAGE, emoji: 'tada' },
      attachment_get_data: { file_id: 'F01EXFILE01' },
      channels_list: { channel_types: 'public_channel,private_channel' },
      users_search: { query: 'bob' },
      usergroups_create: { name: 'Conformance', handle: 'conformance', description: 'Made by the sweep' },
      usergroups_update: { usergroup_id: 'S01EXGROUP1', description: 'Updated by the sweep' },
      usergroups_users_update: { usergroup_id: 'S01EXGROUP1', users: 'U01EXAMPL01,U01EXAMPL02' },
      usergroups_me: { action: 'list' },
    },
  },
  order: ['reactions_add', 'reactions_remove', 'usergroups_create'],
  // slack-go answers these from the users and channels it cached at startup.
  offline: ['channels_list', 'users_search'],
};
