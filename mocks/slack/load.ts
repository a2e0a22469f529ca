import { ToolbenchError } from '../core/errors.js';
import type { LoadContext } from '../core/service.js';
import { slackStyleId } from '../kit/ids.js';
import type { SlackDataset } from './dataset.js';
import { messageKey, readKey, slackDb, slackTs, type MessageDoc, type SlackDb } from './model.js';

function datasetError(where: string, message: string): ToolbenchError {
  return new ToolbenchError('TB_ERR_DATASET', `slack dataset, ${where}: ${message}`);
}

const seconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

/** Slack's short file type from a name's extension (`notes.md` → `markdown`). */
function fileType(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return ({ md: 'markdown', txt: 'text', yml: 'yaml', '': 'binary' } as Record<string, string>)[ext] ?? ext;
}

/** Loads a workspace into the store: IDs seeded where the file leaves them out, references resolved. */
export function loadSlack(data: SlackDataset, ctx: LoadContext): void {
  const db = slackDb(ctx.store);
  const team = data.team;
  db.team.put(team.id, { id: team.id, name: team.name, domain: team.domain, email_domain: team.email_domain });

  const userByName = new Map<string, string>();
  data.users.forEach((user, i) => {
    const id = user.id ?? slackStyleId(ctx, 'U', 'user');
    if (db.users.has(id)) throw datasetError(`users[${i}].id`, `${id} is used twice`);
    if (userByName.has(user.name)) throw datasetError(`users[${i}].name`, `${user.name} is used twice`);
    userByName.set(user.name, id);
    db.users.put(id, {
      id, team_id: team.id, name: user.name, real_name: user.real_name, display_name: user.display_name, title: user.title,
      email: user.email ?? null, phone: user.phone, tz: user.tz, status_text: user.status_text, status_emoji: user.status_emoji,
      is_admin: user.is_admin, is_owner: user.is_owner, is_bot: user.bot !== undefined, deleted: user.deleted,
      bot_id: user.bot ? user.bot.id ?? slackStyleId(ctx, 'B', 'bot') : null,
      app_id: user.bot ? user.bot.app_id ?? slackStyleId(ctx, 'A', 'app') : null,
      fields: user.fields,
      updated: user.updated ? seconds(user.updated) : Math.floor(ctx.epochMs / 1000) - 86_400 * 30,
      avatar_hash: ctx.ids.opaque('avatar', id, 12),
    });
  });
  const userRef = (ref: string, where: string): string => {
    if (db.users.has(ref)) return ref;
    const byName = userByName.get(ref);
    if (byName === undefined) throw datasetError(where, `no user ${JSON.stringify(ref)} (give a user's id or name)`);
    return byName;
  };

  const channelByName = new Map<string, string>();
  data.channels.forEach((channel, i) => {
    const id = channel.id ?? slackStyleId(ctx, channel.is_private ? 'G' : 'C', 'channel');
    if (db.channels.has(id)) throw datasetError(`channels[${i}].id`, `${id} is used twice`);
    if (channelByName.has(channel.name)) throw datasetError(`channels[${i}].name`, `#${channel.name} is used twice`);
    channelByName.set(channel.name, id);
    const creator = userRef(channel.creator, `channels[${i}].creator`);
    const created = seconds(channel.created);
    const members = [...new Set(channel.members.map((m, j) => userRef(m, `channels[${i}].members[${j}]`)))];
    db.channels.put(id, {
      id, name: channel.name, is_private: channel.is_private, is_archived: channel.is_archived, is_general: channel.is_general,
      created, creator, members,
      topic: { value: channel.topic, creator: channel.topic ? creator : '', last_set: channel.topic ? created : 0 },
      purpose: { value: channel.purpose, creator: channel.purpose ? creator : '', last_set: channel.purpose ? created : 0 },
      previous_names: channel.previous_names,
    });
  });
  const channelRef = (ref: string, where: string): string => {
    const plain = ref.replace(/^#/, '');
    if (db.channels.has(plain)) return plain;
    const byName = channelByName.get(plain);
    if (byName === undefined) throw datasetError(where, `no channel ${JSON.stringify(ref)} (give a channel's id or name)`);
    return byName;
  };

  const tsOf: string[] = [];
  data.messages.forEach((message, i) => {
    const where = `messages[${i}]`;
    const channel = channelRef(message.channel, `${where}.channel`);
    const ts = message.ts ?? slackTs(Date.parse(message.at!), i + 1);
    tsOf.push(ts);
    if (db.messages.has(messageKey(channel, ts))) throw datasetError(`${where}.ts`, `${ts} is used twice in the channel`);
    const user = userRef(message.user, `${where}.user`);
    let thread: string | null = null;
    if (message.thread_ts !== undefined) {
      thread = message.thread_ts.startsWith('#') ? tsOf[Number(message.thread_ts.slice(1))] ?? null : message.thread_ts;
      if (thread === null) throw datasetError(`${where}.thread_ts`, `${message.thread_ts} is not an earlier message`);
      const parent = db.messages.get(messageKey(channel, thread));
      if (!parent) throw datasetError(`${where}.thread_ts`, `no earlier message ${thread} in the same channel`);
      if (parent.thread_ts !== null && parent.thread_ts !== parent.ts) throw datasetError(`${where}.thread_ts`, `${thread} is itself a reply`);
      if (parent.thread_ts === null) db.messages.put(messageKey(channel, thread), { ...parent, thread_ts: thread });
    }
    const author = db.users.get(user)!;
    const doc: MessageDoc = {
      channel, ts, user, text: message.text, thread_ts: thread, reply_broadcast: message.reply_broadcast,
      reactions: message.reactions.map((r, j) => ({ name: r.name, users: [...new Set(r.users.map((u, k) => userRef(u, `${where}.reactions[${j}].users[${k}]`)))] })),
      bot_id: author.bot_id, app_id: author.app_id, block_id: null,
      edited: message.edited ? { user, ts: slackTs(Date.parse(message.edited), 0) } : null,
    };
    if (message.files?.length) {
      doc.files = message.files.map((file, j) => {
        const id = file.id ?? slackStyleId(ctx, 'F', 'file');
        if (db.files.has(id)) throw datasetError(`${where}.files[${j}].id`, `${id} is used twice`);
        const data = file.encoding === 'base64' ? Buffer.from(file.content, 'base64') : Buffer.from(file.content, 'utf8');
        db.files.put(id, {
          id, name: file.name, title: file.title ?? file.name, mimetype: file.mimetype, filetype: file.filetype ?? fileType(file.name),
          user, channel, ts, created: Number(ts.split('.')[0]), size: data.length, content_base64: data.toString('base64'),
        });
        return id;
      });
    }
    db.messages.put(messageKey(channel, ts), doc);
  });

  data.reads.forEach((read, i) => {
    const user = userRef(read.user, `reads[${i}].user`);
    const channel = channelRef(read.channel, `reads[${i}].channel`);
    db.reads.put(readKey(user, channel), { user, channel, last_read: read.last_read });
  });

  data.tokens.forEach((token, i) => {
    if (db.tokens.has(token.token)) throw datasetError(`tokens[${i}].token`, 'is used twice');
    db.tokens.put(token.token, { token: token.token, user: userRef(token.user, `tokens[${i}].user`), scopes: token.scopes });
  });
}

export type { SlackDb };
