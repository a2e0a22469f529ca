import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { plainText, type PageDoc } from '../kit/web/corpus.js';
import { extractiveAnswer, isoDate } from '../kit/web/render.js';
import { bestSentences, crawl, findPage, relevance, search, snippet, type SearchFilter } from '../kit/web/search.js';
import { charge, tavilyError, type TavilyCtx } from './context.js';

/**
 * Tavily's API (api.tavily.com): search (with answer, raw content, images, news dates), extract,
 * crawl, map and research (an async task that completes on the logical clock), over the
 * scenario's corpus (mocks/kit/web).
 */

const DAY = 86_400_000;
const strList = z.union([z.string(), z.array(z.string())]).optional().transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD').optional();

const SearchBody = z.object({
  query: z.string({ required_error: 'Query is missing.' }).min(1, 'Query is missing.').max(400, 'Query is too long. Max query length is 400 characters.'),
  search_depth: z.enum(['basic', 'advanced', 'fast', 'ultra-fast']).default('basic'),
  topic: z.enum(['general', 'news', 'finance']).default('general'),
  time_range: z.enum(['day', 'week', 'month', 'year', 'd', 'w', 'm', 'y']).optional(),
  days: z.number().int().positive().optional(),
  max_results: z.number().int().min(0).max(20).default(5),
  chunks_per_source: z.number().int().min(1).max(3).default(3),
  include_images: z.boolean().default(false),
  include_image_descriptions: z.boolean().default(false),
  include_answer: z.union([z.boolean(), z.enum(['basic', 'advanced'])]).default(false),
  include_raw_content: z.union([z.boolean(), z.enum(['markdown', 'text'])]).default(false),
  include_domains: strList,
  exclude_domains: strList,
  country: z.string().optional(),
  start_date: date,
  end_date: date,
  exact_match: z.boolean().default(false),
  include_favicon: z.boolean().default(false),
  include_usage: z.boolean().default(false),
  auto_parameters: z.boolean().default(false),
}).passthrough();

const favicon = (page: PageDoc) => `https://${page.host}/favicon.ico`;
const responseTime = (n: number) => Math.round((0.4 + n * 0.07) * 100) / 100;

function rawContent(page: PageDoc, format: 'markdown' | 'text'): string {
  return format === 'text' ? plainText(page.markdown) : `# ${page.title}\n\n${page.markdown}`;
}

function searchHandler(call: { body: z.infer<typeof SearchBody> }, c: TavilyCtx) {
  const b = call.body;
  const filter: SearchFilter = { includeDomains: b.include_domains, excludeDomains: b.exclude_domains };
  const range = { d: DAY, day: DAY, w: 7 * DAY, week: 7 * DAY, m: 30 * DAY, month: 30 * DAY, y: 365 * DAY, year: 365 * DAY } as const;
  if (b.start_date || b.end_date) {
    if (b.start_date) filter.publishedAfter = Date.parse(`${b.start_date}T00:00:00Z`);
    if (b.end_date) filter.publishedBefore = Date.parse(`${b.end_date}T23:59:59Z`);
  } else if (b.time_range) {
    filter.publishedAfter = c.ctx.nowMs - range[b.time_range];
  } else if (b.topic === 'news' && b.days !== undefined) {
    filter.publishedAfter = c.ctx.nowMs - b.days * DAY;
  }
  if (b.topic === 'news') filter.news = true;
  if (b.exact_match) filter.phrases = [...b.query.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  const hits = search(c.web.pages.values(), b.query, filter);
  const top = hits.slice(0, b.max_results);
  const advanced = b.search_depth === 'advanced';
  const format = b.include_raw_content === 'text' ? 'text' : 'markdown';
  const results = top.map((h) => ({
    url: h.page.url,
    title: h.page.title,
    content: advanced ? bestSentences(h.page, b.query, b.chunks_per_source * 2).join(' [...] ') : snippet(h.page, b.query, 400),
    score: relevance(hits, h, 0.86),
    raw_content: b.include_raw_content === false ? null : rawContent(h.page, format),
    ...(b.topic === 'news' ? { published_date: h.page.published ? new Date(Date.parse(isoDate(h.page)!)).toUTCString() : null } : {}),
    ...(b.include_favicon ? { favicon: favicon(h.page) } : {}),
  }));
  const images = !b.include_images ? [] : top.flatMap((h) => h.page.images).slice(0, 5)
    .map((img) => (b.include_image_descriptions ? { url: img.url, description: img.alt } : img.url));
  const credits = charge(c, advanced ? 2 : 1);
  return jsonResponse(200, {
    query: b.query,
    follow_up_questions: null,
    answer: b.include_answer === false ? null : extractiveAnswer(top, b.query, b.include_answer === 'advanced' ? 3 : 2),
    images,
    results,
    ...(b.auto_parameters ? { auto_parameters: { topic: b.topic, search_depth: b.search_depth } } : {}),
    response_time: responseTime(results.length),
    ...(b.include_usage ? { usage: { credits } } : {}),
    request_id: uuidId(c.ctx, 'request'),
  });
}

const ExtractBody = z.object({
  urls: z.union([z.string().min(1), z.array(z.string()).min(1).max(20, 'Max 20 URLs are allowed.')]),
  extract_depth: z.enum(['basic', 'advanced']).default('basic'),
  include_images: z.boolean().default(false),
  include_favicon: z.boolean().default(false),
  format: z.enum(['markdown', 'text']).default('markdown'),
  query: z.string().optional(),
  chunks_per_source: z.number().int().min(1).max(5).default(3),
  include_usage: z.boolean().default(false),
}).passthrough();

function pageContent(page: PageDoc, format: 'markdown' | 'text', query: string | undefined, chunks: number): string {
  if (!query) return rawContent(page, format);
  return bestSentences(page, query, chunks * 2).join(' [...] ');
}

function extractHandler(call: { body: z.infer<typeof ExtractBody> }, c: TavilyCtx) {
  const b = call.body;
  const urls = Array.isArray(b.urls) ? b.urls : [b.urls];
  const results: Record<string, unknown>[] = [];
  const failed: { url: string; error: string }[] = [];
  for (const url of urls) {
    const page = findPage(c.web, url);
    if (!page) failed.push({ url, error: 'Failed to fetch url' });
    else if (page.status >= 400) failed.push({ url, error: `HTTP error ${page.status}` });
    else {
      results.push({
        url, raw_content: pageContent(page, b.format, b.query, b.chunks_per_source),
        images: b.include_images ? page.images.map((i) => i.url) : [],
        ...(b.include_favicon ? { favicon: favicon(page) } : {}),
      });
    }
  }
  const credits = results.length === 0 ? 0 : charge(c, Math.ceil(results.length / 5) * (b.extract_depth === 'advanced' ? 2 : 1));
  return jsonResponse(200, { results, failed_results: failed, response_time: responseTime(urls.length), ...(b.include_usage ? { usage: { credits } } : {}), request_id: uuidId(c.ctx, 'request') });
}

const CrawlBody = z.object({
  url: z.string({ required_error: 'URL is missing.' }).min(1, 'URL is missing.'),
  max_depth: z.number().int().min(1).max(5).default(1),
  max_breadth: z.number().int().min(1).max(500).default(20),
  limit: z.number().int().min(1).default(50),
  instructions: z.string().optional(),
  select_paths: strList, select_domains: strList, exclude_paths: strList, exclude_domains: strList,
  allow_external: z.boolean().default(true),
  include_images: z.boolean().default(false),
  extract_depth: z.enum(['basic', 'advanced']).default('basic'),
  format: z.enum(['markdown', 'text']).default('markdown'),
  include_favicon: z.boolean().default(false),
  chunks_per_source: z.number().int().min(1).max(5).default(3),
  include_usage: z.boolean().default(false),
}).passthrough();

/** The crawl over the corpus: unknown roots reach nothing; domain filters as regexes on the host. */
function crawled(c: TavilyCtx, b: z.infer<typeof CrawlBody>) {
  const root = findPage(c.web, /^https?:\/\//.test(b.url) ? b.url : `https://${b.url}`);
  if (!root) return { base: b.url, pages: [] as PageDoc[] };
  const hostOk = (host: string) => (b.select_domains.length === 0 || b.select_domains.some((d) => new RegExp(d).test(host))) && !b.exclude_domains.some((d) => new RegExp(d).test(host));
  let pages = crawl(c.web, root, { maxDepth: b.max_depth, limit: 10_000, maxBreadth: b.max_breadth, allowExternal: b.allow_external, includePaths: b.select_paths, excludePaths: b.exclude_paths })
    .map((x) => x.page).filter((p) => hostOk(p.host));
  if (b.instructions) pages = pages.filter((p) => search([p], b.instructions!).length > 0);
  return { base: b.url, pages: pages.slice(0, b.limit) };
}

function crawlHandler(call: { body: z.infer<typeof CrawlBody> }, c: TavilyCtx) {
  const b = call.body;
  const { base, pages } = crawled(c, b);
  const results = pages.map((p) => ({
    url: p.url, raw_content: pageContent(p, b.format, b.instructions, b.chunks_per_source),
    ...(b.include_images ? { images: p.images.map((i) => i.url) } : {}),
    ...(b.include_favicon ? { favicon: favicon(p) } : {}),
  }));
  const credits = charge(c, Math.max(1, Math.ceil(results.length / 10)) * (b.instructions ? 2 : 1));
  return jsonResponse(200, { base_url: base, results, response_time: responseTime(results.length), ...(b.include_usage ? { usage: { credits } } : {}), request_id: uuidId(c.ctx, 'request') });
}

function mapHandler(call: { body: z.infer<typeof CrawlBody> }, c: TavilyCtx) {
  const b = call.body;
  const { base, pages } = crawled(c, b);
  const credits = charge(c, Math.max(1, Math.ceil(pages.length / 10)) * (b.instructions ? 2 : 1));
  return jsonResponse(200, { base_url: base, results: pages.map((p) => p.url), response_time: responseTime(pages.length), ...(b.include_usage ? { usage: { credits } } : {}), request_id: uuidId(c.ctx, 'request') });
}

const ResearchBody = z.object({
  input: z.string({ required_error: 'Input is missing.' }).min(1, 'Input is missing.'),
  model: z.enum(['mini', 'pro', 'auto']).default('auto'),
  stream: z.boolean().default(false),
  citation_format: z.enum(['numbered', 'mla', 'apa', 'chicago']).default('numbered'),
}).passthrough();

/** A research report: the top pages' best sentences with numbered citations, then the sources. */
function report(c: TavilyCtx, input: string) {
  const hits = search(c.web.pages.values(), input).slice(0, 5);
  const sections = hits.map((h, i) => `## ${h.page.title}\n\n${bestSentences(h.page, input, 3).join(' ')} [${i + 1}]`);
  const sources = hits.map((h) => ({ title: h.page.title, url: h.page.url, favicon: favicon(h.page) }));
  const content = hits.length === 0
    ? `# ${input}\n\nNo sources were found for this research question.`
    : `# ${input}\n\n${sections.join('\n\n')}\n\n## Sources\n\n${hits.map((h, i) => `[${i + 1}] ${h.page.title}: ${h.page.url}`).join('\n')}`;
  return { content, sources };
}

function researchCreate(call: { body: z.infer<typeof ResearchBody> }, c: TavilyCtx) {
  const b = call.body;
  if (b.stream) throw tavilyError(400, 'Streaming research is not available for this key; poll GET /research/{request_id}.');
  const request_id = uuidId(c.ctx, 'research');
  charge(c, b.model === 'pro' ? 20 : b.model === 'mini' ? 4 : 10);
  const { content, sources } = report(c, b.input);
  c.research.put(request_id, { request_id, key: c.key!.key, input: b.input, model: b.model, created_ms: c.ctx.nowMs, content, sources });
  return jsonResponse(201, { request_id, created_at: new Date(c.ctx.nowMs).toISOString(), status: 'pending', input: b.input, model: b.model, response_time: 0.12 });
}

/** A task is `in_progress` until a later logical moment than its creation, then `completed`. */
function researchGet(call: { params: { id: string } }, c: TavilyCtx) {
  const task = c.research.get(call.params.id);
  if (!task || task.key !== c.key!.key) throw tavilyError(404, 'Research task not found');
  const created_at = new Date(task.created_ms).toISOString();
  if (c.ctx.nowMs <= task.created_ms) return jsonResponse(202, { request_id: task.request_id, created_at, status: 'in_progress', response_time: 0.05 });
  return jsonResponse(200, { request_id: task.request_id, created_at, status: 'completed', content: task.content, sources: task.sources, response_time: Math.round((c.ctx.nowMs - task.created_ms) / 10) / 100 });
}

export const tavilyOperations: Operation<TavilyCtx>[] = [
  operation<TavilyCtx, '/search', Record<string, string>, z.infer<typeof SearchBody>>('search', rest('POST', '/search'), searchHandler, { input: { body: SearchBody } }),
  operation<TavilyCtx, '/extract', Record<string, string>, z.infer<typeof ExtractBody>>('extract', rest('POST', '/extract'), extractHandler, { input: { body: ExtractBody } }),
  operation<TavilyCtx, '/crawl', Record<string, string>, z.infer<typeof CrawlBody>>('crawl', rest('POST', '/crawl'), crawlHandler, { input: { body: CrawlBody } }),
  operation<TavilyCtx, '/map', Record<string, string>, z.infer<typeof CrawlBody>>('map', rest('POST', '/map'), mapHandler, { input: { body: CrawlBody } }),
  operation<TavilyCtx, '/research', Record<string, string>, z.infer<typeof ResearchBody>>('research.create', rest('POST', '/research'), researchCreate, { input: { body: ResearchBody } }),
  operation<TavilyCtx, '/research/:id'>('research.get', rest('GET', '/research/:id'), researchGet),
];
