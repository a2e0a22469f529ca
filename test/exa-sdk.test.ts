import test from 'ava';
import { fileURLToPath } from 'node:url';
import { startStack, type Stack } from '../catalog/stack.js';
import { nodeClientEnv, run } from './helpers/proxy-processes.js';
import { testCaDir } from './helpers/proxy.js';
import { sourceUrl } from '../mocks/core/source-url.js';

// The official exa-js (unmodified, fetch) in its own Node process, reaching https://api.exa.ai
// through the preload and the TLS proxy, against the Exa mock: neural and keyword search with
// filters and contents, contents with per-URL statuses, findSimilar, answer with citations, a
// research task polled to completion on the logical clock, an agent run streamed as server-sent
// events and one polled, and Exa's own errors.

let stack: Stack;
test.before(async () => {
  stack = await startStack({ scenarioDir: 'mocks/exa/conformance', ports: 'ephemeral', caDir: testCaDir(), endpoints: false, clients: ['exa-sdk'] });
});
test.after.always(async () => {
  await stack?.close();
});

test('exa-js searches, fetches, finds similar pages, answers, researches and runs agents against the mock; errors surface as Exa words them', async (t) => {
  const script = fileURLToPath(new URL('./helpers/exa-sdk-client.mjs', sourceUrl(import.meta.url)));
  const result = await run(process.execPath, [script], { ...nodeClientEnv(stack.proxy!.proxy.urlFor('exa-sdk'), stack.caPath!), EXA_KEY: 'exa-conformance-0000-0000-0000-000000000000', EXA_BROKE: 'exa-exhausted-0000-0000-0000-000000000000' }, 60_000);
  t.is(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  t.like(out.search, { type: 'neural', highlight: 'Train drivers at Meridian Rail will strike on 12 March, their union said on Sunday, after pay talks broke down.', summary: 'string', cost: 0.011 });
  t.deepEqual(out.search.urls, ['https://www.coastpost.example/news/meridian-rail-strike-12-march', 'https://www.coastpost.example/news/meridian-rail-strike-postponed', 'https://www.bellmont-gazette.example/opinion/rail-strike-commuters']);
  t.deepEqual(out.search.dates, ['2025-03-02T00:00:00.000Z', '2025-03-09T00:00:00.000Z', '2025-03-05T00:00:00.000Z']);
  t.true(out.search.scores[0] > out.search.scores[2] && out.search.scores[0] <= 1);
  t.regex(out.search.requestId, /^[0-9a-f]{32}$/);
  // keyword search is lexical (every word on the page) and kept to the domain asked for.
  t.deepEqual(out.keyword, ['https://quillstack.dev/docs/configuration', 'https://quillstack.dev/blog/quillstack-4-0-released', 'https://quillstack.dev/blog/quillstack-3-2-released']);
  t.deepEqual(out.contents.urls, ['https://quillstack.dev/docs/storage']);
  t.is(out.contents.text, '# Storage engine\n\nQuillstack writes a wr');
  t.deepEqual(out.contents.statuses, [
    { id: 'https://quillstack.dev/docs/storage', status: 'success', source: 'cached' },
    { id: 'https://quillstack.dev/missing', status: 'error', error: { tag: 'CRAWL_NOT_FOUND', httpStatusCode: 404 } },
  ]);
  t.false(out.similar.some((u: string) => u.startsWith('https://quillstack.dev/')), 'excludeSourceDomain leaves the source site out');
  t.is(out.similar.length, 3);
  t.regex(out.answer.answer, /postponed to 19 March/);
  t.is(out.answer.citations[0], 'https://www.coastpost.example/news/meridian-rail-strike-postponed');
  t.deepEqual(out.research, { created: 'pending', done: 'completed', content: '# Research report', events: ['research-definition', 'research-output'] });
  t.deepEqual(out.agent, { events: ['agent_run.created', 'agent_run.started', 'agent_run.search_trace', 'agent_run.completed'], queued: 'queued', finished: 'completed', cited: 3 });
  t.deepEqual(out.errors, {
    badKey: [401, 'Invalid API key'],
    broke: [402, 'You have exhausted your credits. Top up at https://dashboard.exa.ai to continue.'],
    invalid: [400, 'Invalid request body: numResults: numResults must be at most 100'],
    missing: [404, 'Research request r_missing not found'],
  });
});
