import { z } from 'zod';

/**
 * `<scenario>/dataset/twilio.json`: one Twilio account (its auth token and API keys), its
 * subaccounts, phone numbers, messages and calls. Records may carry their own SIDs (so scenarios
 * and oracles can name them); without one a record gets a seeded SID. Times are ISO-8601; a
 * record without one is as old as its place in the file says (a minute apart, before the epoch).
 * `account_sid` defaults to the main account. docs/twilio-mock.md.
 */
const sid = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[0-9a-f]{32}$`), `must look like ${prefix} + 32 lower-case hex digits`);
const Time = z.string().datetime({ offset: true });
const E164 = z.string().regex(/^(?:[a-z]+:)?\+[1-9]\d{7,14}$/, 'must be an E.164 number such as +14155550123');

export const ApiKeySchema = z.object({
  sid: sid('SK'),
  secret: z.string().min(8),
  friendly_name: z.string().default(''),
}).strict();

export const AccountSchema = z.object({
  sid: sid('AC'),
  friendly_name: z.string(),
  auth_token: z.string().regex(/^[0-9a-f]{32}$/, 'must be 32 lower-case hex digits'),
  type: z.enum(['Trial', 'Full']).default('Full'),
  status: z.enum(['active', 'suspended', 'closed']).default('active'),
  date_created: Time.optional(),
  api_keys: z.array(ApiKeySchema).default([]),
}).strict();

export const SubaccountSchema = AccountSchema.omit({ type: true }).extend({
  auth_token: AccountSchema.shape.auth_token.optional(),
  sid: sid('AC').optional(),
}).strict();

const Capabilities = z.object({
  voice: z.boolean().default(true), sms: z.boolean().default(true), mms: z.boolean().default(true), fax: z.boolean().default(false),
}).strict();

export const PhoneNumberSchema = z.object({
  sid: sid('PN').optional(),
  account_sid: sid('AC').optional(),
  phone_number: E164,
  friendly_name: z.string().optional(),
  capabilities: Capabilities.default({}),
  sms_url: z.string().default(''),
  voice_url: z.string().default(''),
  status_callback: z.string().default(''),
  origin: z.enum(['twilio', 'hosted']).default('twilio'),
  /** Which of IncomingPhoneNumbers/Local, /Mobile, /TollFree lists it; default toll-free by its prefix, else local. */
  type: z.enum(['local', 'mobile', 'toll-free']).optional(),
  date_created: Time.optional(),
}).strict();

export const MessageSchema = z.object({
  sid: z.string().regex(/^(SM|MM)[0-9a-f]{32}$/, 'must look like SM + 32 lower-case hex digits').optional(),
  account_sid: sid('AC').optional(),
  /** Absent for a message a messaging service has not sent yet (it picks the sender then). */
  from: z.string().min(1).optional(),
  to: z.string().min(1),
  body: z.string(),
  status: z.enum(['queued', 'sending', 'sent', 'failed', 'delivered', 'undelivered', 'receiving', 'received', 'accepted', 'scheduled', 'read', 'canceled']).default('delivered'),
  direction: z.enum(['inbound', 'outbound-api', 'outbound-call', 'outbound-reply']).default('outbound-api'),
  messaging_service_sid: sid('MG').optional(),
  error_code: z.number().int().nullable().default(null),
  num_media: z.number().int().nonnegative().default(0),
  price: z.string().regex(/^-?\d+\.\d+$/).optional(),
  date_created: Time.optional(),
  date_sent: Time.optional(),
  /** When a `scheduled` message goes out (it stays scheduled until the logical clock reaches it). */
  send_at: Time.optional(),
}).strict().refine((m) => (m.status === 'scheduled') === (m.send_at !== undefined), { message: 'a scheduled message needs send_at, and only a scheduled one has it', path: ['send_at'] });

export const CallSchema = z.object({
  sid: sid('CA').optional(),
  account_sid: sid('AC').optional(),
  from: z.string().min(1),
  to: z.string().min(1),
  status: z.enum(['queued', 'ringing', 'in-progress', 'completed', 'busy', 'failed', 'no-answer', 'canceled']).default('completed'),
  direction: z.enum(['inbound', 'outbound-api', 'outbound-dial']).default('outbound-api'),
  duration: z.number().int().nonnegative().optional(),
  price: z.string().regex(/^-?\d+\.\d+$/).optional(),
  caller_name: z.string().optional(),
  date_created: Time.optional(),
}).strict();

export const TwilioDatasetSchema = z.object({
  account: AccountSchema.default({
    sid: 'AC0000000000000000000000000000000a', friendly_name: 'toolbench', auth_token: '0000000000000000000000000000000a',
  }),
  subaccounts: z.array(SubaccountSchema).default([]),
  incoming_phone_numbers: z.array(PhoneNumberSchema).default([]),
  messages: z.array(MessageSchema).default([]),
  calls: z.array(CallSchema).default([]),
  /** Records of long-tail collections answered by the spec fallback, by list path without `.json` (`/2010-04-01/Accounts/AC…/Queues`). */
  spec: z.record(z.array(z.record(z.unknown()))).default({}),
}).strict();
export type TwilioDataset = z.infer<typeof TwilioDatasetSchema>;
