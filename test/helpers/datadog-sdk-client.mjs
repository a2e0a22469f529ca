// @datadog/datadog-api-client (the devDependency, unmodified) against https://api.datadoghq.com
// through whatever the preload set up: monitors, a metrics query, a logs search and its cursor
// pagination, hosts (mute, unmute, totals), downtimes (create, list current, cancel), incidents
// (an unstable operation), spans and RUM; then the ApiException for a 404, for keys the org does
// not have (403), and for the 429 the scenario's fault rule injects. Prints one JSON object; every
// answer is also checked for what the client could not deserialize (`_unparsed`).
import { client, v1, v2 } from '@datadog/datadog-api-client';
import { UnparsedObject } from '@datadog/datadog-api-client/dist/packages/datadog-api-client-common/util.js';

const config = (apiKeyAuth, appKeyAuth) => {
  const c = client.createConfiguration({ authMethods: { apiKeyAuth, appKeyAuth } });
  c.unstableOperations['v2.listIncidents'] = true;
  return c;
};
const cfg = config(process.env.DD_API_KEY, process.env.DD_APP_KEY);
const unparsed = [];
const check = (label, value, seen = new Set()) => {
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  seen.add(value);
  if (value instanceof UnparsedObject || value._unparsed) unparsed.push(label);
  for (const [k, v] of Object.entries(value)) if (k !== '_unparsed') check(`${label}.${k}`, v, seen);
  return value;
};
const from = Date.parse('2025-03-03T05:00:00Z') / 1000;
const to = Date.parse('2025-03-03T09:00:00Z') / 1000;
const out = {};

const monitors = check('monitors', await new v1.MonitorsApi(cfg).listMonitors({ groupStates: 'alert,warn' }));
out.monitors = monitors.map((m) => `${m.id} ${m.overallState} ${m.name}`);

const metrics = check('metrics', await new v1.MetricsApi(cfg).queryMetrics({ from, to, query: 'max:system.load.1{role:db} by {host}' }));
out.metrics = { status: metrics.status, series: metrics.series.map((s) => `${s.scope} ${s.length} ${s.pointlist[0][1]}`), interval: metrics.series[0].interval };

const logsApi = new v2.LogsApi(cfg);
const errorLogs = check('logs', await logsApi.listLogs({ body: { filter: { query: 'service:search-api status:error', from: `${from * 1000}`, to: `${to * 1000}` }, page: { limit: 2 }, sort: '-timestamp' } }));
out.logs = { first: errorLogs.data.map((l) => `${l.attributes.service} ${l.attributes.status}`), after: typeof errorLogs.meta?.page?.after === 'string' };
let paged = 0;
for await (const log of logsApi.listLogsWithPagination({ body: { filter: { query: 'service:search-api status:error', from: `${from * 1000}`, to: `${to * 1000}` }, page: { limit: 2 } } })) {
  check('logs.page', log);
  paged += 1;
}
out.logs.paged = paged;

const hostsApi = new v1.HostsApi(cfg);
const hosts = check('hosts', await hostsApi.listHosts({ filter: 'role:db', sortField: 'cpu', sortDir: 'desc' }));
out.hosts = { names: hosts.hostList.map((h) => h.name), total: hosts.totalMatching };
const muted = check('mute', await hostsApi.muteHost({ hostName: 'db-02.prod.acme.internal', body: { message: 'SDK maintenance', end: to + 3600 } }));
out.mute = { action: muted.action, hostname: muted.hostname };
out.unmute = check('unmute', await hostsApi.unmuteHost({ hostName: 'db-02.prod.acme.internal' })).action;
const downtimesApi = new v1.DowntimesApi(cfg);
const created = check('downtime', await downtimesApi.createDowntime({ body: { scope: ['host:db-03.prod.acme.internal'], message: 'SDK window', end: to + 7200 } }));
const current = check('downtimes', await downtimesApi.listDowntimes({ currentOnly: true }));
out.downtimes = { created: { id: created.id, scope: created.scope, active: created.active }, current: current.map((d) => d.id) };
await downtimesApi.cancelDowntime({ downtimeId: created.id });
out.downtimes.afterCancel = (await downtimesApi.listDowntimes({ currentOnly: true })).map((d) => d.id);

const incidents = check('incidents', await new v2.IncidentsApi(cfg).listIncidents({ pageSize: 3 }));
out.incidents = incidents.data.map((i) => `${i.attributes.publicId} ${i.attributes.state} ${i.attributes.title}`);
const spans = check('spans', await new v2.SpansApi(cfg).listSpans({ body: { data: { type: 'search_request', attributes: { filter: { query: 'service:checkout-api', from: new Date(from * 1000).toISOString(), to: new Date(to * 1000).toISOString() }, page: { limit: 3 }, sort: 'timestamp' } } } }));
out.spans = spans.data.map((s) => s.attributes.service);
const rumApi = new v2.RUMApi(cfg);
out.rumApps = check('rumApps', await rumApi.getRUMApplications()).data.map((a) => a.attributes.name);
const views = check('rum', await rumApi.listRUMEvents({ filterQuery: '@type:view @application.name:storefront-web', filterFrom: new Date(from * 1000), filterTo: new Date(to * 1000), pageLimit: 5 }));
out.rum = views.data.map((e) => `${e.attributes.attributes.type} ${e.attributes.attributes.application.name}`);

const failure = async (call) => {
  try { await call(); return null; } catch (error) { return { code: error.code, body: error.body }; }
};
out.errors = {
  missing: await failure(() => new v1.DashboardsApi(cfg).getDashboard({ dashboardId: 'zzz-zzz-zzz' })),
  forbidden: await failure(() => new v1.MonitorsApi(config('wrong', 'keys')).listMonitors({})),
  limited: await failure(() => hostsApi.getHostTotals({ from: 7200 })),
};
out.retried = check('totals', await hostsApi.getHostTotals({ from: 7200 }));
out.unparsed = unparsed;
console.log(JSON.stringify(out));
