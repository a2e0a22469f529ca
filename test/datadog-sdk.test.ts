import test from 'ava';
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';
import { tempDir } from './helpers/journal.js';

// The official @datadog/datadog-api-client (unmodified) in its own Node process, reaching
// https://api.datadoghq.com through the preload and the TLS proxy, against the Datadog mock in the
// conformance world, with one injected 429 (Datadog's body and X-RateLimit-* headers).

const run = promisify(execFile);
const KEYS = { DD_API_KEY: 'dd0api0baseline0000000000000000a', DD_APP_KEY: 'dd0app0baseline00000000000000000000000a' };
let stack: Stack;

test.before(async () => {
  const scenarioDir = join(tempDir('toolbench-datadog-sdk-'), 'world');
  cpSync(fileURLToPath(new URL('../mocks/datadog/conformance', sourceUrl(import.meta.url))), scenarioDir, { recursive: true });
  appendFileSync(join(scenarioDir, 'scenario.toml'), '\n[[faults]]\nservice = "datadog"\nroute = "/api/v1/hosts/totals"\nkind = "429"\nnth = [1]\nretry_after = 7\n');
  stack = await startStack({ scenarioDir, ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['datadog-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('@datadog/datadog-api-client reads, searches, pages, mutes, schedules and cancels through the proxy; its ApiException carries Datadog\'s errors', async (t) => {
  const script = fileURLToPath(new URL('./helpers/datadog-sdk-client.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], { env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('datadog-sdk'), stack.caPath!), ...KEYS } });
  const out = JSON.parse(stdout);
  t.deepEqual(out.unparsed, [], 'the client deserializes every answer');
  t.deepEqual(out.errors.missing, { code: 404, body: { errors: ['Dashboard with ID zzz-zzz-zzz not found'] } });
  t.deepEqual(out.errors.forbidden, { code: 403, body: { errors: ['Forbidden'] } });
  t.deepEqual(out.errors.limited, { code: 429, body: { errors: ['Too many requests'] } });
  t.deepEqual(out.retried, { totalActive: 21, totalUp: 21 });
  t.deepEqual(out.monitors, ['4810052 Warn [prod] payments-api error rate above 5%', '4810247 Alert [staging] checkout-api error rate above 5%']);
  t.deepEqual(out.metrics, { status: 'ok', interval: 60, series: ['role:db,host:db-01.prod.acme.internal 241 1.96', 'role:db,host:db-02.prod.acme.internal 241 2.4', 'role:db,host:db-03.prod.acme.internal 241 0.76'] });
  t.deepEqual(out.incidents, ['216 active Payments provider webhook delays', '215 active Notification worker queue backlog', '214 stable Auth token refresh failures for mobile clients']);
  t.deepEqual(out.rumApps, ['admin-console', 'storefront-ios', 'storefront-web']);
  t.true(out.rum.length === 5 && out.rum.every((e: string) => e === 'view storefront-web'));
  t.deepEqual(out.spans, ['checkout-api', 'checkout-api', 'checkout-api']);
  t.deepEqual(out.mute, { action: 'Muted', hostname: 'db-02.prod.acme.internal' });
  t.is(out.unmute, 'Unmuted');
  t.true(out.downtimes.created.active);
  t.true(out.downtimes.current.includes(out.downtimes.created.id));
  t.false(out.downtimes.afterCancel.includes(out.downtimes.created.id));
  t.true(out.logs.paged > out.logs.first.length, 'listLogsWithPagination follows meta.page.after');
  t.true(out.logs.first.every((l: string) => l === 'search-api error'));

  await stack.world.journal.flush();
  const seen: string[] = [];
  let limited: [string, string][] = [];
  for await (const entry of stack.world.journal.entries()) {
    seen.push(`${entry.host} ${entry.operation?.name ?? 'null'}`);
    if (entry.response.status === 429) limited = entry.response.headers.filter(([name]) => /^x-ratelimit-/i.test(name)) as [string, string][];
  }
  t.true(seen.every((s) => s.startsWith('api.datadoghq.com ') && !s.endsWith(' null')), seen.join('\n'));
  t.deepEqual(limited.map(([name]) => name.toLowerCase()).sort(), ['x-ratelimit-limit', 'x-ratelimit-name', 'x-ratelimit-period', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
});
