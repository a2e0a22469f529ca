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

// The official launchdarkly-api-typescript (17.2, unmodified, axios) in its own Node process,
// reaching https://app.launchdarkly.com through the preload and the TLS proxy, against the
// LaunchDarkly mock; and the mock's rate_limited 429 under an injected fault.

const run = promisify(execFile);
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/launchdarkly/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['launchdarkly-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('launchdarkly-api-typescript lists and pages flags, reads one environment, creates, JSON-patches and semantic-patches a flag; errors are {code, message}', async (t) => {
  const script = fileURLToPath(new URL('./helpers/launchdarkly-sdk-client.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], {
    env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('launchdarkly-sdk'), stack.caPath!), LD_TOKEN: 'api-5c1d9e7a-conformance', LD_READER: 'api-1a2b3c4d-conformance-reader' },
  });
  const out = JSON.parse(stdout);
  t.deepEqual(out.checkout, {
    total: 6, keys: ['apple-pay', 'express-shipping', 'checkout-v2-banner', 'new-checkout-flow', 'buy-now-pay-later', 'checkout-button-color'],
    next: '/api/v2/flags/storefront?limit=3&offset=3&filter=tags%3Acheckout',
  });
  t.deepEqual(out.flag, { envs: ['production'], on: true, rules: 1, variations: [true, false] });
  t.deepEqual(out.created, { kind: 'boolean', version: 1, envs: ['production', 'staging', 'test'], on: false });
  t.deepEqual(out.patched, { version: 2, staging: true, production: false, tags: ['sdk', 'rollout'] });
  t.deepEqual(out.semantic, { on: true, targets: [{ values: ['user-1', 'user-2'], variation: 0 }] });
  t.deepEqual(out.status, { production: 'launched', staging: 'launched', test: 'new' });
  t.deepEqual(out.environments, ['production:true', 'staging:false', 'test:false']);
  t.is(out.audit.length, 3);
  t.regex(out.audit[0], /updated the flag SDK flag in production/);
  t.deepEqual(out.errors.missing, { status: 404, body: { code: 'not_found', message: 'Invalid resource identifier' } });
  t.deepEqual(out.errors.duplicate, { status: 409, body: { code: 'conflict', message: 'A flag with key dark-mode already exists' } });
  t.is(out.errors.badPatch.status, 400);
  t.is(out.errors.badPatch.body.code, 'invalid_request');
  t.deepEqual(out.errors.reader, { status: 403, body: { code: 'forbidden', message: 'Access to the requested resource was denied' } });
  t.deepEqual(out.errors.noToken, { status: 401, body: { code: 'unauthorized', message: 'Invalid access token' } });

  await stack.world.journal.flush();
  const seen: string[] = [];
  for await (const entry of stack.world.journal.entries()) seen.push(`${entry.host} ${entry.operation?.name ?? 'null'}`);
  t.true(seen.every((s) => s.startsWith('app.launchdarkly.com ') && !s.endsWith(' null')), seen.join('\n'));
  const flag = stack.world.gradingState().launchdarkly!.flags!['storefront/sdk-flag'] as { environments: Record<string, { on: boolean }> };
  t.like(flag.environments, { production: { on: true }, staging: { on: true }, test: { on: false } });
});

test('an injected 429 is LaunchDarkly\'s rate_limited error with Retry-After and X-Ratelimit-Reset (epoch ms); a 503 is service_unavailable', async (t) => {
  const { header, services, catalog } = prepareWorld({ scenarioDir: 'mocks/launchdarkly/conformance' });
  const faults = { chaos: 'none' as const, rules: [
    { route: '/api/v2/flags/storefront', operation: 'getFeatureFlags', kind: '429', nth: [1], retry_after: 7 },
    { route: '/api/v2/auditlog', kind: '503', nth: [1], retry_after: 3 },
  ].map((rule) => FaultRuleSchema.parse(rule)) };
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
  const listening = await serveWorld(world, catalog.catalog.services, { ports: 'ephemeral', adminPort: 0 });
  try {
    const origin = new URL(listening.services.launchdarkly!.url).origin;
    const headers = { authorization: 'api-5c1d9e7a-conformance' };
    const limited = await fetch(`${origin}/api/v2/flags/storefront`, { headers });
    t.is(limited.status, 429);
    t.deepEqual(await limited.json(), { code: 'rate_limited', message: "You've exceeded the API rate limit. Try again later." });
    t.is(limited.headers.get('retry-after'), '7');
    const reset = Number(limited.headers.get('x-ratelimit-reset'));
    t.true(reset > Date.parse(header.epoch) && reset % 1000 === Date.parse(header.epoch) % 1000, `X-Ratelimit-Reset ${reset} is logical epoch milliseconds`);
    t.is((await fetch(`${origin}/api/v2/flags/storefront`, { headers })).status, 200, 'only the first call is limited');
    const unavailable = await fetch(`${origin}/api/v2/auditlog`, { headers });
    t.is(unavailable.status, 503);
    t.deepEqual(await unavailable.json(), { code: 'service_unavailable', message: 'Service unavailable' });
  } finally {
    await listening.close();
    await world.journal.close();
  }
});
