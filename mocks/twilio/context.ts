import type { ServiceRequest } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { authenticate, basic } from '../kit/auth.js';
import { dbOf, type Db, type TwilioDoc } from './model.js';

/** What a Twilio handler gets: the store's collections, the caller, seeded IDs and the logical time. */
export interface TwilioCtx {
  readonly ctx: ServiceContext;
  readonly db: Db;
  /** `ok`: the account the credential belongs to; `bad`: a credential Twilio does not know; `anonymous`: none. */
  readonly auth: { kind: 'ok'; account: TwilioDoc; via: 'auth_token' | 'api_key' } | { kind: 'bad' | 'anonymous' };
}

/**
 * HTTP basic auth, as Twilio takes it: `AccountSid:AuthToken`, or `ApiKeySid:ApiKeySecret`
 * (the MCP server's positional `AC…/SK…:secret`). Both are checked against the dataset's table.
 */
export function twilioContext(req: ServiceRequest, ctx: ServiceContext): TwilioCtx {
  const db = dbOf(ctx.store);
  const found = authenticate(req, [basic('password')], (secret, presented) => {
    const user = presented.user ?? '';
    if (user.startsWith('AC')) {
      const account = db.accounts.get(user);
      return account && account.auth_token === secret ? { account, via: 'auth_token' as const } : undefined;
    }
    const key = user.startsWith('SK') ? db.keys.get(user) : undefined;
    const account = key && key.secret === secret ? db.accounts.get(key.account_sid) : undefined;
    return account ? { account, via: 'api_key' as const } : undefined;
  });
  return { ctx, db, auth: found.kind === 'ok' ? { kind: 'ok', ...found.principal } : { kind: found.kind } };
}

/** The caller's account; only called behind the auth middleware. */
export function callerOf(c: TwilioCtx): TwilioDoc {
  if (c.auth.kind !== 'ok') throw new Error('twilio: a handler ran without an authenticated caller');
  return c.auth.account;
}

/** Whether the caller may act on `accountSid`: its own account, or one of its subaccounts. */
export function mayUse(c: TwilioCtx, accountSid: string): boolean {
  if (c.auth.kind !== 'ok') return false;
  if (accountSid === c.auth.account.sid) return true;
  return c.db.accounts.get(accountSid)?.owner_account_sid === c.auth.account.sid;
}
