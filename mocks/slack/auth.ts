import { slackError } from '../kit/envelopes/slack.js';
import type { SlackCtx } from './method.js';
import type { TokenDoc, UserDoc } from './model.js';

/** The request's token and its user: `not_authed` without one, `invalid_auth` for one no one has, `account_inactive` for a deactivated user's. */
export function authenticate(c: SlackCtx): { grant: TokenDoc; caller: UserDoc } {
  if (c.token === null) throw slackError('not_authed');
  const grant = c.grant;
  const caller = grant ? c.db.users.get(grant.user) : undefined;
  if (!grant || !caller) throw slackError('invalid_auth');
  if (caller.deleted) throw slackError('account_inactive');
  return { grant, caller };
}
