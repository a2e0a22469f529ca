import test from 'ava';
import { fileURLToPath } from 'node:url';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv, run } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The official @tavily/core (unmodified, axios) in its own Node process, reaching
// https://api.tavily.com through the preload and the TLS proxy, against the Tavily mock:
// search with an answer and raw content, news dates, extract with failed_results, crawl, map,
// research created and polled on the logical clock, and Tavily's detail.error messages.

let stack: Stack;
test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/tavily/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['tavily-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('@tavily/core searches, extracts, crawls, maps and researches the mock; errors surface as Tavily words them', async (t) => {
  const script = fileURLToPath(new URL('./helpers/tavily-sdk-client.mjs', sourceUrl(import.meta.url)));
  const result = await run(process.execPath, [script], { ...nodeClientEnv(stack.proxy!.proxy.urlFor('tavily-sdk'), stack.caPath!), TAVILY_KEY: 'tvly-conformance-0000000000000000000', TAVILY_BROKE: 'tvly-dev-exhausted0000000000000' }, 60_000);
  t.is(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  t.deepEqual(out.search.urls, ['https://devforum.example.org/t/quillstack-default-pool-size/4412', 'https://quillstack.dev/docs/configuration', 'https://quillstack.dev/blog/quillstack-4-0-released']);
  t.true(out.search.scores[0] > out.search.scores[2] && out.search.scores[0] <= 1);
  t.regex(out.search.answer, /default/);
  t.is(out.search.raw, '# What is the default pool size in Quill');
  t.is(out.search.favicon, 'https://devforum.example.org/favicon.ico');
  t.regex(out.search.requestId, /^[0-9a-f-]{36}$/);
  t.deepEqual(out.news.map((n: [string, string]) => n[0]), ['https://www.coastpost.example/news/meridian-rail-strike-june-2024', 'https://www.coastpost.example/news/meridian-rail-strike-12-march']);
  t.is(out.news[1][1], 'Sun, 02 Mar 2025 00:00:00 GMT');
  t.deepEqual(out.extract.ok, ['https://quillstack.dev/docs/storage']);
  t.deepEqual(out.extract.failed, [{ url: 'https://quillstack.dev/missing', error: 'Failed to fetch url' }]);
  t.is(out.extract.text, 'Storage engine\n\nQuillstack wri');
  t.deepEqual(out.crawl, { base: 'https://quillstack.dev/docs', urls: ['https://quillstack.dev/docs', 'https://quillstack.dev/docs/configuration', 'https://quillstack.dev/docs/storage'] });
  t.deepEqual(out.map, ['https://quillstack.dev/blog/quillstack-4-1-released', 'https://quillstack.dev/blog/quillstack-4-0-released', 'https://quillstack.dev/blog/road-to-4-0', 'https://quillstack.dev/blog/quillstack-3-2-released']);
  t.like(out.research, { created: 'pending', polled: 'completed', sources: 5 });
  t.regex(out.research.content, /^# Meridian Rail strike date/);
  t.deepEqual(out.errors, { badKey: 'Unauthorized: missing or invalid API key.', broke: "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com" });
});
