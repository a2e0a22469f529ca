import { z } from 'zod';
import { slackError, slackOk } from '../kit/envelopes/slack.js';
import type { Operation } from '../kit/operation.js';
import { visibleChannel } from './conversations.js';
import { method, type SlackCtx } from './method.js';
import { readKey } from './model.js';

/**
 * Read markers: conversations.mark moves the caller's `last_read` in a channel, which
 * conversations.info shows to that caller (slack-mcp-server's conversations_mark and
 * conversations_unreads). Kept in the `reads` collection, keyed `<user>/<channel>`.
 */

const WRITE_SCOPE = (c: SlackCtx, channel: string) => `${c.db.channels.get(channel)?.is_private ? 'groups' : 'channels'}:write`;

const mark = method('conversations.mark', {
  args: z.object({ channel: z.string().min(1), ts: z.union([z.string(), z.number().transform(String)]) }),
  accepted: ['channels:write', 'groups:write', 'im:write', 'mpim:write'],
  needs: (args, c) => [WRITE_SCOPE(c, args.channel)],
}, ({ args, caller, c }) => {
  const channel = visibleChannel(c, caller, args.channel);
  if (!/^\d{10}\.\d{6}$/.test(args.ts)) throw slackError('invalid_timestamp');
  if (!channel.members.includes(caller.id)) throw slackError('not_in_channel');
  c.db.reads.put(readKey(caller.id, channel.id), { user: caller.id, channel: channel.id, last_read: args.ts });
  return slackOk();
});

export const readOperations: Operation<SlackCtx>[] = [mark];
