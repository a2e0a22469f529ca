import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../catalog/stack.js';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { doSpec } from '../mocks/digitalocean/fallback.js';
import { serveWorld } from '../proxy/serve.js';
import { prepareWorld } from './helpers/prepare-world.js';
import { nodeClientEnv } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { specValidator } from './helpers/spec-validate.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// dots-wrapper (3.12, unmodified, axios) in its own Node process, reaching
// https://api.digitalocean.com through the preload and the TLS proxy, against the DigitalOcean
// mock; its answers validated against DigitalOcean's OpenAPI description; and the mock's
// too_many_requests 429 with RateLimit headers under an injected fault.

const run = promisify(execFile);
const TOKEN = 'dop_v1_conformance000000000000000000000000000000000000000000000000a';
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/digitalocean/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['digitalocean-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('dots-wrapper lists by tag and pages Droplets, powers off and resizes one (its action completes on the logical clock), edits a DNS record; answers match the OpenAPI', async (t) => {
  const script = fileURLToPath(new URL('./helpers/digitalocean-sdk-client.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], { env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('digitalocean-sdk'), stack.caPath!), DO_TOKEN: TOKEN } });
  const out = JSON.parse(stdout);
  t.deepEqual(out.tagged, ['web-prod-01', 'web-prod-02']);
  t.deepEqual(out.page2, { names: ['api-staging', 'db-primary', 'db-replica', 'worker-01'], total: 15, pages: ['first', 'last', 'next', 'prev'] });
  t.deepEqual(out.droplet, { name: 'web-prod-01', size: 's-2vcpu-4gb', ip: '167.99.12.10' });
  t.deepEqual(out.resizeOn, { status: 422, body: { id: 'unprocessable_entity', message: 'Droplet is currently on. Please power it off to run this event.', request_id: out.resizeOn.body.request_id } });
  t.deepEqual(out.resize, { type: 'resize', statuses: ['in-progress', 'completed'], size: 's-4vcpu-8gb' });
  t.deepEqual(out.record, { id: true, data: '167.99.12.10', count: 12 });
  t.deepEqual(out.firewalls, ['web-public', 'ssh-from-bastion', 'db-internal']);
  t.deepEqual(out.tags, ['web-prod:2', 'web-prod-old:1']);
  t.is(out.account, 'infra@harborlabs.dev');
  t.is(out.vpcs, 0);
  t.is(out.errors.missing.status, 404);
  t.like(out.errors.missing.body, { id: 'not_found', message: 'The resource you were accessing could not be found.' });
  t.is(out.errors.badRecord.status, 422);
  t.like(out.errors.badRecord.body, { id: 'unprocessable_entity', message: 'Data is not a valid IPv4 address' });

  // Only the operations answered here are compiled (the description has 657).
  const spec = doSpec();
  const used = new Set(Object.keys(out.bodies as object));
  const paths = Object.fromEntries(Object.entries(spec.paths).filter(([, item]) => Object.values(item).some((op) => used.has((op as { operationId?: string })?.operationId ?? ''))));
  const validate = specValidator(unicodeSafe({ ...spec, paths }) as typeof spec, { formats: { uint64: /^\d+$/ } });
  for (const [operation, body] of Object.entries(out.bodies as Record<string, unknown>)) t.is(validate(operation, body), null, operation);

  await stack.world.journal.flush();
  const seen: string[] = [];
  for await (const entry of stack.world.journal.entries()) seen.push(`${entry.host} ${entry.operation?.name ?? 'null'}`);
  t.true(seen.every((s) => s.startsWith('api.digitalocean.com ') && !s.endsWith(' null')), seen.join('\n'));
});

test('an injected 429 is too_many_requests with RateLimit-Limit/-Remaining/-Reset and Retry-After; every answer carries the hourly RateLimit headers', async (t) => {
  const { header, services, catalog } = prepareWorld({ scenarioDir: 'mocks/digitalocean/conformance' });
  const faults = { chaos: 'none' as const, rules: [{ route: '/v2/droplets', operation: 'droplets_list', kind: '429', nth: [1], retry_after: 30 }].map((rule) => FaultRuleSchema.parse(rule)) };
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
  const listening = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0 });
  try {
    const origin = new URL(listening.services.digitalocean!.url).origin;
    const headers = { authorization: `Bearer ${TOKEN}` };
    const limited = await fetch(`${origin}/v2/droplets`, { headers });
    t.is(limited.status, 429);
    t.like(await limited.json(), { id: 'too_many_requests', message: 'API Rate limit exceeded.' });
    t.is(limited.headers.get('ratelimit-remaining'), '0');
    t.is(limited.headers.get('retry-after'), '30');
    const reset = Number(limited.headers.get('ratelimit-reset')) - Math.floor(Date.parse(header.epoch) / 1000);
    t.true(reset >= 30 && reset <= 32, `RateLimit-Reset is logical Unix time + Retry-After (${reset})`);
    const ok = await fetch(`${origin}/v2/droplets`, { headers });
    t.is(ok.status, 200);
    t.is(ok.headers.get('ratelimit-limit'), '5000');
    t.is(ok.headers.get('ratelimit-remaining'), '4999');
    const anonymous = await fetch(`${origin}/v2/account`);
    t.is(anonymous.status, 401);
    t.like(await anonymous.json(), { id: 'Unauthorized', message: 'Unable to authenticate you' });
  } finally {
    await listening.close();
  }
});

/**
 * The description's patterns as ajv compiles them (Unicode regular expressions): DigitalOcean
 * escapes characters that need none (`\\:` in tag names), which a Unicode pattern refuses.
 */
function unicodeSafe(node: unknown, key = ''): unknown {
  if (typeof node === 'string') return key === 'pattern' ? node.replace(/\\([^dDwWsSbBnrtfv0-9^$\\.*+?()[\]{}|/\-uxcpPk])/g, '$1') : node;
  if (Array.isArray(node)) return node.map((item) => unicodeSafe(item));
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, unicodeSafe(v, k)]));
}
