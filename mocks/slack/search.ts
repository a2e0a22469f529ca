import { z } from 'zod';
import { slackError, slackOk } from '../kit/envelopes/slack.js';
import type { Operation } from '../kit/operation.js';
import { arg, method, type SlackCtx } from './method.js';
import type { ChannelDoc, MessageDoc, UserDoc } from './model.js';
import { compareTs } from './render.js';

/**
 * search.messages and search.all (messages, and an empty file result): Slack's query language
 * over the messages the caller can see (public channels, private ones it is in, archived ones
 * too), newest first. Terms are words that must all appear (case-insensitive; "quoted phrases"),
 * modifiers `in:#name`/`in:<#C…>`, `from:@name`/`from:<@U…>`, `with:`, `before:`/`after:`/`on:`
 * (YYYY-MM-DD), `during:` (YYYY-MM or YYYY), `is:thread`; `-word` excludes.
 */

interface Query {
  words: string[];
  excluded: string[];
  channels: string[];
  from: string[];
  with: string[];
  before?: number;
  after?: number;
  on?: [number, number];
  threadsOnly: boolean;
}

const DAY = 86_400;

function dayStart(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(ms) ? null : ms / 1000;
}

/** `during:2024-05` or `during:2024`: the month or the year, as [start, end). */
function period(text: string): [number, number] | null {
  const month = /^(\d{4})-(\d{2})$/.exec(text);
  if (month) return [Date.UTC(Number(month[1]), Number(month[2]) - 1, 1) / 1000, Date.UTC(Number(month[1]), Number(month[2]), 1) / 1000];
  const year = /^(\d{4})$/.exec(text);
  if (year) return [Date.UTC(Number(year[1]), 0, 1) / 1000, Date.UTC(Number(year[1]) + 1, 0, 1) / 1000];
  const day = dayStart(text);
  return day === null ? null : [day, day + DAY];
}

/** A reference as search writes it: `<#C…|name>`, `<@U…>`, `#name`, `@name`. */
const unwrap = (ref: string): string => ref.replace(/^<[#@]?([A-Z0-9]+)(\|[^>]*)?>$/, '$1').replace(/^[#@]/, '').toLowerCase();

export function parseQuery(text: string): Query {
  const query: Query = { words: [], excluded: [], channels: [], from: [], with: [], threadsOnly: false };
  for (const token of text.match(/-?"[^"]*"|\S+/g) ?? []) {
    const modifier = /^(in|from|with|before|after|on|during|is):(.+)$/i.exec(token);
    if (modifier) {
      const [, key, value] = modifier as unknown as [string, string, string];
      switch (key.toLowerCase()) {
        case 'in': query.channels.push(unwrap(value)); break;
        case 'from': query.from.push(unwrap(value)); break;
        case 'with': query.with.push(unwrap(value)); break;
        case 'before': query.before = dayStart(value) ?? query.before; break;
        case 'after': { const day = dayStart(value); if (day !== null) query.after = day + DAY; break; }
        case 'on': { const day = dayStart(value); if (day !== null) query.on = [day, day + DAY]; break; }
        case 'during': query.on = period(value) ?? query.on; break;
        case 'is': if (value.toLowerCase() === 'thread') query.threadsOnly = true; break;
      }
      continue;
    }
    const negated = token.startsWith('-') && token.length > 1;
    const word = (negated ? token.slice(1) : token).replace(/^"|"$/g, '').toLowerCase();
    if (word) (negated ? query.excluded : query.words).push(word);
  }
  return query;
}

function matches(c: SlackCtx, query: Query, message: MessageDoc, channel: ChannelDoc, author: UserDoc | undefined): boolean {
  const text = message.text.toLowerCase();
  if (!query.words.every((w) => text.includes(w)) || query.excluded.some((w) => text.includes(w))) return false;
  if (query.channels.length && !query.channels.some((ref) => ref === channel.id.toLowerCase() || ref === channel.name)) return false;
  const names = (user: UserDoc | undefined) => (user ? [user.id.toLowerCase(), user.name, user.display_name.toLowerCase()] : []);
  if (query.from.length && !query.from.some((ref) => names(author).includes(ref))) return false;
  if (query.with.length) {
    const thread = message.thread_ts ?? message.ts;
    const people = c.db.messages.filter((m) => m.channel === message.channel && (m.thread_ts ?? m.ts) === thread).map((m) => m.user);
    if (!query.with.some((ref) => people.some((id) => names(c.db.users.get(id)).includes(ref)))) return false;
  }
  const seconds = Number(message.ts.split('.')[0]);
  if (query.before !== undefined && seconds >= query.before) return false;
  if (query.after !== undefined && seconds < query.after) return false;
  if (query.on && (seconds < query.on[0] || seconds >= query.on[1])) return false;
  if (query.threadsOnly && message.thread_ts === null) return false;
  return true;
}

/** A message's permalink; a reply's carries its thread (`?thread_ts=…&cid=…`), which clients read. */
export function permalink(c: SlackCtx, message: MessageDoc): string {
  const base = `https://${c.team.domain}.slack.com/archives/${message.channel}/p${message.ts.replace('.', '')}`;
  return message.thread_ts !== null && message.thread_ts !== message.ts ? `${base}?thread_ts=${message.thread_ts}&cid=${message.channel}` : base;
}

function match(c: SlackCtx, message: MessageDoc, channel: ChannelDoc, viewer: string): Record<string, unknown> {
  const author = c.db.users.get(message.user);
  return {
    iid: c.ctx.ids.opaque('search-iid', `${message.channel}/${message.ts}`, 8),
    team: c.team.id,
    channel: {
      id: channel.id, is_channel: !channel.is_private, is_group: channel.is_private, is_im: false, is_mpim: false, is_shared: false,
      is_org_shared: false, is_ext_shared: false, is_private: channel.is_private, is_pending_ext_shared: false, pending_shared: [],
      name: channel.name, is_archived: channel.is_archived, is_member: channel.members.includes(viewer),
    },
    type: 'message',
    user: message.user,
    username: author?.name ?? '',
    ts: message.ts,
    text: message.text,
    permalink: permalink(c, message),
    no_reactions: message.reactions.length === 0,
    ...(message.thread_ts !== null ? { thread_ts: message.thread_ts } : {}),
  };
}

const SearchArgs = z.object({
  query: z.string().min(1),
  count: arg.int().default(20),
  page: arg.int().default(1),
  sort: z.string().default('score'),
  sort_dir: z.string().default('desc'),
  highlight: arg.bool().optional(),
  team_id: z.string().optional(),
});

function search(c: SlackCtx, caller: UserDoc, args: z.infer<typeof SearchArgs>): Record<string, unknown> {
  const query = parseQuery(args.query);
  const count = Math.min(Math.max(args.count, 1), 100);
  if (args.page < 1 || args.page > 100) throw slackError('invalid_arguments');
  const found = c.db.messages.values().flatMap((message) => {
    const channel = c.db.channels.get(message.channel);
    if (!channel || (channel.is_private && !channel.members.includes(caller.id))) return [];
    return matches(c, query, message, channel, c.db.users.get(message.user)) ? [{ message, channel }] : [];
  });
  // Newest first (what `score` comes to here: every match counts the same); `sort_dir=asc` reverses.
  found.sort((a, b) => compareTs(b.message.ts, a.message.ts) || (a.message.channel < b.message.channel ? -1 : 1));
  if (args.sort_dir === 'asc') found.reverse();
  const pages = Math.max(1, Math.ceil(found.length / count));
  const start = (args.page - 1) * count;
  const shown = found.slice(start, start + count);
  return {
    total: found.length,
    pagination: { total_count: found.length, page: args.page, per_page: count, page_count: pages, first: Math.min(start + 1, found.length), last: start + shown.length },
    paging: { count, total: found.length, page: args.page, pages },
    matches: shown.map(({ message, channel }) => match(c, message, channel, caller.id)),
  };
}

const empty = (count: number, page: number) => ({
  total: 0, pagination: { total_count: 0, page, per_page: count, page_count: 0, first: 1, last: 0 }, paging: { count, total: 0, page, pages: 0 }, matches: [],
});

const searchMessages = method('search.messages', { args: SearchArgs, accepted: ['search:read'], needs: () => ['search:read'] },
  ({ args, caller, c }) => slackOk({ query: args.query, messages: search(c, caller, args) }));

/** search.all: messages and files; there are no files to find in the model. */
const searchAll = method('search.all', { args: SearchArgs, accepted: ['search:read'], needs: () => ['search:read'] },
  ({ args, caller, c }) => slackOk({ query: args.query, messages: search(c, caller, args), files: empty(args.count, args.page), posts: { total: 0, matches: [] } }));

export const searchOperations: Operation<SlackCtx>[] = [searchMessages, searchAll];
