import { z } from 'zod';
import { slackOk } from '../kit/envelopes/slack.js';
import type { Operation } from '../kit/operation.js';
import { method, type SlackCtx } from './method.js';
import type { ChannelDoc, UserDoc } from './model.js';
import { renderChannel, renderProfile, renderUser } from './render.js';

/**
 * The web client's own methods (`client.*`, undocumented), as slack-mcp-server's edge client
 * calls them on `https://<team>.slack.com/api/`: client.userBoot at startup (its server exits
 * unless it answers), users.prefs.get for conversations_unreads. The shapes follow that
 * client's Go structs (pkg/provider/edge in korotovsky/slack-mcp-server); there are no DMs in
 * the model, so `ims` is empty.
 */

/** A channel as client.userBoot lists it for its caller: the API's channel plus the web client's fields and its members. */
function bootChannel(channel: ChannelDoc, viewer: string): Record<string, unknown> {
  // Object.assign on the fresh render, not `{ ...renderChannel(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  return Object.assign(renderChannel(channel, viewer, { numMembers: false }), {
    is_frozen: false,
    context_team_id: '',
    updated: channel.created * 1000,
    parent_conversation: null,
    shared_team_ids: [],
    pending_connected_team_ids: [],
    members: [...channel.members],
  });
}

function self(user: UserDoc, c: SlackCtx): Record<string, unknown> {
  const rendered = renderUser(user, c.team, { email: true });
  return Object.assign(rendered, { profile: renderProfile(user, c.team, { email: true }), is_email_confirmed: true, first_login: user.updated, manual_presence: 'active' });
}

const userBoot = method('client.userBoot', { args: z.object({}).passthrough(), accepted: [] }, ({ caller, c }) => {
  const channels = c.db.channels.filter((ch) => ch.members.includes(caller.id) && !ch.is_archived);
  return slackOk({
    self: self(caller, c),
    team: {
      id: c.team.id, name: c.team.name, url: `https://${c.team.domain}.slack.com/`, domain: c.team.domain,
      email_domain: c.team.email_domain, plan: 'std', prefs: {}, messages_count: c.db.messages.size,
    },
    ims: [],
    workspaces: [],
    default_workspace: c.team.id,
    account_types: { is_admin: [], is_owner: [], is_primary_owner: [] },
    is_open: [],
    is_europe: false,
    dnd: { dnd_enabled: false, next_dnd_start_ts: 1, next_dnd_end_ts: 1, snooze_enabled: false },
    prefs: {},
    subteams: { self: [] },
    starred: [],
    channels_priority: {},
    read_only_channels: [],
    non_threadable_channels: [],
    thread_only_channels: [],
    channels: channels.map((ch) => bootChannel(ch, caller.id)),
    unchanged_channel_ids: [],
    cache_version: 'v21-toolbench',
    slack_route: c.team.id,
    can_access_client_v2: true,
    should_reload: false,
    links: { domains_ts: 0 },
  });
});

/**
 * users.prefs.get (undocumented): the caller's preferences; slack-mcp-server reads which channels
 * are muted from `all_notifications_prefs` (a JSON string). No one mutes anything in the model.
 */
const prefs = method('users.prefs.get', { args: z.object({}).passthrough(), accepted: [] }, () => slackOk({
  prefs: {
    muted_channels: '',
    all_notifications_prefs: JSON.stringify({ channels: {}, global: { global_desktop: 'mentions_dms', global_mobile: 'mentions_dms' } }),
  },
}));

export const clientOperations: Operation<SlackCtx>[] = [userBoot, prefs];
