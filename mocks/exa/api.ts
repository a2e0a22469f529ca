import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { normalizeUrl, type PageDoc } from '../kit/web/corpus.js';
import { extractiveAnswer, isoDate } from '../kit/web/render.js';
import { compareHits, findPage, relevance, search, tokenize, type Hit, type SearchFilter } from '../kit/web/search.js';
import { bill, exaError, requestId, type ExaCtx } from './context.js';
import { ContentsOptions, contextString, cost, favicon, fillSchema, PRICE, render, type Rendered } from './results.js';

/**
 * Exa's retrieval endpoints (api.exa.ai): /search (auto, neural, keyword, fast, instant and the
 * deep types with a grounded `output`), /findSimilar, /contents with per-URL `statuses`, and
 * /answer with citations, over the scenario's corpus (mocks/kit/web).
 */

const strList = z.array(z.string()).optional();
const isoDateParam = z.string().refine((s) => !Number.isNaN(Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s)), 'must be an ISO 8601 date').optional();
const CATEGORIES = ['company', 'research paper', 'news', 'pdf', 'github', 'tweet', 'personal site', 'linkedin profile', 'financial report', 'people', 'publication'] as const;

const FilterFields = {
  numResults: z.number().int().min(1, 'numResults must be at least 1').max(100, 'numResults must be at most 100').default(10),
  includeDomains: strList,
  excludeDomains: strList,
  startPublishedDate: isoDateParam,
  endPublishedDate: isoDateParam,
  startCrawlDate: isoDateParam,
  endCrawlDate: isoDateParam,
  includeText: strList,
  excludeText: strList,
  category: z.enum(CATEGORIES).optional(),
  context: z.union([z.boolean(), z.object({ maxCharacters: z.number().int().positive().optional() }).passthrough()]).optional(),
  userLocation: z.string().optional(),
  moderation: z.boolean().optional(),
  contents: z.union([ContentsOptions, z.literal(false)]).optional(),
};

const SearchBody = z.object({
  query: z.string({ required_error: 'query is required' }).min(1, 'query must not be empty'),
  type: z.enum(['auto', 'neural', 'keyword', 'fast', 'instant', 'hybrid', 'deep', 'deep-reasoning', 'deep-lite']).default('auto'),
  additionalQueries: z.array(z.string()).max(10).optional(),
  outputSchema: z.record(z.unknown()).optional(),
  systemPrompt: z.string().optional(),
  stream: z.boolean().default(false),
  ...FilterFields,
}).passthrough();
type SearchBody = z.infer<typeof SearchBody>;

const SimilarBody = z.object({
  url: z.string({ required_error: 'url is required' }).url('url must be a valid URL'),
  excludeSourceDomain: z.boolean().default(false),
  ...FilterFields,
}).passthrough();
type SimilarBody = z.infer<typeof SimilarBody>;

const day = (s: string, end: boolean) => Date.parse(s.length === 10 ? `${s}T${end ? '23:59:59.999' : '00:00:00'}Z` : s);

/** Exa refuses filters its company and people indexes do not carry. */
function checkCategory(b: SearchBody | SimilarBody): void {
  if (b.category !== 'company' && b.category !== 'people') return;
  const unsupported = (['startPublishedDate', 'endPublishedDate', 'startCrawlDate', 'endCrawlDate', 'includeText', 'excludeText', ...(b.category === 'people' ? ['excludeDomains'] as const : [])] as const)
    .filter((f) => b[f] !== undefined);
  if (unsupported.length > 0) throw exaError(400, 'INVALID_REQUEST', `The ${b.category} category does not support the parameters: ${unsupported.join(', ')}`);
}

function filterOf(b: SearchBody | SimilarBody): SearchFilter {
  const f: SearchFilter = { includeDomains: b.includeDomains, excludeDomains: b.excludeDomains, phrases: b.includeText, excludePhrases: b.excludeText };
  if (b.startPublishedDate) f.publishedAfter = day(b.startPublishedDate, false);
  if (b.endPublishedDate) f.publishedBefore = day(b.endPublishedDate, true);
  return f;
}

/** Category and crawl-date filters (the shared filter knows neither Exa's category aliases nor crawl dates). */
function admits(page: PageDoc, b: SearchBody | SimilarBody): boolean {
  if (b.category === 'news' && !(page.news || page.category === 'news')) return false;
  if (b.category === 'people' && page.category !== 'people' && page.category !== 'linkedin profile') return false;
  if (b.category && b.category !== 'news' && b.category !== 'people' && page.category !== b.category) return false;
  const crawled = Date.parse(page.crawled);
  if (b.startCrawlDate && crawled < day(b.startCrawlDate, false)) return false;
  if (b.endCrawlDate && crawled > day(b.endCrawlDate, true)) return false;
  return true;
}

/** Hits for every query (the main one and any additional ones), each page once at its best score. */
function ranked(c: ExaCtx, queries: readonly string[], b: SearchBody | SimilarBody, keywordOnly: boolean): Hit[] {
  const best = new Map<string, Hit>();
  for (const q of queries) {
    const terms = tokenize(q);
    for (const hit of search(c.web.pages.values(), q, filterOf(b))) {
      if (!admits(hit.page, b)) continue;
      // keyword search is lexical: every query word must be on the page.
      if (keywordOnly) {
        const text = `${hit.page.title} ${hit.page.markdown}`.toLowerCase();
        if (!terms.every((t) => text.includes(t))) continue;
      }
      const prior = best.get(hit.page.url);
      if (!prior || hit.score > prior.score) best.set(hit.page.url, hit);
    }
  }
  return [...best.values()].sort(compareHits);
}

const searchTime = (n: number, deep: boolean) => Math.round(((deep ? 3200 : 380) + n * 23.5) * 10) / 10;

function renderAll(c: ExaCtx, hits: readonly Hit[], top: readonly Hit[], query: string, contents: ContentsOptions | false | undefined, scored: boolean): Rendered[] {
  const o = contents === false ? {} : contents ?? {};
  return top.map((h) => render(c.web, h.page, query, o, scored ? relevance(hits, h, 0.92) : undefined));
}

function searchHandler(call: { body: SearchBody }, c: ExaCtx) {
  const b = call.body;
  if (b.stream) throw exaError(400, 'INVALID_REQUEST_BODY', 'Streaming search is not available to this key; send stream: false');
  checkCategory(b);
  const deep = b.type.startsWith('deep');
  const keyword = b.type === 'keyword';
  const queries = [b.query, ...(b.additionalQueries ?? [])];
  const hits = ranked(c, queries, b, keyword);
  const top = hits.slice(0, b.numResults);
  const rendered = renderAll(c, hits, top, b.query, b.contents, b.type === 'neural' || b.type === 'keyword');
  const results = rendered.map((r) => r.result);
  const resolved = keyword ? 'keyword' : deep ? 'deep' : 'neural';
  const { micros, costDollars } = cost({ kind: deep ? 'deep' : keyword ? 'keyword' : 'neural', micros: deep ? PRICE.deep : keyword ? PRICE.keyword : PRICE.neural }, rendered.map((r) => r.pages));
  bill(c, micros);
  // `context` may be asked for at the top level (CommonRequest) or under `contents`.
  const contextOption = (b.contents ? b.contents.context : undefined) ?? b.context;
  return jsonResponse(200, {
    requestId: requestId(c),
    resolvedSearchType: resolved,
    searchType: resolved,
    results,
    ...(deep ? { output: deepOutput(top, b) } : {}),
    ...(contextOption ? { context: contextString(results, typeof contextOption === 'object' ? contextOption.maxCharacters : undefined) } : {}),
    costDollars,
    searchTime: searchTime(results.length, deep),
  });
}

/** A deep search's synthesized `output`: extractive content, each field grounded in the pages quoted. */
function deepOutput(top: readonly Hit[], b: SearchBody) {
  const content = b.outputSchema ? fillSchema(b.outputSchema, top, b.query) : extractiveAnswer(top, b.query, 3);
  const citations = top.slice(0, 3).map((h) => ({ url: h.page.url, title: h.page.title }));
  const fields = content !== null && typeof content === 'object' ? Object.keys(content) : ['content'];
  return { content, grounding: fields.map((field) => ({ field, citations, confidence: top.length >= 2 ? 'high' : top.length === 1 ? 'medium' : 'low' })) };
}

function similarHandler(call: { body: SimilarBody }, c: ExaCtx) {
  const b = call.body;
  checkCategory(b);
  const source = findPage(c.web, b.url);
  // What the source page is about: its title and description (a URL we never crawled: its words).
  const about = source ? `${source.title} ${source.description}` : b.url.replace(/[/:.?=&_-]+/g, ' ');
  const sourceHost = new URL(normalizeUrl(b.url)).hostname.replace(/^www\./, '');
  const hits = ranked(c, [about], b, false).filter((h) => h.page.url !== source?.url && !(b.excludeSourceDomain && h.page.host.replace(/^www\./, '') === sourceHost));
  const top = hits.slice(0, b.numResults);
  const rendered = renderAll(c, hits, top, about, b.contents, true);
  const { micros, costDollars } = cost({ kind: 'neural', micros: PRICE.neural }, rendered.map((r) => r.pages));
  bill(c, micros);
  return jsonResponse(200, { requestId: requestId(c), results: rendered.map((r) => r.result), costDollars, searchTime: searchTime(top.length, false) });
}

const ContentsBody = ContentsOptions.extend({
  urls: z.array(z.string()).optional(),
  ids: z.array(z.string()).optional(),
}).passthrough();
type ContentsBody = z.infer<typeof ContentsBody>;

/** A URL's fetch failure as /contents reports it in `statuses` (the request itself succeeds). */
function fetchError(page: PageDoc | undefined): { tag: string; httpStatusCode: number } | null {
  if (!page) return { tag: 'CRAWL_NOT_FOUND', httpStatusCode: 404 };
  if (page.status === 404 || page.status === 410) return { tag: 'CRAWL_NOT_FOUND', httpStatusCode: page.status };
  if (page.status >= 400) return { tag: 'CRAWL_UNKNOWN_ERROR', httpStatusCode: page.status };
  return null;
}

function contentsHandler(call: { body: ContentsBody }, c: ExaCtx) {
  const b = call.body;
  const urls = b.urls ?? b.ids ?? [];
  if (urls.length === 0) throw exaError(400, 'INVALID_REQUEST_BODY', 'Either urls or ids must be provided');
  if (urls.length > 100) throw exaError(400, 'INVALID_REQUEST_BODY', 'At most 100 URLs may be fetched at once');
  const bad = urls.filter((u) => !/^https?:\/\/[^\s/]+/i.test(u.trim()));
  if (bad.length > 0) throw exaError(400, 'INVALID_URLS', `Invalid URLs: ${bad.join(', ')}`);
  // With no content option, Exa returns the text.
  const options: ContentsOptions = b.text === undefined && b.highlights === undefined && b.summary === undefined ? { ...b, text: true } : b;
  const rendered: Rendered[] = [];
  const statuses: Record<string, unknown>[] = [];
  for (const url of urls) {
    const page = findPage(c.web, url);
    const failure = fetchError(page);
    if (failure) { statuses.push({ id: url, status: 'error', error: failure }); continue; }
    const query = typeof options.highlights === 'object' && options.highlights.query ? options.highlights.query : page!.title;
    rendered.push(render(c.web, page!, query, options, undefined));
    statuses.push({ id: url, status: 'success', source: 'cached' });
  }
  const { micros, costDollars } = cost({ kind: 'none', micros: 0 }, rendered.map((r) => r.pages));
  bill(c, micros);
  const results = rendered.map((r) => r.result);
  return jsonResponse(200, {
    requestId: requestId(c),
    results,
    ...(options.context ? { context: contextString(results, typeof options.context === 'object' ? options.context.maxCharacters : undefined) } : {}),
    statuses,
    costDollars,
    searchTime: Math.round((120 + urls.length * 41.5) * 10) / 10,
  });
}

const AnswerBody = z.object({
  query: z.string({ required_error: 'query is required' }).min(1, 'query must not be empty'),
  stream: z.boolean().default(false),
  text: z.boolean().default(false),
  model: z.enum(['exa', 'exa-pro']).default('exa'),
  systemPrompt: z.string().optional(),
  outputSchema: z.record(z.unknown()).optional(),
  userLocation: z.string().optional(),
}).passthrough();
type AnswerBody = z.infer<typeof AnswerBody>;

/** /answer: the top pages' best sentences, each page cited (with its text when `text` is set). */
function answerHandler(call: { body: AnswerBody }, c: ExaCtx) {
  const b = call.body;
  if (b.stream) throw exaError(400, 'INVALID_REQUEST_BODY', 'Streaming answers are not available to this key; send stream: false');
  const hits = search(c.web.pages.values(), b.query).slice(0, 5);
  const answer = b.outputSchema ? fillSchema(b.outputSchema, hits, b.query) : hits.length === 0 ? 'I could not find an answer to this question in the sources available.' : extractiveAnswer(hits, b.query, 2);
  const citations = hits.map((h) => ({
    id: h.page.url, url: h.page.url, title: h.page.title, author: h.page.author ?? null, publishedDate: isoDate(h.page),
    ...(b.text ? { text: h.page.markdown } : {}),
    ...(h.page.images[0] ? { image: h.page.images[0].url } : {}),
    favicon: favicon(h.page),
  }));
  const micros = PRICE.answer * (b.model === 'exa-pro' ? 2 : 1);
  bill(c, micros);
  return jsonResponse(200, { requestId: requestId(c), answer, citations, costDollars: { total: micros / 1_000_000 } });
}

export const retrievalOperations: Operation<ExaCtx>[] = [
  operation<ExaCtx, '/search', Record<string, string>, SearchBody>('search', rest('POST', '/search'), searchHandler, { input: { body: SearchBody } }),
  operation<ExaCtx, '/findSimilar', Record<string, string>, SimilarBody>('findSimilar', rest('POST', '/findSimilar'), similarHandler, { input: { body: SimilarBody } }),
  operation<ExaCtx, '/contents', Record<string, string>, ContentsBody>('contents', rest('POST', '/contents'), contentsHandler, { input: { body: ContentsBody } }),
  operation<ExaCtx, '/answer', Record<string, string>, AnswerBody>('answer', rest('POST', '/answer'), answerHandler, { input: { body: AnswerBody } }),
];
