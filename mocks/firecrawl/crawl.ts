import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { PageDoc } from '../kit/web/corpus.js';
import { crawl, hostMatches, search } from '../kit/web/search.js';
import { badRequest, charge, invalidUrls, iso, remainingCredits, requireCredits, type FirecrawlCtx } from './context.js';
import { dnsMessage, fetchUrl, pageCredits, renderDocument, ScrapeOptions } from './documents.js';
import { cancelJob, documentPage, errorsOf, findJob, jobs, jobStatus, jobUrl, putJob } from './jobs.js';

/** `/v2/crawl` (an async job over the corpus's links) and `/v2/map` (a site's URLs). */

const CrawlBody = z.object({
  url: z.string().min(1),
  prompt: z.string().optional(),
  includePaths: z.array(z.string()).default([]),
  excludePaths: z.array(z.string()).default([]),
  maxDiscoveryDepth: z.number().int().nonnegative().optional(),
  limit: z.number().int().positive().default(10_000),
  crawlEntireDomain: z.boolean().default(false),
  allowExternalLinks: z.boolean().default(false),
  allowSubdomains: z.boolean().default(false),
  ignoreQueryParameters: z.boolean().default(false),
  sitemap: z.enum(['include', 'skip', 'only']).default('include'),
  regexOnFullURL: z.boolean().default(false),
  deduplicateSimilarURLs: z.boolean().optional(),
  delay: z.number().nonnegative().optional(),
  maxConcurrency: z.number().int().positive().optional(),
  webhook: z.unknown().optional(),
  scrapeOptions: ScrapeOptions.default({}),
  zeroDataRetention: z.boolean().optional(),
  origin: z.string().optional(),
  integration: z.string().optional(),
}).passthrough();
type CrawlBodyT = z.infer<typeof CrawlBody>;

/**
 * The pages a crawl returns: breadth-first over links (the corpus's pages only), limited to paths
 * under the start URL unless `crawlEntireDomain`, with Firecrawl's include/exclude regexes.
 */
function crawledPages(c: FirecrawlCtx, start: PageDoc, b: CrawlBodyT): PageDoc[] {
  const base = new URL(start.url).pathname.replace(/\/$/, '');
  const under = (p: PageDoc) => b.crawlEntireDomain || p.host !== start.host || new URL(p.url).pathname.startsWith(base);
  const regex = (list: string[]) => (b.regexOnFullURL ? [] : list);
  let pages = crawl(c.web, start, {
    maxDepth: b.maxDiscoveryDepth ?? 10, limit: Number.MAX_SAFE_INTEGER, allowExternal: b.allowExternalLinks,
    allowSubdomains: b.allowSubdomains, includePaths: regex(b.includePaths), excludePaths: regex(b.excludePaths),
  }).map((x) => x.page).filter(under);
  if (b.regexOnFullURL) {
    const inc = b.includePaths.map((p) => new RegExp(p));
    const exc = b.excludePaths.map((p) => new RegExp(p));
    pages = pages.filter((p) => (inc.length === 0 || inc.some((r) => r.test(p.url))) && !exc.some((r) => r.test(p.url)));
  }
  if (b.sitemap === 'only') pages = pages.filter((p) => p.host === start.host);
  return pages.slice(0, b.limit);
}

function crawlStart(call: { body: CrawlBodyT }, c: FirecrawlCtx) {
  const b = call.body;
  for (const p of [...b.includePaths, ...b.excludePaths]) {
    try { new RegExp(p); } catch { throw badRequest([{ code: 'custom', path: ['includePaths'], message: 'Invalid regular expression' }]); }
  }
  const fetched = fetchUrl(c, b.url);
  if (fetched.kind === 'invalid') throw invalidUrls('url', [b.url!]);
  requireCredits(c, 1);
  const id = uuidId(c.ctx, 'crawl');
  const team = c.key!.team;
  const job = { id, team, kind: 'crawl' as const, url: b.url, credits: 0, extra: { options: { ...b, scrapeOptions: undefined } } };
  if (fetched.kind !== 'page') {
    const error = fetched.kind === 'dns' ? { code: 'SCRAPE_DNS_RESOLUTION_ERROR', error: dnsMessage(fetched.host) } : { code: 'SCRAPE_SITE_ERROR', error: 'The start URL answered 404 Not Found.' };
    putJob(c, { ...job, errors: [{ id: uuidId(c.ctx, 'scrape'), timestamp: iso(c.ctx.nowMs), url: b.url, ...error }] });
  } else {
    const per = pageCredits(b.scrapeOptions);
    const pages = crawledPages(c, fetched.page, b);
    const affordable = pages.slice(0, Math.max(1, Math.floor(remainingCredits(c) / per)));
    const docs = affordable.map((p) => renderDocument(c, p, p.url, b.scrapeOptions));
    putJob(c, { ...job, docs, credits: charge(c, per * docs.length) });
  }
  return jsonResponse(200, { success: true, id, url: jobUrl('crawl', id) });
}

function activeCrawls(c: FirecrawlCtx) {
  const team = c.key!.team;
  const crawls = jobs(c).values().filter((j) => j.kind === 'crawl' && j.team === team && jobStatus(c, j) === 'scraping')
    .map((j) => ({ id: j.id, teamId: team, url: j.url, status: 'scraping', options: j.extra.options ?? {}, created_at: iso(j.created_ms) }));
  return jsonResponse(200, { success: true, crawls });
}

const MapBody = z.object({
  url: z.string().min(1),
  search: z.string().optional(),
  sitemap: z.enum(['include', 'skip', 'only']).default('include'),
  includeSubdomains: z.boolean().default(true),
  ignoreQueryParameters: z.boolean().default(true),
  limit: z.number().int().positive().max(100_000).default(5000),
  timeout: z.number().int().positive().optional(),
  location: z.unknown().optional(),
  origin: z.string().optional(),
  integration: z.string().optional(),
}).passthrough();

/** A site's URLs (its pages in the corpus, the start URL first); `search` ranks and narrows them. */
function map(call: { body: z.infer<typeof MapBody> }, c: FirecrawlCtx) {
  const b = call.body;
  const fetched = fetchUrl(c, b.url);
  if (fetched.kind === 'invalid') throw invalidUrls('url', [b.url!]);
  requireCredits(c, 1);
  const host = new URL(/^https?:\/\//.test(b.url) ? b.url : `https://${b.url}`).hostname.replace(/^www\./, '');
  let pages = c.web.pages.values()
    .filter((p) => p.status < 400 && (b.includeSubdomains ? hostMatches(p.host, host) : p.host.replace(/^www\./, '') === host))
    .sort((a, z) => (a.url < z.url ? -1 : a.url > z.url ? 1 : 0));
  if (fetched.kind === 'page') pages = [fetched.page, ...pages.filter((p) => p.url !== fetched.page.url)];
  if (b.search) {
    pages = search(pages, b.search).map((h) => h.page);
  }
  charge(c, 1);
  const links = pages.slice(0, b.limit).map((p) => ({ url: p.url, title: p.title, description: p.description }));
  return jsonResponse(200, { success: true, links, id: uuidId(c.ctx, 'map') });
}

const Skip = z.object({ skip: z.string().optional() }).passthrough();
type Id = { params: { id: string } };

export const crawlOperations: Operation<FirecrawlCtx>[] = [
  operation<FirecrawlCtx, '/v2/crawl', Record<string, string>, CrawlBodyT>('crawl.create', rest('POST', '/v2/crawl'), crawlStart, { input: { body: CrawlBody } }),
  operation<FirecrawlCtx, '/v2/crawl/active'>('crawl.active', rest('GET', '/v2/crawl/active'), (_call, c) => activeCrawls(c)),
  operation<FirecrawlCtx, '/v2/crawl/:id', z.infer<typeof Skip>>('crawl.get', rest('GET', '/v2/crawl/:id'), (call, c) => documentPage(c, findJob(c, 'crawl', call.params.id), call.query.skip), { input: { query: Skip } }),
  operation<FirecrawlCtx, '/v2/crawl/:id/errors'>('crawl.errors', rest('GET', '/v2/crawl/:id/errors'), (call: Id, c) => errorsOf(findJob(c, 'crawl', call.params.id))),
  operation<FirecrawlCtx, '/v2/crawl/:id'>('crawl.cancel', rest('DELETE', '/v2/crawl/:id'), (call: Id, c) => cancelJob(c, findJob(c, 'crawl', call.params.id))),
  operation<FirecrawlCtx, '/v2/map', Record<string, string>, z.infer<typeof MapBody>>('map', rest('POST', '/v2/map'), map, { input: { body: MapBody } }),
];
