import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The official @sentry/api client (0.1.0, unmodified) in its own Node process, reaching
// https://us.sentry.io through the preload and the TLS proxy, against the Sentry mock.

const run = promisify(execFile);
const SCENARIO = 'mocks/sentry/conformance';
const TOKEN = 'sntryu_conformance_token_0000000000000000';
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: SCENARIO, ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['sentry-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test.serial('@sentry/api lists, reads, updates and creates; its errors are Sentry\'s {"detail": …}', async (t) => {
  const script = fileURLToPath(new URL('./helpers/sentry-sdk-client.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], { env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('sentry-sdk'), stack.caPath!), SENTRY_TOKEN: TOKEN } });
  const out = JSON.parse(stdout);
  t.deepEqual(out.orgs, [['larkspur', 'https://us.sentry.io']]);
  t.deepEqual(out.projects, ['checkout-api', 'inventory-worker', 'storefront-web']);
  t.deepEqual(out.teams, ['platform', 'storefront']);
  t.is(out.issues.ids.length, 3);
  t.true(out.issues.ids.every((id: string) => id.startsWith('CHECKOUT-API-')));
  t.is(out.issues.link, 'true', 'more unresolved checkout-api issues than the page of 3');
  t.like(out.issue, { id: '600007000', status: 'unresolved', project: 'checkout-api' });
  t.true(out.events > 0);
  t.like(out.latest, { exception: 'exception', frames: 1 });
  t.deepEqual(out.updated, { status: 'resolved', assignee: 'tomas@larkspur.example' });
  t.is(out.team, 'sdk-responders');
  t.deepEqual(out.key, { name: 'SDK key', dsn: true });
  t.deepEqual(out.keys, ['Default', 'SDK key']);
  t.deepEqual(out.releases, ['checkout-api@1.1.0', 'checkout-api@1.4.0', 'checkout-api@2.7.0'].reverse());
  t.deepEqual(out.errors, {
    missing: [404, { detail: 'The requested resource does not exist' }],
    duplicate: [409, { detail: 'A team with this slug already exists.' }],
    badToken: [401, { detail: 'Invalid token' }],
  });

  await stack.world.journal.flush();
  const seen: string[] = [];
  for await (const entry of stack.world.journal.entries()) seen.push(`${entry.host} ${entry.operation?.name ?? 'null'}`);
  t.true(seen.every((s) => s.startsWith('us.sentry.io ') && !s.endsWith(' null')), seen.join('\n'));
  const state = stack.world.gradingState().sentry!;
  t.like(state.issues!['600007000'], { status: 'resolved', assignedTo: 'tomas@larkspur.example' });
});

test.serial('a 429 fault is Sentry\'s: {"detail"}, Retry-After and the X-Sentry-Rate-Limit headers at zero; the retry succeeds', async (t) => {
  const faulty = await startStack({ scenarioDir: 'mocks/sentry/faults', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['sentry-sdk'] });
  try {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', `
      import { listAnOrganization_sIssues } from '@sentry/api';
      const call = () => listAnOrganization_sIssues({ baseUrl: 'https://us.sentry.io', auth: 'sntryu_faults_token_000000000000000000000', path: { organization_id_or_slug: 'larkspur' } });
      const first = await call();
      const headers = Object.fromEntries([...first.response.headers].filter(([k]) => k.startsWith('x-sentry-rate') || k === 'retry-after'));
      const second = await call();
      console.log(JSON.stringify({ status: first.response.status, body: first.error, headers, retry: [second.response.status, second.data.map((i) => i.shortId)] }));
    `], { cwd: process.cwd(), env: { ...process.env, ...nodeClientEnv(faulty.proxy!.proxy.urlFor('sentry-sdk'), faulty.caPath!) } });
    const out = JSON.parse(stdout);
    t.is(out.status, 429);
    t.deepEqual(out.body, { detail: 'You are attempting to use this endpoint too frequently. Limit is 40 requests in 1 seconds' });
    t.is(out.headers['retry-after'], '7');
    t.is(out.headers['x-sentry-rate-limit-remaining'], '0');
    t.is(out.headers['x-sentry-rate-limit-limit'], '40');
    // The reset is the epoch second the window ends: the request's logical time (one tick after
    // the epoch) plus Retry-After.
    t.is(out.headers['x-sentry-rate-limit-reset'], String(Date.parse('2025-03-03T09:00:00Z') / 1000 + 1 + 7));
    t.deepEqual(out.retry, [200, ['CHECKOUT-API-1']]);
  } finally {
    await faulty.close();
  }
});
