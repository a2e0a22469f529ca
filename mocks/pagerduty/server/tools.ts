import { readFileSync } from 'node:fs';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Json, PagerDutyClient, Params } from './client.js';

/**
 * The 71 tools of PagerDuty's pagerduty-mcp 1.1.0 that toolbench serves (docs/provenance.md):
 * names, descriptions (the functions' docstrings, as FastMCP lists them), input schemas (the
 * argument models' JSON Schema, as FastMCP builds them) and annotations come from tools.json,
 * extracted from that release; the calls below are the ones each Python tool makes. Answers are
 * the API's records as JSON; lists are `{"response": [...]}` as its ListResponseModel renders.
 */
export const TOOLS: Tool[] = JSON.parse(readFileSync(new URL('./tools.json', import.meta.url), 'utf8')) as Tool[];

type Args = Record<string, unknown>;
type Impl = (a: Args, pd: PagerDutyClient, me: () => Promise<Json>) => Promise<unknown>;

const list = (items: unknown[]) => ({ response: items });
const obj = (v: unknown): Args => (v && typeof v === 'object' && !Array.isArray(v) ? v as Args : {});
const arr = (v: unknown): string[] | undefined => (Array.isArray(v) && v.length > 0 ? v.map(String) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
/** Drops null and undefined members, as `model_dump(exclude_none=True)` does. */
function noNone(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(noNone);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined).map(([k, x]) => [k, noNone(x)]));
}
const id = (a: Args, name: string): string => {
  const v = a[name];
  if (typeof v !== 'string' || v.trim() === '') throw new Error(`${name} must be a non-empty string`);
  return encodeURIComponent(v.trim());
};

/** Change-event filters, as list_change_events and list_service_change_events send them. */
const changeParams = (a: Args): Params => ({
  limit: num(a.limit), offset: num(a.offset), total: a.total ? 'true' : undefined, 'team_ids[]': arr(a.team_ids),
  'integration_ids[]': arr(a.integration_ids), since: str(a.since), until: str(a.until),
});

/** The analytics tools' body: filters, then the optional ordering and time zone. */
function analyticsBody(a: Args, range: ['date_range_start', 'date_range_end'] | ['created_at_start', 'created_at_end'], ids: string[]): Json {
  const filters: Json = { [range[0]]: a[range[0]], [range[1]]: a[range[1]] };
  for (const key of ids) if (arr(a[key])) filters[key] = a[key];
  if (str(a.urgency)) filters.urgency = a.urgency;
  return { filters, ...(str(a.time_zone) ? { time_zone: a.time_zone } : {}), ...(str(a.order) ? { order: a.order } : {}), ...(str(a.order_by) ? { order_by: a.order_by } : {}), ...(str(a.aggregate_unit) ? { aggregate_unit: a.aggregate_unit } : {}) };
}
async function analytics(pd: PagerDutyClient, path: string, body: Json): Promise<unknown> {
  const answer = await pd.request('POST', path, { json: body }) as Json | unknown[];
  return list(Array.isArray(answer) ? answer : ((answer as Json)?.data ?? []) as unknown[]);
}

function manageRequest(ids: string[], field: string, value: unknown): Json {
  return { incidents: ids.map((i) => ({ type: 'incident_reference', id: i, [field]: value })) };
}

const IMPL: Record<string, Impl> = {
  // Alert grouping settings
  list_alert_grouping_settings: async (a, pd) => list(await pd.paginate('/alert_grouping_settings', 'alert_grouping_settings', {
    'service_ids[]': arr(a.service_ids), limit: num(a.limit), after: str(a.after), before: str(a.before), total: a.total ? 'true' : undefined,
  }, num(a.limit) ?? 1000)),
  get_alert_grouping_setting: (a, pd) => pd.rget(`/alert_grouping_settings/${id(a, 'setting_id')}`, 'alert_grouping_setting'),
  create_alert_grouping_setting: (a, pd) => pd.rpost('/alert_grouping_settings', 'alert_grouping_setting', noNone(a.create_model)),
  update_alert_grouping_setting: (a, pd) => pd.rput(`/alert_grouping_settings/${id(a, 'setting_id')}`, 'alert_grouping_setting', noNone(a.update_model)),
  delete_alert_grouping_setting: async (a, pd) => {
    await pd.rdelete(`/alert_grouping_settings/${id(a, 'setting_id')}`);
    return `Successfully deleted alert grouping setting ${String(a.setting_id)}`;
  },
  // Alerts
  list_alerts_from_incident: async (a, pd) => list(await pd.paginate(`/incidents/${id(a, 'incident_id')}/alerts`, 'alerts', { limit: num(a.limit) ?? 100, offset: num(a.offset) ?? 0 }, num(a.limit) ?? 100)),
  get_alert_from_incident: (a, pd) => pd.rget(`/incidents/${id(a, 'incident_id')}/alerts/${id(a, 'alert_id')}`, 'alert'),
  // Change events
  list_change_events: async (a, pd) => list(await pd.paginate('/change_events', 'change_events', changeParams(a), num(a.limit) ?? 1000)),
  get_change_event: (a, pd) => pd.rget(`/change_events/${id(a, 'change_event_id')}`, 'change_event'),
  list_service_change_events: async (a, pd) => list(await pd.paginate(`/services/${id(a, 'service_id')}/change_events`, 'change_events', changeParams(a), num(a.limit) ?? 1000)),
  list_incident_change_events: async (a, pd) => list(await pd.paginate(`/incidents/${id(a, 'incident_id')}/related_change_events`, 'change_events', { limit: num(a.limit) }, num(a.limit) ?? 1000)),
  // Incidents
  list_incidents: async (a, pd, me) => {
    const params: Params = {
      'statuses[]': arr(a.statuses), since: str(a.since), until: str(a.until), 'urgencies[]': arr(a.urgencies), 'priority_ids[]': arr(a.priorities),
    };
    if (a.request_scope === 'assigned') params['user_ids[]'] = [String((await me()).id)];
    if (a.request_scope === 'teams') params['team_ids[]'] = ((await me()).teams as Json[] ?? []).map((t) => String(t.id));
    return list(await pd.paginate('/incidents', 'incidents', params, num(a.limit) ?? 1000));
  },
  get_incident: (a, pd) => pd.rget(`/incidents/${id(a, 'incident_id')}`, 'incident', { 'include[]': arr(obj(a.query_model).include) }),
  create_incident: (a, pd) => pd.rpost('/incidents', 'incident', { incident: { ...obj(noNone(a.incident)), type: 'incident' } }),
  manage_incidents: async (a, pd) => {
    const m = obj(a.manage_request);
    const ids = (m.incident_ids ?? []) as string[];
    let answer: unknown = null;
    if (str(m.status)) answer = await pd.rput('/incidents', 'incidents', manageRequest(ids, 'status', m.status));
    if (str(m.urgency)) answer = await pd.rput('/incidents', 'incidents', manageRequest(ids, 'urgency', m.urgency));
    const assignee = obj(m.assignement);
    if (str(assignee.id)) answer = await pd.rput('/incidents', 'incidents', manageRequest(ids, 'assignments', [{ assignee: { type: 'user_reference', id: assignee.id } }]));
    if (num(m.escalation_level)) answer = await pd.rput('/incidents', 'incidents', manageRequest(ids, 'escalation_level', m.escalation_level));
    return list(Array.isArray(answer) ? answer : []);
  },
  add_responders: async (a, pd, me) => {
    const payload = { ...obj(a.request), requester_id: (await me()).id };
    return pd.rpost(`/incidents/${id(a, 'incident_id')}/responder_requests`, 'responder_request', payload);
  },
  list_incident_notes: async (a, pd) => list(await pd.rget(`/incidents/${id(a, 'incident_id')}/notes`, 'notes') as unknown[]),
  add_note_to_incident: (a, pd) => pd.rpost(`/incidents/${id(a, 'incident_id')}/notes`, 'note', { note: { content: a.note } }),
  get_outlier_incident: (a, pd) => pd.rget(`/incidents/${id(a, 'incident_id')}/outlier_incident`, 'outlier_incident', {
    since: str(obj(a.query_model).since), until: str(obj(a.query_model).until), 'additional_details[]': arr(obj(a.query_model).additional_details),
  }),
  get_past_incidents: async (a, pd) => {
    const q = obj(a.query_model);
    const body = await pd.request('GET', `/incidents/${id(a, 'incident_id')}/past_incidents`, { params: { limit: num(q.limit), total: q.total ? 'true' : undefined } }) as Json;
    return { past_incidents: body.past_incidents ?? [], total: body.total ?? null, limit: body.limit ?? num(q.limit) ?? 5 };
  },
  get_related_incidents: async (a, pd) => {
    const body = await pd.request('GET', `/incidents/${id(a, 'incident_id')}/related_incidents`, { params: { 'additional_details[]': arr(obj(a.query_model).additional_details) } }) as Json;
    return { related_incidents: body.related_incidents ?? [] };
  },
  // Incident workflows
  list_incident_workflows: async (a, pd) => list(await pd.paginate('/incident_workflows', 'incident_workflows', { limit: num(a.limit), query: str(a.query), 'include[]': arr(a.include) }, num(a.limit) ?? 1000)),
  get_incident_workflow: (a, pd) => pd.rget(`/incident_workflows/${id(a, 'workflow_id')}`, 'incident_workflow'),
  start_incident_workflow: (a, pd) => pd.rpost(`/incident_workflows/${id(a, 'workflow_id')}/instances`, 'incident_workflow_instance', noNone(a.instance_request)),
  // Services
  list_services: async (a, pd) => list(await pd.paginate('/services', 'services', { query: str(a.query), 'team_ids[]': arr(a.teams_ids), limit: num(a.limit) }, num(a.limit) ?? 1000)),
  get_service: (a, pd) => pd.rget(`/services/${id(a, 'service_id')}`, 'service'),
  create_service: (a, pd) => pd.rpost('/services', 'service', a.service_data),
  update_service: (a, pd) => pd.rput(`/services/${id(a, 'service_id')}`, 'service', a.service_data),
  get_technical_service_dependencies: async (a, pd) => {
    const body = await pd.request('GET', `/service_dependencies/technical_services/${id(a, 'service_id')}`) as Json;
    return { relationships: body.relationships ?? [] };
  },
  // Teams
  list_teams: async (a, pd, me) => {
    if (a.scope === 'my') {
      const mine = new Set(((await me()).teams as Json[] ?? []).map((t) => t.id));
      return list((await pd.paginate('/teams', 'teams', {}, 1000)).filter((t) => mine.has(t.id)));
    }
    return list(await pd.paginate('/teams', 'teams', { query: str(a.query), limit: num(a.limit) }, num(a.limit) ?? 1000));
  },
  get_team: (a, pd) => pd.rget(`/teams/${id(a, 'team_id')}`, 'team'),
  list_team_members: async (a, pd) => list((await pd.paginate(`/teams/${id(a, 'team_id')}/members`, 'members', {}, 1000)).map((m) => m.user)),
  create_team: (a, pd) => pd.rpost('/teams', 'team', a.create_model),
  update_team: (a, pd) => pd.rput(`/teams/${id(a, 'team_id')}`, 'team', a.update_model),
  delete_team: async (a, pd) => {
    await pd.rdelete(`/teams/${id(a, 'team_id')}`);
    return `Successfully deleted team ${String(a.team_id)}`;
  },
  add_team_member: async (a, pd) => {
    const m = obj(a.member_data);
    await pd.request('PUT', `/teams/${id(a, 'team_id')}/users/${id(m, 'user_id')}`, { json: m });
    return `Successfully added user ${String(m.user_id)} to team ${String(a.team_id)} with role ${String(m.role ?? 'manager')}`;
  },
  remove_team_member: async (a, pd) => {
    await pd.rdelete(`/teams/${id(a, 'team_id')}/users/${id(a, 'user_id')}`);
    return `Successfully removed user ${String(a.user_id)} from team ${String(a.team_id)}`;
  },
  // Users
  get_user_data: (_a, _pd, me) => me(),
  list_users: async (a, pd) => list(await pd.rget('/users', 'users', { query: str(a.query), 'team_ids[]': arr(a.teams_ids), limit: num(a.limit) ?? 100 }) as unknown[]),
  create_user: (a, pd) => pd.rpost('/users', 'user', { user: a.request }),
  // Schedules: v2 (layer-based) and v3 (shift-based) together
  list_schedules: async (a, pd) => {
    const q = obj(a.query_model);
    const sources: Json[] = [];
    const response: Json[] = [];
    let degraded = false;
    try {
      const v2 = await pd.paginate('/schedules', 'schedules', { query: str(q.query), 'team_ids[]': arr(q.team_ids), 'user_ids[]': arr(q.user_ids), 'include[]': arr(q.include), limit: num(q.limit) ?? 20 });
      response.push(...v2.map((s) => ({ id: s.id, name: s.name, kind: 'layer_based', time_zone: s.time_zone, html_url: s.html_url, summary: s.summary })));
      sources.push({ api: 'v2', status: 'ok', count: v2.length });
    } catch (error) {
      degraded = true;
      sources.push({ api: 'v2', status: 'error', message: (error as Error).message });
    }
    try {
      const page = await pd.request('GET', '/v3/schedules', { params: { query: str(q.query), limit: num(q.limit) ?? 20 } }) as Json;
      const v3 = (page.schedules ?? []) as Json[];
      response.push(...v3.map((s) => ({ id: s.id, name: s.name ?? null, kind: 'shift_based', time_zone: s.time_zone ?? null, html_url: s.html_url ?? null, summary: s.summary ?? null })));
      sources.push({ api: 'v3', status: 'ok', count: v3.length, more: Boolean(page.more) });
    } catch (error) {
      degraded = true;
      sources.push({ api: 'v3', status: 'error', message: (error as Error).message });
    }
    return { response, sources, degraded };
  },
  get_schedule: async (a, pd) => {
    if (a.kind === 'shift_based') return pd.rget(`/v3/schedules/${id(a, 'schedule_id')}`, 'schedule');
    return pd.rget(`/schedules/${id(a, 'schedule_id')}`, 'schedule');
  },
  list_schedule_users: async (a, pd) => list(await pd.rget(`/schedules/${id(a, 'schedule_id')}/users`, 'users') as unknown[]),
  create_schedule: (a, pd) => pd.rpost('/v3/schedules', 'schedule', { schedule: noNone(a.schedule_data) }),
  update_schedule: (a, pd) => pd.rput(`/v3/schedules/${id(a, 'schedule_id')}`, 'schedule', { schedule: noNone(a.schedule_data) }),
  create_schedule_override: async (a, pd) => {
    const overrides = ((obj(a.override_request).overrides ?? []) as Json[]).map((o) => ({ start: o.start, end: o.end, user: { id: o.user_id, type: 'user_reference' } }));
    return pd.request('POST', `/schedules/${id(a, 'schedule_id')}/overrides`, { json: { overrides } });
  },
  // On-calls: a service filter becomes its escalation policy
  list_oncalls: async (a, pd) => {
    const eps = [...(arr(a.escalation_policy_ids) ?? [])];
    for (const service of arr(a.service_ids) ?? []) {
      const s = await pd.rget(`/services/${encodeURIComponent(service)}`, 'service') as Json;
      const ep = obj(s.escalation_policy);
      if (str(ep.id) && !eps.includes(String(ep.id))) eps.push(String(ep.id));
    }
    return list(await pd.paginate('/oncalls', 'oncalls', {
      time_zone: str(a.time_zone), 'user_ids[]': arr(a.user_ids), 'escalation_policy_ids[]': eps.length > 0 ? eps : undefined, 'schedule_ids[]': arr(a.schedule_ids),
      since: str(a.since), until: str(a.until), earliest: typeof a.earliest === 'boolean' ? String(a.earliest) : undefined, limit: num(a.limit),
    }, num(a.limit) ?? 1000));
  },
  // Log entries
  list_log_entries: async (a, pd) => {
    const q = obj(a.query_model);
    return list(await pd.paginate('/log_entries', 'log_entries', {
      since: str(q.since), until: str(q.until), limit: num(q.limit) ?? 100, offset: num(q.offset) ?? 0, is_overview: typeof q.is_overview === 'boolean' ? String(q.is_overview) : undefined,
      'include[]': arr(q.include), 'team_ids[]': arr(q.team_ids), time_zone: str(q.time_zone), total: typeof q.total === 'boolean' ? String(q.total) : undefined,
    }, num(q.limit) ?? 100));
  },
  get_log_entry: (a, pd) => pd.rget(`/log_entries/${id(a, 'log_entry_id')}`, 'log_entry'),
  // Escalation policies
  list_escalation_policies: async (a, pd) => list(await pd.paginate('/escalation_policies', 'escalation_policies', {
    query: str(a.query), 'user_ids[]': arr(a.user_ids), 'team_ids[]': arr(a.team_ids), 'include[]': arr(a.include), limit: num(a.limit),
  }, num(a.limit) ?? 1000)),
  get_escalation_policy: (a, pd) => pd.rget(`/escalation_policies/${id(a, 'policy_id')}`, 'escalation_policy'),
  // Event orchestrations
  list_event_orchestrations: async (a, pd) => list(await pd.paginate('/event_orchestrations', 'orchestrations', { limit: num(a.limit), offset: num(a.offset), sort_by: str(a.sort_by) }, num(a.limit) ?? 1000)),
  get_event_orchestration: (a, pd) => pd.rget(`/event_orchestrations/${id(a, 'orchestration_id')}`, 'orchestration'),
  get_event_orchestration_router: (a, pd) => pd.rget(`/event_orchestrations/${id(a, 'orchestration_id')}/router`, 'orchestration_path'),
  get_event_orchestration_service: (a, pd) => pd.request('GET', `/event_orchestrations/services/${id(a, 'service_id')}`),
  get_event_orchestration_global: (a, pd) => pd.rget(`/event_orchestrations/${id(a, 'orchestration_id')}/global`, 'orchestration_path'),
  update_event_orchestration_router: (a, pd) => pd.rput(`/event_orchestrations/${id(a, 'orchestration_id')}/router`, 'orchestration_path', a.router_update),
  append_event_orchestration_router_rule: async (a, pd) => {
    const path = obj(await pd.rget(`/event_orchestrations/${id(a, 'orchestration_id')}/router`, 'orchestration_path'));
    const sets = (path.sets ?? []) as Json[];
    if (sets.length === 0) throw new Error(`Event orchestration ${String(a.orchestration_id)} has no valid router configuration`);
    const rules = [...((sets[0]!.rules ?? []) as Json[]), { ...obj(a.new_rule), id: 'temp_id_will_be_replaced_by_api' }];
    const updated = { ...path, sets: [{ ...sets[0], rules }, ...sets.slice(1)] };
    return pd.rput(`/event_orchestrations/${id(a, 'orchestration_id')}/router`, 'orchestration_path', { orchestration_path: updated });
  },
  // Status pages
  list_status_pages: async (a, pd) => list(await pd.paginate('/status_pages', 'status_pages', { status_page_type: str(obj(a.query_model).status_page_type), limit: num(obj(a.query_model).limit) })),
  list_status_page_severities: async (a, pd) => list(await pd.paginate(`/status_pages/${id(a, 'status_page_id')}/severities`, 'severities', { post_type: str(obj(a.query_model).post_type), limit: num(obj(a.query_model).limit) })),
  list_status_page_impacts: async (a, pd) => list(await pd.paginate(`/status_pages/${id(a, 'status_page_id')}/impacts`, 'impacts', { post_type: str(obj(a.query_model).post_type), limit: num(obj(a.query_model).limit) })),
  list_status_page_statuses: async (a, pd) => list(await pd.paginate(`/status_pages/${id(a, 'status_page_id')}/statuses`, 'statuses', { post_type: str(obj(a.query_model).post_type), limit: num(obj(a.query_model).limit) })),
  get_status_page_post: (a, pd) => pd.rget(`/status_pages/${id(a, 'status_page_id')}/posts/${id(a, 'post_id')}`, 'post', { 'include[]': arr(obj(a.query_model).include) }),
  create_status_page_post: (a, pd) => pd.rpost(`/status_pages/${id(a, 'status_page_id')}/posts`, 'post', a.create_model),
  create_status_page_post_update: (a, pd) => pd.rpost(`/status_pages/${id(a, 'status_page_id')}/posts/${id(a, 'post_id')}/post_updates`, 'post_update', a.create_model),
  list_status_page_post_updates: async (a, pd) => list(await pd.paginate(`/status_pages/${id(a, 'status_page_id')}/posts/${id(a, 'post_id')}/post_updates`, 'post_updates', {
    reviewed_status: str(obj(a.query_model).reviewed_status), limit: num(obj(a.query_model).limit),
  })),
  // Analytics
  get_responder_metrics: (a, pd) => analytics(pd, '/analytics/metrics/responders/teams', analyticsBody(a, ['date_range_start', 'date_range_end'], ['team_ids', 'responder_ids'])),
  get_incident_metrics_by_service: (a, pd) => analytics(pd, '/analytics/metrics/incidents/services', analyticsBody(a, ['created_at_start', 'created_at_end'], ['team_ids', 'service_ids'])),
  get_incident_metrics_by_team: (a, pd) => analytics(pd, '/analytics/metrics/incidents/teams', analyticsBody(a, ['created_at_start', 'created_at_end'], ['team_ids', 'service_ids'])),
  get_responder_load_metrics: (a, pd) => analytics(pd, '/analytics/metrics/responders/all', analyticsBody(a, ['date_range_start', 'date_range_end'], ['team_ids'])),
  get_incident_metrics_all: (a, pd) => analytics(pd, '/analytics/metrics/incidents/all', analyticsBody(a, ['created_at_start', 'created_at_end'], ['team_ids', 'service_ids'])),
};

const missing = TOOLS.filter((t) => !IMPL[t.name]).map((t) => t.name);
if (missing.length > 0) throw new Error(`pagerduty-mcp: no implementation for ${missing.join(', ')}`);

/** Runs one tool; the answer is JSON text (indented, as FastMCP renders models). Required arguments are checked first, as the argument model does. */
export async function runTool(pd: PagerDutyClient, me: () => Promise<Json>, name: string, args: Record<string, unknown> | undefined): Promise<string> {
  const tool = TOOLS.find((t) => t.name === name);
  const impl = IMPL[name];
  if (!tool || !impl) throw new Error(`Unknown tool: ${name}`);
  const given = args ?? {};
  const absent = ((tool.inputSchema.required ?? []) as string[]).filter((key) => given[key] === undefined || given[key] === null);
  if (absent.length > 0) throw new Error(`${absent.length} validation error${absent.length > 1 ? 's' : ''} for ${name}Arguments\n${absent.map((k) => `${k}\n  Field required`).join('\n')}`);
  const answer = await impl(given, pd, me);
  return typeof answer === 'string' ? answer : JSON.stringify(answer, null, 2);
}
