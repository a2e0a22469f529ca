import test from 'ava';
import { z } from 'zod';
import { twilioService } from '../mocks/twilio/index.js';
import { sweep } from '../mocks/twilio/conformance.js';
import { twilioSpecOperations } from '../mocks/twilio/fallback.js';
import { conformance } from './helpers/conformance.js';

// The conformance suite over Twilio (test/helpers/conformance.ts): determinism, seeds, error and
// fault shapes, volatile fields, and all 197 tools of the pinned @twilio-alpha/mcp through MCP.
// Requests are generated from every operation of Twilio's description (with `.json`, as the API
// takes them), with SIDs of the conformance world and ones that do not exist.

const ACCOUNT = 'AC0ff34b6f461fc20d099278f16181c244';
const TOKEN = '96ffa426dd6bcd727bc7846d5c773e9a';

const TwilioError = z.object({
  code: z.number().int(), detail: z.string().optional(), message: z.string(), more_info: z.string().url(), status: z.number().int(),
}).strict();

const VALUES: Record<string, readonly string[]> = {
  AccountSid: [ACCOUNT, ACCOUNT, ACCOUNT, 'ACffffffffffffffffffffffffffffffff'],
  Sid: ['SMcb5f3ec08fc84d4e0cac1ab5e4c37b5c', 'CA0e6f9cb0e0b5e2c2ce2d7a84e1c1e8d4', 'PN5c48a61b5a0d0f1e8d2fa5c69d3cc8a1', 'XX00000000000000000000000000000000'],
  CallSid: ['CA00000000000000000000000000000000'], MessageSid: ['SM00000000000000000000000000000000'], CountryCode: ['US', 'GB'],
};

const form = (body: Record<string, unknown>): string => new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString();

conformance(test, {
  service: 'twilio',
  sweep,
  headers: [['Authorization', `Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`]],
  // The handlers' routes are matched after `.json` is cut; requests come from the spec's paths below.
  skipRoutes: twilioService.routes!.map((route) => `${route.method} ${route.pattern}`),
  encodeBody: (body) => ({ contentType: 'application/x-www-form-urlencoded', text: form(body) }),
  requests: [
    (r) => {
      const op = r.pick(twilioSpecOperations());
      const target = `${op.template.replace(/\{([^}]+)\}/g, (_m, name: string) => r.pick(VALUES[name] ?? ['conformance']))}.json`;
      return { method: op.method, target, ...(op.method === 'POST' ? { body: { FriendlyName: `Generated ${r.int(1, 99)}` } } : {}) };
    },
    (r, i) => ({ method: 'POST', target: `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`, body: { To: `+1415555${2000 + r.int(0, 39)}`, From: r.pick(['+14155550101', '+14155550102', '+13125550140']), Body: `Generated ${i}` } }),
    (r) => ({ method: 'GET', target: `/2010-04-01/Accounts/${ACCOUNT}/Messages.json?PageSize=${r.int(1, 30)}&To=${encodeURIComponent(`+1415555${2000 + r.int(0, 39)}`)}` }),
    (r) => ({ method: 'POST', target: `/2010-04-01/Accounts/${ACCOUNT}/Calls.json`, body: { To: `+1415555${2000 + r.int(0, 39)}`, From: '+14155550101', Url: 'https://hooks.example.com/voice' } }),
    (r) => ({ method: 'GET', target: `/2010-04-01/Accounts/${ACCOUNT}/Calls.json?Status=${r.pick(['completed', 'busy', 'queued'])}&PageSize=${r.int(1, 10)}` }),
    (r) => ({ method: 'POST', target: `/2010-04-01/Accounts/${ACCOUNT}/IncomingPhoneNumbers.json`, body: { AreaCode: r.pick(['415', '617', '212']) } }),
    () => ({ method: 'GET', target: `/2010-04-01/Accounts/${ACCOUNT}/Messages` }),
  ],
  seeded: { patterns: [/\b[A-Z]{2}[0-9a-f]{32}\b/g, /"auth_token":"[0-9a-f]{32}"/g], headers: ['Twilio-Request-Id', 'Content-Length'] },
  errorShape: TwilioError,
});
