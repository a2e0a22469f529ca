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

// The official `cloudflare` SDK (7.x, unmodified) in its own Node process, reaching
// https://api.cloudflare.com through the preload and the TLS proxy, against the Cloudflare mock.

const run = promisify(execFile);
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/cloudflare/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['cloudflare-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('cloudflare SDK: zones, DNS records (filters, auto-paging, create/patch/put/delete, 81057/81053/1004 errors), KV, Workers, R2, D1, a bad token', async (t) => {
  const script = fileURLToPath(new URL('./helpers/cloudflare-sdk-client.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], {
    env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('cloudflare-sdk'), stack.caPath!), CF_TOKEN: 'cf-conformance-Xy3Kp9Qw2Rt7Lm5Nb8Vz', CF_ACCOUNT: '5f2c8e1a9b7d4c3e8a6f0b1d2e3c4a5b' },
  });
  const out = JSON.parse(stdout);

  t.deepEqual(out.zone, { count: 1, name: 'example.com', plan: 'Pro Website', account: 'Acme Corp' });
  t.deepEqual(out.api, ['api.example.com A 203.0.113.20 proxied=true']);
  t.is(out.allRecords, 38);
  t.deepEqual(out.shops, { page: ['shop-01.example.com', 'shop-02.example.com', 'shop-03.example.com', 'shop-04.example.com', 'shop-05.example.com'], total: 9 });
  t.deepEqual(out.created, { name: 'sdk.example.com', content: '192.0.2.10', ttl: 300, comment: 'made by the SDK' });
  t.deepEqual(out.edited, { content: '192.0.2.11', ttl: 300, comment: 'made by the SDK' });
  t.deepEqual(out.replaced, { content: '192.0.2.12', ttl: 1, comment: null });
  t.deepEqual(out.duplicate, { status: 400, errors: [{ code: 81057, message: 'Record already exists.' }], name: 'BadRequestError' });
  t.is(out.cnameConflict.errors[0].code, 81053);
  t.deepEqual(out.badIp.errors, [{ code: 1004, message: 'DNS Validation Error', error_chain: [{ code: 9005, message: 'Content for A record must be a valid IPv4 address.' }] }]);
  t.true(out.deleted);
  t.deepEqual(out.gone, { status: 404, errors: [{ code: 81044, message: 'Record does not exist.' }], name: 'NotFoundError' });
  t.is(out.badZone.errors[0].code, 7003);
  t.deepEqual(out.kv, { namespaces: ['edge-config', 'edge-config-staging', 'sessions', 'redirects'], value: 'true', keys: ['origin:api-staging.example.com', 'origin:api.example.co', 'origin:api.example.com'] });
  t.deepEqual(out.workers, ['edge-router', 'edge-router-staging', 'checkout-v1', 'checkout-v2', 'image-resizer', 'nightly-report']);
  t.deepEqual(out.buckets, ['acme-exports', 'acme-exports-archive', 'acme-logs', 'acme-static-assets']);
  t.deepEqual(out.d1, [{ 'COUNT(*)': 15 }]);
  t.deepEqual(out.badToken, { status: 401, errors: [{ code: 1000, message: 'Invalid API Token' }], name: 'AuthenticationError' });

  await stack.world.journal.flush();
  const seen: string[] = [];
  for await (const entry of stack.world.journal.entries()) seen.push(`${entry.host} ${entry.operation?.name ?? 'null'}`);
  t.true(seen.every((s) => s.startsWith('api.cloudflare.com ') && !s.endsWith(' null')), seen.join('\n'));
  const kv = stack.world.gradingState().cloudflare!.kv_values!['8209fffe3da5ac9e4506974a53801bdc/maintenance_mode'] as { value: string; metadata: unknown };
  t.deepEqual(kv, { namespace_id: '8209fffe3da5ac9e4506974a53801bdc', key: 'maintenance_mode', value: 'true', metadata: { by: 'sdk' } });
});

test('an injected 429 is Cloudflare\'s error 971 with Retry-After in the v4 envelope; a 503 is code 10002', async (t) => {
  const { header, services, catalog } = prepareWorld({ scenarioDir: 'mocks/cloudflare/conformance' });
  const faults = { chaos: 'none' as const, rules: [
    { route: '/client/v4/zones', operation: 'zones.list', kind: '429', nth: [1], retry_after: 5 },
    { route: '/client/v4/accounts/**', operation: 'kv.namespaces.list', kind: '503', nth: [1], retry_after: 2 },
  ].map((rule) => FaultRuleSchema.parse(rule)) };
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
  const listening = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0 });
  try {
    const origin = new URL(listening.services.cloudflare!.url).origin;
    const headers = { authorization: 'Bearer cf-conformance-Xy3Kp9Qw2Rt7Lm5Nb8Vz' };
    const limited = await fetch(`${origin}/client/v4/zones`, { headers });
    t.is(limited.status, 429);
    t.deepEqual(await limited.json(), { result: null, success: false, errors: [{ code: 971, message: 'Please wait and consider throttling your request speed' }], messages: [] });
    t.is(limited.headers.get('retry-after'), '5');
    t.is((await fetch(`${origin}/client/v4/zones`, { headers })).status, 200, 'only the first call is limited');
    const unavailable = await fetch(`${origin}/client/v4/accounts/5f2c8e1a9b7d4c3e8a6f0b1d2e3c4a5b/storage/kv/namespaces`, { headers });
    t.is(unavailable.status, 503);
    t.like(await unavailable.json(), { success: false, errors: [{ code: 10002 }] });
  } finally {
    await listening.close();
    await world.journal.close();
  }
});
