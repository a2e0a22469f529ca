import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/sentry/conformance.js';
import { conformance } from './helpers/conformance.js';

// The conformance suite over Sentry (test/helpers/conformance.ts): determinism, seeds, error and
// fault shapes (`{"detail": …}`, 429 with X-Sentry-Rate-Limit-*), volatile fields, and the 22
// tools of @sentry/mcp-server through MCP.

const SentryError = z.union([
  z.object({ detail: z.string() }).strict(),
  // Serializer errors: messages per field.
  z.record(z.array(z.string())),
]);

conformance(test, {
  service: 'sentry',
  sweep,
  headers: [['Authorization', 'Bearer sntryu_conformance_token_0000000000000000']],
  values: {
    org: ['larkspur', 'larkspur', 'other-org'],
    project: ['checkout-api', 'storefront-web', '3003', 'missing'],
    team: ['platform', 'storefront', 'nope'],
    issue: ['600007000', 'CHECKOUT-API-2', '600007005', '999'],
    event: ['latest', 'oldest', '155e388d479467ead23eae2aa5c634ba', '0'],
    key: ['server_name', 'browser', 'environment', 'release', 'nothing'],
    version: ['checkout-api%401.4.0', 'nope'],
  },
  bodies: {
    'POST /api/0/organizations/:org/teams/': (r, i) => ({ name: `Generated Team ${i}`, ...(r.int(0, 3) === 0 ? { slug: 'platform' } : {}) }),
    'POST /api/0/teams/:org/:team/projects/': (r, i) => ({ name: `generated-${i}`, platform: r.pick(['node', 'python']) }),
    'PUT /api/0/projects/:org/:project/': (r) => ({ platform: r.pick(['node', 'go']) }),
    'POST /api/0/projects/:org/:project/keys/': (_r, i) => ({ name: `Key ${i}` }),
    'PUT /api/0/organizations/:org/issues/:issue/': (r) => r.pick([{ status: 'resolved' }, { status: 'ignored', ignoreDuration: 60 }, { assignedTo: 'user:1002' }, { assignedTo: '' }, { status: 'bogus' }]),
    'POST /api/0/organizations/:org/issues/:issue/notes/': (r, i) => ({ text: r.pick([`Note ${i}`, '']) }),
  },
  requests: [
    (r) => ({ method: 'GET', target: `/api/0/organizations/larkspur/issues/?query=${encodeURIComponent(r.pick(['is:unresolved', 'is:resolved level:error', '!is:ignored assigned:me', 'release:checkout-api@1.4.0', 'environment:staging', 'TypeError', 'is:unassigned project:checkout-api']))}&sort=${r.pick(['date', 'new', 'freq', 'user'])}&statsPeriod=${r.pick(['24h', '14d'])}&limit=${r.int(1, 6)}` }),
    (r) => ({ method: 'GET', target: `/api/0/organizations/larkspur/events/?dataset=errors&field=issue&field=count()&field=last_seen()&sort=-count()&query=${encodeURIComponent(r.pick(['', 'level:error', 'environment:production']))}&per_page=${r.int(2, 8)}` }),
    () => ({ method: 'GET', target: '/api/0/organizations/larkspur/issues/?cursor=0:5:0&per_page=5&query=' }),
    () => ({ method: 'GET', target: '/api/0/organizations/larkspur/events/' }),
    () => ({ method: 'PUT', target: '/api/0/organizations/larkspur/issues/600007000/', body: '{"status":' }),
    () => ({ method: 'GET', target: '/api/0/auth/', headers: [['Authorization', 'Bearer wrong']] }),
  ],
  seeded: { patterns: [/[0-9a-f]{32}/] },
  errorShape: SentryError,
});
