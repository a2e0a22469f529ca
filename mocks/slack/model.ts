import type { Collection, DocumentStore } from '../core/store.js';

/** What the Slack mock stores, one collection each (graders see these documents). */
export interface TeamDoc {
  id: string;
  name: string;
  domain: string;
  email_domain: string;
}

export interface UserDoc {
  id: string;
  team_id: string;
  name: string;
  real_name: string;
  display_name: string;
  title: string;
  email: string | null;
  phone: string;
  tz: string;
  status_text: string;
  status_emoji: string;
  is_admin: boolean;
  is_owner: boolean;
  is_bot: boolean;
  deleted: boolean;
  bot_id: string | null;
  app_id: string | null;
  fields: Record<string, string>;
  /** Seconds. */
  updated: number;
  /** Seeded hex that stands in for the avatar's hash. */
  avatar_hash: string;
}

export interface TopicDoc {
  value: string;
  creator: string;
  last_set: number;
}

export interface ChannelDoc {
  id: string;
  name: string;
  is_private: boolean;
  is_archived: boolean;
  is_general: boolean;
  /** Seconds. */
  created: number;
  creator: string;
  members: string[];
  topic: TopicDoc;
  purpose: TopicDoc;
  previous_names: string[];
}

export interface ReactionDoc {
  name: string;
  users: string[];
}

/** A message, keyed `<channel>/<ts>`. A reply has `thread_ts` (its parent's `ts`). */
export interface MessageDoc {
  channel: string;
  ts: string;
  user: string;
  text: string;
  thread_ts: string | null;
  reply_broadcast: boolean;
  reactions: ReactionDoc[];
  /** Set for messages an app posted: its bot ID and app ID. */
  bot_id: string | null;
  app_id: string | null;
  /** `rich_text` block ID (seeded), for messages posted through the API. */
  block_id: string | null;
  edited: { user: string; ts: string } | null;
  /** Block Kit blocks the message was posted with (only then). */
  blocks?: Record<string, unknown>[];
  /** IDs of the files shared with it (only when there are some). */
  files?: string[];
}

/** A file shared in a channel, keyed by its `F…` ID. */
export interface FileDoc {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  user: string;
  channel: string;
  /** The message that shared it. */
  ts: string;
  /** Seconds. */
  created: number;
  size: number;
  /** The bytes, base64. */
  content_base64: string;
}

/** A pinned message, keyed `<channel>/<ts>` like the message. */
export interface PinDoc {
  channel: string;
  ts: string;
  created_by: string;
  /** Seconds. */
  created: number;
}

/** A reminder (reminders.add), keyed by its `Rm…` ID. */
export interface ReminderDoc {
  id: string;
  creator: string;
  user: string;
  text: string;
  /** When it fires, seconds. */
  time: number;
  recurring: false;
  /** Seconds; 0 until reminders.complete. */
  complete_ts: number;
}

/** How far a person has read a channel, keyed `<user>/<channel>`. */
export interface ReadDoc {
  user: string;
  channel: string;
  last_read: string;
}

export interface TokenDoc {
  token: string;
  user: string;
  scopes: string[];
}

export interface SlackDb {
  team: Collection<TeamDoc>;
  users: Collection<UserDoc>;
  channels: Collection<ChannelDoc>;
  messages: Collection<MessageDoc>;
  tokens: Collection<TokenDoc>;
  pins: Collection<PinDoc>;
  reminders: Collection<ReminderDoc>;
  reads: Collection<ReadDoc>;
  files: Collection<FileDoc>;
}

export function slackDb(store: DocumentStore): SlackDb {
  return {
    team: store.collection<TeamDoc>('team'),
    users: store.collection<UserDoc>('users'),
    channels: store.collection<ChannelDoc>('channels'),
    messages: store.collection<MessageDoc>('messages'),
    tokens: store.collection<TokenDoc>('tokens'),
    pins: store.collection<PinDoc>('pins'),
    reminders: store.collection<ReminderDoc>('reminders'),
    reads: store.collection<ReadDoc>('reads'),
    files: store.collection<FileDoc>('files'),
  };
}

export const messageKey = (channel: string, ts: string): string => `${channel}/${ts}`;

export const readKey = (user: string, channel: string): string => `${user}/${channel}`;

/** A person's read marker in a channel (conversations.mark), if there is one. */
export function lastReadOf(db: SlackDb, user: string, channel: string): string | undefined {
  return db.reads.get(readKey(user, channel))?.last_read;
}

/** The workspace (there is exactly one). */
export function teamOf(db: SlackDb): TeamDoc {
  return db.team.values()[0]!;
}

/** A message timestamp: seconds, a dot, six digits that keep it unique. */
export function slackTs(ms: number, n: number): string {
  return `${Math.floor(ms / 1000)}.${String(n % 1_000_000).padStart(6, '0')}`;
}
