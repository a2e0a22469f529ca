import { emptyResponse, jsonResponse } from '../core/http.js';
import type { ServiceContext } from '../core/service.js';
import { defineService, operation, rest, ServiceError, uuidId, type Middleware } from '../kit/index.js';
import {
  CreateDowntimeBody, DatadogDatasetSchema, HostTotalsQuery, ListDowntimesQuery, ListHostsQuery, ListIncidentsQuery, ListMonitorsQuery,
  LogsSearchBody, MuteHostBody, QueryMetricsQuery, RumEventsQuery, SpansSearchBody, type DatadogDataset,
} from './dataset.js';
import { queryMetrics } from './metrics.js';
import {
  collections, renderDashboard, renderDashboardSummary, renderDowntime, renderHost, renderIncident, renderLog, renderMonitor,
  renderRumApplication, renderRumEvent, renderSpan, type Collections,
} from './model.js';
import { attributeValues, matches, parseSearch, parseTime, tagValues, type Searchable } from './search.js';

/**
 * Datadog (api.datadoghq.com): the v1/v2 endpoints @winor30/mcp-server-datadog calls, by the
 * official client's operation names (`v1.listMonitors`, `v2.listLogs`…). Every request carries
 * an API and an application key (DD-API-KEY, DD-APPLICATION-KEY) that the dataset lists; errors
 * are Datadog's `{"errors": ["…"]}`.
 */
interface DatadogContext extends Collections {
  readonly ctx: ServiceContext;
  readonly authorized: boolean;
}

const auth: Middleware<DatadogContext> = (_req, context, next) => {
  if (!context.authorized) throw new ServiceError(403, 'forbidden', 'Forbidden');
  return next();
};

const iso = (ms: number) => new Date(ms).toISOString();
const cursorOf = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const m = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw new ServiceError(400, 'bad_request', 'Invalid cursor');
  return Number(m[1]);
}

/** One page of a time-ordered event search (logs, spans, RUM): the API's `data`, `meta.page.after` and `links.next`. */
function eventPage<T>(items: readonly T[], limit: number, cursor: string | undefined, path: string) {
  const offset = offsetOf(cursor);
  const page = items.slice(offset, offset + limit);
  const after = offset + limit < items.length ? cursorOf(offset + limit) : undefined;
  return {
    page,
    meta: { elapsed: 12, request_id: 'pddv1ChZ0b29sYmVuY2gtZGV0ZXJtaW5pc3RpYw', status: 'done', ...(after ? { page: { after } } : {}) },
    links: after ? { next: `https://api.datadoghq.com${path}?page[cursor]=${after}` } : undefined,
  };
}

function inWindow<T>(items: readonly T[], at: (item: T) => string, fromMs: number, toMs: number, sort: 'timestamp' | '-timestamp'): T[] {
  const within = items.filter((item) => { const t = Date.parse(at(item)); return t >= fromMs && t <= toMs; });
  return within.sort((a, b) => (Date.parse(at(a)) - Date.parse(at(b))) * (sort === 'timestamp' ? 1 : -1));
}

const facet = (tags: readonly string[], attributes: Record<string, unknown>, reserved: Record<string, string>) => (name: string): string[] =>
  name.startsWith('@') ? attributeValues(attributes, name.slice(1)) : reserved[name] !== undefined ? [reserved[name]!] : tagValues(tags, name);

export const datadogService = defineService<DatadogDataset, DatadogContext>({
  id: 'datadog',
  // Bump when any answer changes a byte: journals of this service then need a re-record.
  version: '1',
  dataset: DatadogDatasetSchema,
  load(data, ctx) {
    const c = collections(ctx.store);
    const epoch = iso(ctx.epochMs);
    for (const key of data.keys) c.keys.put(key.api_key, key);
    for (const m of data.monitors) c.monitors.put(String(m.id), { ...m, created: m.created ?? epoch, modified: m.modified ?? m.created ?? epoch });
    for (const i of data.incidents) { const id = i.id ?? uuidId(ctx, 'incident'); c.incidents.put(id, { ...i, id, created: i.created ?? epoch }); }
    for (const d of data.dashboards) c.dashboards.put(d.id, { ...d, created: d.created ?? epoch });
    for (const h of data.hosts) c.hosts.put(h.name, h);
    for (const d of data.downtimes) c.downtimes.put(String(d.id), { ...d, start: d.start ?? epoch, created: d.start ?? epoch, timezone: 'UTC', recurrence: null });
    data.logs.forEach((l, n) => { const id = l.id ?? `AQAAAY${String(n).padStart(6, '0')}${uuidId(ctx, 'log').replace(/-/g, '').slice(0, 12)}`; c.logs.put(id, { ...l, id }); });
    for (const s of data.spans) c.spans.put(`${s.trace_id}-${s.span_id}`, s);
    for (const a of data.rum_applications) c.rumApplications.put(a.id, { ...a, created: a.created ?? epoch });
    data.rum_events.forEach((e) => { const id = e.id ?? uuidId(ctx, 'rum_event'); c.rumEvents.put(id, { ...e, id }); });
    data.metrics.forEach((s, n) => c.metrics.put(String(n), s));
    ctx.ids.reserve('monitor', Math.max(0, ...data.monitors.map((m) => m.id)));
    ctx.ids.reserve('downtime', Math.max(0, ...data.downtimes.map((d) => d.id)));
  },
  context: (req, ctx) => {
    const c = collections(ctx.store);
    const key = c.keys.get(req.header('dd-api-key') ?? '');
    return { ...c, ctx, authorized: key !== undefined && key.app_key === req.header('dd-application-key') };
  },
  middleware: [auth],
  operations: [
    // Incidents (v2, unstable operations the client must enable).
    operation<DatadogContext, '/api/v2/incidents', typeof ListIncidentsQuery._output>('v2.listIncidents', rest('GET', '/api/v2/incidents'), (call, c) => {
      const size = call.query['page[size]'];
      const offset = call.query['page[offset]'];
      const all = c.incidents.values().sort((a, b) => b.public_id - a.public_id);
      const data = all.slice(offset, offset + size).map(renderIncident);
      return jsonResponse(200, { data, included: [], meta: { pagination: { offset, size, next_offset: offset + size } } });
    }, { input: { query: ListIncidentsQuery } }),
    operation<DatadogContext, '/api/v2/incidents/:incident_id'>('v2.getIncident', rest('GET', '/api/v2/incidents/:incident_id'), (call, c) => {
      const id = call.params.incident_id;
      const incident = c.incidents.get(id) ?? c.incidents.values().find((i) => String(i.public_id) === id);
      if (!incident) throw new ServiceError(404, 'not_found', 'Not Found');
      return jsonResponse(200, { data: renderIncident(incident), included: [] });
    }),

    // Metrics.
    operation<DatadogContext, '/api/v1/query', typeof QueryMetricsQuery._output>('v1.queryMetrics', rest('GET', '/api/v1/query'), (call, c) =>
      jsonResponse(200, queryMetrics(c.metrics.values(), call.query.query, call.query.from, call.query.to)), { input: { query: QueryMetricsQuery } }),

    // Monitors.
    operation<DatadogContext, '/api/v1/monitor', typeof ListMonitorsQuery._output>('v1.listMonitors', rest('GET', '/api/v1/monitor'), (call, c) => {
      const q = call.query;
      const states = q.group_states?.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '' && s !== 'all');
      const scopeTags = q.tags?.split(',').map((s) => s.trim()).filter(Boolean) ?? [];
      const monitorTags = q.monitor_tags?.split(',').map((s) => s.trim()).filter(Boolean) ?? [];
      const scopeOf = (query: string) => (/\{([^}]*)\}/.exec(query)?.[1] ?? '').split(',').map((s) => s.trim());
      const all = c.monitors.values()
        .filter((m) => q.name === undefined || m.name.toLowerCase().includes(q.name.toLowerCase()))
        .filter((m) => !states?.length || states.includes(m.overall_state.toLowerCase()))
        .filter((m) => scopeTags.every((tag) => scopeOf(m.query).includes(tag)))
        .filter((m) => monitorTags.every((tag) => m.tags.includes(tag)))
        .sort((a, b) => a.id - b.id);
      const page = q.page === undefined ? all : all.slice(q.page * q.page_size, (q.page + 1) * q.page_size);
      return jsonResponse(200, page.map(renderMonitor));
    }, { input: { query: ListMonitorsQuery } }),

    // Dashboards.
    operation<DatadogContext, '/api/v1/dashboard'>('v1.listDashboards', rest('GET', '/api/v1/dashboard'), (_call, c) =>
      jsonResponse(200, { dashboards: c.dashboards.values().sort((a, b) => a.title.localeCompare(b.title)).map(renderDashboardSummary) })),
    operation<DatadogContext, '/api/v1/dashboard/:dashboard_id'>('v1.getDashboard', rest('GET', '/api/v1/dashboard/:dashboard_id'), (call, c) => {
      const dashboard = c.dashboards.get(call.params.dashboard_id);
      if (!dashboard) throw new ServiceError(404, 'not_found', `Dashboard with ID ${call.params.dashboard_id} not found`);
      return jsonResponse(200, renderDashboard(dashboard));
    }),

    // Hosts.
    operation<DatadogContext, '/api/v1/hosts', typeof ListHostsQuery._output>('v1.listHosts', rest('GET', '/api/v1/hosts'), (call, c) => {
      const q = call.query;
      const nowSec = Math.floor(c.ctx.nowMs / 1000);
      const needle = q.filter?.toLowerCase();
      let hosts = c.hosts.values()
        .filter((h) => needle === undefined || [h.name, ...h.aliases, ...h.tags].some((v) => v.toLowerCase().includes(needle)))
        .filter((h) => q.from === undefined || nowSec - h.last_reported_ago >= q.from);
      const field = q.sort_field ?? 'name';
      const key = (h: typeof hosts[number]): string | number => field === 'cpu' ? h.metrics.cpu : field === 'iowait' ? h.metrics.iowait : field === 'load' ? h.metrics.load : field === 'apps' ? h.apps.join(',') : h.name;
      hosts = hosts.sort((a, b) => { const [x, y] = [key(a), key(b)]; return (x < y ? -1 : x > y ? 1 : 0) * (q.sort_dir === 'desc' ? -1 : 1); });
      const page = hosts.slice(q.start, q.start + q.count).map((h) => renderHost(h, c.ctx.nowMs, q.include_hosts_metadata ?? true));
      return jsonResponse(200, { host_list: page, total_matching: hosts.length, total_returned: page.length });
    }, { input: { query: ListHostsQuery } }),
    operation<DatadogContext, '/api/v1/hosts/totals', typeof HostTotalsQuery._output>('v1.getHostTotals', rest('GET', '/api/v1/hosts/totals'), (call, c) => {
      // `from`: hosts that reported within that many seconds (the server passes a span, not a timestamp).
      const window = call.query.from ?? 7200;
      const active = c.hosts.values().filter((h) => h.last_reported_ago <= window);
      return jsonResponse(200, { total_active: active.length, total_up: active.filter((h) => h.up).length });
    }, { input: { query: HostTotalsQuery } }),
    operation<DatadogContext, '/api/v1/host/:host_name/mute', Record<string, string>, typeof MuteHostBody._output>('v1.muteHost', rest('POST', '/api/v1/host/:host_name/mute'), (call, c) => {
      const host = c.hosts.get(call.params.host_name);
      if (!host) throw new ServiceError(404, 'not_found', `Host ${call.params.host_name} not found`);
      if (host.is_muted && !call.body.override) {
        throw new ServiceError(400, 'bad_request', `host:${host.name} is already muted. To mute it anyway, set the 'override' flag.`);
      }
      c.hosts.put(host.name, { ...host, is_muted: true, mute_timeout: call.body.end ?? null });
      return jsonResponse(200, { action: 'Muted', hostname: host.name, message: call.body.message ?? '', end: call.body.end ?? null });
    }, { input: { body: MuteHostBody } }),
    operation<DatadogContext, '/api/v1/host/:host_name/unmute'>('v1.unmuteHost', rest('POST', '/api/v1/host/:host_name/unmute'), (call, c) => {
      const host = c.hosts.get(call.params.host_name);
      if (!host) throw new ServiceError(404, 'not_found', `Host ${call.params.host_name} not found`);
      if (!host.is_muted) throw new ServiceError(400, 'bad_request', `host:${host.name} is not muted.`);
      c.hosts.put(host.name, { ...host, is_muted: false, mute_timeout: null });
      return jsonResponse(200, { action: 'Unmuted', hostname: host.name });
    }),

    // Downtimes (v1).
    operation<DatadogContext, '/api/v1/downtime', typeof ListDowntimesQuery._output>('v1.listDowntimes', rest('GET', '/api/v1/downtime'), (call, c) => {
      const all = c.downtimes.values().sort((a, b) => a.id - b.id).map((d) => renderDowntime(d, c.ctx.nowMs));
      return jsonResponse(200, call.query.current_only ? all.filter((d) => d.active) : all);
    }, { input: { query: ListDowntimesQuery } }),
    operation<DatadogContext, '/api/v1/downtime', Record<string, string>, typeof CreateDowntimeBody._output>('v1.createDowntime', rest('POST', '/api/v1/downtime'), (call, c) => {
      const b = call.body;
      if (b.end != null && b.start != null && b.end <= b.start) throw new ServiceError(400, 'bad_request', 'Downtime end must be after start');
      if (b.monitor_id != null && !c.monitors.has(String(b.monitor_id))) throw new ServiceError(400, 'bad_request', `Monitor ${b.monitor_id} does not exist`);
      const id = c.ctx.ids.next('downtime');
      const now = iso(c.ctx.nowMs);
      const doc = c.downtimes.put(String(id), {
        id, scope: b.scope, message: b.message ?? null, monitor_id: b.monitor_id ?? null, monitor_tags: b.monitor_tags ?? ['*'],
        start: b.start != null ? iso(b.start * 1000) : now, end: b.end != null ? iso(b.end * 1000) : null, canceled: null,
        created: now, timezone: b.timezone ?? 'UTC', recurrence: b.recurrence ? { ...b.recurrence } : null,
      });
      return jsonResponse(200, renderDowntime(doc, c.ctx.nowMs));
    }, { input: { body: CreateDowntimeBody } }),
    operation<DatadogContext, '/api/v1/downtime/:downtime_id'>('v1.cancelDowntime', rest('DELETE', '/api/v1/downtime/:downtime_id'), (call, c) => {
      const downtime = c.downtimes.get(call.params.downtime_id);
      if (!downtime || downtime.canceled !== null) throw new ServiceError(404, 'not_found', 'Downtime not found');
      c.downtimes.put(String(downtime.id), { ...downtime, canceled: iso(c.ctx.nowMs) });
      return emptyResponse(204);
    }),

    // Logs, spans, RUM: searches over time windows.
    operation<DatadogContext, '/api/v2/logs/events/search', Record<string, string>, typeof LogsSearchBody._output>('v2.listLogs', rest('POST', '/api/v2/logs/events/search'), (call, c) => {
      const { filter, page, sort } = call.body;
      const terms = parseSearch(filter.query);
      const hits = inWindow(c.logs.values(), (l) => l.timestamp, parseTime(filter.from, c.ctx.nowMs, 'filter.from'), parseTime(filter.to, c.ctx.nowMs, 'filter.to'), sort)
        .filter((l) => matches(terms, { text: l.message, facet: facet(l.tags, l.attributes, { service: l.service, host: l.host, status: l.status }) } satisfies Searchable));
      const p = eventPage(hits, page.limit, page.cursor, '/api/v2/logs/events');
      return jsonResponse(200, { data: p.page.map(renderLog), meta: p.meta, ...(p.links ? { links: p.links } : {}) });
    }, { input: { body: LogsSearchBody } }),
    operation<DatadogContext, '/api/v2/spans/events/search', Record<string, string>, typeof SpansSearchBody._output>('v2.listSpans', rest('POST', '/api/v2/spans/events/search'), (call, c) => {
      const { filter, page, sort } = call.body.data.attributes;
      const terms = parseSearch(filter.query);
      const hits = inWindow(c.spans.values(), (s) => s.start, parseTime(filter.from, c.ctx.nowMs, 'filter.from'), parseTime(filter.to, c.ctx.nowMs, 'filter.to'), sort)
        .filter((s) => matches(terms, {
          text: `${s.resource_name} ${s.operation_name}`,
          facet: facet(s.tags, { duration: s.duration_ms * 1e6 }, { service: s.service, operation: s.operation_name, operation_name: s.operation_name, resource_name: s.resource_name, env: s.env, host: s.host, status: s.status, trace_id: s.trace_id }),
        }));
      const p = eventPage(hits, page.limit, page.cursor, '/api/v2/spans/events');
      return jsonResponse(200, { data: p.page.map(renderSpan), meta: p.meta, ...(p.links ? { links: p.links } : {}) });
    }, { input: { body: SpansSearchBody } }),
    operation<DatadogContext, '/api/v2/rum/applications'>('v2.getRUMApplications', rest('GET', '/api/v2/rum/applications'), (_call, c) =>
      jsonResponse(200, { data: c.rumApplications.values().sort((a, b) => a.name.localeCompare(b.name)).map(renderRumApplication) })),
    operation<DatadogContext, '/api/v2/rum/events', typeof RumEventsQuery._output>('v2.listRUMEvents', rest('GET', '/api/v2/rum/events'), (call, c) => {
      const q = call.query;
      const apps = new Map(c.rumApplications.values().map((a) => [a.name, a]));
      const terms = parseSearch(q['filter[query]']);
      const hits = inWindow(c.rumEvents.values(), (e) => e.timestamp, parseTime(q['filter[from]'], c.ctx.nowMs, 'filter[from]'), parseTime(q['filter[to]'], c.ctx.nowMs, 'filter[to]'), q.sort)
        .filter((e) => {
          const attributes = { ...e.attributes, type: e.type, application: { id: apps.get(e.application)?.id ?? '', name: e.application }, session: { id: e.session_id } };
          return matches(terms, { text: JSON.stringify(e.attributes), facet: facet([], attributes, { service: e.service, type: e.type, '@type': e.type }) });
        });
      const p = eventPage(hits, q['page[limit]'], q['page[cursor]'], '/api/v2/rum/events');
      return jsonResponse(200, { data: p.page.map((e) => renderRumEvent(e, apps.get(e.application))), meta: p.meta, ...(p.links ? { links: p.links } : {}) });
    }, { input: { query: RumEventsQuery } }),
  ],
  errors: (error) => jsonResponse(error.status, { errors: [error.message] }, [...error.headers]),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const issue = detail.issues?.[0];
        return new ServiceError(400, 'bad_request', `Invalid ${detail.where} parameter '${issue?.path.join('.') || '(body)'}': ${issue?.message ?? 'invalid'}`);
      }
      case 'malformed_body': return new ServiceError(400, 'bad_request', 'Invalid JSON in request body');
      case 'unauthenticated': return new ServiceError(403, 'forbidden', 'Forbidden');
      case 'payload_too_large': return new ServiceError(413, 'payload_too_large', 'Request Entity Too Large');
      case 'internal_error': return new ServiceError(500, 'internal_error', 'Internal Server Error');
      default: return new ServiceError(404, 'not_found', 'Not found');
    }
  },
  // Datadog's rate limiting: a 429 with the X-RateLimit-* headers its clients read.
  fault: (order) => {
    if (order.kind === '429') {
      return jsonResponse(429, { errors: ['Too many requests'] }, [
        ['X-RateLimit-Limit', '100'], ['X-RateLimit-Period', '60'], ['X-RateLimit-Remaining', '0'],
        ['X-RateLimit-Reset', String(order.retryAfter)], ['X-RateLimit-Name', 'api'], ['Retry-After', String(order.retryAfter)],
      ]);
    }
    const [status, text] = order.kind === '503' ? [503, 'Service Unavailable'] : order.kind === 'timeout' ? [504, 'Gateway Timeout']
      : order.kind === '500' ? [500, 'Internal Server Error'] : [502, 'Bad Gateway'];
    return jsonResponse(status, { errors: [text] }, order.kind === '503' ? [['Retry-After', String(order.retryAfter)]] : []);
  },
  // Fields a state diff leaves out: seeded IDs and logical timestamps.
  volatile: { incidents: ['id'], logs: ['id'], rum_events: ['id'], downtimes: ['created', 'canceled'] },
});
