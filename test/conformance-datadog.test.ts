import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/datadog/conformance.js';
import { conformance } from './helpers/conformance.js';

// Datadog through the conformance suite (test/helpers/conformance.ts): determinism, seeds, error
// and fault shapes, volatile fields, and all 21 tools of @winor30/mcp-server-datadog over MCP.

const from = 1740978000;
const to = 1740992400;

conformance(test, {
  service: 'datadog',
  sweep,
  headers: [['DD-API-KEY', 'dd0api0baseline0000000000000000a'], ['DD-APPLICATION-KEY', 'dd0app0baseline00000000000000000000000a']],
  values: {
    incident_id: ['214', '999', 'not-an-incident'], dashboard_id: ['abc-8x2-k9p', 'zzz-zzz-zzz'],
    host_name: ['web-01.prod.acme.internal', 'db-01.prod.acme.internal', 'no-such-host'], downtime_id: ['5100001', '5100003', '42'],
  },
  bodies: {
    'POST /api/v1/host/:host_name/mute': (r) => ({ message: 'generated', override: r.pick([true, false]) }),
    'POST /api/v1/downtime': (r, i) => ({ scope: [r.pick(['env:prod', 'host:web-03.prod.acme.internal'])], message: `Generated ${i}`, end: to + r.int(60, 7200) }),
    'POST /api/v2/logs/events/search': (r) => ({ filter: { query: r.pick(['*', 'status:error', 'service:payments-api -status:info', '@http.status_code:502']), from: `${from * 1000}`, to: `${to * 1000}` }, page: { limit: r.int(1, 30) }, sort: '-timestamp' }),
    'POST /api/v2/spans/events/search': (r) => ({ data: { type: 'search_request', attributes: { filter: { query: r.pick(['*', 'service:checkout-api', 'status:error']), from: 'now-4h', to: 'now' }, page: { limit: r.int(1, 20) } } } }),
  },
  requests: [
    (r) => ({ method: 'GET', target: `/api/v1/query?from=${from}&to=${to}&query=${encodeURIComponent(r.pick(['avg:system.cpu.user{*}', 'max:system.load.1{role:db} by {host}', 'sum:trace.http.request.errors{env:prod} by {service}']))}` }),
    (r) => ({ method: 'GET', target: `/api/v2/rum/events?filter%5Bquery%5D=${encodeURIComponent(r.pick(['*', '@type:view', '@application.name:storefront-web']))}&filter%5Bfrom%5D=${from * 1000}&filter%5Bto%5D=${to * 1000}&page%5Blimit%5D=${r.int(1, 50)}` }),
    (r) => ({ method: 'GET', target: `/api/v1/monitor?group_states=${r.pick(['alert', 'warn,alert', 'no data'])}&name=${r.pick(['prod', 'checkout'])}` }),
    (r) => ({ method: 'GET', target: `/api/v1/hosts?filter=${r.pick(['web', 'role:db'])}&sort_field=cpu&sort_dir=desc&count=${r.int(1, 10)}` }),
    (r) => ({ method: 'GET', target: `/api/v2/incidents?page%5Bsize%5D=${r.int(1, 5)}&page%5Boffset%5D=${r.int(0, 4)}` }),
  ],
  seeded: { patterns: [/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, /AQAAAY\d{6}[0-9a-f]{12}/g] },
  errorShape: z.object({ errors: z.array(z.string()).min(1) }).strict(),
});
