import { z } from 'zod';
import { emptyResponse, jsonResponse } from '../core/http.js';
import type { LoadContext } from '../core/service.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { mayUse, type TwilioCtx } from './context.js';
import { API, dbOf, first, formatNumber, formBool, isE164, itemOf, listPage, newestFirst, rfc2822, twilioError, twilioSid, uriOf, type TwilioDoc } from './model.js';

/**
 * IncomingPhoneNumbers (`/2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers.json`): the
 * account's numbers, listed with the PhoneNumber/FriendlyName/Beta/Origin filters, bought by
 * PhoneNumber or AreaCode, configured (FriendlyName, SMS and voice URLs, status callback, moved to
 * a subaccount with AccountSid) and released. `IncomingPhoneNumbers/Local`, `/Mobile` and
 * `/TollFree` list and buy numbers of that type from the same collection (toll-free by its NANP
 * prefix, mobile numbers where the dataset says so, local the rest).
 */
export interface NewNumber {
  sid?: string | undefined;
  account_sid: string;
  phone_number: string;
  friendly_name?: string | undefined;
  capabilities: { voice: boolean; sms: boolean; mms: boolean; fax: boolean };
  sms_url: string;
  voice_url: string;
  status_callback: string;
  origin: string;
  type?: NumberType | undefined;
  createdMs: number;
}

export type NumberType = 'local' | 'mobile' | 'toll-free';
const TOLL_FREE = /^\+18(00|33|44|55|66|77|88)\d{7}$/;

/** A number's type: the dataset's, else toll-free by its prefix, else local. */
export function typeOf(phone: string, given?: NumberType): NumberType {
  return given ?? (TOLL_FREE.test(phone) ? 'toll-free' : 'local');
}

export function makeNumber(ctx: Pick<LoadContext, 'ids' | 'store'>, n: NewNumber): TwilioDoc {
  const sid = n.sid ?? twilioSid(ctx, 'PN');
  const at = rfc2822(n.createdMs);
  const doc: TwilioDoc = {
    account_sid: n.account_sid,
    address_requirements: 'none',
    address_sid: null,
    api_version: '2010-04-01',
    beta: false,
    bundle_sid: null,
    capabilities: { fax: n.capabilities.fax, mms: n.capabilities.mms, sms: n.capabilities.sms, voice: n.capabilities.voice },
    date_created: at,
    date_updated: at,
    emergency_address_sid: null,
    emergency_address_status: 'unregistered',
    emergency_status: 'Inactive',
    friendly_name: n.friendly_name ?? formatNumber(n.phone_number),
    identity_sid: null,
    origin: n.origin,
    phone_number: n.phone_number,
    sid,
    sms_application_sid: null,
    sms_fallback_method: 'POST',
    sms_fallback_url: '',
    sms_method: 'POST',
    sms_url: n.sms_url,
    status: 'in-use',
    status_callback: n.status_callback,
    status_callback_method: 'POST',
    subresource_uris: { assigned_add_ons: uriOf('Accounts', n.account_sid, 'IncomingPhoneNumbers', sid, 'AssignedAddOns') },
    trunk_sid: null,
    uri: uriOf('Accounts', n.account_sid, 'IncomingPhoneNumbers', sid),
    voice_application_sid: null,
    voice_caller_id_lookup: false,
    voice_fallback_method: 'POST',
    voice_fallback_url: '',
    voice_method: 'POST',
    voice_receive_mode: 'voice',
    voice_url: n.voice_url,
  };
  // Twilio's resource does not say a number's type; the mock keeps the dataset's word for it beside.
  if (n.type !== undefined) ctx.store.collection<{ type: NumberType }>('number_types').put(sid, { type: n.type });
  return dbOf(ctx.store).incoming_phone_numbers.put(sid, doc);
}

function typeOfDoc(c: TwilioCtx, n: TwilioDoc): NumberType {
  return c.ctx.store.collection<{ type: NumberType }>('number_types').get(n.sid)?.type ?? typeOf(String(n.phone_number));
}

const CreateBody = z.object({ PhoneNumber: z.string().optional(), AreaCode: z.string().optional(), FriendlyName: z.string().optional(), SmsUrl: z.string().optional(), VoiceUrl: z.string().optional(), StatusCallback: z.string().optional() }).passthrough();
const UpdateBody = z.object({
  FriendlyName: z.string().optional(), SmsUrl: z.string().optional(), SmsMethod: z.enum(['GET', 'POST']).optional(), SmsFallbackUrl: z.string().optional(),
  VoiceUrl: z.string().optional(), VoiceMethod: z.enum(['GET', 'POST']).optional(), VoiceFallbackUrl: z.string().optional(), StatusCallback: z.string().optional(),
  VoiceCallerIdLookup: z.string().optional(), AccountSid: z.string().optional(),
}).passthrough();

/** The number Twilio would sell in an area code: the first of +1<area>555 01xx (fictional) not yet taken. */
function freeNumber(c: TwilioCtx, area: string): string | null {
  const taken = new Set(c.db.incoming_phone_numbers.values().map((n) => n.phone_number));
  for (let i = 100; i < 200; i++) {
    const candidate = `+1${area}5550${i}`;
    if (!taken.has(candidate)) return candidate;
  }
  return null;
}

const TYPES = { Local: 'local', Mobile: 'mobile', TollFree: 'toll-free' } as const;

function listNumbers(name: string, suffix: string, type: NumberType | null): Operation<TwilioCtx> {
  return operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/IncomingPhoneNumbers'>(name, rest('GET', `/2010-04-01/Accounts/:AccountSid/IncomingPhoneNumbers${suffix}` as '/2010-04-01/Accounts/:AccountSid/IncomingPhoneNumbers'), (call, c) => {
    const q = call.query as Record<string, string | string[]>;
    const wanted: Record<string, string> = {};
    for (const name of ['Beta', 'FriendlyName', 'PhoneNumber', 'Origin']) {
      const value = first(q, name);
      if (value !== undefined) wanted[name] = value;
    }
    const beta = formBool(wanted.Beta);
    // PhoneNumber matches a pattern of digits anywhere in the number, as Twilio's does ('555' finds every +1…555…).
    const digits = wanted.PhoneNumber?.replace(/[^\d*]/g, '');
    const items = c.db.incoming_phone_numbers.filter((n) => n.account_sid === call.params.AccountSid
      && (beta === undefined || beta || n.beta === false)
      && (wanted.FriendlyName === undefined || n.friendly_name === wanted.FriendlyName)
      && (digits === undefined || new RegExp(digits.replace(/\*/g, '\\d')).test(String(n.phone_number)))
      && (wanted.Origin === undefined || n.origin === wanted.Origin)
      && (type === null || typeOfDoc(c, n) === type));
    return listPage(newestFirst(items), 'incoming_phone_numbers', `${API}/Accounts/${call.params.AccountSid}/IncomingPhoneNumbers${suffix}`, q, wanted);
  });
}

function createNumber(name: string, suffix: string, type: NumberType | null): Operation<TwilioCtx> {
  return operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/IncomingPhoneNumbers', Record<string, string>, z.infer<typeof CreateBody>>(name, rest('POST', `/2010-04-01/Accounts/:AccountSid/IncomingPhoneNumbers${suffix}` as '/2010-04-01/Accounts/:AccountSid/IncomingPhoneNumbers'), (call, c) => {
    const b = call.body;
    if (!b.PhoneNumber && !b.AreaCode) throw twilioError(400, 21451, 'A PhoneNumber or AreaCode is required.');
    if (type !== null && !b.PhoneNumber) throw twilioError(400, 20001, 'Missing required parameter PhoneNumber in the post body');
    if (type !== null && type !== 'mobile' && b.PhoneNumber && typeOf(b.PhoneNumber) !== type) {
      throw twilioError(400, 21421, `PhoneNumber ${b.PhoneNumber} is not a ${type} number.`);
    }
    let number: string;
    if (b.PhoneNumber) {
      if (!isE164(b.PhoneNumber)) throw twilioError(400, 21421, `PhoneNumber is invalid: ${b.PhoneNumber}`);
      if (c.db.incoming_phone_numbers.values().some((n) => n.phone_number === b.PhoneNumber)) {
        throw twilioError(400, 21422, `PhoneNumber ${b.PhoneNumber} is not available.`);
      }
      number = b.PhoneNumber;
    } else {
      if (!/^\d{3}$/.test(b.AreaCode!)) throw twilioError(400, 21452, `No phone numbers found in area code ${b.AreaCode}`);
      number = freeNumber(c, b.AreaCode!) ?? (() => { throw twilioError(400, 21452, `No phone numbers found in area code ${b.AreaCode}`); })();
    }
    const created = makeNumber(c.ctx, {
      account_sid: call.params.AccountSid!, phone_number: number, friendly_name: b.FriendlyName, capabilities: { voice: true, sms: true, mms: true, fax: false },
      sms_url: b.SmsUrl ?? '', voice_url: b.VoiceUrl ?? '', status_callback: b.StatusCallback ?? '', origin: 'twilio', type: type ?? undefined, createdMs: c.ctx.nowMs,
    });
    return jsonResponse(201, created);
  }, { input: { body: CreateBody } });
}

export const numberOperations: Operation<TwilioCtx>[] = [
  listNumbers('ListIncomingPhoneNumber', '', null),
  createNumber('CreateIncomingPhoneNumber', '', null),
  ...(['Local', 'Mobile', 'TollFree'] as const).flatMap((kind) => [listNumbers(`ListIncomingPhoneNumber${kind}`, `/${kind}`, TYPES[kind]), createNumber(`CreateIncomingPhoneNumber${kind}`, `/${kind}`, TYPES[kind])]),
  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/IncomingPhoneNumbers/:Sid'>('FetchIncomingPhoneNumber', rest('GET', '/2010-04-01/Accounts/:AccountSid/IncomingPhoneNumbers/:Sid'), (call, c) => jsonResponse(200, itemOf(c.db.incoming_phone_numbers, call.params, 'IncomingPhoneNumbers'))),

  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/IncomingPhoneNumbers/:Sid', Record<string, string>, z.infer<typeof UpdateBody>>('UpdateIncomingPhoneNumber', rest('POST', '/2010-04-01/Accounts/:AccountSid/IncomingPhoneNumbers/:Sid'), (call, c) => {
    const found = itemOf(c.db.incoming_phone_numbers, call.params, 'IncomingPhoneNumbers');
    const b = call.body;
    // The MCP server sends the path's AccountSid in the body too: only another account moves the number.
    const target = b.AccountSid !== undefined && b.AccountSid !== found.account_sid ? b.AccountSid : undefined;
    if (target !== undefined && !mayUse(c, target)) throw twilioError(400, 21441, `AccountSid ${target} is not a subaccount of this account.`);
    const lookup = formBool(b.VoiceCallerIdLookup);
    const owner = target ?? String(found.account_sid);
    const updated: TwilioDoc = {
      ...found,
      ...(b.FriendlyName !== undefined ? { friendly_name: b.FriendlyName } : {}),
      ...(b.SmsUrl !== undefined ? { sms_url: b.SmsUrl } : {}),
      ...(b.SmsMethod !== undefined ? { sms_method: b.SmsMethod } : {}),
      ...(b.SmsFallbackUrl !== undefined ? { sms_fallback_url: b.SmsFallbackUrl } : {}),
      ...(b.VoiceUrl !== undefined ? { voice_url: b.VoiceUrl } : {}),
      ...(b.VoiceMethod !== undefined ? { voice_method: b.VoiceMethod } : {}),
      ...(b.VoiceFallbackUrl !== undefined ? { voice_fallback_url: b.VoiceFallbackUrl } : {}),
      ...(b.StatusCallback !== undefined ? { status_callback: b.StatusCallback } : {}),
      ...(lookup !== undefined ? { voice_caller_id_lookup: lookup } : {}),
      account_sid: owner,
      uri: uriOf('Accounts', owner, 'IncomingPhoneNumbers', found.sid),
      subresource_uris: { assigned_add_ons: uriOf('Accounts', owner, 'IncomingPhoneNumbers', found.sid, 'AssignedAddOns') },
      date_updated: rfc2822(c.ctx.nowMs),
    };
    return jsonResponse(200, c.db.incoming_phone_numbers.put(found.sid, updated));
  }, { input: { body: UpdateBody } }),

  operation<TwilioCtx, '/2010-04-01/Accounts/:AccountSid/IncomingPhoneNumbers/:Sid'>('DeleteIncomingPhoneNumber', rest('DELETE', '/2010-04-01/Accounts/:AccountSid/IncomingPhoneNumbers/:Sid'), (call, c) => {
    const found = itemOf(c.db.incoming_phone_numbers, call.params, 'IncomingPhoneNumbers');
    c.db.incoming_phone_numbers.delete(found.sid);
    return emptyResponse(204);
  }),
];
