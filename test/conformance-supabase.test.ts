import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/supabase/conformance.js';
import { conformance } from './helpers/conformance.js';

// Supabase through the conformance suite (test/helpers/conformance.ts): determinism, seeds, error
// and fault shapes ({message}), volatile fields, and all 31 tools of the pinned
// @supabase/mcp-server-supabase through MCP (the sweep profile's arguments name things that exist,
// so every tool answers without a tool error: the suite reports `0 tool errors`).

const PROD = 'qzvhtkcwmfyrplxdnsoa';
const SQL = [
  "select id, status, total_cents from orders where status in ('paid', 'shipped') order by total_cents desc limit 5",
  'select count(*) from customers where marketing_opt_in',
  "update products set stock = stock + 1 where sku = 'SKU-1003' returning id, stock",
  "insert into products (sku, name, price_cents) values ('SKU-9000', 'Generated', 100) returning id",
  'select * from no_such_table',
  "select email from customers where email like '%@example.com' order by email limit 3",
  "delete from order_items where quantity > 2 and order_id = 3",
  'select status, count(*) from orders group by status order by status',
];

conformance(test, {
  service: 'supabase',
  sweep,
  headers: [['Authorization', 'Bearer sbp_conformance_0000000000000000000000000000000000']],
  values: {
    ref: [PROD, PROD, 'bmnkwpqalsxvdtreyhuc', 'hxlrcudjgtwoabnqzmef', 'nosuchprojectrefabcd'],
    slug: ['acme-corp', 'nimbus-labs', 'missing-org'],
    function_slug: ['stripe-webhook', 'send-order-email', 'missing-fn'],
    branch_id_or_ref: ['missing-branch'],
  },
  bodies: {
    'POST /v1/projects': (random, i) => ({ name: `generated-${i}`, organization_slug: random.pick(['acme-corp', 'nimbus-labs']), db_pass: 'correct-horse-battery', region: 'us-east-1' }),
    'POST /v1/projects/{ref}/database/query': (random) => ({ query: random.pick(SQL) }),
    'POST /v1/projects/{ref}/database/query/read-only': (random) => ({ query: random.pick(SQL) }),
    'POST /v1/projects/{ref}/database/migrations': (_random, i) => ({ name: `generated_${i}`, query: `create table if not exists generated_${i} (id bigint primary key, label text)` }),
    'POST /v1/projects/{ref}/branches': (_random, i) => ({ branch_name: `generated-${i}` }),
    'PATCH /v1/projects/{ref}/config/storage': (random) => ({ fileSizeLimit: random.pick([1048576, 52428800]), features: { imageTransformation: { enabled: false }, s3Protocol: { enabled: random.pick([true, false]) } } }),
  },
  requests: [
    (random) => ({ method: 'GET', target: `/v1/projects/${PROD}/analytics/endpoints/logs?sql=${encodeURIComponent(random.pick(["select id, event_message from logs where source = 'postgres_logs' order by timestamp desc limit 3", 'select count(*) from logs', 'select nope from']))}&iso_timestamp_start=2025-03-02T09:00:00Z&iso_timestamp_end=2025-03-03T09:00:00Z` }),
    (random) => ({ method: 'GET', target: `/v1/projects/${PROD}/advisors/${random.pick(['security', 'performance'])}` }),
    () => ({ method: 'GET', target: `/v1/projects/${PROD}/types/typescript?included_schemas=public` }),
  ],
  seeded: {
    patterns: [
      /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, /\b[a-z]{20}\b/g, /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/g,
      /sb_(publishable|secret)_[0-9a-f]+/g, /[A-Za-z0-9+/]{43}=/g, /"ezbr_sha256":"[0-9a-f]{64}"/g,
    ],
  },
  errorShape: z.object({ message: z.string() }).strict(),
});
