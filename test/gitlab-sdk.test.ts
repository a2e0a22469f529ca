import test from 'ava';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../catalog/load.js';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv, run } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// @gitbeaker/rest (unmodified, global fetch) in its own Node process, reaching
// https://gitlab.com/api/v4 through the preload and the TLS proxy, against the GitLab mock: a
// project by URL-encoded path, keyset pagination followed through Link headers, offset pages
// with X-Total, an issue's lifecycle with notes, a merge request's diff and a diff thread, the
// merge GitLab refuses while the pipeline is red, job logs, files, commits and compare; errors
// as GitLab words them.

let stack: Stack;
test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/gitlab/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['gitlab-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('@gitbeaker/rest reads and writes the mock like gitlab.com', async (t) => {
  const script = fileURLToPath(new URL('./helpers/gitlab-sdk-client.mjs', sourceUrl(import.meta.url)));
  const result = await run(process.execPath, [script], { ...nodeClientEnv(stack.proxy!.proxy.urlFor('gitlab-sdk'), stack.caPath!), GITLAB_TOKEN: 'gitlab-conformance-token' }, 60_000);
  t.is(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  t.deepEqual(out.project, [101, 'acme/storefront', 'main', 'acme']);
  t.deepEqual(out.keyset, [101, 102]);
  t.deepEqual(out.issuesPage, { iids: [3, 2], total: 3, next: 2, totalPages: 2 });
  t.deepEqual(out.openIssues, [2, 1]);
  t.deepEqual(out.issue, [4, ['bug', 'sdk'], 'closed']);
  t.deepEqual(out.notes, [['closed', true], ['A note from the SDK', false]]);
  t.deepEqual(out.labels, ['bug', 'feature', 'needs-review', 'sdk']);
  t.deepEqual(out.mr, ['Coupons: percent off', 'ci_must_pass', 'failed', true]);
  t.deepEqual(out.diffs, [['src/coupons.ts', true, '@@ -0,0 +1,3 @@']]);
  t.deepEqual(out.thread, [false, 'DiffNote', 2]);
  t.deepEqual(out.errors, {
    merge: [405, '405 Method Not Allowed'], project: [404, '404 Project Not Found'], position: 400, token: [401, '401 Unauthorized'],
  });
  t.deepEqual(out.pipelines, [[9002, 'failed']]);
  t.deepEqual(out.jobs, [['deploy-review', 'manual'], ['test', 'failed'], ['lint', 'success']]);
  t.deepEqual(out.log, ['  ✗ applies percent coupon (5 ms)']);
  t.deepEqual(out.file, ['src/cart.ts', 'export function total(items: number[]): number {']);
  t.deepEqual(out.commit, ['Add notes from the SDK', 1]);
  t.is(out.onBranch, '# SDK\n');
  t.deepEqual(out.compare, ['docs/sdk.md']);
});

test('with its update check on, the MCP server\'s npm registry request is answered as noise, never forwarded', async (t) => {
  t.timeout(120_000);
  // The catalog turns the check off (it lands in the journal at an unpredictable point): on here.
  const loaded = loadCatalog();
  const endpoints = loaded.catalog.endpoints.map((e) => (e.id === 'gitlab' ? { ...e, env: Object.fromEntries(Object.entries(e.env).filter(([k]) => k !== 'GITLAB_DISABLE_VERSION_CHECK')) } : e));
  const mcp = await startStack({ scenarioDir: 'mocks/gitlab/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: true, catalog: { ...loaded, catalog: { ...loaded.catalog, endpoints } } });
  try {
    // The check is fire-and-forget after startup: wait for its entry in the journal.
    const noise = async () => {
      const out: { kind: string; host: string; status: number; target: string }[] = [];
      for await (const e of mcp.world.journal.entries()) if (e.host === 'registry.npmjs.org') out.push({ kind: e.kind, host: e.host, status: e.response.status, target: e.target });
      return out;
    };
    let seen = await noise();
    for (let i = 0; i < 100 && seen.length === 0; i++) seen = await new Promise((resolve) => setTimeout(() => resolve(noise()), 200));
    t.true(seen.length >= 1, 'the update check reached the world');
    for (const entry of seen) t.like(entry, { kind: 'noise', host: 'registry.npmjs.org', status: 404 });
    t.regex(seen[0]!.target, /zereight/);
  } finally {
    await mcp.close();
  }
});
