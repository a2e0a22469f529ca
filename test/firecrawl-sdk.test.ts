import test from 'ava';
import { fileURLToPath } from 'node:url';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv, run } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The official @mendable/firecrawl-js (unmodified, axios) in its own Node process, reaching
// https://api.firecrawl.dev through the preload and the TLS proxy, against the Firecrawl mock.

let stack: Stack;
test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/firecrawl/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['firecrawl-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('@mendable/firecrawl-js scrapes, searches, maps, crawls, batches, extracts, runs agents and monitors; errors as Firecrawl words them', async (t) => {
  const script = fileURLToPath(new URL('./helpers/firecrawl-sdk-client.mjs', sourceUrl(import.meta.url)));
  const result = await run(process.execPath, [script], { ...nodeClientEnv(stack.proxy!.proxy.urlFor('firecrawl-sdk'), stack.caPath!), FIRECRAWL_KEY: 'fc-conformance0000000000000000000', FIRECRAWL_BROKE: 'fc-exhausted00000000000000000000' }, 90_000);
  t.is(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  t.like(out.scrape, { markdown: out.scrape.markdown, html: '<main>', links: ['https://quillstack.dev/docs/configuration'], json: { title: 'Quillstack 4.0 released: a faster pool and a new planner', published: '2025-01-14' } });
  t.regex(out.scrape.summary, /^Quillstack 4\.0/);
  t.deepEqual(out.scrape.meta, [200, 'https://quillstack.dev/blog/quillstack-4-0-released', 5, 'string']);
  t.deepEqual(out.missing, [404, '# 404 Not Found']);
  t.deepEqual(out.dns, [200, 'SCRAPE_DNS_RESOLUTION_ERROR', 'DNS resolution failed for hostname "no-s']);
  t.deepEqual(out.search.web.map((w: [number, string]) => w[1]), ['https://devforum.example.org/t/quillstack-default-pool-size/4412', 'https://quillstack.dev/docs/configuration', 'https://quillstack.dev/blog/quillstack-4-0-released']);
  t.deepEqual(out.search.web.map((w: [number, string]) => w[0]), [1, 2, 3]);
  t.true(out.search.news >= 1);
  t.true(out.site.every(([url, md]: [string, string]) => url.startsWith('https://quillstack.dev/') && md === 'string'));
  t.true(out.map.length > 0 && out.map.every((u: string) => u.startsWith('https://quillstack.dev/')));
  t.deepEqual(out.crawl, { status: 'completed', total: 15, docs: 15, last: 'https://ferrouslantern.example/patch-notes/1.13' });
  t.is(out.crawlPage.docs, 10);
  t.regex(out.crawlPage.next, /^https:\/\/api\.firecrawl\.dev\/v2\/crawl\/[0-9a-f-]{36}\?skip=10$/);
  t.deepEqual(out.batch, { status: 'completed', docs: 1, errors: [['https://no-such-host.example/a', 'SCRAPE_DNS_RESOLUTION_ERROR']] });
  t.deepEqual(out.extract, { status: 'completed', data: { title: 'Quillstack 4.0 released: a faster pool and a new planner', author: 'Priya Raman' } });
  t.deepEqual(out.agent, { status: 'completed', answer: 'string' });
  t.deepEqual(out.monitor, { cron: '*/30 * * * *', queued: 'queued', done: 'completed', pages: ['new', 'error'], listed: 2 });
  t.true(out.deleted);
  t.true(out.usage.remaining < 100_000 && out.usage.plan === 100_000);
  t.deepEqual(out.errors, {
    badKey: [401, 'Unauthorized: Invalid token'],
    broke: [402, 'Insufficient credits to perform this request. For more credits, you can upgrade your plan at https://firecrawl.dev/pricing or try changing the request limit to a lower value.'],
    unknownJob: [404, 'Job not found'],
  });
});
