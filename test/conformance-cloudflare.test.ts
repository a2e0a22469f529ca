import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/cloudflare/conformance.js';
import { conformance } from './helpers/conformance.js';

// Cloudflare through the conformance suite (test/helpers/conformance.ts): determinism, seeds,
// error and fault shapes (the v4 envelope with numeric codes, 429 with code 971), volatile
// fields, and all 89 tools of the pinned @cloudflare/mcp-server-cloudflare@0.2.0 over MCP.

const ACCOUNT = '5f2c8e1a9b7d4c3e8a6f0b1d2e3c4a5b';
const ZONES = ['aad9930b9d65bfc3a47abe3e97198baf', 'd57b4ca3701860b7e6fe6ea09ae2f46c', '00000000000000000000000000000000'];

const CfMessage: z.ZodType<{ code: number; message: string }> = z.lazy(() => z.object({ code: z.number().int(), message: z.string(), error_chain: z.array(CfMessage).optional() }).strict());

conformance(test, {
  service: 'cloudflare',
  sweep,
  headers: [['Authorization', 'Bearer cf-conformance-Xy3Kp9Qw2Rt7Lm5Nb8Vz']],
  values: {
    account_id: [ACCOUNT, ACCOUNT, ACCOUNT, 'ffffffffffffffffffffffffffffffff'],
    zone_id: ZONES,
    namespace_id: ['8209fffe3da5ac9e4506974a53801bdc', '3e96e0603fea7c735d647e803c3c4c93', 'missing'],
    key_name: ['maintenance_mode', 'banner_text', 'nope'],
    script_name: ['edge-router', 'checkout-v2', 'nightly-report', 'missing-worker'],
    bucket_name: ['acme-exports', 'acme-logs', 'no-such-bucket'],
    object_key: ['README.txt', 'exports/orders-2025-11.csv', 'nope.txt'],
    database_id: ['6b1e3c2a-8d4f-4a9b-9c1d-2e3f4a5b6c7d', '0a9b8c7d-6e5f-4a3b-8c1d-0e9f8a7b6c5d', 'missing'],
    route_id: ['cbe9c2bd70ab46f357d0b9a8cc4b56b6', 'missing'],
    secret_name: ['ORIGIN_TOKEN', 'NOPE'],
  },
  bodies: {
    'POST /client/v4/zones/:zone_id/dns_records': (random, i) => ({ type: random.pick(['A', 'CNAME', 'TXT']), name: `gen-${i}`, content: random.pick(['203.0.113.9', 'example.com', 'hello']), ttl: random.pick([1, 300, 5]) }),
    'PATCH /client/v4/zones/:zone_id/dns_records/:dns_record_id': (random) => ({ content: random.pick(['203.0.113.99', 'not-an-ip']) }),
    'POST /client/v4/accounts/:account_id/storage/kv/namespaces': (_random, i) => ({ title: `gen-${i}` }),
    'POST /client/v4/accounts/:account_id/r2/buckets': (random, i) => ({ name: random.pick([`gen-bucket-${i}`, 'acme-exports', 'Bad_Name']) }),
    'POST /client/v4/accounts/:account_id/d1/database': (_random, i) => ({ name: `gen-db-${i}` }),
    'POST /client/v4/accounts/:account_id/d1/database/:database_id/query': (random) => ({ sql: random.pick(['SELECT COUNT(*) FROM orders', "UPDATE orders SET status = 'shipped' WHERE id = 1001", 'SELECT * FROM nope', 'DROP']) }),
    'POST /client/v4/zones/:zone_id/workers/routes': (random, i) => ({ pattern: random.pick([`gen${i}.example.com/*`, 'api.example.com/*', 'elsewhere.org/*']), script: 'edge-router' }),
    'PUT /client/v4/accounts/:account_id/workers/scripts/:script_name/secrets': (_random, i) => ({ name: `GEN_${i}`, text: 'x', type: 'secret_text' }),
    'POST /client/v4/accounts/:account_id/workers/scripts/:script_name/subdomain': (random) => ({ enabled: random.pick([true, false]) }),
  },
  requests: [
    (random) => ({ method: 'GET', target: `/client/v4/zones/${ZONES[0]}/dns_records?per_page=${random.int(5, 30)}&page=${random.int(1, 3)}&${random.pick(['type=A', 'name=api.example.com', 'name.contains=shop', 'content=203.0.113.20', 'proxied=false'])}` }),
    (random) => ({ method: 'GET', target: `/client/v4/zones?name=${random.pick(['example.com', 'contains:acme', 'example.co'])}` }),
    (random) => ({ method: 'POST', target: '/client/v4/graphql', body: { query: `{ viewer { zones(filter: {zoneTag: "${random.pick(ZONES)}"}) { httpRequests1dGroups(limit: ${random.int(1, 5)}, filter: {date_geq: "2025-11-20"}, orderBy: [date_ASC]) { dimensions { date } sum { requests } } } } }` } }),
    (random) => ({ method: 'PUT', target: `/client/v4/accounts/${ACCOUNT}/storage/kv/namespaces/8209fffe3da5ac9e4506974a53801bdc/values/gen-${random.int(1, 5)}`, body: 'value', headers: [['Content-Type', 'text/plain']] }),
    (random) => ({ method: 'GET', target: `/client/v4/accounts/${ACCOUNT}/storage/kv/namespaces/3e96e0603fea7c735d647e803c3c4c93/keys?limit=${random.pick([10, 5, 100])}` }),
    (random) => ({ method: 'PUT', target: `/client/v4/accounts/${ACCOUNT}/r2/buckets/acme-logs/objects/day-${random.int(1, 3)}.log`, body: 'log line', headers: [['Content-Type', 'text/plain']] }),
  ],
  count: 150,
  seeded: { patterns: [/\b[0-9a-f]{32}\b/g, /\b[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\b/g] },
  errorShape: z.object({ result: z.null(), success: z.literal(false), errors: z.array(CfMessage).min(1), messages: z.array(z.unknown()) }).strict(),
});
