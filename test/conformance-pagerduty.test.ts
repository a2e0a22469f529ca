import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/pagerduty/conformance.js';
import { conformance } from './helpers/conformance.js';

// PagerDuty through the conformance suite (test/helpers/conformance.ts): determinism, seeds,
// error and fault shapes, volatile fields, and all 71 tools of toolbench's PagerDuty server (the
// sweep's arguments name records that exist, so `npx tsx bin/main.ts coverage` shows every tool succeeding).

const INCIDENTS = ['PINC101', 'PINC102', 'PINC103', '104', 'PNOSUCH'];

conformance(test, {
  service: 'pagerduty',
  sweep,
  headers: [['Authorization', 'Token token=u+baseline-pagerduty-token'], ['Accept', 'application/vnd.pagerduty+json;version=2']],
  values: {
    id: [...INCIDENTS, 'PSVAPI1', 'PTPAY01', 'PU0ADA1', 'PEPAY01', 'PSPAY01'],
    alert_id: ['PNOSUCH'],
    user_id: ['PU0GUS7', 'PNOSUCH'],
  },
  bodies: {
    'POST /incidents': (random, i) => ({ incident: { type: 'incident', title: `Generated ${i}`, service: { id: random.pick(['PSVAPI1', 'PSVPAY2', 'PNOSUCH']), type: 'service_reference' }, urgency: random.pick(['high', 'low']) } }),
    'PUT /incidents': (random) => ({ incidents: [{ id: random.pick(INCIDENTS.slice(0, 3)), type: 'incident_reference', status: random.pick(['acknowledged', 'resolved']) }] }),
    'PUT /incidents/{id}': (random) => ({ incident: { type: 'incident_reference', urgency: random.pick(['high', 'low']) } }),
    'POST /incidents/{id}/notes': (_random, i) => ({ note: { content: `Note ${i}` } }),
    'PUT /incidents/{id}/merge': () => ({ source_incidents: [{ id: 'PINC103', type: 'incident_reference' }] }),
    'POST /incidents/{id}/status_updates': (_random, i) => ({ message: `Update ${i}` }),
    'POST /teams': (_random, i) => ({ team: { type: 'team', name: `Team ${i}` } }),
    'PUT /teams/{id}': (_random, i) => ({ team: { type: 'team', name: `Renamed ${i}` } }),
    'POST /services': (_random, i) => ({ service: { type: 'service', name: `svc-${i}`, escalation_policy: { id: 'PEPLAT1', type: 'escalation_policy_reference' } } }),
    'PUT /services/{id}': (random) => ({ service: { type: 'service', description: random.pick(['a', 'b']) } }),
    'POST /users': (_random, i) => ({ user: { type: 'user', name: `User ${i}`, email: `user${i}@northwind.example` } }),
    'POST /schedules/{id}/overrides': () => ({ overrides: [{ start: '2025-03-04T00:00:00Z', end: '2025-03-05T00:00:00Z', user: { id: 'PU0DEV4', type: 'user_reference' } }] }),
  },
  requests: [
    (random) => ({ method: 'GET', target: `/incidents?statuses[]=${random.pick(['triggered', 'acknowledged', 'resolved'])}&limit=${random.int(1, 5)}&offset=${random.int(0, 3)}&total=true&date_range=all` }),
    (random) => ({ method: 'GET', target: `/oncalls?earliest=true&escalation_policy_ids[]=${random.pick(['PEPAY01', 'PEPLAT1'])}` }),
    (random) => ({ method: 'GET', target: `/log_entries?limit=${random.int(1, 10)}` }),
  ],
  seeded: { patterns: [/\bP[A-Z0-9]{6}\b/g, /\b[0-9a-f]{32}\b/g, /\b[0-9a-f]{8}\b/g] },
  errorShape: z.object({ error: z.object({ message: z.string(), code: z.number().int(), errors: z.array(z.string()).optional() }).strict() }).strict(),
});
