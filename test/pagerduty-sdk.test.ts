import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The official @pagerduty/pdjs (2.2.4, unmodified, cross-fetch) in its own Node process,
// reaching https://api.pagerduty.com through the preload and the TLS proxy, against the mock.

const run = promisify(execFile);
let stack: Stack;

test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/pagerduty/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['pagerduty-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('pdjs pages incidents, reads one, needs From with an account token, and sees PagerDuty\'s error envelope', async (t) => {
  const script = fileURLToPath(new URL('./helpers/pagerduty-sdk-client.mjs', sourceUrl(import.meta.url)));
  const { stdout } = await run(process.execPath, [script], {
    env: { ...process.env, ...nodeClientEnv(stack.proxy!.proxy.urlFor('pagerduty-sdk'), stack.caPath!), PD_USER_TOKEN: 'u+baseline-pagerduty-token', PD_ACCOUNT_TOKEN: 'baseline-account-token' },
  });
  const out = JSON.parse(stdout);
  // Oldest first (created_at:asc), two to a page, pdjs following more and offset.
  t.is(out.all.pages, 3);
  t.deepEqual(out.all.ids, ['PINC106', 'PINC105', 'PINC104', 'PINC102', 'PINC103', 'PINC101']);
  t.deepEqual(out.one, { status: 200, title: 'checkout-api 5xx rate above 5%', service: 'PSVAPI1' });
  t.is(out.noFrom.status, 400);
  t.is(out.noFrom.error.code, 2001);
  t.deepEqual(out.acked, { status: 200, incident: 'acknowledged', by: ['PU0GUS7'] });
  t.deepEqual(out.missing, { status: 404, body: { error: { message: 'Not Found', code: 2100 } } });
});
