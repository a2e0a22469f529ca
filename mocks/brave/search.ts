import { createHash } from 'node:crypto';
import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { PageDoc, WebPlace } from '../kit/web/corpus.js';
import { humanAge, pageAge } from '../kit/web/render.js';
import { bestSentences, decorate, search, searchPlaces, snippet, type Hit, type SearchFilter } from '../kit/web/search.js';
import { hasExtraSnippets, isPro, type BraveCtx } from './context.js';
import { validation } from './model.js';

/**
 * Brave Search API v1 (api.search.brave.com/res/v1): web (with news, videos, locations and the
 * summarizer key mixed in), news, videos, images, local POIs and descriptions, place search, the
 * summarizer and LLM context, all ranked over the scenario's corpus (mocks/kit/web).
 */

const DAY = 86_400_000;
const bool = z.enum(['true', 'false', '1', '0', 'True', 'False']).transform((v) => v === 'true' || v === '1' || v === 'True');
const int = (name: string, min: number, max: number, dflt: number) => z.string().optional().transform((v, ctx) => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) {
    ctx.addIssue({ code: 'custom', message: `Input should be ${n < min ? 'greater than or equal to ' + min : Number.isInteger(n) ? 'less than or equal to ' + max : 'a valid integer'}` });
    return z.NEVER;
  }
  return n;
});
const query = z.string({ required_error: 'Field required' }).min(1, 'String should have at least 1 character').max(400, 'String should have at most 400 characters')
  .refine((q) => q.trim().split(/\s+/).length <= 50, 'Query cannot exceed 50 words');
const freshness = z.string().regex(/^(pd|pw|pm|py|\d{4}-\d{2}-\d{2}to\d{4}-\d{2}-\d{2})$/, 'Invalid freshness value').optional();

const common = {
  q: query,
  country: z.string().optional(),
  search_lang: z.string().optional(),
  ui_lang: z.string().optional(),
  safesearch: z.enum(['off', 'moderate', 'strict']).optional(),
  spellcheck: bool.optional(),
  goggles: z.union([z.string(), z.array(z.string())]).optional(),
  goggles_id: z.string().optional(),
  units: z.enum(['metric', 'imperial']).optional(),
};

const WebQuery = z.object({
  ...common,
  count: int('count', 1, 20, 20), offset: int('offset', 0, 9, 0), freshness,
  text_decorations: bool.optional(), result_filter: z.string().optional(), extra_snippets: bool.optional(), summary: bool.optional(),
}).passthrough();
const NewsQuery = z.object({ ...common, count: int('count', 1, 50, 20), offset: int('offset', 0, 9, 0), freshness, extra_snippets: bool.optional() }).passthrough();
const VideoQuery = z.object({ ...common, count: int('count', 1, 50, 20), offset: int('offset', 0, 9, 0), freshness }).passthrough();
const ImageQuery = z.object({ ...common, count: int('count', 1, 200, 50) }).passthrough();

/** The `freshness` window as a publication filter relative to the logical now. */
function freshnessFilter(value: string | undefined, nowMs: number): SearchFilter {
  if (!value) return {};
  const rel: Record<string, number> = { pd: DAY, pw: 7 * DAY, pm: 31 * DAY, py: 365 * DAY };
  if (rel[value]) return { publishedAfter: nowMs - rel[value]!, publishedBefore: nowMs };
  const [from, to] = value.split('to');
  return { publishedAfter: Date.parse(`${from}T00:00:00Z`), publishedBefore: Date.parse(`${to}T23:59:59Z`) };
}

function metaUrl(page: { url: string }) {
  const u = new URL(page.url);
  const path = u.pathname.split('/').filter(Boolean).map((s) => `› ${s}`).join(' ');
  return { scheme: u.protocol.replace(':', ''), netloc: u.host, hostname: u.hostname, favicon: `https://imgs.search.brave.com/favicon/${u.hostname}`, path: path === '' ? '' : ` ${path}`.trim() };
}

function profile(page: PageDoc) {
  return { name: page.site, url: page.url, long_name: page.host, img: `https://imgs.search.brave.com/favicon/${page.host}` };
}

function queryBlock(q: string, extra: Record<string, unknown> = {}) {
  return { original: q, show_strict_warning: false, is_navigational: false, is_news_breaking: false, spellcheck_off: true, country: 'us', bad_results: false, should_fallback: false, postal_code: '', city: '', header_country: '', state: '', ...extra };
}

function webResult(page: PageDoc, q: string, c: BraveCtx, opts: { decorate: boolean; extra: boolean }) {
  const description = snippet(page, q, 280);
  return {
    title: page.title,
    url: page.url,
    is_source_local: false,
    is_source_both: false,
    description: opts.decorate ? decorate(description, q) : description,
    ...(pageAge(page) ? { page_age: pageAge(page), age: humanAge(page, c.ctx.nowMs) } : {}),
    profile: profile(page),
    language: page.language,
    family_friendly: true,
    type: 'search_result',
    subtype: page.video ? 'video' : page.news ? 'article' : 'generic',
    is_live: false,
    meta_url: metaUrl(page),
    ...(page.images[0] ? { thumbnail: { src: `https://imgs.search.brave.com/thumb/${encodeURIComponent(page.images[0].url)}`, original: page.images[0].url, logo: false } } : {}),
    ...(opts.extra ? { extra_snippets: bestSentences(page, q, 6).slice(1, 6) } : {}),
  };
}

function newsResult(page: PageDoc, q: string, c: BraveCtx, extra: boolean) {
  return {
    type: 'news_result',
    title: page.title,
    url: page.url,
    description: snippet(page, q, 280),
    ...(pageAge(page) ? { age: humanAge(page, c.ctx.nowMs), page_age: pageAge(page) } : {}),
    breaking: page.breaking,
    is_live: false,
    meta_url: metaUrl(page),
    source: page.site,
    ...(page.images[0] ? { thumbnail: { src: `https://imgs.search.brave.com/thumb/${encodeURIComponent(page.images[0].url)}`, original: page.images[0].url } } : {}),
    ...(extra ? { extra_snippets: bestSentences(page, q, 6).slice(1, 6) } : {}),
  };
}

function videoResult(page: PageDoc, q: string, c: BraveCtx) {
  const video = page.video!;
  return {
    type: 'video_result',
    url: page.url,
    title: page.title,
    description: snippet(page, q, 280),
    ...(pageAge(page) ? { age: humanAge(page, c.ctx.nowMs), page_age: pageAge(page) } : {}),
    video: { duration: video.duration, views: video.views, ...(video.creator ? { creator: video.creator } : {}), publisher: video.publisher ?? page.site, tags: [] as string[] },
    meta_url: metaUrl(page),
    ...(page.images[0] ? { thumbnail: { src: `https://imgs.search.brave.com/thumb/${encodeURIComponent(page.images[0].url)}`, original: page.images[0].url } } : {}),
  };
}

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const ABBR: Record<string, string> = { sunday: 'Sun', monday: 'Mon', tuesday: 'Tue', wednesday: 'Wed', thursday: 'Thu', friday: 'Fri', saturday: 'Sat' };

function locationResult(place: WebPlace, nowMs: number) {
  const hoursOf = (day: string) => (place.hours[day as keyof typeof place.hours] ?? '').split(', ').filter(Boolean)
    .map((span) => { const [opens, closes] = span.split('-'); return { abbr_name: ABBR[day]!, full_name: day[0]!.toUpperCase() + day.slice(1), opens: opens!, closes: closes! }; });
  const today = DAYS[new Date(nowMs).getUTCDay()]!;
  const a = place.address;
  return {
    type: 'location_result',
    id: place.id,
    title: place.name,
    url: place.url ?? '',
    provider_url: place.url ?? '',
    is_source_local: true,
    is_source_both: false,
    description: place.description,
    coordinates: [place.latitude, place.longitude],
    zoom_level: 14,
    postal_address: { type: 'PostalAddress', country: a.country, postalCode: a.postalCode, streetAddress: a.street, addressLocality: a.locality, addressRegion: a.region, displayAddress: `${a.street}, ${a.locality}${a.region ? `, ${a.region}` : ''} ${a.postalCode}`.trim() },
    opening_hours: { ...(hoursOf(today).length > 0 ? { current_day: hoursOf(today) } : {}), days: DAYS.map(hoursOf).filter((d) => d.length > 0) },
    ...(place.phone ? { contact: { telephone: place.phone } } : {}),
    ...(place.priceRange ? { price_range: place.priceRange } : {}),
    ...(place.rating !== undefined ? { rating: { ratingValue: place.rating, bestRating: 5, reviewCount: place.reviewCount, is_tripadvisor: false } } : {}),
    categories: place.categories,
  };
}

/** The summarizer key: Brave's is an opaque JSON string naming the query; ours names it and the corpus it ranked. */
function summarizerKey(q: string, hits: readonly Hit[]): string {
  const hash = createHash('sha256').update(hits.slice(0, 5).map((h) => h.page.url).join('\n')).digest('hex').slice(0, 32);
  return JSON.stringify({ query: q, country: 'us', language: 'en', safesearch: 'moderate', results_hash: hash });
}

function webSearch(call: { query: z.infer<typeof WebQuery> }, c: BraveCtx) {
  const p = call.query;
  const all = c.web.pages.values();
  const hits = search(all, p.q, freshnessFilter(p.freshness, c.ctx.nowMs));
  const filter = p.result_filter ? new Set(p.result_filter.split(',').map((s) => s.trim())) : null;
  const wants = (kind: string) => filter === null || filter.has(kind);
  const page = hits.slice(p.offset * p.count, (p.offset + 1) * p.count);
  const opts = { decorate: p.text_decorations !== false, extra: p.extra_snippets === true && hasExtraSnippets(c.sub) };
  const body: Record<string, unknown> = {
    type: 'search',
    query: queryBlock(p.q, { more_results_available: hits.length > (p.offset + 1) * p.count }),
  };
  const main: { type: string; index?: number; all: boolean }[] = [];
  if (wants('web')) {
    body.web = { type: 'search', results: page.map((h) => webResult(h.page, p.q, c, opts)), family_friendly: true };
    if (page.length > 0) main.push({ type: 'web', index: 0, all: false }, ...page.slice(1).map((_, i) => ({ type: 'web', index: i + 1, all: false })));
  }
  if (p.offset === 0 && wants('news')) {
    const news = hits.filter((h) => h.page.news).slice(0, 3);
    if (news.length > 0) {
      body.news = { type: 'news', results: news.map((h) => newsResult(h.page, p.q, c, opts.extra)), mutated_by_goggles: false };
      main.splice(Math.min(2, main.length), 0, { type: 'news', all: true });
    }
  }
  if (p.offset === 0 && wants('videos')) {
    const videos = hits.filter((h) => h.page.video).slice(0, 3);
    if (videos.length > 0) {
      body.videos = { type: 'videos', results: videos.map((h) => videoResult(h.page, p.q, c)), mutated_by_goggles: false };
      main.push({ type: 'videos', all: true });
    }
  }
  if (p.offset === 0 && wants('locations') && isPro(c.sub)) {
    const places = searchPlaces(c.web.places.values(), p.q).slice(0, 20);
    if (places.length > 0) body.locations = { type: 'locations', results: places.map((pl) => locationResult(pl, c.ctx.nowMs)) };
  }
  if (p.summary === true && isPro(c.sub) && hits.length > 0) body.summarizer = { type: 'summarizer', key: summarizerKey(p.q, hits) };
  body.mixed = { type: 'mixed', main, top: [], side: [] };
  return jsonResponse(200, body);
}

function newsSearch(call: { query: z.infer<typeof NewsQuery> }, c: BraveCtx) {
  const p = call.query;
  // Object.assign on the fresh filter, not `{ ...freshnessFilter(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  const hits = search(c.web.pages.values(), p.q, Object.assign(freshnessFilter(p.freshness, c.ctx.nowMs), { news: true }));
  const results = hits.slice(p.offset * p.count, (p.offset + 1) * p.count).map((h) => newsResult(h.page, p.q, c, p.extra_snippets === true && hasExtraSnippets(c.sub)));
  return jsonResponse(200, { type: 'news', query: { original: p.q, spellcheck_off: true }, results });
}

function videoSearch(call: { query: z.infer<typeof VideoQuery> }, c: BraveCtx) {
  const p = call.query;
  const hits = search(c.web.pages.values(), p.q, Object.assign(freshnessFilter(p.freshness, c.ctx.nowMs), { video: true }));
  const results = hits.slice(p.offset * p.count, (p.offset + 1) * p.count).map((h) => videoResult(h.page, p.q, c));
  return jsonResponse(200, { type: 'videos', query: { original: p.q, spellcheck_off: true }, results, extra: { might_be_offensive: false } });
}

function imageSearch(call: { query: z.infer<typeof ImageQuery> }, c: BraveCtx) {
  const p = call.query;
  const hits = search(c.web.pages.values(), p.q, {});
  const results = hits.flatMap((h) => h.page.images.map((img) => ({
    type: 'image_result',
    title: img.alt || h.page.title,
    url: h.page.url,
    source: h.page.host,
    page_fetched: new Date(Date.parse(h.page.crawled)).toISOString(),
    thumbnail: { src: `https://imgs.search.brave.com/thumb/${encodeURIComponent(img.url)}`, width: 500, height: Math.round(500 * img.height / img.width) },
    properties: { url: img.url, placeholder: `https://imgs.search.brave.com/placeholder/${encodeURIComponent(img.url)}`, width: img.width, height: img.height },
    meta_url: metaUrl(h.page),
    confidence: h.score >= (hits[0]?.score ?? 0) * 0.66 ? 'high' : h.score >= (hits[0]?.score ?? 0) * 0.33 ? 'medium' : 'low',
  }))).slice(0, p.count);
  return jsonResponse(200, { type: 'images', query: { original: p.q, spellcheck_off: true }, results, extra: { might_be_offensive: false } });
}

const ids = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const IdsQuery = z.object({ ids: z.union([z.string(), z.array(z.string())]).optional() }).passthrough();

function localIds(raw: string | string[] | undefined): string[] {
  const list = ids(raw);
  if (list.length === 0) throw validation('ids', 'Field required', null, 'missing');
  if (list.length > 20) throw validation('ids', 'List should have at most 20 items after validation', list, 'too_long');
  return list;
}

const PlaceQuery = z.object({
  q: z.string().max(400).optional(), query: z.string().optional(), count: int('count', 1, 50, 20), latitude: z.coerce.number().min(-90).max(90).optional(),
  longitude: z.coerce.number().min(-180).max(180).optional(), location: z.string().optional(), radius: z.coerce.number().min(0).optional(),
}).passthrough();

const SummarizerQuery = z.object({ key: z.string({ required_error: 'Field required' }).min(1), entity_info: bool.optional(), inline_references: bool.optional() }).passthrough();

function summarize(call: { query: z.infer<typeof SummarizerQuery> }, c: BraveCtx) {
  let parsed: { query?: unknown };
  try {
    parsed = JSON.parse(call.query.key) as { query?: unknown };
  } catch {
    throw validation('key', 'Invalid summarizer key', call.query.key);
  }
  if (typeof parsed.query !== 'string' || !isPro(c.sub)) throw validation('key', 'Invalid summarizer key', call.query.key);
  const q = parsed.query;
  const hits = search(c.web.pages.values(), q, {}).slice(0, 3);
  const summary: Record<string, unknown>[] = [];
  for (const hit of hits) {
    const sentence = bestSentences(hit.page, q, 1)[0];
    if (!sentence) continue;
    summary.push({ type: 'token', data: `${summary.length > 0 ? ' ' : ''}${sentence}` });
    if (call.query.inline_references === true) summary.push({ type: 'inline_reference', data: { type: 'inline_reference', url: hit.page.url, title: hit.page.title } });
  }
  return jsonResponse(200, {
    type: 'summarizer', status: 'complete', title: q,
    summary,
    enrichments: { raw: summary.filter((s) => s.type === 'token').map((s) => s.data).join(''), images: [], qa: [], entities: [], context: hits.map((h) => ({ title: h.page.title, url: h.page.url, meta_url: metaUrl(h.page) })) },
    followups: [],
    ...(call.query.entity_info === true ? { entities_infos: {} } : {}),
  });
}

const LlmQuery = z.object({
  q: query, count: int('count', 1, 50, 20), maximum_number_of_urls: int('maximum_number_of_urls', 1, 50, 20),
  maximum_number_of_tokens: int('maximum_number_of_tokens', 1024, 32768, 8192), maximum_number_of_snippets: int('maximum_number_of_snippets', 1, 100, 50),
  maximum_number_of_tokens_per_url: int('maximum_number_of_tokens_per_url', 512, 8192, 4096), maximum_number_of_snippets_per_url: int('maximum_number_of_snippets_per_url', 1, 100, 50),
  context_threshold_mode: z.enum(['strict', 'balanced', 'lenient', 'disabled']).optional(), enable_local: bool.optional(), enable_source_metadata: bool.optional(), goggles: z.union([z.string(), z.array(z.string())]).optional(),
}).passthrough();

function llmContext(call: { query: z.infer<typeof LlmQuery> }, c: BraveCtx) {
  const p = call.query;
  const hits = search(c.web.pages.values(), p.q, {}).slice(0, Math.min(p.count, p.maximum_number_of_urls));
  let budget = p.maximum_number_of_snippets;
  let tokens = p.maximum_number_of_tokens;
  const generic: { url: string; title: string; snippets: string[] }[] = [];
  for (const hit of hits) {
    if (budget <= 0 || tokens <= 0) break;
    const snippets: string[] = [];
    let urlTokens = p.maximum_number_of_tokens_per_url;
    for (const s of bestSentences(hit.page, p.q, Math.min(budget, p.maximum_number_of_snippets_per_url))) {
      const cost = Math.ceil(s.length / 4);
      if (cost > urlTokens || cost > tokens) break;
      snippets.push(s);
      urlTokens -= cost;
      tokens -= cost;
      budget--;
    }
    generic.push({ url: hit.page.url, title: hit.page.title, snippets });
  }
  const sources: Record<string, unknown> = {};
  for (const hit of hits.filter((h) => generic.some((g) => g.url === h.page.url))) {
    const age = pageAge(hit.page);
    sources[hit.page.url] = {
      title: hit.page.title, hostname: hit.page.host, age: age ? [humanAge(hit.page, c.ctx.nowMs)!, age.slice(0, 10), `${Math.floor((c.ctx.nowMs - Date.parse(`${age}Z`)) / DAY)} days ago`] : [],
      ...(p.enable_source_metadata === true ? { site_name: hit.page.site, favicon: `https://imgs.search.brave.com/favicon/${hit.page.host}` } : {}),
    };
  }
  const map = p.enable_local === true ? searchPlaces(c.web.places.values(), p.q).slice(0, 5).map((pl) => ({ name: pl.name, url: pl.url ?? '', title: pl.name, snippets: [pl.description, `${pl.address.street}, ${pl.address.locality}`].filter(Boolean) })) : [];
  return jsonResponse(200, { grounding: { generic, map }, sources });
}

/** A JSON body's scalars as the strings a query string carries, so one schema reads both. */
function stringValues(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'number' || typeof v === 'boolean' ? String(v) : v]));
}

const R = '/res/v1';
export const braveOperations: Operation<BraveCtx>[] = [
  operation<BraveCtx, '/res/v1/web/search', z.infer<typeof WebQuery>>('web.search', rest('GET', `${R}/web/search`), webSearch, { input: { query: WebQuery } }),
  operation<BraveCtx, '/res/v1/news/search', z.infer<typeof NewsQuery>>('news.search', rest('GET', `${R}/news/search`), newsSearch, { input: { query: NewsQuery } }),
  operation<BraveCtx, '/res/v1/videos/search', z.infer<typeof VideoQuery>>('videos.search', rest('GET', `${R}/videos/search`), videoSearch, { input: { query: VideoQuery } }),
  operation<BraveCtx, '/res/v1/images/search', z.infer<typeof ImageQuery>>('images.search', rest('GET', `${R}/images/search`), imageSearch, { input: { query: ImageQuery } }),
  operation<BraveCtx, '/res/v1/local/pois', z.infer<typeof IdsQuery>>('local.pois', rest('GET', `${R}/local/pois`), (call, c) => {
    const wanted = localIds(call.query.ids);
    const results = wanted.map((id) => c.web.places.get(id)).filter((p): p is WebPlace => p !== undefined).map((p) => locationResult(p, c.ctx.nowMs));
    return jsonResponse(200, { type: 'local_pois', results });
  }, { input: { query: IdsQuery } }),
  operation<BraveCtx, '/res/v1/local/descriptions', z.infer<typeof IdsQuery>>('local.descriptions', rest('GET', `${R}/local/descriptions`), (call, c) => {
    const wanted = localIds(call.query.ids);
    const results = wanted.map((id) => c.web.places.get(id)).filter((p): p is WebPlace => p !== undefined)
      .map((p) => ({ type: 'local_description', id: p.id, description: p.description }));
    return jsonResponse(200, { type: 'local_descriptions', results });
  }, { input: { query: IdsQuery } }),
  operation<BraveCtx, '/res/v1/local/place_search', z.infer<typeof PlaceQuery>>('local.place_search', rest('GET', `${R}/local/place_search`), (call, c) => {
    const p = call.query;
    const q = p.q ?? p.query ?? '';
    let places = q === '' ? [...c.web.places.values()].sort((a, b) => (a.id < b.id ? -1 : 1)) : searchPlaces(c.web.places.values(), q);
    if (p.location) {
      const loc = p.location.toLowerCase();
      const near = places.filter((pl) => loc.includes(pl.address.locality.toLowerCase()));
      if (near.length > 0) places = near;
    }
    if (p.latitude !== undefined && p.longitude !== undefined) {
      const d = (pl: WebPlace) => (pl.latitude - p.latitude!) ** 2 + (pl.longitude - p.longitude!) ** 2;
      places = [...places].sort((a, b) => d(a) - d(b) || (a.id < b.id ? -1 : 1));
    }
    return jsonResponse(200, { type: 'locations', query: { original: q, spellcheck_off: true }, results: places.slice(0, p.count).map((pl) => locationResult(pl, c.ctx.nowMs)) });
  }, { input: { query: PlaceQuery } }),
  operation<BraveCtx, '/res/v1/summarizer/search', z.infer<typeof SummarizerQuery>>('summarizer.search', rest('GET', `${R}/summarizer/search`), summarize, { input: { query: SummarizerQuery } }),
  operation<BraveCtx, '/res/v1/llm/context', z.infer<typeof LlmQuery>>('llm.context', rest('GET', `${R}/llm/context`), llmContext, { input: { query: LlmQuery } }),
  // The LLM context endpoint also takes its parameters as a JSON body (long queries).
  operation<BraveCtx, '/res/v1/llm/context', Record<string, unknown>, z.infer<typeof LlmQuery>>('llm.context.post', rest('POST', `${R}/llm/context`),
    (call, c) => llmContext({ query: call.body }, c), { input: { body: z.preprocess(stringValues, LlmQuery) } }),
];
