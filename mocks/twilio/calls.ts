import { z } from 'zod';
import { emptyResponse, jsonResponse } from '../core/http.js';
import type { LoadContext } from '../core/service.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { TwilioCtx } from './context.js';
import { API, dbOf, filterTime, first, formatNumber, isE164, itemOf, listPage, newestFirst, parseTime, rfc2822, twilioError, twilioSid, uriOf, type TwilioDoc } from './model.js';

/**
 * Calls (`/2010-04-01/Accounts/{AccountSid}/Calls.json`): place one (To, From, and Url, Twiml or
 * ApplicationSid), fetch, list newest first with To/From/Status/StartTime filters, cancel a queued
 * one, hang up one in progress, delete a finished one. A placed call is `queued`, `in-progress`
 * a logical second later and `completed` after a minute (see `settleCalls`).
 */
const PER_MINUTE = 0.014;
const CALL_SECONDS = 60;

export interface NewCall {
  sid?: string | undefined;
  account_sid: string;
  from: string;
  to: string;
  status: string;
  direction: string;
  duration?: number | undefined;
  price?: string | undefined;
  caller_name?: string | undefined;
  phone_number_sid?: string | null;
  createdMs: number;
}

export function callPrice(seconds: number): string {
  return (-(Math.max(1, Math.ceil(seconds / 60)) * PER_MINUTE)).toFixed(4);
}

export function makeCall(ctx: Pick<LoadContext, 'ids' | 'store'>, c: NewCall): TwilioDoc {
  const sid = c.sid ?? twilioSid(ctx, 'CA');
  const ended = ['completed', 'busy', 'failed', 'no-answer', 'canceled'].includes(c.status);
  const talked = c.status === 'completed' ? c.duration ?? CALL_SECONDS : 0;
  const started = ['in-progress', 'completed'].includes(c.status) ? c.createdMs + 1000 : null;
  const doc: TwilioDoc = {
    account_sid: c.account_sid,
    annotation: null,
    answered_by: null,
    api_version: '2010-04-01',
    caller_name: c.caller_name ?? null,
    date_created: rfc2822(c.createdMs),
    date_updated: rfc2822(c.createdMs),
    direction: c.direction,
    duration: ended ? String(talked) : null,
    end_time: ended && started !== null ? rfc2822(started + talked * 1000) : null,
    forwarded_from: null,
    from: c.from,
    from_formatted: formatNumber(c.from),
    group_sid: null,
    parent_call_sid: null,
    phone_number_sid: c.phone_number_sid ?? null,
    price: c.price ?? (c.status === 'completed' ? callPrice(talked) : null),
    price_unit: 'USD',
    queue_time: '0',
    sid,
    start_time: started === null ? null : rfc2822(started),
    status: c.status,
    subresource_uris: Object.fromEntries(['Notifications', 'Recordings', 'Payments', 'Events', 'Siprec', 'Streams', 'Transcriptions', 'UserDefinedMessageSubscriptions', 'UserDefinedMessages']
      .map((name) => [name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase(), uriOf('Accounts', c.account_sid, 'Calls', sid, name)])),
    to: c.to,
    to_formatted: formatNumber(c.to),
    trunk_sid: null,
    uri: uriOf('Accounts', c.account_sid, 'Calls', sid),
  };
  return dbOf(ctx.store).calls.put(sid, doc);
}

/** Placed calls follow the logical clock: in progress after a second, completed a minute later. */
export function settleCalls(ctx: Pick<LoadContext, 'store'> & { nowMs: number }): void {
  const calls = dbOf(ctx.store).calls;
  for (const call of calls.values()) {
    if (call.status !== 'queued' && call.status !== 'ringing' && call.status !== 'in-progress') continue;
    const created = parseTime(call.date_created);
    const answered = created + 1000;
    const ended = answered + CALL_SECONDS * 1000;
    if (ctx.nowMs >= ended) {
      calls.put(call.sid, { ...call, status: 'completed', start_time: rfc2822(answered), end_time: rfc2822(ended), duration: String(CALL_SECONDS), price: callPrice(CALL_SECONDS), date_updated: rfc2822(ended) });
    } else if (ctx.nowMs >= answered && call.status !== 'in-progress') {
      calls.put(call.sid, { ...call, status: 'in-progress', start_time: rfc2822(answered), date_updated: rfc2822(answered) });
    }
  }
}

const CreateBody = z.object({
  To: z.string().optional(), From: z.string().optional(), Url: z.string().optional(), Twiml: z.string().optional(), ApplicationSid: z.string().optional(),
  CallerId: z.string().optional(),
}).passthrough();
const UpdateBody = z.object({ Status: z.string().optional(), Url: z.string().optional(), Twiml: z.string().optional() }).passthrough();

export const callOperations: Operation<TwilioCtx>[] = [
  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/Calls', Record<string, string>, z.infer<typeof CreateBody>>('CreateCall', rest('POST', '/2010-04-01/Accounts/:AccountSid/Calls'), (call, c) => {
    const b = call.body;
    const account = call.params.AccountSid!;
    if (!b.To) throw twilioError(400, 21201, "No 'To' number is specified");
    if (!b.From) throw twilioError(400, 21213, "No 'From' number is specified");
    if (!b.Url && !b.Twiml && !b.ApplicationSid) throw twilioError(400, 21205, "Either a 'Url', 'Twiml' or 'ApplicationSid' parameter is required.");
    if (!isE164(b.To) && !b.To.startsWith('client:') && !b.To.startsWith('sip:')) throw twilioError(400, 21211, `Invalid 'To' Phone Number: ${b.To}`);
    const owned = c.db.incoming_phone_numbers.values().find((n) => n.account_sid === account && n.phone_number === b.From);
    if (!owned || (owned.capabilities as { voice?: boolean }).voice !== true) {
      throw twilioError(400, 21210, `The source phone number provided, ${b.From}, is not yet verified for your account. You may only make calls from phone numbers that you've verified or purchased from Twilio.`);
    }
    return jsonResponse(201, makeCall(c.ctx, { account_sid: account, from: b.From, to: b.To, status: 'queued', direction: 'outbound-api', phone_number_sid: owned.sid, createdMs: c.ctx.nowMs }));
  }, { input: { body: CreateBody } }),

  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/Calls'>('ListCall', rest('GET', '/2010-04-01/Accounts/:AccountSid/Calls'), (call, c) => {
    const q = call.query as Record<string, string | string[]>;
    const wanted: Record<string, string> = {};
    for (const name of ['To', 'From', 'ParentCallSid', 'Status', 'StartTime', 'StartTime<', 'StartTime>', 'EndTime', 'EndTime<', 'EndTime>']) {
      const value = first(q, name);
      if (value !== undefined) wanted[name] = value;
    }
    for (const [name, value] of Object.entries(wanted)) {
      if (/Time/.test(name) && Number.isNaN(filterTime(value))) throw twilioError(400, 20001, `Invalid ${name}: ${value}`);
    }
    const inDay = (at: number, value: string) => at >= filterTime(value) && at < filterTime(value) + 86_400_000;
    const items = c.db.calls.filter((x) => {
      const start = parseTime(x.start_time);
      const end = parseTime(x.end_time);
      return x.account_sid === call.params.AccountSid
        && (wanted.To === undefined || x.to === wanted.To)
        && (wanted.From === undefined || x.from === wanted.From)
        && (wanted.ParentCallSid === undefined || x.parent_call_sid === wanted.ParentCallSid)
        && (wanted.Status === undefined || x.status === wanted.Status)
        && (wanted.StartTime === undefined || inDay(start, wanted.StartTime))
        && (wanted['StartTime<'] === undefined || start <= filterTime(wanted['StartTime<']))
        && (wanted['StartTime>'] === undefined || start >= filterTime(wanted['StartTime>']))
        && (wanted.EndTime === undefined || inDay(end, wanted.EndTime))
        && (wanted['EndTime<'] === undefined || end <= filterTime(wanted['EndTime<']))
        && (wanted['EndTime>'] === undefined || end >= filterTime(wanted['EndTime>']));
    });
    return listPage(newestFirst(items), 'calls', `${API}/Accounts/${call.params.AccountSid}/Calls`, q, wanted);
  }),

  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/Calls/:Sid'>('FetchCall', rest('GET', '/2010-04-01/Accounts/:AccountSid/Calls/:Sid'), (call, c) => jsonResponse(200, itemOf(c.db.calls, call.params, 'Calls'))),

  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/Calls/:Sid', Record<string, string>, z.infer<typeof UpdateBody>>('UpdateCall', rest('POST', '/2010-04-01/Accounts/:AccountSid/Calls/:Sid'), (call, c) => {
    const found = itemOf(c.db.calls, call.params, 'Calls');
    const { Status, Url, Twiml } = call.body;
    if (Status !== undefined && Status !== 'canceled' && Status !== 'completed') throw twilioError(400, 20001, `Invalid Status: ${Status}`);
    const live = ['queued', 'ringing', 'in-progress'].includes(String(found.status));
    if (!live) throw twilioError(400, 21220, 'Call is not in-progress. Cannot redirect.');
    const now = rfc2822(c.ctx.nowMs);
    if (Status === 'canceled' && found.status === 'in-progress') return jsonResponse(200, found); // Twilio ignores canceling a call that was answered.
    if (Status === 'canceled' || (Status === 'completed' && found.status !== 'in-progress')) {
      return jsonResponse(200, c.db.calls.put(found.sid, { ...found, status: 'canceled', duration: '0', end_time: null, date_updated: now }));
    }
    if (Status === 'completed') {
      const seconds = Math.max(0, Math.round((c.ctx.nowMs - parseTime(found.start_time)) / 1000));
      return jsonResponse(200, c.db.calls.put(found.sid, { ...found, status: 'completed', duration: String(seconds), end_time: now, price: callPrice(seconds), date_updated: now }));
    }
    if (Url === undefined && Twiml === undefined) return jsonResponse(200, found);
    return jsonResponse(200, c.db.calls.put(found.sid, { ...found, date_updated: now }));
  }, { input: { body: UpdateBody } }),

  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/Calls/:Sid'>('DeleteCall', rest('DELETE', '/2010-04-01/Accounts/:AccountSid/Calls/:Sid'), (call, c) => {
    const found = itemOf(c.db.calls, call.params, 'Calls');
    if (['queued', 'ringing', 'in-progress'].includes(String(found.status))) throw twilioError(400, 20009, `Cannot delete call ${found.sid} while it is live.`);
    c.db.calls.delete(found.sid);
    return emptyResponse(204);
  }),
];
