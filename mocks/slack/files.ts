import { z } from 'zod';
import type { ServiceResponse } from '../core/http.js';
import { slackError, slackOk } from '../kit/envelopes/slack.js';
import { ServiceError } from '../kit/errors.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { authenticate } from './auth.js';
import { method, type SlackCtx } from './method.js';
import type { FileDoc, SlackDb, TeamDoc, UserDoc } from './model.js';

/**
 * Files shared with messages (the dataset's `messages[].files`): files.info, and the download at
 * `https://files.slack.com/files-pri/<team>-<file>/download/<name>` (a host of the
 * `{team}.slack.com` pattern) that slack-mcp-server's attachment_get_data fetches with the token.
 * A file is visible where its channel is.
 */

const PRETTY: Record<string, string> = { text: 'Plain Text', markdown: 'Markdown (raw)', csv: 'CSV', json: 'JSON', yaml: 'YAML', pdf: 'PDF', png: 'PNG', log: 'Plain Text' };

/** objs_file, as files.info and a message's `files` show it. */
export function renderFile(db: SlackDb, file: FileDoc, team: TeamDoc): Record<string, unknown> {
  const channel = db.channels.get(file.channel);
  const base = `https://files.slack.com/files-pri/${team.id}-${file.id}`;
  return {
    id: file.id,
    created: file.created,
    timestamp: file.created,
    name: file.name,
    title: file.title,
    mimetype: file.mimetype,
    filetype: file.filetype,
    pretty_type: PRETTY[file.filetype] ?? file.filetype.toUpperCase(),
    user: file.user,
    user_team: team.id,
    editable: false,
    size: file.size,
    mode: 'hosted',
    is_external: false,
    external_type: '',
    is_public: channel ? !channel.is_private : false,
    public_url_shared: false,
    display_as_bot: false,
    username: '',
    url_private: `${base}/${encodeURIComponent(file.name)}`,
    url_private_download: `${base}/download/${encodeURIComponent(file.name)}`,
    permalink: `https://${team.domain}.slack.com/files/${file.user}/${file.id}/${encodeURIComponent(file.name)}`,
    comments_count: 0,
    channels: channel && !channel.is_private ? [channel.id] : [],
    groups: channel?.is_private ? [channel.id] : [],
    ims: [],
  };
}

/** A file the caller may see: its channel is public, or the caller is in it. */
function visibleFile(c: SlackCtx, caller: UserDoc, id: string): FileDoc {
  const file = c.db.files.get(id);
  const channel = file ? c.db.channels.get(file.channel) : undefined;
  if (!file || !channel || (channel.is_private && !channel.members.includes(caller.id))) throw slackError('file_not_found');
  return file;
}

const info = method('files.info', {
  args: z.object({ file: z.string().min(1), count: z.unknown().optional(), page: z.unknown().optional(), cursor: z.string().optional(), limit: z.unknown().optional() }),
  accepted: ['files:read'],
  needs: () => ['files:read'],
}, ({ args, caller, c }) => {
  const file = visibleFile(c, caller, args.file);
  return slackOk({ file: renderFile(c.db, file, c.team), comments: [], paging: { count: 100, total: 0, page: 1, pages: 0 } });
});

/**
 * The download: the file's bytes with its MIME type (Slack answers GET; the service reads every
 * method as POST). Without a valid token Slack answers its sign-in page; here a 403 in Slack's
 * envelope; an unknown or hidden file a 404.
 */
const download = operation<SlackCtx, '/files-pri/:key/download/:name'>('files.download', rest('POST', '/files-pri/:key/download/:name'), (call, c): ServiceResponse => {
  let caller: UserDoc;
  try {
    caller = authenticate(c).caller;
  } catch (error) {
    if (error instanceof ServiceError) throw slackError(error.code, {}, 403);
    throw error;
  }
  const [teamId, fileId] = call.params.key.split('-');
  const file = teamId === c.team.id && fileId ? c.db.files.get(fileId) : undefined;
  const channel = file ? c.db.channels.get(file.channel) : undefined;
  if (!file || !channel || (channel.is_private && !channel.members.includes(caller.id))) throw slackError('file_not_found', {}, 404);
  return { status: 200, headers: [['Content-Type', file.mimetype], ['Content-Disposition', `attachment; filename="${file.name}"`]], body: new Uint8Array(Buffer.from(file.content_base64, 'base64')) };
});

export const fileOperations: Operation<SlackCtx>[] = [info, download];
