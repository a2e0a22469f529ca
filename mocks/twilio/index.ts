import { ServiceRequest, type ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService, type Middleware } from '../kit/define.js';
import { accountOperations } from './accounts.js';
import { callOperations, settleCalls } from './calls.js';
import { mayUse, twilioContext, type TwilioCtx } from './context.js';
import { TwilioDatasetSchema, type TwilioDataset } from './dataset.js';
import { twilioTail } from './fallback.js';
import { loadTwilio } from './load.js';
import { messageOperations, settleMessages } from './messages.js';
import { API, notFound, twilioError, twilioErrors, twilioSid } from './model.js';
import { numberOperations } from './numbers.js';

/**
 * Twilio's REST API, 2010-04-01 (api.twilio.com): HTTP basic auth with the account SID and auth
 * token or an API key SID and secret; form-encoded parameters in PascalCase; JSON resources
 * (`….json` paths) with 34-character SIDs and RFC 2822 times; Twilio's page/PageSize/PageToken
 * lists; errors as `{code, message, more_info, status}`. Messages, calls, phone numbers and
 * accounts by handlers; every other operation of the API's description by the spec fallback.
 * docs/twilio-mock.md.
 */

/** Only JSON is modelled: `/Messages.json` is matched as `/Messages`; a path without `.json` (Twilio's XML) matches nothing. */
function rewrite(req: ServiceRequest): ServiceRequest {
  if (!req.path.startsWith(`${API}/`) && req.path !== API) return req;
  const query = req.target.slice(req.path.length);
  const path = req.path.endsWith('.json') ? req.path.slice(0, -'.json'.length) : `/xml-not-modelled${req.path}`;
  return new ServiceRequest(req.method, path + query, req.headers, req.body);
}

/** `Twilio-Request-Id` (seeded) on every answer, errors included; an unknown path is Twilio's 20404 naming it. */
const twilioHeaders: Middleware<TwilioCtx> = (req, c, next, matched) => {
  const response = matched === null ? twilioErrors(notFound(req.path)) : next();
  return { ...response, headers: [...response.headers, ['Twilio-Request-Id', twilioSid(c.ctx, 'RQ')]] };
};

const AUTHENTICATE: [string, string][] = [['WWW-Authenticate', 'Basic realm="Twilio API"']];

/**
 * Every request needs a credential of the dataset's table (401 20003 otherwise), and may only
 * reach its own account or a subaccount of it (`/Accounts/{AccountSid}/…`).
 */
const twilioAuth: Middleware<TwilioCtx> = (req, c, next) => {
  if (c.auth.kind !== 'ok') throw twilioError(401, 20003, 'Authenticate', AUTHENTICATE, 'Your AccountSid or AuthToken was incorrect.');
  const account = new RegExp(`^${API}/Accounts/([^/]+?)(?:\\.json)?/`).exec(req.path)?.[1];
  if (account !== undefined && !mayUse(c, account)) throw twilioError(401, 20003, 'Authenticate', AUTHENTICATE, `The credential does not grant access to account ${account}.`);
  return next();
};

/** Sent messages and placed calls move on with the logical clock before anything reads them. */
const settle: Middleware<TwilioCtx> = (_req, c, next) => {
  settleMessages(c.ctx);
  settleCalls(c.ctx);
  return next();
};

/**
 * Twilio's answers when a fault stands in for the handler (docs/faults.md): 429 is error 20429
 * "Too Many Requests" with `Retry-After`; 5xx are 20500 (20503 for a 503), `reset` a 502 the
 * transport cuts, `timeout` a gateway's 504.
 */
function twilioFault(order: FaultOrder, req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  const retry: [string, string][] = order.kind === '429' || order.kind === '503' ? [['Retry-After', String(order.retryAfter)]] : [];
  const error = order.kind === '429' ? twilioError(429, 20429, 'Too Many Requests', retry)
    : order.kind === '503' ? twilioError(503, 20503, 'Service Unavailable', retry)
      : twilioError(FAULT_STATUS[order.kind], 20500, 'An internal server error has occurred');
  const response = twilioErrors(error);
  return { ...response, headers: [...response.headers, ['Twilio-Request-Id', twilioSid(twilioContext(req, ctx).ctx, 'RQ')]] };
}

const FAULT_STATUS: Record<Exclude<FaultOrder['kind'], '429' | '503'>, number> = { 500: 500, 502: 502, reset: 502, timeout: 504 };

export const twilioService = defineService<TwilioDataset, TwilioCtx>({
  id: 'twilio',
  version: '1',
  dataset: TwilioDatasetSchema,
  load: loadTwilio,
  context: twilioContext,
  rewrite,
  operations: [...accountOperations, ...messageOperations, ...callOperations, ...numberOperations],
  errors: (error) => twilioErrors(error),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const issue = detail.issues?.[0];
        const name = issue?.path.join('.') || '(body)';
        return twilioError(400, 20001, `Invalid parameter ${name}: ${issue?.message ?? 'invalid value'}`);
      }
      case 'malformed_body': return twilioError(400, 20001, 'The request body could not be parsed');
      case 'unauthenticated': return twilioError(401, 20003, 'Authenticate', AUTHENTICATE, 'Your AccountSid or AuthToken was incorrect.');
      case 'method_not_allowed': return twilioError(405, 20004, 'Method not allowed');
      case 'payload_too_large': return twilioError(413, 20001, 'The request body is too large');
      case 'internal_error': return twilioError(500, 20500, 'An internal server error has occurred');
      case 'not_found': return twilioError(404, 20404, 'The requested resource was not found');
    }
  },
  middleware: [twilioHeaders, twilioAuth, settle],
  fault: twilioFault,
  fallback: twilioTail,
  volatile: {
    // Keys are credentials, not state an agent changes; times move with the logical clock.
    keys: '*',
    // The mock's own note of a number's type (Local/Mobile/TollFree lists), not part of the resource.
    number_types: '*',
    messages: ['date_updated', 'date_sent'],
    calls: ['date_updated'],
    incoming_phone_numbers: ['date_updated'],
    accounts: ['date_updated'],
  },
});

