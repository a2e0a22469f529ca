import { z } from 'zod';
import { slackError, slackOk } from '../kit/envelopes/slack.js';
import type { Operation } from '../kit/operation.js';
import { visibleChannel } from './conversations.js';
import { arg, method, type SlackCtx } from './method.js';
import { messageKey, slackTs, type MessageDoc, type UserDoc } from './model.js';
import { blocksText, parseBlocks } from './blocks.js';
import { renderMessage } from './render.js';

/** chat.postMessage (a message or a thread reply), chat.update, reactions.add/remove/get. */

const MAX_TEXT = 40_000;

const PostArgs = z.object({
  channel: arg.id(),
  text: arg.string().optional(),
  thread_ts: z.string().optional(),
  reply_broadcast: arg.bool().default(false),
  blocks: z.unknown().optional(),
  attachments: z.unknown().optional(),
  mrkdwn: arg.bool().optional(),
  unfurl_links: arg.bool().optional(),
  unfurl_media: arg.bool().optional(),
  link_names: arg.bool().optional(),
  parse: z.string().optional(),
  as_user: arg.bool().optional(),
  username: z.string().optional(),
  icon_emoji: z.string().optional(),
  icon_url: z.string().optional(),
});

const postMessage = method('chat.postMessage', {
  args: PostArgs,
  accepted: ['chat:write', 'chat:write:user', 'chat:write:bot'],
  needs: () => ['chat:write'],
}, ({ args, caller, grant, c }) => {
  const channel = visibleChannel(c, caller, args.channel, true);
  if (!channel.members.includes(caller.id) && !(grant.scopes.includes('chat:write.public') && !channel.is_private)) throw slackError('not_in_channel');
  if (channel.is_archived) throw slackError('is_archived');
  const blocks = parseBlocks(args.blocks);
  if (args.blocks !== undefined && args.blocks !== '' && blocks === null) throw slackError('invalid_blocks');
  const text = (args.text ?? '').trim() === '' && blocks ? blocksText(blocks) : args.text ?? '';
  if (text.trim() === '' && blocks === null && args.attachments === undefined) throw slackError('no_text');
  if (text.length > MAX_TEXT) throw slackError('msg_too_long');
  let thread: string | null = null;
  if (args.thread_ts !== undefined && args.thread_ts !== '') {
    // Slack files a reply to a reply under the thread's parent; an unknown parent is refused.
    const target = c.db.messages.get(messageKey(channel.id, args.thread_ts));
    if (!target) throw slackError('thread_not_found');
    thread = target.thread_ts ?? target.ts;
    const parent = c.db.messages.get(messageKey(channel.id, thread))!;
    if (parent.thread_ts === null) c.db.messages.put(messageKey(channel.id, thread), { ...parent, thread_ts: thread });
  }
  const ts = slackTs(c.ctx.nowMs, c.ctx.seq);
  const message: MessageDoc = {
    channel: channel.id, ts, user: caller.id, text, thread_ts: thread, reply_broadcast: thread !== null && args.reply_broadcast,
    reactions: [], bot_id: caller.bot_id, app_id: caller.app_id,
    block_id: c.ctx.ids.opaqueBase64('block', c.ctx.seq, 5), edited: null,
    ...(blocks ? { blocks } : {}),
  };
  c.db.messages.put(messageKey(channel.id, ts), message);
  return slackOk({ channel: channel.id, ts, message: renderMessage(c.db, message, c.team) });
});

const MAX_REACTIONS_PER_MESSAGE = 50;

const addReaction = method('reactions.add', {
  args: z.object({ channel: arg.id(), timestamp: z.string().min(1), name: z.string().min(1) }),
  accepted: ['reactions:write'],
  needs: () => ['reactions:write'],
}, ({ args, caller, c }) => {
  const message = reactedMessage(c, caller, args.channel, args.timestamp);
  if (!/^[a-z0-9_+'-]+(::skin-tone-[2-6])?$/.test(args.name)) throw slackError('invalid_name');
  const existing = message.reactions.find((r) => r.name === args.name);
  if (existing?.users.includes(caller.id)) throw slackError('already_reacted');
  if (!existing && message.reactions.length >= MAX_REACTIONS_PER_MESSAGE) throw slackError('too_many_emoji');
  const reactions = existing
    ? message.reactions.map((r) => (r === existing ? { name: r.name, users: [...r.users, caller.id] } : r))
    : [...message.reactions, { name: args.name, users: [caller.id] }];
  c.db.messages.put(messageKey(message.channel, message.ts), { ...message, reactions });
  return slackOk();
});

const update = method('chat.update', {
  args: z.object({ channel: arg.id(), ts: z.string().min(1), text: arg.string().optional(), blocks: z.unknown().optional(), attachments: z.unknown().optional(),
    as_user: arg.bool().optional(), link_names: arg.bool().optional(), parse: z.string().optional() }),
  accepted: ['chat:write', 'chat:write:user', 'chat:write:bot'],
  needs: () => ['chat:write'],
}, ({ args, caller, c }) => {
  const channel = visibleChannel(c, caller, args.channel);
  const message = c.db.messages.get(messageKey(channel.id, args.ts));
  if (!message) throw slackError('message_not_found');
  if (message.user !== caller.id) throw slackError('cant_update_message');
  const text = args.text ?? '';
  if (text.trim() === '' && args.blocks === undefined && args.attachments === undefined) throw slackError('no_text');
  if (text.length > MAX_TEXT) throw slackError('msg_too_long');
  const updated = c.db.messages.put(messageKey(channel.id, message.ts), { ...message, text, edited: { user: caller.id, ts: slackTs(c.ctx.nowMs, c.ctx.seq) } });
  return slackOk({ channel: channel.id, ts: message.ts, text, message: renderMessage(c.db, updated, c.team) });
});

/** chat.delete: the caller's own message goes, with its pin; a thread parent's replies stay, as Slack leaves them. */
const remove = method('chat.delete', {
  args: z.object({ channel: arg.id(), ts: z.union([z.string(), z.number().transform(String)]).pipe(z.string().min(1)), as_user: arg.bool().optional() }),
  accepted: ['chat:write', 'chat:write:user', 'chat:write:bot'],
  needs: () => ['chat:write'],
}, ({ args, caller, c }) => {
  const channel = visibleChannel(c, caller, args.channel);
  const key = messageKey(channel.id, args.ts);
  const message = c.db.messages.get(key);
  if (!message) throw slackError('message_not_found');
  if (message.user !== caller.id) throw slackError('cant_delete_message');
  c.db.messages.delete(key);
  if (c.db.pins.get(key)) c.db.pins.delete(key);
  return slackOk({ channel: channel.id, ts: message.ts });
});

/** The message a reactions.* call names, in a channel the caller can see. */
export function reactedMessage(c: SlackCtx, caller: UserDoc, channelId: string, timestamp: string): MessageDoc {
  const channel = visibleChannel(c, caller, channelId);
  if (!/^\d{10}\.\d{6}$/.test(timestamp)) throw slackError('bad_timestamp');
  const message = c.db.messages.get(messageKey(channel.id, timestamp));
  if (!message) throw slackError('message_not_found');
  return message;
}

const removeReaction = method('reactions.remove', {
  args: z.object({ channel: arg.id(), timestamp: z.string().min(1), name: z.string().min(1) }),
  accepted: ['reactions:write'],
  needs: () => ['reactions:write'],
}, ({ args, caller, c }) => {
  const message = reactedMessage(c, caller, args.channel, args.timestamp);
  const existing = message.reactions.find((r) => r.name === args.name);
  if (!existing?.users.includes(caller.id)) throw slackError('no_reaction');
  const reactions = message.reactions
    .map((r) => (r === existing ? { name: r.name, users: r.users.filter((u) => u !== caller.id) } : r))
    .filter((r) => r.users.length > 0);
  c.db.messages.put(messageKey(message.channel, message.ts), { ...message, reactions });
  return slackOk();
});

const getReactions = method('reactions.get', {
  args: z.object({ channel: arg.id(), timestamp: z.string().min(1), full: arg.bool().optional() }),
  accepted: ['reactions:read'],
  needs: () => ['reactions:read'],
}, ({ args, caller, c }) => {
  const message = reactedMessage(c, caller, args.channel, args.timestamp);
  return slackOk({ type: 'message', channel: message.channel, message: renderMessage(c.db, message, c.team) });
});

export const messageOperations: Operation<SlackCtx>[] = [postMessage, update, remove, addReaction, removeReaction, getReactions];
