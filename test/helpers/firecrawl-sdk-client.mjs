// Runs @mendable/firecrawl-js (unmodified, axios) against https://api.firecrawl.dev through the
// preload and the TLS proxy; prints one JSON object of what it saw. FIRECRAWL_KEY, FIRECRAWL_BROKE
// (a key whose team has no credits left).
import Firecrawl from '@mendable/firecrawl-js';

const app = new Firecrawl({ apiKey: process.env.FIRECRAWL_KEY });
const out = {};
const POST = 'https://quillstack.dev/blog/quillstack-4-0-released';

const doc = await app.scrape(POST, {
  formats: ['markdown', 'html', 'links', 'summary', { type: 'json', schema: { type: 'object', properties: { title: { type: 'string' }, published: { type: 'string', description: 'published date' } } } }],
});
out.scrape = { markdown: doc.markdown.slice(0, 30), html: doc.html.slice(0, 6), links: doc.links, summary: doc.summary.slice(0, 40), json: doc.json, meta: [doc.metadata.statusCode, doc.metadata.sourceURL, doc.metadata.creditsUsed, typeof doc.metadata.scrapeId] };
const missing = await app.scrape('https://quillstack.dev/no-such-page');
out.missing = [missing.metadata.statusCode, missing.markdown.split('\n')[0]];
try { await app.scrape('https://no-such-host.example/'); } catch (e) { out.dns = [e.status ?? null, e.code ?? null, e.message.slice(0, 40)]; }

const found = await app.search('quillstack default pool max_connections', { limit: 3, sources: ['web', 'news'] });
out.search = { web: found.web.map((r) => [r.position, r.url]), news: found.news?.length ?? 0 };
const site = await app.search('release site:quillstack.dev', { limit: 2, scrapeOptions: { formats: ['markdown'] } });
out.site = site.web.map((r) => [r.url, typeof r.markdown]);

const map = await app.map('https://quillstack.dev', { search: 'release' });
out.map = map.links.map((l) => l.url);

const crawl = await app.crawl('https://ferrouslantern.example/patch-notes', { limit: 20, pollInterval: 1 });
out.crawl = { status: crawl.status, total: crawl.total, docs: crawl.data.length, last: crawl.data.at(-1).metadata.sourceURL };
const firstPage = await app.getCrawlStatus(crawl.id, { autoPaginate: false });
out.crawlPage = { docs: firstPage.data.length, next: firstPage.next };

const batch = await app.batchScrape([POST, 'https://no-such-host.example/a'], { options: { formats: ['markdown'] }, pollInterval: 1 });
const batchErrors = await app.getBatchScrapeErrors(batch.id);
out.batch = { status: batch.status, docs: batch.data.length, errors: batchErrors.errors.map((e) => [e.url, e.code]) };

const extracted = await app.extract({ urls: [POST], schema: { type: 'object', properties: { title: { type: 'string' }, author: { type: 'string' } } }, pollInterval: 1 });
out.extract = { status: extracted.status, data: extracted.data };

const agent = await app.agent({ prompt: 'What is the default Quillstack pool size in 4.0?', urls: [POST], strictConstrainToURLs: true, pollInterval: 1 });
out.agent = { status: agent.status, answer: typeof agent.data?.answer };

const monitor = await app.createMonitor({ name: 'Docs watch', schedule: { text: 'every 30 minutes' }, targets: [{ type: 'scrape', urls: [POST, 'https://no-such-host.example/'] }] });
const check = await app.runMonitor(monitor.id);
const detail = await app.getMonitorCheck(monitor.id, check.id);
out.monitor = { cron: monitor.schedule.cron, queued: check.status, done: detail.status, pages: detail.pages.map((p) => p.status), listed: (await app.listMonitors()).length };
out.deleted = await app.deleteMonitor(monitor.id);

const usage = await app.getCreditUsage();
out.usage = { remaining: usage.remainingCredits, plan: usage.planCredits };

const errors = {};
try { await new Firecrawl({ apiKey: 'fc-wrong' }).scrape(POST); } catch (e) { errors.badKey = [e.status, e.message]; }
try { await new Firecrawl({ apiKey: process.env.FIRECRAWL_BROKE }).scrape(POST); } catch (e) { errors.broke = [e.status, e.message]; }
try { await app.getCrawlStatus('00000000-0000-4000-8000-000000000000'); } catch (e) { errors.unknownJob = [e.status, e.message]; }
out.errors = errors;
process.stdout.write(JSON.stringify(out));
