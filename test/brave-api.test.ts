import test from 'ava';
import { FaultRuleSchema } from '../mocks/core/fault-plan.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { serveProxyForWorld } from '../proxy/for-world.js';
import { prepareWorld } from './helpers/prepare-world.js';
import { testCaDir } from './helpers/proxy.js';
import { run } from './helpers/proxy-processes.js';

// Brave has no official SDK: curl, through the TLS proxy, calls https://api.search.brave.com as
// Brave's API reference documents it (X-Subscription-Token, q/count/offset, result_filter,
// ErrorResponse bodies), against the conformance world; one injected 429 is Brave's RATE_LIMITED.

const TOKEN = 'BSA-conformance-pro-ai-000000000';

test('curl: web search pages with count/offset, mixes news, hands out a summarizer key; errors are ErrorResponse bodies; a 429 is RATE_LIMITED', async (t) => {
  const { header, services, catalog } = prepareWorld({ scenarioDir: 'mocks/brave/conformance' });
  const faults = { chaos: 'none' as const, rules: [{ route: '/res/v1/news/search', kind: '429', nth: [1], retry_after: 2 }].map((rule) => FaultRuleSchema.parse(rule)) };
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal({ ...header, faults }), faults });
  const served = await serveProxyForWorld(world, catalog.catalog, { caDir: testCaDir(), proxyPort: 0, tlsPort: 0 });
  try {
    const curl = async (path: string, token = TOKEN) => {
      const out = await run('curl', ['-sS', '-i', '-x', served.proxy.url, '--cacert', served.certs.ca.certPath, '-H', `X-Subscription-Token: ${token}`, '-H', 'Accept: application/json', `https://api.search.brave.com${path}`]);
      t.is(out.code, 0, out.stderr);
      const [head, ...rest] = out.stdout.split('\r\n\r\n').slice(-2);
      return { status: Number(/HTTP\/1\.1 (\d+)/.exec(head!)![1]), head: head!, body: JSON.parse(rest.join('\r\n\r\n')) };
    };
    const q = encodeURIComponent('Ferrous Lantern Glass Harbor removed from ranked');
    const first = await curl(`/res/v1/web/search?q=${q}&count=10`);
    t.is(first.status, 200);
    t.is(first.body.type, 'search');
    t.is(first.body.web.results.length, 10);
    t.true(first.body.query.more_results_available);
    t.false(first.body.web.results.some((r: { url: string }) => r.url.endsWith('/1.6')));
    t.regex(first.head, /\r\nX-RateLimit-Limit: 20, 20000000\r\n/i);
    t.regex(first.head, /\r\nX-RateLimit-Remaining: \d+, 19999999\r\n/i);
    const second = await curl(`/res/v1/web/search?q=${q}&count=10&offset=1`);
    const found = second.body.web.results.find((r: { url: string }) => r.url === 'https://ferrouslantern.example/patch-notes/1.6');
    t.regex(found?.description ?? JSON.stringify(second.body.web.results.map((r: { url: string }) => r.url)), /<strong>removed<\/strong> from <strong>ranked<\/strong> rotation/);
    t.like(second.body.web.results[0], { type: 'search_result', is_source_local: false, meta_url: { scheme: 'https', hostname: 'ferrouslantern.example' } });

    const mixed = await curl(`/res/v1/web/search?q=${encodeURIComponent('Meridian Rail strike')}&summary=1&text_decorations=false`);
    t.true(mixed.body.news.results.length > 0);
    t.is(mixed.body.news.results[0].type, 'news_result');
    t.is(JSON.parse(mixed.body.summarizer.key).query, 'Meridian Rail strike');
    t.false(JSON.stringify(mixed.body.web).includes('<strong>'));
    const summary = await curl(`/res/v1/summarizer/search?key=${encodeURIComponent(mixed.body.summarizer.key)}&inline_references=true`);
    t.like(summary.body, { type: 'summarizer', status: 'complete' });
    t.true(summary.body.summary.some((s: { type: string }) => s.type === 'inline_reference'));

    const badToken = await curl('/res/v1/web/search?q=x', 'BSA-nope');
    t.is(badToken.status, 422);
    t.like(badToken.body, { type: 'ErrorResponse', error: { status: 422, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.', meta: { component: 'authentication' } } });
    const badCount = await curl('/res/v1/web/search?q=x&count=50');
    t.is(badCount.status, 422);
    t.like(badCount.body.error, { code: 'VALIDATION', detail: 'Unable to validate request parameter(s)' });
    t.deepEqual(badCount.body.error.meta.errors[0].loc, ['query', 'count']);
    const free = await curl('/res/v1/web/search?q=bakery+Bellmont&result_filter=web,locations', 'BSA-free-tier-intern-000000000000');
    t.is(free.body.locations, undefined, 'locations need a Pro plan');
    t.regex(free.head, /\r\nX-RateLimit-Limit: 1, 2000\r\n/i);
    const limited = await curl('/res/v1/news/search?q=strike');
    t.is(limited.status, 429);
    t.like(limited.body.error, { status: 429, code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan.' });
    t.regex(limited.head, /\r\nRetry-After: 2\r\n/i);
    t.is((await curl('/res/v1/news/search?q=strike')).status, 200);
    const missing = await curl('/res/v1/nothing/here');
    t.like(missing, { status: 404, body: { error: { code: 'RESOURCE_NOT_FOUND' } } });
  } finally {
    await served.proxy.close();
    await world.journal.close();
  }
});
