import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../catalog/stack.js';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { serveWorld } from '../proxy/serve.js';
import { prepareWorld } from './helpers/prepare-world.js';
import { nodeClientEnv } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The official supabase-management-js (2.0.2, unmodified) in its own Node process, reaching
// https://api.supabase.com through the preload and the TLS proxy, against the Supabase mock.

const run = promisify(execFile);
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/supabase/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['supabase-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('supabase-management-js lists, queries, writes, migrates; errors are {message} with Postgres text', async (t) => {
  const script = fileURLToPath(new URL('./helpers/supabase-sdk-client.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], { env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('supabase-sdk'), stack.caPath!), SB_TOKEN: 'sbp_conformance_0000000000000000000000000000000000' } });
  const out = JSON.parse(stdout);
  t.deepEqual(out.orgs, ['acme-corp', 'nimbus-labs']);
  t.deepEqual(out.projects, ['storefront-prod:ACTIVE_HEALTHY', 'storefront-staging:ACTIVE_HEALTHY', 'analytics:ACTIVE_HEALTHY', 'legacy-blog:INACTIVE']);
  t.is(out.paid.length, 2);
  t.deepEqual(Object.keys(out.paid[0]), ['id', 'total_cents']);
  t.deepEqual(out.inserted, [{ id: 13, stock: 0, active: true }]);
  t.deepEqual(out.migrations, ['create_storefront', 'add_order_items', 'order_status_enum', 'sdk_index']);
  t.deepEqual(out.functions, ['stripe-webhook@7', 'send-order-email@3']);
  t.deepEqual(out.buckets, ['product-images:true', 'invoices:false']);
  t.deepEqual(out.errors.missing, { status: 404, body: { message: 'Project not found' } });
  t.is(out.errors.sql.status, 400);
  t.is(out.errors.sql.body.message, 'Failed to run sql query: ERROR:  42P01: relation "coupons" does not exist\nLINE 1: select * from coupons\n                      ^\n');
  t.regex(out.errors.duplicate.body.message, /23505: duplicate key value violates unique constraint "products_sku_key"\nDETAIL: {2}Key \(sku\)=\(SKU-1000\) already exists\./);
  await stack.world.journal.flush();
  for await (const entry of stack.world.journal.entries()) t.truthy(entry.operation?.name, `${entry.method} ${entry.target}`);
});

test('an injected 429 is Supabase\'s {message} with Retry-After and X-RateLimit-*; a 500 is its NestJS wording', async (t) => {
  const { header, services, catalog } = prepareWorld({ scenarioDir: 'mocks/supabase/conformance' });
  const faults = { chaos: 'none' as const, rules: [
    { operation: 'v1-list-all-projects', kind: '429', nth: [1], retry_after: 7 },
    { operation: 'v1-get-project', kind: '500', nth: [1] },
  ].map((rule) => FaultRuleSchema.parse(rule)) };
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
  const listening = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0 });
  try {
    const origin = new URL(listening.services.supabase!.url).origin;
    const headers = { authorization: 'Bearer sbp_conformance_0000000000000000000000000000000000' };
    const limited = await fetch(`${origin}/v1/projects`, { headers });
    t.is(limited.status, 429);
    t.deepEqual(await limited.json(), { message: 'Too many requests' });
    t.is(limited.headers.get('retry-after'), '7');
    t.is(limited.headers.get('x-ratelimit-remaining'), '0');
    t.is((await fetch(`${origin}/v1/projects`, { headers })).status, 200, 'only the first call is limited');
    const failed = await fetch(`${origin}/v1/projects/qzvhtkcwmfyrplxdnsoa`, { headers });
    t.is(failed.status, 500);
    t.deepEqual(await failed.json(), { message: 'Internal server error' });
    const anonymous = await fetch(`${origin}/v1/projects`);
    t.is(anonymous.status, 401);
    t.deepEqual(await anonymous.json(), { message: 'Unauthorized' });
  } finally {
    await listening.close();
    await world.journal.close();
  }
});
