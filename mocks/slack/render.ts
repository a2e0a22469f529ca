import { renderFile } from './files.js';
import type { ChannelDoc, MessageDoc, SlackDb, TeamDoc, UserDoc } from './model.js';

/** Documents as the Web API shows them (objs_conversation, objs_message, objs_user, profiles). */

/** Standard-time offsets of the zones datasets use: Slack's `tz_label` and `tz_offset` (seconds). */
const ZONES: Record<string, [label: string, offset: number]> = {
  'America/Los_Angeles': ['Pacific Standard Time', -28800],
  'America/Denver': ['Mountain Standard Time', -25200],
  'America/Chicago': ['Central Standard Time', -21600],
  'America/New_York': ['Eastern Standard Time', -18000],
  'America/Sao_Paulo': ['Brasilia Standard Time', -10800],
  'Europe/London': ['Greenwich Mean Time', 0],
  'Europe/Berlin': ['Central European Time', 3600],
  'Europe/Paris': ['Central European Time', 3600],
  'Europe/Madrid': ['Central European Time', 3600],
  'Europe/Warsaw': ['Central European Time', 3600],
  'Europe/Kyiv': ['Eastern European Time', 7200],
  'Asia/Kolkata': ['India Standard Time', 19800],
  'Asia/Singapore': ['Singapore Standard Time', 28800],
  'Asia/Tokyo': ['Japan Standard Time', 32400],
  'Australia/Sydney': ['Australian Eastern Standard Time', 36000],
};

const AVATAR = 'https://avatars.slack-edge.com';

function images(user: UserDoc): Record<string, string> {
  const out: Record<string, string> = {};
  for (const size of [24, 32, 48, 72, 192, 512]) out[`image_${size}`] = `${AVATAR}/${user.avatar_hash}_${size}.png`;
  return out;
}

const normalized = (text: string): string => text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');

/** The profile of users.profile.get (and inside a user object). */
export function renderProfile(user: UserDoc, team: TeamDoc, options: { email: boolean; labels?: boolean }): Record<string, unknown> {
  const [first, ...rest] = user.real_name.split(' ');
  const fields = Object.fromEntries(Object.entries(user.fields).map(([label, value], i) => [
    `Xf${String(i + 1).padStart(2, '0')}TBFIELD`, { value, alt: '', ...(options.labels ? { label } : {}) },
  ]));
  return {
    title: user.title,
    phone: user.phone,
    skype: '',
    real_name: user.real_name,
    real_name_normalized: normalized(user.real_name),
    display_name: user.display_name,
    display_name_normalized: normalized(user.display_name),
    fields,
    status_text: user.status_text,
    status_emoji: user.status_emoji,
    status_expiration: 0,
    avatar_hash: user.avatar_hash,
    ...(user.is_bot ? { api_app_id: user.app_id, always_active: true, bot_id: user.bot_id } : {}),
    ...(options.email && user.email ? { email: user.email } : {}),
    first_name: first ?? '',
    last_name: rest.join(' '),
    ...images(user),
    status_text_canonical: '',
    team: team.id,
  };
}

/** A user of users.list / users.info. */
export function renderUser(user: UserDoc, team: TeamDoc, options: { email: boolean }): Record<string, unknown> {
  const [label, offset] = ZONES[user.tz] ?? ['Coordinated Universal Time', 0];
  return {
    id: user.id,
    team_id: team.id,
    name: user.name,
    deleted: user.deleted,
    color: colorOf(user.avatar_hash),
    real_name: user.real_name,
    tz: user.tz,
    tz_label: label,
    tz_offset: offset,
    profile: renderProfile(user, team, { email: options.email }),
    is_admin: user.is_admin,
    is_owner: user.is_owner,
    is_primary_owner: user.is_owner,
    is_restricted: false,
    is_ultra_restricted: false,
    is_bot: user.is_bot,
    is_app_user: false,
    updated: user.updated,
  };
}

function colorOf(hash: string): string {
  return hash.slice(0, 6);
}

/** A conversation of conversations.list / conversations.info, as `viewer` (a user ID) sees it. */
export function renderChannel(channel: ChannelDoc, viewer: string, options: { numMembers?: boolean } = {}): Record<string, unknown> {
  return {
    id: channel.id,
    name: channel.name,
    is_channel: !channel.is_private,
    is_group: channel.is_private,
    is_im: false,
    is_mpim: false,
    is_private: channel.is_private,
    created: channel.created,
    is_archived: channel.is_archived,
    is_general: channel.is_general,
    unlinked: 0,
    name_normalized: channel.name,
    is_shared: false,
    is_org_shared: false,
    is_ext_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    creator: channel.creator,
    is_member: channel.members.includes(viewer),
    topic: { ...channel.topic },
    purpose: { ...channel.purpose },
    previous_names: [...channel.previous_names],
    ...(options.numMembers === false ? {} : { num_members: channel.members.length }),
  };
}

/** Replies of a thread parent, oldest first. */
export function repliesOf(db: SlackDb, parent: MessageDoc): MessageDoc[] {
  return db.messages.filter((m) => m.channel === parent.channel && m.thread_ts === parent.ts && m.ts !== parent.ts)
    .sort((a, b) => compareTs(a.ts, b.ts));
}

export function compareTs(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A message as conversations.history, conversations.replies and chat.postMessage show it: the
 * fields Slack's published schema (objs_message) allows, which it validates strictly.
 */
export function renderMessage(db: SlackDb, message: MessageDoc, team: TeamDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {
    type: 'message',
    ...(message.reply_broadcast && message.thread_ts !== null && message.thread_ts !== message.ts ? { subtype: 'thread_broadcast' } : {}),
    text: message.text,
    user: message.user,
    ts: message.ts,
  };
  if (message.bot_id) {
    const bot = db.users.get(message.user);
    out.bot_id = message.bot_id;
    if (bot) {
      out.bot_profile = {
        id: message.bot_id, deleted: false, name: bot.real_name || bot.name, updated: bot.updated, app_id: message.app_id,
        icons: { image_36: `${AVATAR}/${bot.avatar_hash}_36.png`, image_48: `${AVATAR}/${bot.avatar_hash}_48.png`, image_72: `${AVATAR}/${bot.avatar_hash}_72.png` },
        team_id: team.id,
      };
    }
  }
  out.team = team.id;
  if (message.blocks) {
    // The blocks as posted, each with a block ID (Slack assigns the missing ones).
    out.blocks = message.blocks.map((block, i) => ({ ...block, block_id: block.block_id ?? (i === 0 ? message.block_id : `${message.block_id}${i}`) }));
  } else if (message.block_id !== null) {
    out.blocks = [{ type: 'rich_text', block_id: message.block_id, elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: message.text }] }] }];
  }
  if (message.thread_ts !== null) {
    out.thread_ts = message.thread_ts;
    if (message.thread_ts === message.ts) {
      const replies = repliesOf(db, message);
      const users = [...new Set(replies.map((r) => r.user))];
      out.reply_count = replies.length;
      out.reply_users_count = users.length;
      out.latest_reply = replies.at(-1)?.ts ?? message.ts;
      if (users.length) out.reply_users = users;
      out.subscribed = false;
    } else {
      const parent = db.messages.get(`${message.channel}/${message.thread_ts}`);
      if (parent) out.parent_user_id = parent.user;
    }
  }
  if (message.reactions.length) {
    out.reactions = message.reactions.map((r) => ({ name: r.name, users: [...r.users], count: r.users.length }));
  }
  const files = (message.files ?? []).flatMap((id) => db.files.get(id) ?? []);
  if (files.length) out.files = files.map((file) => renderFile(db, file, team));
  return out;
}
