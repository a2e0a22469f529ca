import { z } from 'zod';
import { slackError, slackOk, slackResponseMetadata } from '../kit/envelopes/slack.js';
import type { Operation } from '../kit/operation.js';
import { arg, method, slackPage, type SlackCtx } from './method.js';
import { renderProfile, renderUser } from './render.js';

/** auth.test, users.list, users.info, users.profile.get, users.lookupByEmail. */

const authTest = method('auth.test', { args: z.object({}).passthrough(), accepted: [] }, ({ caller, c }) => slackOk({
  url: `https://${c.team.domain}.slack.com/`,
  team: c.team.name,
  user: caller.name,
  team_id: c.team.id,
  user_id: caller.id,
  ...(caller.bot_id ? { bot_id: caller.bot_id } : {}),
  is_enterprise_install: false,
}));

const list = method('users.list', {
  args: z.object({ limit: arg.int().optional(), cursor: z.string().optional(), include_locale: arg.bool().optional(), team_id: z.string().optional() }),
  accepted: ['users:read'],
  needs: () => ['users:read'],
}, ({ args, grant, c }) => {
  const result = slackPage(c.db.users.values(), { cursor: args.cursor, limit: args.limit, defaultLimit: 1000, maxLimit: 1000, kind: 'user', keyOf: (u) => u.id });
  const email = grant.scopes.includes('users:read.email');
  return slackOk({
    members: result.items.map((u) => renderUser(u, c.team, { email })),
    cache_ts: Math.floor(c.ctx.nowMs / 1000),
    ...slackResponseMetadata(result.next),
  });
});

const info = method('users.info', {
  args: z.object({ user: arg.id(), include_locale: arg.bool().optional() }),
  accepted: ['users:read'],
  needs: () => ['users:read'],
}, ({ args, grant, c }) => {
  const user = c.db.users.get(args.user);
  if (!user) throw slackError('user_not_found');
  return slackOk({ user: renderUser(user, c.team, { email: grant.scopes.includes('users:read.email') }) });
});

const profile = method('users.profile.get', {
  args: z.object({ user: z.string().optional(), include_labels: arg.bool().default(false) }),
  accepted: ['users.profile:read'],
  needs: () => ['users.profile:read'],
}, ({ args, caller, grant, c }) => {
  const user = args.user === undefined || args.user === '' ? caller : c.db.users.get(args.user);
  if (!user) throw slackError('user_not_found');
  return slackOk({ profile: renderProfile(user, c.team, { email: grant.scopes.includes('users:read.email'), labels: args.include_labels }) });
});

const lookupByEmail = method('users.lookupByEmail', {
  args: z.object({ email: z.string().min(1) }),
  accepted: ['users:read.email'],
  needs: () => ['users:read.email'],
}, ({ args, c }) => {
  const wanted = args.email.toLowerCase();
  const user = c.db.users.find((u) => u.email !== null && u.email.toLowerCase() === wanted);
  if (!user) throw slackError('users_not_found');
  return slackOk({ user: renderUser(user, c.team, { email: true }) });
});

export const userOperations: Operation<SlackCtx>[] = [authTest, list, info, profile, lookupByEmail];
