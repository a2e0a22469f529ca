import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { automationOperations } from './automation.js';
import { pdAuth, pdContext, type PdCtx } from './context.js';
import { PagerDutyDatasetSchema, type PagerDutyDataset } from './dataset.js';
import { directoryOperations } from './directory.js';
import { fallback, seedItems } from './fallback.js';
import { incidentOperations } from './incidents.js';
import { loadPagerDuty } from './load.js';
import { pdError, renderError } from './model.js';

/**
 * PagerDuty's REST API v2 (api.pagerduty.com): `Authorization: Token token=…`, a `From` header
 * on writes with an account-level token, incidents (filters, acknowledge/resolve/reassign/
 * escalate, notes, alerts, merge, log entries, status updates) and the directory (users, teams,
 * services, escalation policies, schedules, on-calls, priorities) by hand-written handlers; the
 * rest of the API from PagerDuty's own OpenAPI description. docs/pagerduty-mock.md.
 */

/** PagerDuty's 429 is `{"error": {"message": "Rate Limit Exceeded", "code": 2020}}` with `Retry-After` and its `ratelimit-*` headers. */
function pdFault(order: FaultOrder, _req: ServiceRequest, _ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') {
    return renderError(pdError(429, 2020, 'Rate Limit Exceeded', [], [
      ['Retry-After', String(order.retryAfter)], ['ratelimit-limit', '960'], ['ratelimit-remaining', '0'], ['ratelimit-reset', String(order.retryAfter)],
    ]));
  }
  if (order.kind === '503') return renderError(pdError(503, 2015, 'Service Unavailable', [], [['Retry-After', String(order.retryAfter)]]));
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' || order.kind === '502' ? 502 : 500;
  return renderError(pdError(status, 2015, 'Internal Server Error'));
}

export const pagerdutyService = defineService<PagerDutyDataset, PdCtx>({
  id: 'pagerduty',
  version: '1',
  dataset: PagerDutyDatasetSchema,
  load(data, ctx) {
    loadPagerDuty(data, ctx);
    fallback.seed(data.spec, ctx);
    seedItems(data.spec_items, ctx);
  },
  context: pdContext,
  operations: [...incidentOperations, ...directoryOperations, ...automationOperations],
  fallback,
  errors: (error) => renderError(error),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const issue = detail.issues?.[0];
        const name = issue?.path.join('.') || (detail.where === 'body' ? 'body' : 'parameter');
        return pdError(400, 2001, 'Invalid Input Provided', [`${name} ${issue?.message ?? 'is invalid'}`]);
      }
      case 'malformed_body': return pdError(400, 2001, 'Invalid Input Provided', ['Invalid JSON body']);
      case 'unauthenticated': return pdError(401, 2006, 'Unauthorized');
      case 'method_not_allowed': return pdError(405, 2100, 'Method Not Allowed');
      case 'payload_too_large': return pdError(413, 2001, 'Request Entity Too Large');
      case 'internal_error': return pdError(500, 2015, 'Internal Server Error');
      case 'not_found': return pdError(404, 2100, 'Not Found');
    }
  },
  middleware: [pdAuth],
  fault: pdFault,
  volatile: {
    // Credentials, and the derived audit trail (graded through the writes themselves).
    tokens: '*',
    log_entries: '*',
    // Side effects of acknowledging, resolving and escalating (graded through status, level, assignments).
    incidents: ['updated_at', 'first_trigger_log_entry', 'acknowledgements', 'last_status_change_at', 'last_status_change_by', 'resolved_at', 'alert_counts', 'assigned_via', 'pending_actions'],
    alerts: ['status', 'resolved_at'],
    services: ['updated_at', 'last_incident_timestamp'],
  },
});
