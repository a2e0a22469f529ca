import test from 'ava';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { serveProxyForWorld } from '../proxy/for-world.js';
import { prepareWorld } from './helpers/prepare-world.js';
import { testCaDir } from './helpers/proxy.js';
import { run } from './helpers/proxy-processes.js';

// Python's standard library (urllib through the TLS proxy) calls https://api.firecrawl.dev as
// Firecrawl's API reference documents it, against the conformance world: search operators and
// tbs windows, a crawl paged by `next` with include paths and its path scope, an extract over a
// site wildcard, map, and Firecrawl's error bodies; one injected 429 is Firecrawl's rate limit.

test('python urllib: search operators and time windows, paged crawls, extract, map, errors and a 429', async (t) => {
  const { header, services, catalog } = prepareWorld({ scenarioDir: 'mocks/firecrawl/conformance' });
  const faults = { chaos: 'none' as const, rules: [{ route: '/v2/team/credit-usage', kind: '429', nth: [1], retry_after: 7 }].map((rule) => FaultRuleSchema.parse(rule)) };
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
  const served = await serveProxyForWorld(world, catalog.catalog, { caDir: testCaDir(), proxyPort: 0, tlsPort: 0 });
  try {
    const out = await run('python3', ['test/helpers/firecrawl-stdlib-client.py'], {
      ...process.env, HTTPS_PROXY: served.proxy.url, SSL_CERT_FILE: served.certs.ca.certPath,
      FIRECRAWL_KEY: 'fc-conformance0000000000000000000', FIRECRAWL_BROKE: 'fc-exhausted00000000000000000000',
    }, 60_000);
    t.is(out.code, 0, out.stderr);
    const r = JSON.parse(out.stdout);
    t.true(r.operators.length > 0 && r.operators.every((u: string) => u.startsWith('https://quillstack.dev/')), r.operators.join(' '));
    t.deepEqual(r.news_week, [['https://www.coastpost.example/news/meridian-rail-strike-postponed', '2 days ago'], ['https://www.bellmont-gazette.example/opinion/rail-strike-commuters', '6 days ago']]);
    t.deepEqual(r.news_june, ['https://www.coastpost.example/news/meridian-rail-strike-june-2024']);
    t.deepEqual(r.crawl, { status: 'completed', total: 5, pages: [5], urls: ['1.1', '1.10', '1.11', '1.12', '1.13'], summary: true });
    t.deepEqual(r.crawl_scope, [5, 10]);
    t.deepEqual(r.extract, { maps: ['Glass Harbor', 'Iron Steppe', 'Ember Vault'] });
    t.deepEqual(r.map, ['https://quillstack.dev/blog', 'https://quillstack.dev/blog/quillstack-3-2-released', 'https://quillstack.dev/blog/road-to-4-0']);
    t.deepEqual(r.errors, {
      missing: [401, { success: false, error: 'Unauthorized: Token missing' }],
      invalid: [401, { success: false, error: 'Unauthorized: Invalid token' }],
      broke: [402, { success: false, error: 'Insufficient credits to perform this request. For more credits, you can upgrade your plan at https://firecrawl.dev/pricing or try changing the request limit to a lower value.' }],
      exchange: [403, { success: false, error: 'Exchange is not enabled for this team.' }],
      bad: 400,
    });
    t.deepEqual(r.rate, [429, '7', 'Rate limit exceeded. Consumed (req/min): 11, Remaining (req/']);
  } finally {
    await served.proxy.close();
    await world.journal.close();
  }
});
