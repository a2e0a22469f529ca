import { z } from 'zod';
import { emptyResponse, jsonResponse } from '../core/http.js';
import type { LoadContext } from '../core/service.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { TwilioCtx } from './context.js';
import { API, dbOf, filterTime, first, isE164, itemOf, listPage, newestFirst, parseTime, rfc2822, twilioError, twilioSid, uriOf, type TwilioDoc } from './model.js';

/**
 * Messages (`/2010-04-01/Accounts/{AccountSid}/Messages.json`): send with To/From (or a
 * MessagingServiceSid) and Body or MediaUrl, fetch, list newest first with the To/From/DateSent
 * filters and Twilio's paging, redact (Body=''), cancel a scheduled one, delete. A sent message
 * is `queued`; one logical second later it is `delivered` with its price (see `settleMessages`).
 */

/** US SMS price per segment, as Twilio bills it (a negative amount: a charge). */
const PRICE_PER_SEGMENT = 0.0079;
const GSM = /^[A-Za-z0-9 \r\n@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!"#¤%&'()*+,\-./:;<=>?¡ÄÖÑÜ§¿äöñüà^{}\\[~\]|€]*$/;

/**
 * Segments of an SMS body: 160 GSM-7 septets (153 when split; `^{}\\[~]|€` take two) or 70 UCS-2
 * code units (67 when split; an emoji takes two).
 */
export function segments(body: string): number {
  const gsm = GSM.test(body);
  const length = gsm ? [...body].reduce((n, ch) => n + ('^{}\\[~]|€'.includes(ch) ? 2 : 1), 0) : body.length;
  const [single, multi] = gsm ? [160, 153] : [70, 67];
  return length <= single ? 1 : Math.ceil(length / multi);
}

export function priceOf(body: string, media: number): string {
  const units = media > 0 ? Math.max(1, segments(body)) * 2 : segments(body);
  return (-(units * PRICE_PER_SEGMENT)).toFixed(5);
}

export interface NewMessage {
  sid?: string | undefined;
  account_sid: string;
  from: string | null;
  to: string;
  body: string;
  status: string;
  direction: string;
  messaging_service_sid?: string | null | undefined;
  error_code?: number | null;
  num_media: number;
  price?: string | null | undefined;
  createdMs: number;
  sentMs?: number | null | undefined;
}

export function makeMessage(ctx: Pick<LoadContext, 'ids' | 'store'>, m: NewMessage): TwilioDoc {
  const sid = m.sid ?? twilioSid(ctx, m.num_media > 0 ? 'MM' : 'SM');
  const finished = ['sent', 'delivered', 'undelivered', 'failed', 'received', 'read'].includes(m.status);
  const sentMs = m.sentMs ?? (finished ? m.createdMs : null);
  const doc: TwilioDoc = {
    account_sid: m.account_sid,
    api_version: '2010-04-01',
    body: m.body,
    date_created: rfc2822(m.createdMs),
    date_sent: sentMs === null ? null : rfc2822(sentMs),
    date_updated: rfc2822(Math.max(m.createdMs, sentMs ?? 0)),
    direction: m.direction,
    error_code: m.error_code ?? null,
    error_message: m.error_code ? ERROR_MESSAGES[m.error_code] ?? 'Message delivery failed' : null,
    from: m.from,
    messaging_service_sid: m.messaging_service_sid ?? null,
    num_media: String(m.num_media),
    num_segments: String(segments(m.body)),
    price: m.price !== undefined ? m.price : finished && m.direction !== 'inbound' ? priceOf(m.body, m.num_media) : null,
    price_unit: 'USD',
    sid,
    status: m.status,
    subresource_uris: { media: uriOf('Accounts', m.account_sid, 'Messages', sid, 'Media'), feedback: uriOf('Accounts', m.account_sid, 'Messages', sid, 'Feedback') },
    to: m.to,
    uri: uriOf('Accounts', m.account_sid, 'Messages', sid),
  };
  return dbOf(ctx.store).messages.put(sid, doc);
}

const ERROR_MESSAGES: Record<number, string> = {
  30003: 'Unreachable destination handset', 30005: 'Unknown destination handset', 30006: 'Landline or unreachable carrier', 30007: 'Message filtered',
};

/**
 * Messages that have waited one logical second leave the queue: `queued`/`sending` become
 * `delivered` (sent, priced); `scheduled` ones once their send time has come. Runs before every
 * request, so what any read shows follows the logical clock, the same way on every replay.
 */
export function settleMessages(ctx: Pick<LoadContext, 'store'> & { nowMs: number }): void {
  const messages = dbOf(ctx.store).messages;
  for (const m of messages.values()) {
    if (m.status !== 'queued' && m.status !== 'sending' && m.status !== 'accepted' && m.status !== 'scheduled') continue;
    const due = m.status === 'scheduled' ? parseTime(m.send_at) : parseTime(m.date_created) + 1000;
    if (!(due <= ctx.nowMs)) continue;
    const { send_at: _sendAt, ...rest } = m;
    const from = rest.from ?? firstSender(ctx, String(m.account_sid));
    messages.put(m.sid, {
      ...rest, from, status: 'delivered', date_sent: rfc2822(due), date_updated: rfc2822(due),
      price: priceOf(String(m.body ?? ''), Number(m.num_media)),
    });
  }
}

/** A messaging service sends from the account's first SMS-capable number. */
function firstSender(ctx: Pick<LoadContext, 'store'>, accountSid: string): string | null {
  const number = dbOf(ctx.store).incoming_phone_numbers.values()
    .find((n) => n.account_sid === accountSid && (n.capabilities as { sms?: boolean } | undefined)?.sms === true);
  return number ? String(number.phone_number) : null;
}

const CreateBody = z.object({
  To: z.string().optional(),
  From: z.string().optional(),
  MessagingServiceSid: z.string().optional(),
  Body: z.string().optional(),
  MediaUrl: z.union([z.string(), z.array(z.string())]).optional(),
  ContentSid: z.string().optional(),
  SendAt: z.string().optional(),
  ScheduleType: z.string().optional(),
  StatusCallback: z.string().optional(),
}).passthrough();
const UpdateBody = z.object({ Body: z.string().optional(), Status: z.string().optional() }).passthrough();

export const messageOperations: Operation<TwilioCtx>[] = [
  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/Messages', Record<string, string>, z.infer<typeof CreateBody>>('CreateMessage', rest('POST', '/2010-04-01/Accounts/:AccountSid/Messages'), (call, c) => {
    const b = call.body;
    const account = call.params.AccountSid!;
    if (!b.To) throw twilioError(400, 21604, "A 'To' phone number is required.");
    if (!b.From && !b.MessagingServiceSid) throw twilioError(400, 21603, "A 'From' phone number is required.");
    const media = b.MediaUrl === undefined ? [] : Array.isArray(b.MediaUrl) ? b.MediaUrl : [b.MediaUrl];
    if ((b.Body === undefined || b.Body === '') && media.length === 0 && !b.ContentSid) throw twilioError(400, 21602, 'Message body is required.');
    if (!isE164(b.To)) throw twilioError(400, 21211, `Invalid 'To' Phone Number: ${b.To}`);
    if (b.MessagingServiceSid !== undefined && !/^MG[0-9a-fA-F]{32}$/.test(b.MessagingServiceSid)) {
      throw twilioError(400, 21701, `The Messaging Service Sid ${b.MessagingServiceSid} is invalid.`);
    }
    if (b.From) {
      const bare = b.From.replace(/^[a-z]+:/, '');
      const owned = c.db.incoming_phone_numbers.values().find((n) => n.account_sid === account && n.phone_number === bare);
      if (!owned || (owned.capabilities as { sms?: boolean }).sms !== true) {
        throw twilioError(400, 21606, `The From phone number ${b.From} is not a valid, SMS-capable inbound phone number or short code for your account.`);
      }
      if (bare === b.To.replace(/^[a-z]+:/, '')) throw twilioError(400, 21266, "'To' and 'From' number cannot be the same");
    }
    const body = b.Body ?? '';
    if ([...body].length > 1600) throw twilioError(400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    let status = 'queued';
    let sendAt: number | null = null;
    if (b.ScheduleType !== undefined || b.SendAt !== undefined) {
      if (b.ScheduleType !== 'fixed') throw twilioError(400, 35111, 'ScheduleType must be fixed to schedule a message.');
      if (!b.MessagingServiceSid) throw twilioError(400, 35118, 'MessagingServiceSid is required to schedule a message.');
      sendAt = Date.parse(b.SendAt ?? '');
      if (!Number.isFinite(sendAt) || sendAt < c.ctx.nowMs + 15 * 60_000 || sendAt > c.ctx.nowMs + 35 * 86_400_000) {
        throw twilioError(400, 35114, 'SendAt time must be between 15 minutes and 35 days in the future.');
      }
      status = 'scheduled';
    }
    const created = makeMessage(c.ctx, {
      account_sid: account, from: b.From ?? null, to: b.To, body, status, direction: 'outbound-api',
      messaging_service_sid: b.MessagingServiceSid ?? null, num_media: media.length, price: null, createdMs: c.ctx.nowMs,
    });
    if (sendAt !== null) c.db.messages.put(created.sid, { ...created, send_at: new Date(sendAt).toISOString() });
    return jsonResponse(201, created);
  }, { input: { body: CreateBody } }),

  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/Messages'>('ListMessage', rest('GET', '/2010-04-01/Accounts/:AccountSid/Messages'), (call, c) => {
    const q = call.query as Record<string, string | string[]>;
    const to = first(q, 'To');
    const from = first(q, 'From');
    const on = first(q, 'DateSent');
    const before = first(q, 'DateSent<');
    const after = first(q, 'DateSent>');
    for (const [name, value] of [['DateSent', on], ['DateSent<', before], ['DateSent>', after]] as const) {
      if (value !== undefined && Number.isNaN(filterTime(value))) throw twilioError(400, 20001, `Invalid ${name}: ${value}`);
    }
    const sent = (m: TwilioDoc) => parseTime(m.date_sent);
    const items = c.db.messages.filter((m) => m.account_sid === call.params.AccountSid
      && (to === undefined || m.to === to)
      && (from === undefined || m.from === from)
      && (on === undefined || (sent(m) >= filterTime(on) && sent(m) < filterTime(on) + 86_400_000))
      && (before === undefined || sent(m) <= filterTime(before) + (/^\d{4}-\d{2}-\d{2}$/.test(before) ? 86_400_000 - 1 : 0))
      && (after === undefined || sent(m) >= filterTime(after)));
    const filters: Record<string, string> = {};
    for (const [name, value] of [['To', to], ['From', from], ['DateSent', on], ['DateSent<', before], ['DateSent>', after]] as const) if (value !== undefined) filters[name] = value;
    return listPage(newestFirst(items).map(publicView), 'messages', `${API}/Accounts/${call.params.AccountSid}/Messages`, q, filters);
  }),

  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/Messages/:Sid'>('FetchMessage', rest('GET', '/2010-04-01/Accounts/:AccountSid/Messages/:Sid'), (call, c) => jsonResponse(200, publicView(itemOf(c.db.messages, call.params, 'Messages')))),

  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/Messages/:Sid', Record<string, string>, z.infer<typeof UpdateBody>>('UpdateMessage', rest('POST', '/2010-04-01/Accounts/:AccountSid/Messages/:Sid'), (call, c) => {
    const found = itemOf(c.db.messages, call.params, 'Messages');
    const { Body, Status } = call.body;
    if (Status !== undefined && Status !== 'canceled') throw twilioError(400, 20001, `Invalid Status: ${Status}. Status can only be canceled`);
    if (Body !== undefined && Body !== '') throw twilioError(400, 20001, 'Body can only be updated to an empty string, to redact the message');
    if (Status === 'canceled' && found.status !== 'scheduled') throw twilioError(400, 30409, `Message ${found.sid} cannot be canceled: only scheduled messages can be canceled.`);
    if (Body === '' && ['queued', 'sending', 'accepted', 'scheduled'].includes(String(found.status))) {
      throw twilioError(400, 20009, `Message ${found.sid} cannot be redacted before it is sent.`);
    }
    const updated = c.db.messages.put(found.sid, {
      ...found,
      ...(Body === '' ? { body: '' } : {}),
      ...(Status === 'canceled' ? { status: 'canceled' } : {}),
      date_updated: rfc2822(c.ctx.nowMs),
    });
    return jsonResponse(200, publicView(updated));
  }, { input: { body: UpdateBody } }),

  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/Messages/:Sid'>('DeleteMessage', rest('DELETE', '/2010-04-01/Accounts/:AccountSid/Messages/:Sid'), (call, c) => {
    const found = itemOf(c.db.messages, call.params, 'Messages');
    if (['queued', 'sending', 'accepted'].includes(String(found.status))) throw twilioError(400, 20009, `Cannot delete message ${found.sid} while it is being sent.`);
    c.db.messages.delete(found.sid);
    return emptyResponse(204);
  }),
];

/** A stored message without the mock's own bookkeeping (`send_at`). */
export function publicView(m: TwilioDoc): TwilioDoc {
  const { send_at: _sendAt, ...rest } = m;
  return rest as TwilioDoc;
}
