import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call all 71 tools of toolbench's PagerDuty
 * server, in Northwind's account (mocks/pagerduty/conformance): creates first, then reads,
 * updates, and deletes last. The arguments name records of the conformance world (or the sweep's
 * own creates), so each call reaches its operation rather than a 404.
 */
const INC = 'PINC101';
const DAY = { date_range_start: '2025-02-01T00:00:00Z', date_range_end: '2025-03-01T00:00:00Z' };
const CREATED = { created_at_start: '2025-02-01T00:00:00Z', created_at_end: '2025-03-01T00:00:00Z' };

const ARGS: Record<string, Record<string, unknown>> = {
  list_alert_grouping_settings: { service_ids: ['PSVAPI1'], limit: 10 },
  get_alert_grouping_setting: { setting_id: 'PAGS001' },
  list_alerts_from_incident: { incident_id: INC, limit: 10 },
  get_alert_from_incident: { incident_id: INC, alert_id: '' },
  list_change_events: { limit: 10 },
  get_change_event: { change_event_id: 'PCHG001' },
  list_service_change_events: { service_id: 'PSVAPI1', limit: 10 },
  list_incident_change_events: { incident_id: INC, limit: 10 },
  list_incidents: { statuses: ['triggered', 'acknowledged'], urgencies: ['high'], limit: 20 },
  get_incident: { incident_id: INC, query_model: { include: ['assignees'] } },
  get_outlier_incident: { incident_id: INC, query_model: {} },
  get_past_incidents: { incident_id: INC, query_model: { limit: 5, total: true } },
  get_related_incidents: { incident_id: INC, query_model: {} },
  list_incident_notes: { incident_id: 'PINC102' },
  list_incident_workflows: { limit: 10 },
  get_incident_workflow: { workflow_id: 'PWF0001' },
  list_services: { query: 'checkout', limit: 10 },
  get_service: { service_id: 'PSVAPI1' },
  get_technical_service_dependencies: { service_id: 'PSVAPI1' },
  list_teams: { scope: 'all', limit: 10 },
  get_team: { team_id: 'PTPAY01' },
  list_team_members: { team_id: 'PTPAY01' },
  get_user_data: {},
  list_users: { query: 'a', limit: 10 },
  list_schedules: { query_model: { limit: 10 } },
  get_schedule: { schedule_id: 'PSPAY01' },
  list_schedule_users: { schedule_id: 'PSPAY01' },
  list_oncalls: { service_ids: ['PSVAPI1'], earliest: true },
  list_log_entries: { query_model: { limit: 20 } },
  get_log_entry: { log_entry_id: '' },
  list_escalation_policies: { limit: 10 },
  get_escalation_policy: { policy_id: 'PEPAY01' },
  list_event_orchestrations: { limit: 10 },
  get_event_orchestration: { orchestration_id: 'PEO0001' },
  get_event_orchestration_router: { orchestration_id: 'PEO0001' },
  get_event_orchestration_service: { service_id: 'PSVAPI1' },
  get_event_orchestration_global: { orchestration_id: 'PEO0001' },
  list_status_pages: { query_model: { limit: 10 } },
  list_status_page_severities: { status_page_id: 'PSTPG01', query_model: {} },
  list_status_page_impacts: { status_page_id: 'PSTPG01', query_model: {} },
  list_status_page_statuses: { status_page_id: 'PSTPG01', query_model: {} },
  get_status_page_post: { status_page_id: 'PSTPG01', post_id: '', query_model: {} },
  list_status_page_post_updates: { status_page_id: 'PSTPG01', post_id: '', query_model: {} },
  get_responder_metrics: { ...DAY, team_ids: ['PTPAY01'] },
  get_incident_metrics_by_service: { ...CREATED, service_ids: ['PSVAPI1'] },
  get_incident_metrics_by_team: { ...CREATED, team_ids: ['PTPAY01'] },
  get_responder_load_metrics: { ...DAY },
  get_incident_metrics_all: { ...CREATED, urgency: 'high' },
  create_alert_grouping_setting: { create_model: { alert_grouping_setting: { name: 'Sweep grouping', type: 'time', config: { timeout: 5 }, services: [{ id: 'PSVPAY2' }] } } },
  update_alert_grouping_setting: { setting_id: 'PAGS001', update_model: { alert_grouping_setting: { name: 'Checkout grouping (sweep)', type: 'content_based', config: { time_window: 600, aggregate: 'all', fields: ['summary'] }, services: [{ id: 'PSVAPI1' }] } } },
  delete_alert_grouping_setting: { setting_id: 'PAGS001' },
  create_incident: { incident: { title: 'Sweep: disk full on worker-3', service: { id: 'PSVPAY2', type: 'service_reference' }, urgency: 'low', body: { details: 'Created by the conformance sweep' } } },
  manage_incidents: { manage_request: { incident_ids: ['PINC103'], status: 'acknowledged' } },
  add_responders: { incident_id: INC, request: { message: 'Please help', responder_request_targets: [{ responder_request_target: { id: 'PU0GUS7', type: 'user_reference' } }] } },
  add_note_to_incident: { incident_id: INC, note: 'Sweep note' },
  start_incident_workflow: { workflow_id: 'PWF0001', instance_request: { incident_workflow_instance: { incident: { id: INC, type: 'incident_reference' } } } },
  create_service: { service_data: { service: { name: 'sweep-service', description: 'Made by the sweep', escalation_policy: { id: 'PEPLAT1', type: 'escalation_policy_reference' } } } },
  update_service: { service_id: 'PSVPAY2', service_data: { service: { name: 'payments-worker', description: 'Async payment capture (swept)', escalation_policy: { id: 'PEPAY01', type: 'escalation_policy_reference' } } } },
  create_team: { create_model: { team: { name: 'Sweep team', description: 'Made by the sweep' } } },
  update_team: { team_id: 'PTWEB01', update_model: { team: { name: 'Web', description: 'Storefront and web frontend (swept)' } } },
  add_team_member: { team_id: 'PTWEB01', member_data: { user_id: 'PU0GUS7', role: 'responder' } },
  remove_team_member: { team_id: 'PTWEB01', user_id: 'PU0GUS7' },
  create_schedule: { schedule_data: { name: 'Sweep shifts', time_zone: 'UTC', description: 'Shift-based schedule from the sweep' } },
  update_schedule: { schedule_id: '', schedule_data: { name: 'Sweep shifts (renamed)', time_zone: 'UTC' } },
  create_schedule_override: { schedule_id: 'PSPAY01', override_request: { overrides: [{ start: '2025-03-04T09:00:00Z', end: '2025-03-05T09:00:00Z', user_id: 'PU0DEV4' }] } },
  update_event_orchestration_router: { orchestration_id: 'PEO0001', router_update: { orchestration_path: { sets: [{ id: 'start', rules: [] }], catch_all: { actions: { route_to: 'unrouted' } } } } },
  append_event_orchestration_router_rule: { orchestration_id: 'PEO0001', new_rule: { label: 'Sweep rule', conditions: [{ expression: "event.summary matches part 'checkout'" }], actions: { route_to: 'PSVAPI1' } } },
  create_status_page_post: { status_page_id: 'PSTPG01', create_model: { post: { title: 'Checkout degraded', post_type: 'incident', starts_at: '2025-03-03T09:00:00Z', ends_at: '2025-03-03T12:00:00Z', updates: [{ message: 'Investigating', status: { id: 'PSTAT01' }, severity: { id: 'PSEV001' }, impacted_services: [] }], status_page: { id: 'PSTPG01' } } } },
  create_status_page_post_update: { status_page_id: 'PSTPG01', post_id: '', create_model: { post_update: { message: 'Fix deployed', status: { id: 'PSTAT01' }, severity: { id: 'PSEV001' }, impacted_services: [], post: { id: '' } } } },
  create_user: { request: { name: 'Sweep User', email: 'sweep@northwind.example', role: 'user', time_zone: 'UTC' } },
};

const FIRST = ['create_alert_grouping_setting', 'create_incident', 'create_schedule', 'create_status_page_post', 'create_user', 'create_team', 'create_service'];
const LAST = ['remove_team_member', 'delete_alert_grouping_setting', 'delete_team'];

export function rank(tool: string): number {
  if (FIRST.includes(tool)) return 0;
  if (tool === 'create_status_page_post_update' || tool === 'add_team_member') return 1;
  if (LAST.includes(tool)) return 4 + LAST.indexOf(tool);
  if (/^(update|manage|add|append|start|create)_/.test(tool)) return 3;
  return 2;
}

type State = Record<string, Record<string, unknown>>;
/** The id of the first document in a collection (the fallback keys them `<path>/<id>`). */
const firstId = (state: State, collection: string): string => {
  // The fallback keys each record `<path>/<id>`.
  const key = Object.keys(state[collection] ?? {})[0];
  return key ? key.split('/').at(-1)! : '';
};

export const sweep: SweepProfile = {
  scenario: 'mocks/pagerduty/conformance',
  order: rank,
  argsFor: (tool, state) => {
    const args = { ...(ARGS[tool.name] ?? {}) };
    const alert = Object.values(state.alerts ?? {}).find((a) => (a as { incident_id?: string }).incident_id === INC) as { id?: string } | undefined;
    if (tool.name === 'get_alert_from_incident') args.alert_id = alert?.id ?? '';
    if (tool.name === 'get_log_entry') args.log_entry_id = Object.keys(state.log_entries ?? {})[0] ?? '';
    if (tool.name === 'update_schedule') args.schedule_id = firstId(state, 'spec:/v3/schedules');
    const post = firstId(state, 'spec:/status_pages/{id}/posts');
    if (['get_status_page_post', 'list_status_page_post_updates', 'create_status_page_post_update'].includes(tool.name)) args.post_id = post;
    if (tool.name === 'create_status_page_post_update') args.create_model = { post_update: { ...((ARGS.create_status_page_post_update!.create_model as { post_update: object }).post_update), post: { id: post } } };
    if (tool.name === 'delete_team') args.team_id = Object.values(state.teams ?? {}).map((t) => t as { id: string; name: string }).find((t) => t.name === 'Sweep team')?.id ?? '';
    return args;
  },
};
