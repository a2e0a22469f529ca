import { createHash } from 'node:crypto';
import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import type { LoadContext } from '../core/service.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { callerOf, mayUse, type TwilioCtx } from './context.js';
import { API, dbOf, first, listPage, newestFirst, notFound, rfc2822, twilioError, twilioSid, uriOf, type TwilioDoc } from './model.js';

/** The subresources every account lists (`subresource_uris`), as the API names them. */
const SUBRESOURCES: [string, string][] = [
  ['addresses', 'Addresses'], ['conferences', 'Conferences'], ['signing_keys', 'SigningKeys'], ['transcriptions', 'Transcriptions'],
  ['connect_apps', 'ConnectApps'], ['sip', 'SIP'], ['authorized_connect_apps', 'AuthorizedConnectApps'], ['usage', 'Usage'],
  ['keys', 'Keys'], ['applications', 'Applications'], ['recordings', 'Recordings'], ['short_codes', 'SMS/ShortCodes'],
  ['calls', 'Calls'], ['notifications', 'Notifications'], ['incoming_phone_numbers', 'IncomingPhoneNumbers'], ['queues', 'Queues'],
  ['messages', 'Messages'], ['outgoing_caller_ids', 'OutgoingCallerIds'], ['available_phone_numbers', 'AvailablePhoneNumbers'], ['balance', 'Balance'],
];

export interface NewAccount {
  sid?: string | undefined;
  friendly_name: string;
  auth_token?: string | undefined;
  type: 'Trial' | 'Full';
  status: 'active' | 'suspended' | 'closed';
  owner: string | null;
  createdMs: number;
}

/** An account document as the API answers it. */
export function makeAccount(ctx: Pick<LoadContext, 'ids' | 'store'>, a: NewAccount): TwilioDoc {
  const sid = a.sid ?? twilioSid(ctx, 'AC');
  const token = a.auth_token ?? createHash('sha256').update(`${ctx.ids.seed}/twilio/auth_token/${sid}`).digest('hex').slice(0, 32);
  const at = rfc2822(a.createdMs);
  const doc: TwilioDoc = {
    auth_token: token,
    date_created: at,
    date_updated: at,
    friendly_name: a.friendly_name,
    owner_account_sid: a.owner ?? sid,
    sid,
    status: a.status,
    subresource_uris: Object.fromEntries(SUBRESOURCES.map(([key, path]) => [key, uriOf('Accounts', sid, path)])),
    type: a.type,
    uri: uriOf('Accounts', sid),
  };
  return dbOf(ctx.store).accounts.put(sid, doc);
}

const ListQuery = z.object({ FriendlyName: z.string().optional(), Status: z.enum(['active', 'suspended', 'closed']).optional() }).passthrough();
const CreateBody = z.object({ FriendlyName: z.string().optional() }).passthrough();
const UpdateBody = z.object({ FriendlyName: z.string().optional(), Status: z.enum(['active', 'suspended', 'closed']).optional() }).passthrough();

function account(c: TwilioCtx, sid: string): TwilioDoc {
  const found = c.db.accounts.get(sid);
  if (!found || !mayUse(c, sid)) throw notFound(uriOf('Accounts', sid));
  return found;
}

/** The Accounts resource: the caller's account and its subaccounts. */
export const accountOperations: Operation<TwilioCtx>[] = [
  operation<TwilioCtx, '/2010-04-01/Accounts', z.infer<typeof ListQuery>>('ListAccount', rest('GET', '/2010-04-01/Accounts'), (call, c) => {
    const caller = callerOf(c);
    const visible = c.db.accounts.filter((a) => a.sid === caller.sid || a.owner_account_sid === caller.sid)
      .filter((a) => call.query.FriendlyName === undefined || a.friendly_name === call.query.FriendlyName)
      .filter((a) => call.query.Status === undefined || a.status === call.query.Status);
    const filters = Object.fromEntries(['FriendlyName', 'Status'].flatMap((k) => (first(call.query as Record<string, string>, k) === undefined ? [] : [[k, first(call.query as Record<string, string>, k)!]])));
    return listPage(newestFirst(visible), 'accounts', `${API}/Accounts`, call.query as Record<string, string>, filters);
  }, { input: { query: ListQuery } }),

  operation<TwilioCtx, '/2010-04-01/Accounts', Record<string, string>, z.infer<typeof CreateBody>>('CreateAccount', rest('POST', '/2010-04-01/Accounts'), (call, c) => {
    const caller = callerOf(c);
    if (caller.owner_account_sid !== caller.sid) throw twilioError(403, 20005, 'Subaccounts cannot create subaccounts');
    const name = call.body.FriendlyName ?? `SubAccount Created at ${rfc2822(c.ctx.nowMs).slice(5, 16)} ${rfc2822(c.ctx.nowMs).slice(17, 22)}`;
    const created = makeAccount(c.ctx, { friendly_name: name, type: caller.type as 'Trial' | 'Full', status: 'active', owner: caller.sid, createdMs: c.ctx.nowMs });
    return jsonResponse(201, created);
  }, { input: { body: CreateBody } }),

  operation<TwilioCtx, '/2010-04-01/Accounts/:Sid'>('FetchAccount', rest('GET', '/2010-04-01/Accounts/:Sid'), (call, c) => jsonResponse(200, account(c, call.params.Sid!))),

  operation<TwilioCtx, '/2010-04-01/Accounts/:Sid', Record<string, string>, z.infer<typeof UpdateBody>>('UpdateAccount', rest('POST', '/2010-04-01/Accounts/:Sid'), (call, c) => {
    const found = account(c, call.params.Sid!);
    const { FriendlyName, Status } = call.body;
    if (Status !== undefined && found.status === 'closed' && Status !== 'closed') throw twilioError(400, 20001, 'Account is closed and cannot be reopened');
    if (Status !== undefined && found.sid === callerOf(c).sid && found.owner_account_sid === found.sid && Status !== found.status) {
      throw twilioError(403, 20005, 'A main account cannot change its own status through the API');
    }
    const updated = c.db.accounts.put(found.sid, {
      ...found,
      ...(FriendlyName !== undefined ? { friendly_name: FriendlyName } : {}),
      ...(Status !== undefined ? { status: Status } : {}),
      date_updated: rfc2822(c.ctx.nowMs),
    });
    return jsonResponse(200, updated);
  }, { input: { body: UpdateBody } }),
];
