import type { Collection, DocumentStore } from '../../core/store.js';
import { normalizeUrl, plainText, type PageDoc, type WebPlace } from './corpus.js';

/**
 * Search over the corpus: BM25 (k1 1.2, b 0.75) over the title (counted three times) and the plain
 * text, with deterministic ties (score, then newer publication, then URL); filters by domain, date
 * and kind; snippets are the sentences that match the query best. Everything is a pure function of
 * the pages, so a search answers the same on every replay.
 */

export interface WebDb {
  pages: Collection<PageDoc>;
  places: Collection<WebPlace>;
}

export function webDb(store: DocumentStore): WebDb {
  return { pages: store.collection('pages'), places: store.collection('places') };
}

const STOP = new Set(('a an and are as at be by for from has have how i in is it its of on or that the this to was were what when where which who why will with '
  + 'does did do can you your about into than then there these those our we').split(' '));

/** Lower-case word tokens without stop words (numbers and versions like `3.12` stay whole). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+(?:[.'-][\p{L}\p{N}]+)*/gu)) {
    const token = match[0].replace(/'s$/, '');
    if (!STOP.has(token)) out.push(token);
  }
  return out;
}

export interface Hit { page: PageDoc; score: number }

export interface SearchFilter {
  /** Only these hosts (a domain also admits its subdomains). */
  includeDomains?: readonly string[];
  excludeDomains?: readonly string[];
  /** Published on or after / before (ms); undated pages are left out when either is given. */
  publishedAfter?: number;
  publishedBefore?: number;
  news?: boolean;
  video?: boolean;
  category?: string;
  /** Every one of these phrases must appear in the text (case-insensitive). */
  phrases?: readonly string[];
  excludePhrases?: readonly string[];
  /** Pages answered with an error status are not listed unless asked. */
  includeErrors?: boolean;
}

const K1 = 1.2;
const B = 0.75;
const TITLE_WEIGHT = 3;

export function hostMatches(host: string, domain: string): boolean {
  const d = domain.toLowerCase().replace(/^https?:\/\//, '').replace(/^www\./, '').replace(/\/.*$/, '');
  const h = host.toLowerCase().replace(/^www\./, '');
  return h === d || h.endsWith(`.${d}`);
}

export function publishedMs(page: PageDoc): number | null {
  if (!page.published) return null;
  const ms = Date.parse(page.published.length === 10 ? `${page.published}T00:00:00Z` : page.published);
  return Number.isNaN(ms) ? null : ms;
}

function admits(page: PageDoc, f: SearchFilter, lowerText: string): boolean {
  if (!f.includeErrors && page.status >= 400) return false;
  if (f.includeDomains && f.includeDomains.length > 0 && !f.includeDomains.some((d) => hostMatches(page.host, d))) return false;
  if (f.excludeDomains && f.excludeDomains.some((d) => hostMatches(page.host, d))) return false;
  if (f.publishedAfter !== undefined || f.publishedBefore !== undefined) {
    const at = publishedMs(page);
    if (at === null) return false;
    if (f.publishedAfter !== undefined && at < f.publishedAfter) return false;
    if (f.publishedBefore !== undefined && at > f.publishedBefore) return false;
  }
  if (f.news !== undefined && page.news !== f.news) return false;
  if (f.video !== undefined && (page.video !== undefined) !== f.video) return false;
  if (f.category !== undefined && page.category !== f.category) return false;
  const text = lowerText;
  if (f.phrases && !f.phrases.every((p) => text.includes(p.toLowerCase()))) return false;
  if (f.excludePhrases && f.excludePhrases.some((p) => text.includes(p.toLowerCase()))) return false;
  return true;
}

interface Indexed { page: PageDoc; tf: Map<string, number>; length: number; text: string }

/**
 * Term frequencies of a page, computed once per stored document: pages are frozen and never
 * change after the corpus loads, so this cache only saves work and cannot change an answer.
 */
const INDEX = new WeakMap<PageDoc, Indexed>();
function indexed(page: PageDoc): Indexed {
  let found = INDEX.get(page);
  if (!found) {
    const text = plainText(page.markdown);
    const tokens = [...Array<string[]>(TITLE_WEIGHT).fill(tokenize(page.title)).flat(), ...tokenize(text), ...tokenize(page.url.replace(/[/:.?=&_-]+/g, ' '))];
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    found = { page, tf, length: tokens.length, text: `${page.title}\n${text}`.toLowerCase() };
    INDEX.set(page, found);
  }
  return found;
}

/** The pages that match `query` (at least one query term), best first. */
export function search(pages: readonly PageDoc[], query: string, filter: SearchFilter = {}): Hit[] {
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return [];
  const docs = pages.map(indexed);
  const n = docs.length;
  const avg = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
  const idf = new Map(terms.map((t) => {
    const df = docs.filter((d) => d.tf.has(t)).length;
    return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
  }));
  const hits: Hit[] = [];
  for (const d of docs) {
    if (!admits(d.page, filter, d.text)) continue;
    let score = 0;
    for (const t of terms) {
      const f = d.tf.get(t) ?? 0;
      if (f === 0) continue;
      score += idf.get(t)! * (f * (K1 + 1)) / (f + K1 * (1 - B + B * d.length / avg));
    }
    if (score > 0) hits.push({ page: d.page, score });
  }
  return hits.sort(compareHits);
}

/** Best first; equal scores: the newer page, then the URL, so ties never depend on load order. */
export function compareHits(a: Hit, b: Hit): number {
  const ds = b.score - a.score;
  if (Math.abs(ds) > 1e-9) return ds;
  const pa = publishedMs(a.page) ?? -Infinity;
  const pb = publishedMs(b.page) ?? -Infinity;
  if (pa !== pb) return pb > pa ? 1 : -1;
  return a.page.url < b.page.url ? -1 : a.page.url > b.page.url ? 1 : 0;
}

/** Scores scaled to (0, 1] against the best hit (Tavily's and Exa's relevance scores), rounded. */
export function relevance(hits: readonly Hit[], hit: Hit, top = 0.95): number {
  const best = hits[0]?.score ?? 1;
  return Math.round((hit.score / best) * top * 1e6) / 1e6;
}

/** The page's sentences (plain text, one per line or sentence). */
const SENTENCES = new WeakMap<PageDoc, { s: string; tokens: string[] }[]>();

export function sentences(page: PageDoc): string[] {
  return tokenizedSentences(page).map((x) => x.s);
}

/** The sentences with their tokens, computed once per stored page (pages are frozen). */
function tokenizedSentences(page: PageDoc): { s: string; tokens: string[] }[] {
  let found = SENTENCES.get(page);
  if (!found) {
    found = splitSentences(page).map((s) => ({ s, tokens: tokenize(s) }));
    SENTENCES.set(page, found);
  }
  return found;
}

function splitSentences(page: PageDoc): string[] {
  return plainText(page.markdown)
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Up to `count` sentences that share the most query terms, in the page's order (ties: earliest). */
export function bestSentences(page: PageDoc, query: string, count: number): string[] {
  const terms = new Set(tokenize(query));
  const all = tokenizedSentences(page);
  const scored = all.map((x, i) => ({ s: x.s, i, score: x.tokens.filter((t) => terms.has(t)).length }));
  const picked = scored.filter((x) => x.score > 0).sort((a, b) => b.score - a.score || a.i - b.i).slice(0, count);
  if (picked.length === 0) return all.slice(0, count).map((x) => x.s);
  return picked.sort((a, b) => a.i - b.i).map((x) => x.s);
}

/** A snippet of at most `max` characters: the best sentences joined, cut at a word. */
export function snippet(page: PageDoc, query: string, max = 300): string {
  return clip(bestSentences(page, query, 3).join(' '), max);
}

export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[,;:]$/, '')}...`;
}

/** Wraps query terms in `open`/`close` (Brave's `<strong>` text decorations). */
export function decorate(text: string, query: string, open = '<strong>', close = '</strong>'): string {
  const terms = new Set(tokenize(query));
  if (terms.size === 0) return text;
  return text.replace(/[\p{L}\p{N}]+(?:[.'-][\p{L}\p{N}]+)*/gu, (word) => (terms.has(word.toLowerCase()) ? `${open}${word}${close}` : word));
}

/** A page by URL, tolerant of a trailing slash, `www.` and http/https. */
export function findPage(db: WebDb, raw: string): PageDoc | undefined {
  const url = normalizeUrl(raw);
  const direct = db.pages.get(url);
  if (direct) return direct;
  const variants = new Set<string>();
  try {
    const u = new URL(url);
    for (const scheme of ['https:', 'http:']) {
      for (const host of [u.hostname, u.hostname.startsWith('www.') ? u.hostname.slice(4) : `www.${u.hostname}`]) {
        const v = new URL(url);
        v.protocol = scheme;
        v.hostname = host;
        variants.add(normalizeUrl(v.toString()));
        variants.add(normalizeUrl(`${v.toString()}/`));
      }
    }
  } catch {
    return undefined;
  }
  for (const v of variants) {
    const page = db.pages.get(v);
    if (page) return page;
  }
  return undefined;
}

export interface CrawlOptions {
  maxDepth: number;
  limit: number;
  /** Breadth: links followed per page. */
  maxBreadth?: number;
  /** Follow links to other hosts. */
  allowExternal?: boolean;
  /** Regexes on the path (Tavily `select_paths`, Firecrawl `includePaths`). */
  includePaths?: readonly string[];
  excludePaths?: readonly string[];
  /** Also follow links to subdomains of the start host. */
  allowSubdomains?: boolean;
}

export interface Crawled { page: PageDoc; depth: number }

/**
 * Breadth-first over the corpus's links from `start` (which must be in the corpus): links to pages
 * the corpus does not have are dead ends, as an unreachable URL is for a crawler. Path filters
 * choose which pages are returned, not which are walked through, as both APIs do.
 */
export function crawl(db: WebDb, start: PageDoc, o: CrawlOptions): Crawled[] {
  const out: Crawled[] = [];
  const seen = new Set([start.url]);
  let frontier: Crawled[] = [{ page: start, depth: 0 }];
  const compile = (list: readonly string[] | undefined) => (list ?? []).map((p) => safeRegex(p));
  const include = compile(o.includePaths);
  const exclude = compile(o.excludePaths);
  const keep = (page: PageDoc) => {
    const path = new URL(page.url).pathname;
    return (include.length === 0 || include.some((r) => r.test(path))) && !exclude.some((r) => r.test(path)) && page.status < 400;
  };
  while (frontier.length > 0 && out.length < o.limit) {
    const next: Crawled[] = [];
    for (const item of frontier) {
      if (out.length >= o.limit) break;
      if (keep(item.page)) out.push(item);
      if (item.depth >= o.maxDepth) continue;
      let followed = 0;
      for (const link of item.page.outlinks) {
        if (o.maxBreadth !== undefined && followed >= o.maxBreadth) break;
        const target = findPage(db, link);
        if (!target || seen.has(target.url)) continue;
        const sameHost = target.host === start.host || (o.allowSubdomains === true && hostMatches(target.host, start.host));
        if (!sameHost && !o.allowExternal) continue;
        seen.add(target.url);
        followed++;
        next.push({ page: target, depth: item.depth + 1 });
      }
    }
    frontier = next;
  }
  return out;
}

function safeRegex(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch {
    return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  }
}

/** The pages of a site (every page whose host matches), by URL: what a sitemap lists. */
export function sitePages(db: WebDb, host: string, includeSubdomains: boolean): PageDoc[] {
  return db.pages.values()
    .filter((p) => p.host === host || (includeSubdomains && hostMatches(p.host, host)))
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

/** Places matching a query (name, categories, locality, description), best first, ties by id. */
export function searchPlaces(places: readonly WebPlace[], query: string): WebPlace[] {
  const terms = new Set(tokenize(query));
  return places
    .map((place) => ({ place, score: tokenize([place.name, place.categories.join(' '), place.address.locality, place.address.street, place.description].join(' ')).filter((t) => terms.has(t)).length }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || (a.place.id < b.place.id ? -1 : 1))
    .map((x) => x.place);
}
