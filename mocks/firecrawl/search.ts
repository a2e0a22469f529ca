import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { PageDoc } from '../kit/web/corpus.js';
import { humanAge } from '../kit/web/render.js';
import { bestSentences, relevance, search, snippet, tokenize, type Hit, type SearchFilter } from '../kit/web/search.js';
import { charge, firecrawlError, requireCredits, type FirecrawlCtx } from './context.js';
import { pageCredits, renderDocument, ScrapeOptions } from './documents.js';
import { exchangeDisabled } from './account.js';

/**
 * `/v2/search` over the corpus: web, news and image results with Google-style operators
 * (`site:`, `-site:`, quoted phrases, `-term`, `intitle:`, `inurl:`), `tbs` time filters, domain
 * filters and categories; `scrapeOptions` attaches each web result's document. Also the developer
 * and research indexes, which are the corpus's pages of those kinds.
 */

const Source = z.union([z.enum(['web', 'news', 'images', 'alexandria', 'exchange']), z.object({ type: z.enum(['web', 'news', 'images', 'alexandria', 'exchange']) }).passthrough()]);
const Category = z.union([z.enum(['github', 'research', 'pdf', 'developer']), z.object({ type: z.enum(['github', 'research', 'pdf', 'developer']) }).passthrough()]);

const SearchBody = z.object({
  query: z.string().min(1, 'Query cannot be empty'),
  limit: z.number().int().min(1).max(100).default(10),
  sources: z.array(Source).default(['web']),
  categories: z.array(Category).default([]),
  tbs: z.string().optional(),
  location: z.string().optional(),
  country: z.string().optional(),
  includeDomains: z.array(z.string()).default([]),
  excludeDomains: z.array(z.string()).default([]),
  highlights: z.boolean().default(true),
  domainTools: z.boolean().default(false),
  toolDetail: z.enum(['compact', 'summary', 'full']).optional(),
  ignoreInvalidURLs: z.boolean().optional(),
  timeout: z.number().int().positive().optional(),
  scrapeOptions: ScrapeOptions.optional(),
  enterprise: z.array(z.string()).optional(),
  origin: z.string().optional(),
  integration: z.string().optional(),
}).passthrough();
type SearchBodyT = z.infer<typeof SearchBody>;

export interface SearchDoc { id: string; team: string; query: string; at: number }

/** A query's operators split from its words. */
interface Parsed { text: string; sites: string[]; notSites: string[]; phrases: string[]; notTerms: string[]; intitle: string[]; inurl: string[] }

export function parseQuery(query: string): Parsed {
  const p: Parsed = { text: '', sites: [], notSites: [], phrases: [], notTerms: [], intitle: [], inurl: [] };
  const words: string[] = [];
  for (const m of query.matchAll(/(-?)(site|intitle|inurl):("[^"]*"|\S+)|(-?)"([^"]+)"|(\S+)/g)) {
    if (m[2]) {
      const value = m[3]!.replace(/^"|"$/g, '');
      if (m[2] === 'site') (m[1] ? p.notSites : p.sites).push(value);
      else if (m[2] === 'intitle') p.intitle.push(value.toLowerCase());
      else p.inurl.push(value.toLowerCase());
      if (m[2] === 'intitle') words.push(value);
    } else if (m[5]) {
      if (m[4]) p.notTerms.push(m[5].toLowerCase());
      else { p.phrases.push(m[5]); words.push(m[5]); }
    } else if (m[6]) {
      if (m[6].startsWith('-') && m[6].length > 1) p.notTerms.push(m[6].slice(1).toLowerCase());
      else words.push(m[6]);
    }
  }
  p.text = words.join(' ');
  return p;
}

const DAY = 86_400_000;

/** `qdr:h|d|w|m|y` (past hour … year) and `cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY`. */
function timeFilter(tbs: string | undefined, nowMs: number): Pick<SearchFilter, 'publishedAfter' | 'publishedBefore'> {
  if (!tbs) return {};
  const qdr = /qdr:([hdwmy])(\d*)/.exec(tbs);
  if (qdr) {
    const span = { h: 3_600_000, d: DAY, w: 7 * DAY, m: 30 * DAY, y: 365 * DAY }[qdr[1] as 'h'];
    return { publishedAfter: nowMs - span * (qdr[2] ? Number(qdr[2]) : 1) };
  }
  const date = (s: string | undefined) => {
    const m = s ? /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s) : null;
    return m ? Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2])) : undefined;
  };
  if (/cdr:1/.test(tbs)) {
    const min = date(/cd_min:([^,]+)/.exec(tbs)?.[1]);
    const max = date(/cd_max:([^,]+)/.exec(tbs)?.[1]);
    return { ...(min !== undefined ? { publishedAfter: min } : {}), ...(max !== undefined ? { publishedBefore: max + DAY - 1 } : {}) };
  }
  return {};
}

const kindOf = (v: string | { type: string }) => (typeof v === 'string' ? v : v.type);

/** Which pages a category admits, and the `category` label its hits carry. */
function categoryOf(page: PageDoc): string | null {
  if (page.category === 'github' || page.host === 'github.com' || page.category === 'developer') return 'developer';
  if (page.category === 'research paper') return 'research';
  if (/\.pdf$/i.test(new URL(page.url).pathname) || page.category === 'pdf') return 'pdf';
  return null;
}

function rankedPages(c: FirecrawlCtx, b: SearchBodyT, extra: SearchFilter = {}): PageDoc[] {
  const q = parseQuery(b.query);
  const filter: SearchFilter = {
    includeDomains: [...b.includeDomains, ...q.sites], excludeDomains: [...b.excludeDomains, ...q.notSites],
    phrases: q.phrases, excludePhrases: q.notTerms, ...timeFilter(b.tbs, c.ctx.nowMs), ...extra,
  };
  const categories = b.categories.map(kindOf).map((k) => (k === 'github' ? 'developer' : k));
  return search(c.web.pages.values(), q.text || b.query, filter)
    .map((h) => h.page)
    .filter((p) => q.intitle.every((t) => p.title.toLowerCase().includes(t)) && q.inurl.every((t) => p.url.toLowerCase().includes(t)))
    .filter((p) => categories.length === 0 || categories.includes(categoryOf(p) ?? ''));
}

function searchHandler(call: { body: SearchBodyT }, c: FirecrawlCtx) {
  const b = call.body;
  const sources = b.sources.map(kindOf);
  // Provider discovery (Alexandria) needs a team with the exchange enabled: none is, in this world.
  if (sources.includes('alexandria') || sources.includes('exchange') || b.domainTools) throw exchangeDisabled();
  if (b.includeDomains.length > 0 && b.excludeDomains.length > 0) throw firecrawlError(400, 'includeDomains and excludeDomains cannot both be specified', 'BAD_REQUEST');
  const per = b.scrapeOptions ? pageCredits(b.scrapeOptions) : 0;
  const base = Math.max(2, Math.ceil(b.limit / 10) * 2);
  requireCredits(c, base);
  const data: Record<string, unknown[]> = {};
  const text = parseQuery(b.query).text || b.query;
  let scraped = 0;
  if (sources.includes('web')) {
    data.web = rankedPages(c, b).slice(0, b.limit).map((p, i) => {
      const category = categoryOf(p);
      const hit: Record<string, unknown> = { url: p.url, title: p.title, description: b.highlights ? snippet(p, text, 300) : p.description, position: i + 1, ...(b.categories.length > 0 && category ? { category } : {}) };
      if (!b.scrapeOptions) return hit;
      scraped++;
      return Object.assign(hit, renderDocument(c, p, p.url, b.scrapeOptions));
    });
  }
  if (sources.includes('news')) {
    data.news = rankedPages(c, b, { news: true }).slice(0, b.limit).map((p, i) => ({
      title: p.title, url: p.url, snippet: b.highlights ? snippet(p, text, 300) : p.description, date: humanAge(p, c.ctx.nowMs) ?? null, position: i + 1,
      ...(p.images[0] ? { imageUrl: p.images[0].url } : {}),
    }));
  }
  if (sources.includes('images')) {
    data.images = rankedPages(c, b).flatMap((p) => p.images.map((img) => ({ title: img.alt || p.title, imageUrl: img.url, imageWidth: img.width, imageHeight: img.height, url: p.url }))).slice(0, b.limit).map((x, i) => ({ ...x, position: i + 1 }));
  }
  const creditsUsed = charge(c, base + per * scraped);
  const id = uuidId(c.ctx, 'search');
  c.ctx.store.collection<SearchDoc>('searches').put(id, { id, team: c.key!.team, query: b.query, at: c.ctx.nowMs });
  return jsonResponse(200, { success: true, data, creditsUsed, id });
}

const DeveloperQuery = z.object({ query: z.string().min(1), k: z.coerce.number().int().min(1).max(100).default(10), skills: z.enum(['only']).optional(), passages: z.coerce.number().int().min(1).max(5).default(1) }).passthrough();

/** The developer index: the corpus's repositories, issues and docs (category `github`/`developer`, or docs sites). */
function developerSearch(call: { query: z.infer<typeof DeveloperQuery> }, c: FirecrawlCtx) {
  const q = call.query;
  requireCredits(c, 2);
  const isDev = (p: PageDoc) => categoryOf(p) === 'developer' || p.host.startsWith('docs.') || /\/docs(\/|$)/.test(new URL(p.url).pathname);
  const hits = search(c.web.pages.values().filter(isDev), q.query).slice(0, q.skills ? 0 : q.k);
  charge(c, 2);
  const results = hits.map((h) => {
    const path = new URL(h.page.url).pathname;
    const issue = h.page.host === 'github.com' ? /^\/([^/]+\/[^/]+)\/(issues|pull)\/(\d+)/.exec(path) : null;
    const type = issue ? (issue[2] === 'pull' ? 'pull_request' : 'issue') : 'doc';
    const id = issue ? `${type}:${issue[1]}#${issue[3]}` : `doc:${h.page.url}`;
    return { id, type, url: h.page.url, title: h.page.title, passages: bestSentences(h.page, q.query, q.passages * 2).map((text) => ({ text })) };
  });
  return jsonResponse(200, { success: true, results });
}

/** A research paper of the corpus (category `research paper`): its id is `url:` and the page URL. */
function paperOf(p: PageDoc) {
  const id = `url:${p.url}`;
  return {
    paperId: id, primaryId: id, ids: { url: [p.url] }, title: p.title, abstract: p.description,
    ...(p.author ? { authors: p.author } : {}), categories: [], ...(p.published ? { createdDate: p.published, updateDate: p.published } : {}),
  };
}

/** A ranked paper: its metadata and a relevance score in (0, 1]. */
// Object.assign on the fresh render, not `{ ...paperOf(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
const ranked = (hits: readonly Hit[]) => hits.map((h) => Object.assign(paperOf(h.page), { score: relevance(hits, h, 1) }));

const papers = (c: FirecrawlCtx) => c.web.pages.values().filter((p) => p.category === 'research paper');

function findPaper(c: FirecrawlCtx, id: string): PageDoc {
  const found = papers(c).find((p) => `url:${p.url}` === id || p.url === id);
  if (!found) throw firecrawlError(404, 'Paper not found');
  return found;
}

const PaperSearch = z.object({ query: z.string().min(1), k: z.coerce.number().int().min(1).max(500).default(40), from: z.string().optional(), to: z.string().optional() }).passthrough();

function paperSearch(call: { query: z.infer<typeof PaperSearch> }, c: FirecrawlCtx) {
  const q = call.query;
  const filter: SearchFilter = {
    ...(q.from ? { publishedAfter: Date.parse(q.from.length === 10 ? `${q.from}T00:00:00Z` : q.from) } : {}),
    ...(q.to ? { publishedBefore: Date.parse(q.to.length === 10 ? `${q.to}T23:59:59Z` : q.to) } : {}),
  };
  requireCredits(c, 1);
  charge(c, 1);
  return jsonResponse(200, { success: true, results: ranked(search(papers(c), q.query, filter).slice(0, q.k)) });
}

const PaperRead = z.object({ query: z.string().optional(), k: z.coerce.number().int().min(1).max(50).default(4) }).passthrough();

/** Metadata, or with `query` the paper's passages that answer it (scored by shared terms). */
function paperGet(call: { params: { id: string }; query: z.infer<typeof PaperRead> }, c: FirecrawlCtx) {
  const page = findPaper(c, call.params.id);
  const question = call.query.query;
  if (question === undefined) return jsonResponse(200, { success: true, paper: paperOf(page) });
  const terms = new Set(tokenize(question));
  const passages = bestSentences(page, question, call.query.k).map((text) => {
    const words = tokenize(text);
    return { text, score: Math.round((words.filter((w) => terms.has(w)).length / Math.max(1, terms.size)) * 1e6) / 1e6 };
  });
  return jsonResponse(200, { success: true, paper: paperOf(page), paperId: `url:${page.url}`, query: question, passages });
}

const Similar = z.object({ intent: z.string().min(1), mode: z.enum(['similar', 'citers', 'references']).default('similar'), k: z.coerce.number().int().min(1).max(500).default(20) }).passthrough();

/** Citation-graph neighbours: the corpus's papers that link to (citers) or are linked from (references) the seed, or both, ranked by `intent`. */
function paperSimilar(call: { params: { id: string }; query: z.infer<typeof Similar> }, c: FirecrawlCtx) {
  const seed = findPaper(c, call.params.id);
  const q = call.query;
  const pool = papers(c).filter((p) => p.url !== seed.url && (
    (q.mode !== 'references' && p.outlinks.includes(seed.url)) || (q.mode !== 'citers' && seed.outlinks.includes(p.url))));
  const hits = search(pool, q.intent);
  const rest: Hit[] = pool.filter((p) => !hits.some((h) => h.page === p)).map((page) => ({ page, score: 0 }));
  const all = [...hits, ...rest];
  const results = all.slice(0, q.k).map((h) => Object.assign(paperOf(h.page), { score: h.score === 0 ? 0 : relevance(hits, h, 1) }));
  return jsonResponse(200, { success: true, results, poolSize: pool.length, truncated: all.length > q.k, note: null });
}

export const searchOperations: Operation<FirecrawlCtx>[] = [
  operation<FirecrawlCtx, '/v2/search', Record<string, string>, SearchBodyT>('search', rest('POST', '/v2/search'), searchHandler, { input: { body: SearchBody } }),
  operation<FirecrawlCtx, '/v2/search/developer', z.infer<typeof DeveloperQuery>>('search.developer', rest('GET', '/v2/search/developer'), developerSearch, { input: { query: DeveloperQuery } }),
  operation<FirecrawlCtx, '/v2/search/research/papers', z.infer<typeof PaperSearch>>('research.papers.search', rest('GET', '/v2/search/research/papers'), paperSearch, { input: { query: PaperSearch } }),
  operation<FirecrawlCtx, '/v2/search/research/papers/:id', z.infer<typeof PaperRead>>('research.papers.get', rest('GET', '/v2/search/research/papers/:id'), paperGet, { input: { query: PaperRead } }),
  operation<FirecrawlCtx, '/v2/search/research/papers/:id/similar', z.infer<typeof Similar>>('research.papers.similar', rest('GET', '/v2/search/research/papers/:id/similar'), paperSimilar, { input: { query: Similar } }),
];
