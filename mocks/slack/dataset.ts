import { z } from 'zod';

/**
 * `dataset/slack.json`: one workspace. IDs may be left out (then they are seeded, the same for
 * the same seed); references (`members`, a message's `user` and `channel`) take an ID or a name.
 * Timestamps are ISO 8601; a message's `ts` is either given (`1712345678.000100`) or made from
 * `at` and its place in the file.
 */
const Iso = z.string().datetime({ offset: true });
const SlackId = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[A-Z0-9]{8,}$`), `must be a Slack ID starting with ${prefix}, e.g. ${prefix}024BE91L`);
const Ts = z.string().regex(/^\d{10}\.\d{6}$/, 'must be a Slack timestamp such as 1712345678.000100');
const Name = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,79}$/, 'must be lower case letters, digits, dots, dashes and underscores');

export const TeamSchema = z.object({
  id: SlackId('T').default('T0TOOLBNCH'),
  name: z.string().min(1).default('Toolbench'),
  domain: z.string().regex(/^[a-z0-9-]+$/).default('toolbench'),
  email_domain: z.string().default(''),
}).strict();

export const UserSchema = z.object({
  id: SlackId('[UW]').optional(),
  name: Name,
  real_name: z.string().default(''),
  display_name: z.string().default(''),
  title: z.string().default(''),
  email: z.string().email().optional(),
  phone: z.string().default(''),
  tz: z.string().default('America/Los_Angeles'),
  status_text: z.string().default(''),
  status_emoji: z.string().default(''),
  is_admin: z.boolean().default(false),
  is_owner: z.boolean().default(false),
  deleted: z.boolean().default(false),
  /** A bot user (an app's): its bot ID and app ID. */
  bot: z.object({ id: SlackId('B').optional(), app_id: SlackId('A').optional(), name: z.string().optional() }).strict().optional(),
  /** Profile fields the workspace defines, by label (`Team`, `Pronouns`). */
  fields: z.record(z.string()).default({}),
  updated: Iso.optional(),
}).strict();

export const ChannelSchema = z.object({
  id: SlackId('[CG]').optional(),
  name: Name,
  is_private: z.boolean().default(false),
  is_archived: z.boolean().default(false),
  is_general: z.boolean().default(false),
  created: Iso,
  creator: z.string().min(1),
  /** User IDs or names. */
  members: z.array(z.string().min(1)).default([]),
  topic: z.string().default(''),
  purpose: z.string().default(''),
  previous_names: z.array(Name).default([]),
}).strict();

export const ReactionSchema = z.object({
  name: z.string().regex(/^[a-z0-9_+'-]+(::skin-tone-[2-6])?$/, 'must be an emoji name without colons'),
  users: z.array(z.string().min(1)).min(1),
}).strict();

/** A file shared with a message (files.info; its content is what a download answers). */
export const FileSchema = z.object({
  id: SlackId('F').optional(),
  name: z.string().min(1),
  title: z.string().optional(),
  mimetype: z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/, 'must be a MIME type such as text/plain').default('text/plain'),
  /** Slack's short file type (`text`, `csv`, `markdown`, `pdf`); default from the name's extension. */
  filetype: z.string().optional(),
  /** The file's content, as text (base64 when `encoding` is base64). */
  content: z.string(),
  encoding: z.enum(['utf8', 'base64']).default('utf8'),
}).strict();

export const MessageSchema = z.object({
  /** Channel ID or name. */
  channel: z.string().min(1),
  ts: Ts.optional(),
  at: Iso.optional(),
  /** User ID or name of the author. */
  user: z.string().min(1),
  text: z.string(),
  /** The parent's `ts` (a reply), or the parent's index in `messages` as `#N`. */
  thread_ts: z.string().regex(/^(\d{10}\.\d{6}|#\d+)$/, 'must be the parent message\'s ts or #index').optional(),
  reply_broadcast: z.boolean().default(false),
  reactions: z.array(ReactionSchema).default([]),
  edited: Iso.optional(),
  /** Files shared with the message. */
  files: z.array(FileSchema).optional(),
}).strict().refine((m) => (m.ts === undefined) !== (m.at === undefined), { message: 'give exactly one of ts and at' });

export const TokenSchema = z.object({
  token: z.string().regex(/^xox[bpa]-[A-Za-z0-9-]+$/, 'must look like a Slack token (xoxb-…)'),
  /** The bot or person the token acts as (ID or name). */
  user: z.string().min(1),
  scopes: z.array(z.string().regex(/^[a-z.:_-]+$/)).min(1),
}).strict();

/** Where a person has read a channel up to (conversations.mark; conversations.info's `last_read`). */
export const ReadSchema = z.object({
  /** User ID or name. */
  user: z.string().min(1),
  /** Channel ID or name. */
  channel: z.string().min(1),
  last_read: Ts,
}).strict();

export const SlackDatasetSchema = z.object({
  team: TeamSchema.default({}),
  users: z.array(UserSchema).default([]),
  channels: z.array(ChannelSchema).default([]),
  messages: z.array(MessageSchema).default([]),
  tokens: z.array(TokenSchema).default([]),
  reads: z.array(ReadSchema).default([]),
}).strict();
export type SlackDataset = z.infer<typeof SlackDatasetSchema>;
