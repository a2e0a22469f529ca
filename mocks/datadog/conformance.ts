import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call every tool of @winor30/mcp-server-datadog:
 * in the conformance world (the baseline organisation, epoch 2025-03-03T09:00Z), over the four
 * hours before the epoch where its logs, spans and RUM events lie. A host is muted before it is
 * unmuted; the downtime canceled is the expired staging one.
 */
const from = Date.parse('2025-03-03T05:00:00Z') / 1000;
const to = Date.parse('2025-03-03T09:00:00Z') / 1000;

export const sweep: SweepProfile = {
  scenario: 'mocks/datadog/conformance',
  order: ['mute_host', 'unmute_host'],
  args: {
    common: { from, to, hostname: 'web-02.prod.acme.internal' },
    tools: {
      get_incident: { incidentId: '214' },
      get_dashboard: { dashboardId: 'abc-8x2-k9p' },
      query_metrics: { query: 'avg:system.cpu.user{role:web} by {host}' },
      get_logs: { query: 'service:checkout-api status:error', limit: 20 },
      list_traces: { query: 'env:prod', service: 'payments-api', limit: 10 },
      get_active_hosts_count: { from: 7200 },
      list_hosts: { filter: 'role:db', sort_field: 'cpu', sort_dir: 'desc' },
      mute_host: { message: 'sweep', end: to + 3600 },
      schedule_downtime: { scope: 'host:worker-01.prod.acme.internal', start: to, end: to + 3600, message: 'sweep' },
      cancel_downtime: { downtimeId: 5100002 },
      get_rum_page_waterfall: { applicationName: 'storefront-web', sessionId: 's-0001-stor' },
    },
  },
};
