import type { DocumentStore } from '../core/store.js';
import type { DashboardRecord, DowntimeRecord, HostRecord, IncidentRecord, LogRecord, MonitorRecord, RumApplicationRecord, RumEventRecord, SeriesRecord, SpanRecord } from './dataset.js';

/** The store's collections, keyed by the API's IDs (numbers as strings). */
export const collections = (store: DocumentStore) => ({
  keys: store.collection<{ api_key: string; app_key: string }>('keys'),
  monitors: store.collection<MonitorRecord & { created: string; modified: string }>('monitors'),
  incidents: store.collection<IncidentRecord>('incidents'),
  dashboards: store.collection<DashboardRecord>('dashboards'),
  hosts: store.collection<HostRecord>('hosts'),
  downtimes: store.collection<DowntimeRecord>('downtimes'),
  logs: store.collection<LogRecord>('logs'),
  spans: store.collection<SpanRecord>('spans'),
  rumApplications: store.collection<RumApplicationRecord>('rum_applications'),
  rumEvents: store.collection<RumEventRecord>('rum_events'),
  metrics: store.collection<SeriesRecord>('metrics'),
});
export type Collections = ReturnType<typeof collections>;

const sec = (iso: string | null) => iso === null ? null : Math.floor(Date.parse(iso) / 1000);

export function renderMonitor(m: MonitorRecord & { created: string; modified: string }) {
  return {
    id: m.id, org_id: 321813, name: m.name, type: m.type, query: m.query, message: m.message, tags: m.tags,
    options: { notify_audit: false, notify_no_data: false, include_tags: true, new_host_delay: 300, silenced: {} },
    priority: m.priority, overall_state: m.overall_state, overall_state_modified: m.modified, multi: /\bby\b/.test(m.query),
    created: m.created, modified: m.modified, deleted: null, restricted_roles: null,
    creator: { email: 'ops@example.com', handle: 'ops@example.com', name: 'Ops Team' },
  };
}

export function renderIncident(i: IncidentRecord) {
  return {
    id: i.id, type: 'incidents',
    attributes: {
      public_id: i.public_id, title: i.title, severity: i.severity, state: i.state, customer_impacted: i.customer_impacted,
      created: i.created, modified: i.resolved ?? i.created, detected: i.created, resolved: i.resolved,
      customer_impact_scope: null, time_to_detect: 0, time_to_repair: null, time_to_resolve: null,
      fields: { severity: { type: 'dropdown', value: i.severity }, state: { type: 'dropdown', value: i.state } },
    },
    relationships: {
      commander_user: { data: i.commander === null ? null : { id: i.commander, type: 'users' } },
    },
  };
}

export function renderDashboardSummary(d: DashboardRecord) {
  return {
    id: d.id, title: d.title, description: d.description, layout_type: d.layout_type, author_handle: d.author_handle,
    url: `/dashboard/${d.id}/${d.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`,
    created_at: d.created, modified_at: d.created, is_read_only: false,
  };
}

export function renderDashboard(d: DashboardRecord) {
  // Object.assign on the fresh render, not `{ ...renderDashboardSummary(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  return Object.assign(renderDashboardSummary(d), { widgets: d.widgets, template_variables: [], notify_list: [], reflow_type: d.layout_type === 'ordered' ? 'auto' : undefined, tags: null });
}

export function renderHost(h: HostRecord, nowMs: number, withMeta: boolean) {
  const last = Math.floor(nowMs / 1000) - h.last_reported_ago;
  return {
    id: h.id, name: h.name, host_name: h.name, aliases: h.aliases, apps: h.apps, up: h.up,
    is_muted: h.is_muted, mute_timeout: h.mute_timeout, last_reported_time: last,
    sources: ['agent'], metrics: h.metrics, tags_by_source: { Datadog: h.tags },
    ...(withMeta ? { meta: { platform: h.platform, agent_version: '7.52.0', machine: 'x86_64', cpuCores: 4, socket_hostname: h.name } } : {}),
  };
}

export function renderDowntime(d: DowntimeRecord, nowMs: number) {
  const start = sec(d.start)!;
  const end = sec(d.end);
  const active = d.canceled === null && start * 1000 <= nowMs && (end === null || end * 1000 > nowMs);
  return {
    id: d.id, scope: d.scope, message: d.message, monitor_id: d.monitor_id, monitor_tags: d.monitor_tags,
    start, end, canceled: sec(d.canceled), active, disabled: d.canceled !== null, timezone: d.timezone,
    recurrence: d.recurrence, parent_id: null, child_id: null, creator_id: 1445416, updater_id: null,
    downtime_type: d.scope.some((s) => s.startsWith('host:')) ? 0 : 2, created: sec(d.created), modified: sec(d.canceled ?? d.created),
    mute_first_recovery_notification: false, notify_end_states: ['alert', 'no data', 'warn'], notify_end_types: ['expired'],
  };
}

export function renderLog(l: LogRecord) {
  return {
    id: l.id, type: 'log',
    attributes: { timestamp: l.timestamp, service: l.service, host: l.host, status: l.status, message: l.message, tags: l.tags, attributes: l.attributes },
  };
}

export function renderSpan(s: SpanRecord) {
  const startMs = Date.parse(s.start);
  return {
    id: `${s.trace_id}-${s.span_id}`, type: 'spans',
    attributes: {
      span_id: s.span_id, trace_id: s.trace_id, parent_id: s.parent_id, service: s.service, resource_name: s.resource_name,
      env: s.env, host: s.host, type: 'web', start_timestamp: s.start, end_timestamp: new Date(startMs + s.duration_ms).toISOString(),
      tags: s.tags, custom: { duration: s.duration_ms * 1e6, operation_name: s.operation_name, status: s.status },
      attributes: { operation_name: s.operation_name, status: s.status },
    },
  };
}

export function renderRumApplication(a: RumApplicationRecord) {
  return {
    id: a.id, type: 'rum_application',
    attributes: {
      application_id: a.id, name: a.name, type: a.type, org_id: 321813, hash: `pub${a.id.replace(/-/g, '').slice(0, 29)}`,
      created_at: Date.parse(a.created), updated_at: Date.parse(a.created), created_by_handle: 'ops@example.com', updated_by_handle: 'ops@example.com', is_active: true,
    },
  };
}

export function renderRumEvent(e: RumEventRecord, app: RumApplicationRecord | undefined) {
  return {
    id: e.id, type: 'rum',
    attributes: {
      timestamp: e.timestamp, service: e.service, tags: [`application_id:${app?.id ?? ''}`, `service:${e.service}`],
      attributes: { ...e.attributes, type: e.type, application: { id: app?.id ?? '', name: e.application }, session: { id: e.session_id, type: 'user' } },
    },
  };
}
