import test from 'ava';
import { readFileSync } from 'node:fs';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import type { OpenApiDocument } from '../mocks/kit/spec-fallback.js';
import { prepareWorld } from './helpers/prepare-world.js';
import { specValidator } from './helpers/spec-validate.js';

// Every kind of success answer the Firecrawl mock gives, validated with ajv against Firecrawl's
// published v2 OpenAPI description (pruned copy in mocks/firecrawl/spec/, docs/provenance.md).

const spec = JSON.parse(readFileSync('mocks/firecrawl/spec/firecrawl-v2.json', 'utf8')) as OpenApiDocument;
const KEY = 'fc-conformance0000000000000000000';
const POST = 'https://quillstack.dev/blog/quillstack-4-0-released';
const MONITOR = '6f0c3a52-9d1e-4b7a-8c21-3e5f7a9b0c11';
const PAPER = encodeURIComponent('url:https://papers.quillstack.dev/2024/adaptive-connection-pools');

test('success answers match the v2 OpenAPI response schemas', async (t) => {
  const validate = specValidator(spec);
  const { header, services } = prepareWorld({ scenarioDir: 'mocks/firecrawl/conformance' });
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, journal: new MemoryJournal(header) });
  const call = async (operationId: string, method: string, target: string, body?: unknown) => {
    const response = await world.dispatch({
      host: 'api.firecrawl.dev', method, target, body: body === undefined ? new Uint8Array() : new TextEncoder().encode(JSON.stringify(body)),
      headers: [['Authorization', `Bearer ${KEY}`], ['Content-Type', 'application/json']],
    });
    const json = JSON.parse(new TextDecoder().decode(response.body));
    t.true(response.status < 300, `${operationId}: ${response.status} ${JSON.stringify(json)}`);
    if (operationId) t.is(validate(operationId, json), null, `${operationId} ${method} ${target}`);
    return json;
  };
  try {
    const scrape = await call('scrapeAndExtractFromUrl', 'POST', '/v2/scrape', { url: POST, formats: ['markdown', 'html', 'rawHtml', 'links', 'images', 'summary', 'screenshot', { type: 'json', prompt: 'title' }, { type: 'query', prompt: 'default pool' }, 'changeTracking'], actions: [{ type: 'wait', milliseconds: 500 }, { type: 'screenshot' }, { type: 'scrape' }] });
    await call('interactWithScrapeBrowserSession', 'POST', `/v2/scrape/${scrape.data.metadata.scrapeId}/interact`, { prompt: 'What is the default pool?' });
    await call('stopInteractiveScrapeBrowserSession', 'DELETE', `/v2/scrape/${scrape.data.metadata.scrapeId}/interact`);
    const batch = await call('scrapeAndExtractFromUrls', 'POST', '/v2/batch/scrape', { urls: [POST, 'https://nowhere.example/'], formats: ['markdown'] });
    await call('getBatchScrapeStatus', 'GET', `/v2/batch/scrape/${batch.id}`);
    await call('getBatchScrapeErrors', 'GET', `/v2/batch/scrape/${batch.id}/errors`);
    const crawl = await call('crawlUrls', 'POST', '/v2/crawl', { url: 'https://ferrouslantern.example/patch-notes', limit: 20 });
    // The spec lists `crawls` (as the SDK reads it) but requires `data`; the mock answers `crawls`.
    t.deepEqual(Object.keys(await call('', 'GET', '/v2/crawl/active')), ['success', 'crawls']);
    await call('getCrawlStatus', 'GET', `/v2/crawl/${crawl.id}`);
    const first = await call('getCrawlStatus', 'GET', `/v2/crawl/${crawl.id}`);
    await call('getCrawlStatus', 'GET', new URL(first.next).pathname + new URL(first.next).search);
    await call('getCrawlErrors', 'GET', `/v2/crawl/${crawl.id}/errors`);
    await call('mapUrls', 'POST', '/v2/map', { url: 'https://quillstack.dev', search: 'release' });
    const search = await call('searchAndScrape', 'POST', '/v2/search', { query: 'quillstack pool', sources: ['web', 'news', 'images'], limit: 3, scrapeOptions: { formats: ['markdown'] } });
    await call('submitSearchFeedback', 'POST', `/v2/search/${search.id}/feedback`, { rating: 'good' });
    await call('submitEndpointFeedback', 'POST', '/v2/feedback', { endpoint: 'scrape', jobId: scrape.data.metadata.scrapeId, rating: 'partial', note: 'ok' });
    const extract = await call('extractData', 'POST', '/v2/extract', { urls: ['https://quillstack.dev/blog/*'], prompt: 'release versions', showSources: true });
    await call('getExtractStatus', 'GET', `/v2/extract/${extract.id}`);
    await call('getExtractStatus', 'GET', `/v2/extract/${extract.id}`);
    const agent = await call('startAgent', 'POST', '/v2/agent', { prompt: 'Quillstack default pool size', schema: { type: 'object', properties: { title: { type: 'string' } } } });
    await call('getAgentStatus', 'GET', `/v2/agent/${agent.id}`);
    await call('getAgentStatus', 'GET', `/v2/agent/${agent.id}`);
    await call('getCreditUsage', 'GET', '/v2/team/credit-usage');
    await call('getHistoricalCreditUsage', 'GET', '/v2/team/credit-usage/historical?byApiKey=true');
    const created = await call('createMonitor', 'POST', '/v2/monitor', { name: 'Docs', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: [POST] }, { type: 'search', queries: ['quillstack release'] }] });
    await call('listMonitors', 'GET', '/v2/monitor?limit=5');
    await call('getMonitor', 'GET', `/v2/monitor/${MONITOR}`);
    await call('updateMonitor', 'PATCH', `/v2/monitor/${MONITOR}`, { status: 'paused' });
    const check = await call('runMonitor', 'POST', `/v2/monitor/${created.data.id}/run`);
    await call('listMonitorChecks', 'GET', `/v2/monitor/${created.data.id}/checks`);
    await call('getMonitorCheck', 'GET', `/v2/monitor/${created.data.id}/checks/${check.data.id}?limit=1`);
    await call('deleteMonitor', 'DELETE', `/v2/monitor/${created.data.id}`);
    await call('developerSearch', 'GET', '/v2/search/developer?query=pool%20exhaustion');
    await call('researchSearchPapers', 'GET', '/v2/search/research/papers?query=connection%20pools');
    await call('researchGetPaper', 'GET', `/v2/search/research/papers/${PAPER}`);
    // A read answer has every field of the metadata answer too, so the spec's oneOf of the two can never hold for it: its fields are checked by hand.
    const read = await call('', 'GET', `/v2/search/research/papers/${PAPER}?query=saturates`);
    t.deepEqual(Object.keys(read), ['success', 'paper', 'paperId', 'query', 'passages']);
    t.true(read.passages.every((p: { text: unknown; score: unknown }) => typeof p.text === 'string' && typeof p.score === 'number'));
    await call('researchRelatedPapers', 'GET', `/v2/search/research/papers/${PAPER}/similar?intent=logging&mode=citers`);
  } finally {
    await world.journal.close();
  }
});
