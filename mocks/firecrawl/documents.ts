import { z } from 'zod';
import { uuidId } from '../kit/ids.js';
import { normalizeUrl, type PageDoc } from '../kit/web/corpus.js';
import { extractStructured, type JsonSchema } from '../kit/web/extract.js';
import { pageHtml } from '../kit/web/render.js';
import { bestSentences, clip, findPage, sentences } from '../kit/web/search.js';
import { firecrawlError, type FirecrawlCtx } from './context.js';

/**
 * A scraped document as Firecrawl's v2 API returns it (`data` of `/v2/scrape`, the items of crawl,
 * batch and search results): the formats asked for, rendered from the corpus page, and
 * `metadata`. Shared by every operation that scrapes.
 */

const FormatName = z.enum(['markdown', 'html', 'rawHtml', 'links', 'images', 'screenshot', 'summary', 'changeTracking', 'json', 'query', 'branding', 'audio', 'video', 'attributes', 'product', 'menu']);
const FormatObject = z.object({
  type: FormatName,
  prompt: z.string().optional(),
  schema: z.record(z.unknown()).optional(),
  mode: z.string().optional(),
  fullPage: z.boolean().optional(),
  quality: z.number().optional(),
  viewport: z.object({ width: z.number(), height: z.number() }).optional(),
  modes: z.array(z.string()).optional(),
}).passthrough();
export type Format = z.infer<typeof FormatObject>;

const Action = z.object({
  type: z.enum(['wait', 'screenshot', 'scroll', 'scrape', 'click', 'write', 'press', 'executeJavascript', 'generatePDF']),
}).passthrough();

/** The scrape options every scraping endpoint takes (v2 `ScrapeOptions`). */
export const ScrapeOptionsShape = {
  formats: z.array(z.union([FormatName, FormatObject])).default(['markdown']),
  onlyMainContent: z.boolean().default(true),
  includeTags: z.array(z.string()).optional(),
  excludeTags: z.array(z.string()).optional(),
  waitFor: z.number().int().nonnegative().optional(),
  mobile: z.boolean().optional(),
  skipTlsVerification: z.boolean().optional(),
  timeout: z.number().int().positive().optional(),
  parsers: z.array(z.unknown()).optional(),
  actions: z.array(Action).optional(),
  location: z.object({ country: z.string().optional(), languages: z.array(z.string()).optional() }).optional(),
  removeBase64Images: z.boolean().optional(),
  blockAds: z.boolean().optional(),
  proxy: z.enum(['basic', 'stealth', 'enhanced', 'auto']).optional(),
  maxAge: z.number().int().nonnegative().optional(),
  storeInCache: z.boolean().optional(),
  zeroDataRetention: z.boolean().optional(),
  redactPII: z.boolean().optional(),
  lockdown: z.boolean().optional(),
  profile: z.object({ name: z.string(), saveChanges: z.boolean().optional() }).optional(),
  origin: z.string().optional(),
  integration: z.string().optional(),
};
export const ScrapeOptions = z.object(ScrapeOptionsShape).passthrough();
export type ScrapeOptionsT = z.infer<typeof ScrapeOptions>;

export function formatsOf(options: Pick<ScrapeOptionsT, 'formats'>): Format[] {
  return options.formats.map((f) => (typeof f === 'string' ? { type: f } : f));
}

/** Credits for one page: 1, or 5 with JSON extraction (as Firecrawl bills it). */
export function pageCredits(options: Pick<ScrapeOptionsT, 'formats'>): number {
  return formatsOf(options).some((f) => f.type === 'json' || (f.type === 'changeTracking' && f.modes?.includes('json'))) ? 5 : 1;
}

/** The DNS failure Firecrawl reports for a host that does not resolve (the corpus has no page there). */
export const dnsMessage = (host: string) => `DNS resolution failed for hostname "${host}". This means the domain name could not be translated to an IP address. Possible causes: (1) The domain name is misspelled (check for typos), (2) The domain does not exist or has expired, (3) The DNS servers are temporarily unavailable, or (4) The domain was recently registered and DNS has not propagated yet. Please verify the URL is correct and the website exists.`;

/** What a fetch of `url` reaches: a corpus page, the site's 404 page, or no host at all. */
export type Fetched = { kind: 'page'; page: PageDoc } | { kind: 'missing'; url: string; host: string } | { kind: 'dns'; host: string } | { kind: 'invalid' };

export function fetchUrl(c: FirecrawlCtx, raw: string): Fetched {
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim()) ? raw.trim() : `https://${raw.trim()}`);
  } catch {
    return { kind: 'invalid' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { kind: 'invalid' };
  const page = findPage(c.web, u.toString());
  if (page) return { kind: 'page', page };
  const bare = u.hostname.replace(/^www\./, '');
  const hostKnown = c.web.pages.values().some((p) => p.host.replace(/^www\./, '') === bare);
  return hostKnown ? { kind: 'missing', url: normalizeUrl(u.toString()), host: u.hostname } : { kind: 'dns', host: u.hostname };
}

/** The page a site answers for a path it does not have (Firecrawl scrapes it, with statusCode 404). */
function notFoundPage(url: string, host: string, epochMs: number): PageDoc {
  return {
    url, host, site: host.replace(/^www\./, ''), title: '404 Not Found', markdown: '# 404 Not Found\n\nThe page you requested could not be found.',
    description: 'The page you requested could not be found.', crawled: new Date(epochMs).toISOString(), language: 'en', links: [], images: [],
    news: false, breaking: false, status: 404, outlinks: [],
  };
}

/** A scrape's record, kept for `changeTracking`, interact sessions and feedback. */
export interface ScrapeDoc { id: string; team: string; url: string; at: number; markdown: string }

/**
 * Scrapes `url` for the caller: the document, or the Firecrawl error (`SCRAPE_DNS_RESOLUTION_ERROR`)
 * for a host outside the corpus. Records the scrape so `metadata.scrapeId` can be reused.
 */
export function scrapeUrl(c: FirecrawlCtx, url: string, options: ScrapeOptionsT): { ok: true; doc: Record<string, unknown> } | { ok: false; code: string; error: string } {
  const fetched = fetchUrl(c, url);
  if (fetched.kind === 'invalid') return { ok: false, code: 'BAD_REQUEST', error: 'Invalid URL' };
  if (fetched.kind === 'dns') return { ok: false, code: 'SCRAPE_DNS_RESOLUTION_ERROR', error: dnsMessage(fetched.host) };
  const page = fetched.kind === 'page' ? fetched.page : notFoundPage(fetched.url, fetched.host, c.ctx.epochMs);
  return { ok: true, doc: renderDocument(c, page, url, options) };
}

function markdownOf(page: PageDoc, mainOnly: boolean): string {
  if (mainOnly || page.links.length === 0) return page.markdown;
  return `${page.links.map((l) => `- [${new URL(l).pathname}](${l})`).join('\n')}\n\n${page.markdown}`;
}

/** Extractive summary: the page's opening prose sentences (headings and table cells left out), as short as Firecrawl's summaries. */
export function summaryOf(page: PageDoc): string {
  const prose = sentences(page).filter((s) => /[.!?]["')]?$/.test(s) && s.split(' ').length > 3);
  return clip((prose.length > 0 ? prose : sentences(page)).slice(0, 3).join(' '), 500);
}

function actionResults(c: FirecrawlCtx, page: PageDoc, actions: z.infer<typeof Action>[]) {
  const out = { screenshots: [] as string[], scrapes: [] as { url: string; html: string }[], javascriptReturns: [] as { type: string; value: unknown }[], pdfs: [] as string[] };
  for (const a of actions) {
    if (a.type === 'screenshot') out.screenshots.push(screenshotUrl(c));
    else if (a.type === 'scrape') out.scrapes.push({ url: page.url, html: pageHtml(page, false) });
    else if (a.type === 'executeJavascript') out.javascriptReturns.push({ type: 'undefined', value: null });
    else if (a.type === 'generatePDF') out.pdfs.push(`https://storage.googleapis.com/firecrawl-scrape-media/pdf-${uuidId(c.ctx, 'media')}.pdf`);
  }
  return out;
}

/** Screenshots live in Firecrawl's media bucket; the mock names one but serves no image (docs/firecrawl-mock.md). */
function screenshotUrl(c: FirecrawlCtx): string {
  return `https://storage.googleapis.com/firecrawl-scrape-media/screenshot-${uuidId(c.ctx, 'media')}.png`;
}

export function renderDocument(c: FirecrawlCtx, page: PageDoc, requested: string, options: ScrapeOptionsT): Record<string, unknown> {
  const scrapes = c.ctx.store.collection<ScrapeDoc>('scrapes');
  const team = c.key!.team;
  const previous = scrapes.values().filter((s) => s.team === team && s.url === page.url).at(-1);
  const scrapeId = uuidId(c.ctx, 'scrape');
  const doc: Record<string, unknown> = {};
  const mainOnly = options.onlyMainContent;
  for (const f of formatsOf(options)) {
    switch (f.type) {
      case 'markdown': doc.markdown = markdownOf(page, mainOnly); break;
      case 'html': doc.html = pageHtml(page, mainOnly); break;
      case 'rawHtml': doc.rawHtml = pageHtml(page, false); break;
      case 'links': doc.links = page.outlinks; break;
      case 'images': doc.images = page.images.map((i) => i.url); break;
      case 'screenshot': doc.screenshot = screenshotUrl(c); break;
      case 'summary': doc.summary = summaryOf(page); break;
      case 'json': doc.json = extractStructured(page, f.schema as JsonSchema | undefined, f.prompt); break;
      case 'query': {
        const prompt = f.prompt ?? '';
        doc.answer = f.mode === 'directQuote' ? bestSentences(page, prompt, 1)[0] ?? '' : bestSentences(page, prompt, 2).join(' ');
        break;
      }
      case 'changeTracking': {
        const changed = previous === undefined ? 'new' : previous.markdown === page.markdown ? 'same' : 'changed';
        doc.changeTracking = { previousScrapeAt: previous ? new Date(previous.at).toISOString() : null, changeStatus: changed, visibility: 'visible' };
        if (doc.markdown === undefined) doc.markdown = markdownOf(page, mainOnly);
        break;
      }
      case 'branding': throw firecrawlError(400, 'Branding extraction is not supported for this page.', 'SCRAPE_BRANDING_NOT_SUPPORTED');
      case 'audio': throw firecrawlError(400, 'The audio format does not support the provided URL', 'SCRAPE_AUDIO_UNSUPPORTED_URL');
      case 'video': throw firecrawlError(400, 'The video format does not support the provided URL', 'SCRAPE_VIDEO_UNSUPPORTED_URL');
      default: break;
    }
  }
  if (options.actions && options.actions.length > 0) doc.actions = actionResults(c, page, options.actions);
  const credits = pageCredits(options);
  doc.metadata = {
    title: page.title,
    description: page.description,
    language: page.language,
    ...(page.author ? { author: page.author } : {}),
    ...(page.published ? { publishedTime: page.published } : {}),
    ogTitle: page.title,
    ogDescription: page.description,
    ogSiteName: page.site,
    favicon: `https://${page.host}/favicon.ico`,
    sourceURL: requested,
    url: page.url,
    statusCode: page.status,
    contentType: 'text/html; charset=utf-8',
    scrapeId,
    proxyUsed: 'basic',
    cacheState: 'miss',
    creditsUsed: credits,
    ...(page.status >= 400 ? { error: page.status === 404 ? 'Not Found' : `HTTP ${page.status}` } : {}),
  };
  scrapes.put(scrapeId, { id: scrapeId, team, url: page.url, at: c.ctx.nowMs, markdown: page.markdown });
  return doc;
}
