import { jsonResponse, ServiceRequest, type ServiceResponse } from '../core/http.js';
import { defineService } from '../kit/define.js';
import { slackError, slackErrorStyle, slackRateLimited } from '../kit/envelopes/slack.js';
import type { ServiceError } from '../kit/errors.js';
import { channelOperations } from './channels.js';
import { clientOperations } from './client.js';
import { fileOperations } from './files.js';
import { readOperations } from './reads.js';
import { searchOperations } from './search.js';
import { conversationOperations } from './conversations.js';
import { SlackDatasetSchema, type SlackDataset } from './dataset.js';
import { loadSlack } from './load.js';
import { messageOperations } from './messages.js';
import { pinOperations } from './pins.js';
import { reminderOperations } from './reminders.js';
import { slackContext, slackHeaders, type SlackCtx } from './method.js';
import { slackSpecFallback } from './spec.js';
import { userOperations } from './users.js';

/**
 * The Slack Web API (https://slack.com/api/<method>), as `@modelcontextprotocol/server-slack`
 * and `@slack/web-api` call it. See docs/slack-mock.md.
 */
export const slackService = defineService<SlackDataset, SlackCtx>({
  id: 'slack',
  version: '4',
  dataset: SlackDatasetSchema,
  load: loadSlack,
  context: slackContext,
  operations: [...userOperations, ...conversationOperations, ...channelOperations, ...messageOperations, ...pinOperations, ...reminderOperations, ...clientOperations, ...searchOperations, ...readOperations, ...fileOperations],
  // Every other method of Slack's description, in the description's shape (mocks/slack/spec.ts).
  fallback: slackSpecFallback,
  // Slack answers a method by GET or POST alike; its operations are declared once, as POST.
  rewrite: (req) => (req.method === 'POST' ? req : new ServiceRequest('POST', req.target, req.headers, req.body)),
  middleware: [slackHeaders],
  errors: slackErrorStyle,
  refusal(reason): ServiceError {
    switch (reason) {
      case 'not_found':
      case 'method_not_allowed':
        return slackError('unknown_method', {}, 404);
      case 'malformed_body':
        return slackError('invalid_json');
      case 'invalid_params':
        return slackError('invalid_arguments');
      case 'unauthenticated':
        return slackError('not_authed');
      case 'payload_too_large':
        return slackError('request_too_large', {}, 413);
      case 'internal_error':
        return slackError('fatal_error', {}, 500);
    }
  },
  fault(order): ServiceResponse {
    switch (order.kind) {
      case '429':
        return slackErrorStyle(slackRateLimited(order.retryAfter), null);
      case '500':
        return jsonResponse(500, { ok: false, error: 'fatal_error' });
      case '502':
      case 'reset':
        return jsonResponse(502, { ok: false, error: 'service_unavailable' });
      case '503':
        return jsonResponse(503, { ok: false, error: 'service_unavailable' }, [['Retry-After', String(order.retryAfter)]]);
      case 'timeout':
        return jsonResponse(504, { ok: false, error: 'request_timeout' });
    }
  },
  volatile: { messages: ['block_id'], users: ['avatar_hash', 'updated'] },
});
