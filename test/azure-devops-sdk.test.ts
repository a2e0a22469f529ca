import test from 'ava';
import { fileURLToPath } from 'node:url';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv, run } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The official azure-devops-node-api (unmodified, typed-rest-client) in its own Node process,
// reaching https://dev.azure.com through the preload and the TLS proxy: resource areas and
// OPTIONS location discovery before each typed call, projects and teams, WIQL, a Bug created and
// updated with JSON Patch (its link's reverse end appears), a batch read, ADO's errors, repositories,
// pull requests, a thread, a file's text, builds and log lines; and Application Insights answered as noise.

const TOKEN = 'ado-conformance-Wm3Kp8Qz2Lx6Tn4Rv9Hb5Jc';
let stack: Stack;
test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/azure-devops/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['ado-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('azure-devops-node-api discovers locations, queries, creates and updates work items, reads Git and builds', async (t) => {
  const script = fileURLToPath(new URL('./helpers/azure-devops-sdk-client.mjs', sourceUrl(import.meta.url)));
  const result = await run(process.execPath, [script], { ...nodeClientEnv(stack.proxy!.proxy.urlFor('ado-sdk'), stack.caPath!), ADO_TOKEN: TOKEN }, 60_000);
  t.is(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  t.deepEqual(out.projects, ['Platform', 'Storefront', 'Storefront-Legacy']);
  t.deepEqual(out.teams, ['Payments', 'Storefront Team']);
  t.deepEqual(out.bugs, [107, 108, 109, 113]);
  t.deepEqual(out.created, [305, 'New', 'Storefront\\Checkout\\Payments', 'incident; payments-api', 1]);
  t.deepEqual(out.updated, [2, 'Active', 'Priya Raman']);
  t.true(out.reverseLink.includes('System.LinkTypes.Related'));
  t.deepEqual(out.batch, [[103, 'Active'], [107, 'Active']]);
  t.is(out.missing, null);
  t.is(out.rule[0], 400);
  t.regex(out.rule[1], /TF401320: Rule Error for field State/);
  t.deepEqual(out.repos, ['payments-api', 'storefront-web']);
  t.deepEqual(out.prs, [[57, 1, 'refs/heads/fix/coupon-whitespace']]);
  t.deepEqual(out.thread, [2, 1, 'Looks good once the test passes.']);
  t.regex(out.file, /code\.trim\(\)/);
  t.deepEqual(out.builds, [[884, 8], [880, 2]]);
  t.true(out.log.some((line: string) => line.includes("expected 'SPRING 10' to be 'SPRING10'")));
  t.deepEqual(out.telemetry, [200, { itemsReceived: 0, itemsAccepted: 0, errors: [] }]);
});
