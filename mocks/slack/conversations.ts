import { z } from 'zod';
import { slackError, slackOk, slackResponseMetadata } from '../kit/envelopes/slack.js';
import type { Operation } from '../kit/operation.js';
import { arg, method, slackPage as page, type SlackCtx } from './method.js';
import { lastReadOf, type ChannelDoc, type MessageDoc, type UserDoc } from './model.js';
import { compareTs, renderChannel, renderMessage, repliesOf } from './render.js';

/** conversations.*: list, info, history, replies, members, join; and users.conversations. */

const TYPES = ['public_channel', 'private_channel', 'mpim', 'im'] as const;
const READ_SCOPE: Record<(typeof TYPES)[number], string> = { public_channel: 'channels:read', private_channel: 'groups:read', mpim: 'mpim:read', im: 'im:read' };
const HISTORY_ACCEPTED = ['channels:history', 'groups:history', 'mpim:history', 'im:history'];
const READ_ACCEPTED = ['channels:read', 'groups:read', 'mpim:read', 'im:read'];

/**
 * A channel the caller can see: any public one, a private one only as a member (else it does not
 * exist). Only chat.postMessage also takes a name (`#general` or `general`); conversations.* take IDs.
 */
export function visibleChannel(c: SlackCtx, caller: UserDoc, ref: string, byName = false): ChannelDoc {
  const channel = c.db.channels.get(ref) ?? (byName ? c.db.channels.find((ch) => ch.name === ref.replace(/^#/, '')) : undefined);
  if (!channel || (channel.is_private && !channel.members.includes(caller.id))) throw slackError('channel_not_found');
  return channel;
}

/** The scope reading a channel needs: `channels:<what>` for a public one, `groups:<what>` for a private one. */
function channelScope(c: SlackCtx, channel: string, what: 'read' | 'history'): string {
  return `${c.db.channels.get(channel)?.is_private ? 'groups' : 'channels'}:${what}`;
}

const ListArgs = z.object({
  types: z.string().default('public_channel'),
  exclude_archived: arg.bool().default(false),
  limit: arg.int().optional(),
  cursor: z.string().optional(),
  team_id: z.string().optional(),
});

const list = method('conversations.list', {
  args: ListArgs,
  accepted: READ_ACCEPTED,
  needs: (args) => typesOf(args.types).map((type) => READ_SCOPE[type]),
}, ({ args, caller, c }) => {
  const types = typesOf(args.types);
  const channels = c.db.channels.filter((ch) =>
    (ch.is_private ? types.includes('private_channel') && ch.members.includes(caller.id) : types.includes('public_channel'))
    && !(args.exclude_archived && ch.is_archived));
  const { items, next } = page(channels, { cursor: args.cursor, limit: args.limit, defaultLimit: 100, maxLimit: 1000, kind: 'team', keyOf: (ch) => ch.id });
  return slackOk({ channels: items.map((ch) => renderChannel(ch, caller.id)), ...slackResponseMetadata(next) });
});

function typesOf(text: string): (typeof TYPES)[number][] {
  const types = text.split(',').map((t) => t.trim()).filter(Boolean);
  for (const type of types) if (!(TYPES as readonly string[]).includes(type)) throw slackError('invalid_types');
  return (types.length ? types : ['public_channel']) as (typeof TYPES)[number][];
}

const info = method('conversations.info', {
  args: z.object({ channel: arg.id(), include_num_members: arg.bool().default(false), include_locale: arg.bool().optional() }),
  accepted: READ_ACCEPTED,
  needs: (args, c) => [channelScope(c, args.channel, 'read')],
}, ({ args, caller, c }) => {
  const channel = visibleChannel(c, caller, args.channel);
  const lastRead = lastReadOf(c.db, caller.id, channel.id);
  // Object.assign on the fresh render, not `{ ...renderChannel(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  return slackOk({ channel: Object.assign(renderChannel(channel, caller.id, { numMembers: args.include_num_members }), lastRead ? { last_read: lastRead } : {}) });
});

const HistoryArgs = z.object({
  channel: arg.id(),
  limit: arg.int().optional(),
  cursor: z.string().optional(),
  latest: z.string().optional(),
  oldest: z.string().optional(),
  inclusive: arg.bool().default(false),
  include_all_metadata: arg.bool().optional(),
});

/** A channel whose messages the caller may read: visible, and (for a bot) one it is a member of. */
function readableChannel(c: SlackCtx, caller: UserDoc, ref: string): ChannelDoc {
  const channel = visibleChannel(c, caller, ref);
  if (!channel.members.includes(caller.id)) throw slackError('not_in_channel');
  return channel;
}

function tsBound(value: string | undefined, error: string): string | undefined {
  if (value === undefined || value === '' || value === '0') return undefined;
  if (!/^\d{1,10}(\.\d{1,6})?$/.test(value)) throw slackError(error);
  const [seconds, micros = ''] = value.split('.');
  return `${seconds!.padStart(10, '0')}.${micros.padEnd(6, '0')}`;
}

const history = method('conversations.history', {
  args: HistoryArgs,
  accepted: HISTORY_ACCEPTED,
  needs: (args, c) => [channelScope(c, args.channel, 'history')],
}, ({ args, caller, c }) => {
  const channel = readableChannel(c, caller, args.channel);
  const latest = tsBound(args.latest, 'invalid_ts_latest');
  const oldest = tsBound(args.oldest, 'invalid_ts_oldest');
  const inRange = (ts: string) => (latest === undefined || (args.inclusive ? ts <= latest : ts < latest))
    && (oldest === undefined || (args.inclusive ? ts >= oldest : ts > oldest));
  const messages = c.db.messages.filter((m) => m.channel === channel.id && isChannelLevel(m) && inRange(m.ts))
    .sort((a, b) => compareTs(b.ts, a.ts));
  const { items, next } = page(messages, { cursor: args.cursor, limit: args.limit, defaultLimit: 100, maxLimit: 999, kind: 'next_ts', keyOf: (m) => m.ts.replace('.', '') });
  return slackOk({
    messages: items.map((m) => renderMessage(c.db, m, c.team)),
    has_more: next !== null,
    pin_count: 0,
    channel_actions_ts: null,
    channel_actions_count: 0,
    ...(next !== null ? slackResponseMetadata(next) : {}),
  });
});

/** What a channel's history shows: messages outside threads, thread parents and broadcast replies. */
function isChannelLevel(message: MessageDoc): boolean {
  return message.thread_ts === null || message.thread_ts === message.ts || message.reply_broadcast;
}

const replies = method('conversations.replies', {
  args: HistoryArgs.extend({ ts: z.string().min(1) }),
  accepted: HISTORY_ACCEPTED,
  needs: (args, c) => [channelScope(c, args.channel, 'history')],
}, ({ args, caller, c }) => {
  const channel = readableChannel(c, caller, args.channel);
  const ts = tsBound(args.ts, 'thread_not_found');
  const found = ts === undefined ? undefined : c.db.messages.get(`${channel.id}/${ts}`);
  if (!found) throw slackError('thread_not_found');
  const parent = found.thread_ts !== null && found.thread_ts !== found.ts ? c.db.messages.get(`${channel.id}/${found.thread_ts}`) ?? found : found;
  const thread = [parent, ...(parent.thread_ts === parent.ts ? repliesOf(c.db, parent) : [])];
  const { items, next } = page(thread, { cursor: args.cursor, limit: args.limit, defaultLimit: 1000, maxLimit: 1000, kind: 'next_ts', keyOf: (m) => m.ts.replace('.', '') });
  return slackOk({
    messages: items.map((m) => renderMessage(c.db, m, c.team)),
    has_more: next !== null,
    ...(next !== null ? slackResponseMetadata(next) : {}),
  });
});

const members = method('conversations.members', {
  args: z.object({ channel: arg.id(), limit: arg.int().optional(), cursor: z.string().optional() }),
  accepted: READ_ACCEPTED,
  needs: (args, c) => [channelScope(c, args.channel, 'read')],
}, ({ args, caller, c }) => {
  const channel = visibleChannel(c, caller, args.channel);
  const { items, next } = page(channel.members, { cursor: args.cursor, limit: args.limit, defaultLimit: 100, maxLimit: 1000, kind: 'user', keyOf: (id) => id });
  return slackOk({ members: items, ...slackResponseMetadata(next) });
});

const join = method('conversations.join', {
  args: z.object({ channel: arg.id() }),
  accepted: ['channels:join', 'channels:write'],
  // A bot joins with channels:join; a person's token (xoxp) with channels:write.
  needs: (_args, c) => (c.grant?.scopes.includes('channels:write') ? ['channels:write'] : ['channels:join']),
}, ({ args, caller, c }) => {
  const channel = visibleChannel(c, caller, args.channel);
  if (channel.is_private) throw slackError('method_not_supported_for_channel_type');
  if (channel.is_archived) throw slackError('is_archived');
  if (channel.members.includes(caller.id)) {
    return slackOk({ channel: renderChannel(channel, caller.id), warning: 'already_in_channel', response_metadata: { warnings: ['already_in_channel'] } });
  }
  const joined = c.db.channels.put(channel.id, { ...channel, members: [...channel.members, caller.id] });
  return slackOk({ channel: renderChannel(joined, caller.id) });
});

/** users.conversations: the channels a user is in (private ones only where the caller is too). */
const userConversations = method('users.conversations', {
  args: ListArgs.extend({ user: z.string().optional() }),
  accepted: READ_ACCEPTED,
  needs: (args) => typesOf(args.types).map((type) => READ_SCOPE[type]),
}, ({ args, caller, c }) => {
  const types = typesOf(args.types);
  const user = args.user ? c.db.users.get(args.user) : caller;
  if (!user) throw slackError('user_not_found');
  const channels = c.db.channels.filter((ch) => ch.members.includes(user.id)
    && (ch.is_private ? types.includes('private_channel') && ch.members.includes(caller.id) : types.includes('public_channel'))
    && !(args.exclude_archived && ch.is_archived));
  const { items, next } = page(channels, { cursor: args.cursor, limit: args.limit, defaultLimit: 100, maxLimit: 1000, kind: 'team', keyOf: (ch) => ch.id });
  // Slack leaves out is_member and num_members here.
  const shown = items.map((ch) => {
    const { is_member: _member, num_members: _count, ...rest } = renderChannel(ch, caller.id);
    return rest;
  });
  return slackOk({ channels: shown, ...slackResponseMetadata(next) });
});

export const conversationOperations: Operation<SlackCtx>[] = [list, info, history, replies, members, join, userConversations];
