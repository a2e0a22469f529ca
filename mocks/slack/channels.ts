import { z } from 'zod';
import { slackError, slackOk } from '../kit/envelopes/slack.js';
import { slackStyleId } from '../kit/ids.js';
import type { Operation } from '../kit/operation.js';
import { visibleChannel } from './conversations.js';
import { arg, method, type SlackCtx } from './method.js';
import type { ChannelDoc, UserDoc } from './model.js';
import { renderChannel } from './render.js';

/**
 * Channel management: conversations.create, rename, setTopic, setPurpose, archive, unarchive,
 * invite, kick, leave. Each changes the channel document conversations.info and .list read.
 */

const WRITE_ACCEPTED = ['channels:manage', 'channels:write', 'groups:write', 'im:write', 'mpim:write'];

/** A public channel takes `channels:manage` (granular bot scope) or `channels:write`; a private one `groups:write`. */
function writeScope(c: SlackCtx, isPrivate: boolean): string[] {
  if (isPrivate) return ['groups:write'];
  return [c.grant?.scopes.includes('channels:manage') ? 'channels:manage' : 'channels:write'];
}
const needsFor = (args: { channel: string }, c: SlackCtx) => writeScope(c, c.db.channels.get(args.channel)?.is_private ?? false);

/** Slack's channel names: lowercase letters, digits, hyphens and underscores, at most 80. */
function checkName(c: SlackCtx, name: string): void {
  if (name === '') throw slackError('invalid_name_required');
  if (name.length > 80) throw slackError('invalid_name_maxlength');
  if (!/^[a-z0-9_-]+$/.test(name)) throw slackError(/^[a-z0-9_\-\p{P}]+$/u.test(name) ? 'invalid_name_punctuation' : 'invalid_name_specials');
  if (c.db.channels.find((ch) => ch.name === name)) throw slackError('name_taken');
}

/** A channel the caller is in (not_in_channel otherwise). */
function memberChannel(c: SlackCtx, caller: UserDoc, ref: string): ChannelDoc {
  const channel = visibleChannel(c, caller, ref);
  if (!channel.members.includes(caller.id)) throw slackError('not_in_channel');
  return channel;
}

const seconds = (c: SlackCtx) => Math.floor(c.ctx.nowMs / 1000);

const create = method('conversations.create', {
  args: z.object({ name: z.string().default(''), is_private: arg.bool().default(false), team_id: z.string().optional() }),
  accepted: WRITE_ACCEPTED,
  needs: (args, c) => writeScope(c, args.is_private),
}, ({ args, caller, c }) => {
  checkName(c, args.name);
  const id = slackStyleId(c.ctx, 'C', 'channel');
  const blank = { value: '', creator: '', last_set: 0 };
  const channel = c.db.channels.put(id, {
    id, name: args.name, is_private: args.is_private, is_archived: false, is_general: false, created: seconds(c),
    creator: caller.id, members: [caller.id], topic: blank, purpose: { ...blank }, previous_names: [],
  });
  return slackOk({ channel: renderChannel(channel, caller.id) });
});

const rename = method('conversations.rename', {
  args: z.object({ channel: arg.id(), name: z.string().default('') }),
  accepted: WRITE_ACCEPTED,
  needs: (args, c) => needsFor(args, c),
}, ({ args, caller, c }) => {
  const channel = memberChannel(c, caller, args.channel);
  if (args.name === channel.name) return slackOk({ channel: renderChannel(channel, caller.id) });
  checkName(c, args.name);
  const renamed = c.db.channels.put(channel.id, { ...channel, name: args.name, previous_names: [channel.name, ...channel.previous_names] });
  return slackOk({ channel: renderChannel(renamed, caller.id) });
});

/** setTopic and setPurpose: at most 250 characters, in a channel the caller is in and that is not archived. */
function setter(name: string, field: 'topic' | 'purpose') {
  return method(name, {
    args: z.object({ channel: arg.id(), [field]: arg.string().default('') }) as z.ZodType<{ channel: string } & Record<string, string>, z.ZodTypeDef, unknown>,
    accepted: WRITE_ACCEPTED,
    needs: (args, c) => needsFor(args, c),
  }, ({ args, caller, c }) => {
    const channel = memberChannel(c, caller, args.channel);
    if (channel.is_archived) throw slackError('is_archived');
    const value = args[field]!;
    if (value.length > 250) throw slackError('too_long');
    const changed = c.db.channels.put(channel.id, { ...channel, [field]: { value, creator: caller.id, last_set: seconds(c) } });
    return slackOk({ channel: renderChannel(changed, caller.id) });
  });
}

const ChannelArgs = z.object({ channel: arg.id() });

const archive = method('conversations.archive', { args: ChannelArgs, accepted: WRITE_ACCEPTED, needs: (args, c) => needsFor(args, c) }, ({ args, caller, c }) => {
  const channel = visibleChannel(c, caller, args.channel);
  if (channel.is_archived) throw slackError('already_archived');
  if (channel.is_general) throw slackError('cant_archive_general');
  if (!channel.members.includes(caller.id)) throw slackError('not_in_channel');
  c.db.channels.put(channel.id, { ...channel, is_archived: true });
  return slackOk();
});

const unarchive = method('conversations.unarchive', { args: ChannelArgs, accepted: WRITE_ACCEPTED, needs: (args, c) => needsFor(args, c) }, ({ args, caller, c }) => {
  const channel = visibleChannel(c, caller, args.channel);
  if (!channel.is_archived) throw slackError('not_archived');
  c.db.channels.put(channel.id, { ...channel, is_archived: false });
  return slackOk();
});

/** invite: `users` is a comma-separated list of user IDs; every one must exist and not be the caller. */
const invite = method('conversations.invite', {
  args: z.object({ channel: arg.id(), users: z.string().default('') }),
  accepted: WRITE_ACCEPTED,
  needs: (args, c) => needsFor(args, c),
}, ({ args, caller, c }) => {
  const channel = memberChannel(c, caller, args.channel);
  if (channel.is_archived) throw slackError('is_archived');
  const ids = args.users.split(',').map((id) => id.trim()).filter(Boolean);
  if (ids.length === 0) throw slackError('no_user');
  for (const id of ids) {
    const user = c.db.users.get(id);
    if (!user || user.deleted) throw slackError('user_not_found');
    if (id === caller.id) throw slackError('cant_invite_self');
  }
  const added = ids.filter((id, i) => !channel.members.includes(id) && ids.indexOf(id) === i);
  if (added.length === 0) throw slackError('already_in_channel');
  const changed = c.db.channels.put(channel.id, { ...channel, members: [...channel.members, ...added] });
  return slackOk({ channel: renderChannel(changed, caller.id) });
});

const kick = method('conversations.kick', {
  args: z.object({ channel: arg.id(), user: z.string().default('') }),
  accepted: WRITE_ACCEPTED,
  needs: (args, c) => needsFor(args, c),
}, ({ args, caller, c }) => {
  const channel = memberChannel(c, caller, args.channel);
  if (!c.db.users.get(args.user)) throw slackError('user_not_found');
  if (args.user === caller.id) throw slackError('cant_kick_self');
  if (channel.is_general) throw slackError('cant_kick_from_general');
  if (!channel.members.includes(args.user)) throw slackError('not_in_channel');
  c.db.channels.put(channel.id, { ...channel, members: channel.members.filter((id) => id !== args.user) });
  return slackOk();
});

/** leave: a channel the caller is not in answers `not_in_channel: true`, as Slack does. */
const leave = method('conversations.leave', { args: ChannelArgs, accepted: WRITE_ACCEPTED, needs: (args, c) => needsFor(args, c) }, ({ args, caller, c }) => {
  const channel = visibleChannel(c, caller, args.channel);
  if (channel.is_general) throw slackError('cant_leave_general');
  if (channel.is_archived) throw slackError('is_archived');
  if (!channel.members.includes(caller.id)) return slackOk({ not_in_channel: true });
  if (channel.is_private && channel.members.length === 1) throw slackError('last_member');
  c.db.channels.put(channel.id, { ...channel, members: channel.members.filter((id) => id !== caller.id) });
  return slackOk();
});

export const channelOperations: Operation<SlackCtx>[] = [
  create, rename, setter('conversations.setTopic', 'topic'), setter('conversations.setPurpose', 'purpose'), archive, unarchive, invite, kick, leave,
];
