import { z } from 'zod';
import type { PageDoc } from '../kit/web/corpus.js';
import { extractiveAnswer, isoDate, pageHtml } from '../kit/web/render.js';
import { bestSentences, clip, crawl, search, tokenize, type Hit, type WebDb } from '../kit/web/search.js';

/**
 * Exa's result objects over the corpus: `{id, url, title, publishedDate, author, score, image,
 * favicon}` plus the contents asked for (`text`, `highlights` with `highlightScores`, `summary`,
 * `subpages`, `extras`), and the `costDollars` of a request. The same contents options serve
 * /search (under `contents`), /findSimilar and /contents (top level).
 */

const positive = z.number().int().positive();
const TextOption = z.union([z.boolean(), z.object({ maxCharacters: positive.optional(), includeHtmlTags: z.boolean().optional(), verbosity: z.string().optional() }).passthrough()]);
const HighlightsOption = z.union([z.boolean(), z.object({
  maxCharacters: positive.optional().nullable(),
  numSentences: positive.optional().nullable(),
  highlightsPerUrl: positive.optional().nullable(),
  query: z.string().optional().nullable(),
}).passthrough()]);
const SummaryOption = z.union([z.boolean(), z.object({ query: z.string().optional(), schema: z.record(z.unknown()).optional() }).passthrough()]);

export const ContentsOptions = z.object({
  text: TextOption.optional(),
  highlights: HighlightsOption.optional(),
  summary: SummaryOption.optional(),
  livecrawl: z.enum(['never', 'fallback', 'always', 'auto', 'preferred']).optional(),
  livecrawlTimeout: z.number().int().nonnegative().optional(),
  maxAgeHours: z.number().int().min(-1).optional(),
  subpages: z.number().int().min(0).max(100).optional(),
  subpageTarget: z.union([z.string(), z.array(z.string())]).optional(),
  context: z.union([z.boolean(), z.object({ maxCharacters: positive.optional() }).passthrough()]).optional(),
  extras: z.object({ links: z.number().int().nonnegative().optional(), imageLinks: z.number().int().nonnegative().optional() }).passthrough().optional(),
}).passthrough();
export type ContentsOptions = z.infer<typeof ContentsOptions>;

/** Per-page prices (USD) as Exa lists them: text, highlights and summaries each bill a page. */
export const PRICE = { neural: 5_000, keyword: 2_500, deep: 15_000, page: 1_000, summary: 1_000, answer: 5_000 } as const;

export interface Rendered { result: Record<string, unknown>; pages: { text: number; highlights: number; summary: number } }

export const favicon = (page: PageDoc) => `https://${page.host}/favicon.ico`;

/** Highlights: the sentences that match the query best, `perUrl` chunks of them, within `maxCharacters`. */
function highlights(page: PageDoc, query: string, option: Exclude<z.infer<typeof HighlightsOption>, boolean>): { highlights: string[]; highlightScores: number[] } {
  const perUrl = option.highlightsPerUrl ?? 1;
  const perChunk = option.numSentences ?? (option.maxCharacters ? 8 : 3);
  const picked = bestSentences(page, query, perChunk * perUrl);
  const chunks: string[] = [];
  for (let i = 0; i < picked.length; i += perChunk) chunks.push(picked.slice(i, i + perChunk).join(' '));
  const budget = option.maxCharacters ?? Infinity;
  const out: string[] = [];
  let used = 0;
  for (const chunk of chunks) {
    if (used >= budget) break;
    const piece = clip(chunk, budget - used);
    out.push(piece);
    used += piece.length;
  }
  const terms = new Set(tokenize(query));
  const scores = out.map((h) => {
    const found = new Set(tokenize(h).filter((t) => terms.has(t))).size;
    return Math.round((terms.size === 0 ? 0 : found / terms.size) * 1e6) / 1e6;
  });
  return { highlights: out, highlightScores: scores };
}

/** A page's text as Exa returns it: its markdown (headings, lists, links), or HTML when asked. */
function text(page: PageDoc, option: Exclude<z.infer<typeof TextOption>, boolean>): string {
  const full = option.includeHtmlTags ? pageHtml(page, true) : page.markdown;
  return option.maxCharacters ? full.slice(0, option.maxCharacters) : full;
}

/** A summary: the page's two sentences closest to the summary's query (extractive, never invented). */
function summary(page: PageDoc, query: string, option: Exclude<z.infer<typeof SummaryOption>, boolean>): string {
  const focus = option.query ?? query;
  if (option.schema) return JSON.stringify(fillSchema(option.schema, [{ page, score: 1 }], focus));
  return bestSentences(page, focus, 2).join(' ');
}

/**
 * An object for a JSON schema from the pages: each string property is the pages' sentence that
 * best answers the query together with the property's name and description; other types are null.
 * Extractive like every answer of the shared web: a value is always a sentence some page holds.
 */
export function fillSchema(schema: Record<string, unknown>, hits: readonly Hit[], query: string): unknown {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; description?: unknown }>;
  if (schema.type !== 'object' || Object.keys(properties).length === 0) return extractiveAnswer(hits, query, 2);
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(properties)) {
    const focus = `${query} ${name.replace(/[_-]+/g, ' ')} ${typeof prop.description === 'string' ? prop.description : ''}`;
    out[name] = prop.type === 'string' || prop.type === undefined ? extractiveAnswer(hits, focus, 1, 400) : null;
  }
  return out;
}

const on = <T>(v: T | boolean | undefined): T | null => (v === undefined || v === false ? null : v === true ? ({} as T) : v);

/** One page as an Exa result with the contents `o` asks for. */
export function render(db: WebDb, page: PageDoc, query: string, o: ContentsOptions, score: number | undefined, withSubpages = true): Rendered {
  const pages = { text: 0, highlights: 0, summary: 0 };
  const result: Record<string, unknown> = {
    id: page.url,
    title: page.title,
    url: page.url,
    publishedDate: isoDate(page),
    author: page.author ?? null,
    ...(score === undefined ? {} : { score }),
    ...(page.images[0] ? { image: page.images[0].url } : {}),
    favicon: favicon(page),
  };
  const t = on(o.text);
  if (t) { result.text = text(page, t); pages.text++; }
  const h = on(o.highlights);
  if (h) { Object.assign(result, highlights(page, h.query ?? query, h)); pages.highlights++; }
  const s = on(o.summary);
  if (s) { result.summary = summary(page, query, s); pages.summary++; }
  if (o.extras) {
    result.extras = {
      ...(o.extras.links ? { links: page.outlinks.slice(0, o.extras.links) } : {}),
      ...(o.extras.imageLinks ? { imageLinks: page.images.slice(0, o.extras.imageLinks).map((i) => i.url) } : {}),
    };
  }
  if (withSubpages && o.subpages) {
    const subs = subpages(db, page, o.subpages, o.subpageTarget);
    result.subpages = subs.map((sub) => {
      const r = render(db, sub, query, { ...o, subpages: 0 }, undefined, false);
      pages.text += r.pages.text; pages.highlights += r.pages.highlights; pages.summary += r.pages.summary;
      return r.result;
    });
  }
  return { result, pages };
}

/** Up to `n` pages linked from `page` on its own site, those matching `target` first. */
function subpages(db: WebDb, page: PageDoc, n: number, target: string | string[] | undefined): PageDoc[] {
  const linked = crawl(db, page, { maxDepth: 1, limit: 1 + 50 }).slice(1).map((x) => x.page);
  const wanted = target === undefined ? '' : Array.isArray(target) ? target.join(' ') : target;
  if (wanted === '') return linked.slice(0, n);
  const ranked = search(linked, wanted).map((x) => x.page);
  return [...ranked, ...linked.filter((p) => !ranked.includes(p))].slice(0, n);
}

/** The `context` string: every result's title, URL and text, as one block for a prompt. */
export function contextString(results: readonly Record<string, unknown>[], max: number | undefined): string {
  const whole = results.map((r) => `Title: ${String(r.title)}\nURL: ${String(r.url)}\n${String(r.text ?? (Array.isArray(r.highlights) ? r.highlights.join('\n') : ''))}`).join('\n\n');
  return max ? whole.slice(0, max) : whole;
}

const BREAKDOWN_KEY = { neural: 'neuralSearch', keyword: 'keywordSearch', deep: 'deepSearch' } as const;

/**
 * `costDollars` as the OpenAPI description has it (`total`, one `breakDown` item with `search`,
 * `contents` and the per-kind `breakdown`, and the per-page prices), and the total in
 * micro-dollars for billing.
 */
export function cost(base: { kind: 'neural' | 'keyword' | 'deep' | 'none'; micros: number }, pages: Rendered['pages'][]): { micros: number; costDollars: Record<string, unknown> } {
  const sum = pages.reduce((a, p) => ({ text: a.text + p.text, highlights: a.highlights + p.highlights, summary: a.summary + p.summary }), { text: 0, highlights: 0, summary: 0 });
  const contents = { contentText: sum.text * PRICE.page, contentHighlight: sum.highlights * PRICE.page, contentSummary: sum.summary * PRICE.summary };
  const contentsMicros = contents.contentText + contents.contentHighlight + contents.contentSummary;
  const micros = base.micros + contentsMicros;
  const dollars = (m: number) => m / 1_000_000;
  const breakdown: Record<string, number> = base.kind === 'none' ? {} : { [BREAKDOWN_KEY[base.kind]]: dollars(base.micros) };
  for (const [k, v] of Object.entries(contents)) if (v > 0) breakdown[k] = dollars(v);
  return {
    micros,
    costDollars: {
      total: dollars(micros),
      breakDown: [{ search: dollars(base.micros), contents: dollars(contentsMicros), breakdown }],
      perPagePrices: { contentText: dollars(PRICE.page), contentHighlight: dollars(PRICE.page), contentSummary: dollars(PRICE.summary) },
    },
  };
}
