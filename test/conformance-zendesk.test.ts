import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/zendesk/conformance.js';
import { conformance } from './helpers/conformance.js';

// The conformance suite over Zendesk (test/helpers/conformance.ts): determinism, seeds, error and
// fault shapes (429 APIRateLimitExceeded with Retry-After), volatile fields, and the six tools of
// toolbench's native Zendesk MCP server through MCP.

const ZendeskError = z.union([
  z.object({ error: z.string(), description: z.string(), details: z.record(z.array(z.object({ description: z.string(), error: z.string() }).strict())).optional() }).strict(),
  // 401: Zendesk's bare message.
  z.object({ error: z.literal("Couldn't authenticate you") }).strict(),
]);

const auth = `Basic ${Buffer.from('maren@larkspur-outfitters.example/token:zd-conformance-token').toString('base64')}`;

conformance(test, {
  service: 'zendesk',
  sweep,
  headers: [['Authorization', auth]],
  values: { id: ['1003', '1002', '1014', '20001', '360001', '114002', '900102', '510001', '360101', '99999', 'abc'] },
  bodies: {
    'POST /api/v2/tickets': (r, i) => ({ ticket: { subject: `Generated ${i}`, comment: { body: `Body ${r.int(1, 99)}` }, requester_id: 20001 + r.int(0, 5), priority: r.pick(['low', 'high']) } }),
    'PUT /api/v2/tickets/:id': (r, i) => ({ ticket: { comment: { body: `Update ${i}`, public: r.pick([true, false]) }, status: r.pick(['open', 'pending', 'solved']) } }),
    'POST /api/v2/users': (_r, i) => ({ user: { name: `Generated ${i}`, email: `g${i}@example.test` } }),
    'PUT /api/v2/users/:id': (r) => ({ user: { notes: r.pick(['vip', 'prefers email']) } }),
  },
  requests: [
    (r) => ({ method: 'GET', target: `/api/v2/tickets.json?page[size]=${r.int(1, 5)}` }),
    (r) => ({ method: 'GET', target: `/api/v2/tickets.json?page=${r.int(1, 3)}&per_page=${r.int(2, 6)}&sort_by=created_at&sort_order=desc` }),
    (r) => ({ method: 'GET', target: `/api/v2/search.json?query=${encodeURIComponent(r.pick(['type:ticket status:open', 'status<solved priority:high', 'type:user role:agent', 'order', '"tent"', 'tags:billing -status:closed']))}` }),
    () => ({ method: 'GET', target: '/api/v2/search.json' }),
    () => ({ method: 'GET', target: '/api/v2/tickets/1003/comments.json' }),
    () => ({ method: 'PUT', target: '/api/v2/tickets/1002.json', body: { ticket: { status: 'bogus' } } }),
    () => ({ method: 'POST', target: '/api/v2/tickets.json', body: { ticket: { subject: 'No body' } } }),
    () => ({ method: 'GET', target: '/api/v2/users/me.json', headers: [['Authorization', `Basic ${Buffer.from('maren@larkspur-outfitters.example/token:wrong').toString('base64')}`]] }),
  ],
  seeded: {},
  errorShape: ZendeskError,
});
