import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call every tool of server-slack: in the example workspace (the Helper bot's token), on a
 * channel the bot is in, a thread that exists, and a message the bot has not reacted to yet.
 */
export const sweep: SweepProfile = {
  scenario: 'scenarios/example/slack/basic',
  args: {
    common: { channel_id: 'C01EXENGIN', thread_ts: '1706781600.000002', user_id: 'U01EXAMPL01', text: 'From the conformance sweep', limit: 5 },
    tools: {
      slack_add_reaction: { channel_id: 'C01EXGENRL', timestamp: '1706778000.000001', reaction: 'rocket' },
    },
  },
};
