import type { JsonSchema, SweepProfile } from '../kit/sweep-profile.js';
import { twilioSpecOperations } from './fallback.js';

/**
 * How the conformance suite and `toolbench coverage` call all 197 tools of Twilio's MCP server
 * (one per operation of the 2010-04-01 API): in Harbor Dental Group's account
 * (mocks/twilio/conformance), creates first, then reads and updates, deletes last. Each path
 * SID names something that exists when the tool runs (a message, call or number of the
 * handlers, or a document an earlier create left in the spec fallback's collections), so the
 * sweep reaches the operations themselves and not only their 404s.
 */
const ACCOUNT = 'AC0ff34b6f461fc20d099278f16181c244';
const OWN_NUMBER = '+14155550101';
const HANDLED: Record<string, string> = { Messages: 'messages', Calls: 'calls', IncomingPhoneNumbers: 'incoming_phone_numbers' };

/** Values for body parameters a create needs to succeed, by name. */
const BODY: Record<string, unknown> = {
  To: '+14155552001', From: OWN_NUMBER, Body: 'Sweep message', Url: 'https://hooks.example.com/voice/sweep', FriendlyName: 'Sweep',
  PhoneNumber: '+14155550199', CustomerName: 'Harbor Dental Group', Street: '1 Market St', City: 'San Francisco', Region: 'CA',
  PostalCode: '94105', IsoCountry: 'US', DomainName: 'sweep.sip.twilio.com', CredentialListSid: 'CL00000000000000000000000000000000',
  IpAccessControlListSid: 'AL00000000000000000000000000000000', Username: 'sweep', Password: 'Sweep-Password-123', IpAddress: '10.0.0.1',
  Outcome: 'confirmed', Twiml: '<Response><Say>Hi</Say></Response>', Status: 'completed', Method: 'POST', TriggerValue: '100',
  UsageCategory: 'sms', CallbackUrl: 'https://hooks.example.com/usage', Label: 'sweep', Payload: 'sweep', Content: 'sweep', Track: 'both_tracks',
};

/** create < read/list < update/action < delete: what a tool's operation does, from its name. */
export function rank(tool: string): number {
  const op = tool.split('--')[1] ?? tool;
  if (op.startsWith('Create')) return 0;
  if (op.startsWith('Fetch') || op.startsWith('List')) return 1;
  if (op.startsWith('Update')) return 2;
  if (op.startsWith('Delete')) return 3;
  return 2;
}

/** The spec's path template (no `.json`) of a tool's operation: `twilio_api_v2010--FetchQueue` is FetchQueue's. */
function templateOf(tool: string): string | null {
  const id = tool.split('--')[1];
  return twilioSpecOperations().find((op) => op.id === id)?.template ?? null;
}

export const sweep: SweepProfile = {
  scenario: 'mocks/twilio/conformance',
  order: rank,
  args: { common: { AccountSid: ACCOUNT } },
  argsFor(tool, state) {
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((tool.inputSchema.required ?? []) as string[]);
    const args: Record<string, unknown> = { AccountSid: ACCOUNT };
    const template = templateOf(tool.name);
    const subaccount = Object.values(state.accounts ?? {}).map((d) => d as { sid: string; owner_account_sid: string }).find((a) => a.owner_account_sid === ACCOUNT && a.sid !== ACCOUNT)?.sid;
    if (template) {
      const t = template.split('/');
      const concrete = [...t];
      for (let i = 0; i < t.length; i++) {
        const param = /^\{(.+)\}$/.exec(t[i]!)?.[1];
        if (!param || param === 'AccountSid' && i === 3) {
          if (param) concrete[i] = ACCOUNT;
          continue;
        }
        const collection = t[i - 1]!;
        const prefix = concrete.slice(0, i).join('/');
        let id: string | undefined;
        if (i === 3) id = param === 'Sid' ? ACCOUNT : subaccount;
        else if (i === 5 && HANDLED[collection]) {
          id = Object.values(state[HANDLED[collection]!] ?? {}).map((d) => (d as { sid: string }).sid).sort().at(0);
        } else {
          const docs = state[`spec:${t.slice(0, i).join('/')}`] ?? {};
          id = Object.keys(docs).filter((key) => key.startsWith(`${prefix}/`) && !key.slice(prefix.length + 1).includes('/')).sort().at(0)?.slice(prefix.length + 1);
        }
        if (param === 'CountryCode') id = 'US';
        concrete[i] = id ?? `${param.slice(0, 2).toUpperCase()}00000000000000000000000000000000`;
        args[param] = concrete[i];
      }
    }
    for (const name of Object.keys(properties)) {
      if (name in args) continue;
      if (name in BODY && (required.has(name) || ['To', 'From', 'Body', 'Url', 'FriendlyName'].includes(name))) args[name] = BODY[name];
    }
    // Creating a number needs a free one each time; moving it elsewhere is not what the sweep is for.
    if (tool.name.endsWith('--UpdateIncomingPhoneNumber')) delete args.FriendlyName;
    return args;
  },
};
