import { z } from 'zod';

/**
 * The deterministic web one scenario's search services share (docs/web-mock.md): pages with their
 * URL, title, markdown body, links, dates and media, and the places a local search can find. Each
 * search service's dataset (`brave.json`, `tavily.json`, `exa.json`, `firecrawl.json`) holds a
 * corpus in this schema beside its own keys: the world hands every service only its own file.
 */

const Url = z.string().url().refine((u) => /^https?:\/\//.test(u), 'an http(s) URL');
/** `2025-03-14` or a full ISO timestamp; pages carry the date they were published. */
const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/, 'an ISO date');

export const WebImageSchema = z.object({
  url: Url,
  alt: z.string().default(''),
  width: z.number().int().positive().default(1200),
  height: z.number().int().positive().default(800),
}).strict();

export const WebVideoSchema = z.object({
  /** `MM:SS` or `H:MM:SS`, as Brave shows it. */
  duration: z.string().regex(/^(\d+:)?\d{1,2}:\d{2}$/),
  views: z.number().int().nonnegative().default(0),
  creator: z.string().optional(),
  publisher: z.string().optional(),
}).strict();

export const WebPageSchema = z.object({
  url: Url,
  title: z.string().min(1),
  /** The page's main content in markdown (headings, lists, tables, `[text](url)` links). */
  markdown: z.string().min(1),
  /** The meta description; default: the first paragraph of the text. */
  description: z.string().optional(),
  /** When the page was published (absent for undated pages such as product docs). */
  published: IsoDate.optional(),
  /** When the crawler last fetched it; default: the scenario's epoch. */
  crawled: IsoDate.optional(),
  author: z.string().optional(),
  /** The site's name (`Python Docs`); default: the host without `www.`. */
  site: z.string().optional(),
  language: z.string().default('en'),
  /** Links besides the markdown's own `[text](url)` ones (navigation). */
  links: z.array(Url).default([]),
  images: z.array(WebImageSchema).default([]),
  /** A news article: listed by news searches (Brave news, Tavily `topic: news`, Exa `category: news`). */
  news: z.boolean().default(false),
  breaking: z.boolean().default(false),
  video: WebVideoSchema.optional(),
  /** Exa's categories (`company`, `research paper`, `people`, `github`, `pdf`, `financial report`). */
  category: z.string().optional(),
  /** The HTTP status a fetch of the page gets (a 404 page is in the index but scrapes as an error). */
  status: z.number().int().min(200).max(599).default(200),
}).strict();

export const WebPlaceSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  url: Url.optional(),
  address: z.object({
    street: z.string(), locality: z.string(), region: z.string().default(''), postalCode: z.string().default(''), country: z.string().default('US'),
  }).strict(),
  phone: z.string().optional(),
  rating: z.number().min(0).max(5).optional(),
  reviewCount: z.number().int().nonnegative().default(0),
  priceRange: z.string().optional(),
  categories: z.array(z.string()).default([]),
  /** `{monday: "09:00-17:00", …}`; a day that is absent is closed. */
  hours: z.record(z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']), z.string().regex(/^\d{2}:\d{2}-\d{2}:\d{2}(, \d{2}:\d{2}-\d{2}:\d{2})*$/)).default({}),
  latitude: z.number(),
  longitude: z.number(),
  description: z.string().default(''),
}).strict();

export const WebCorpusShape = {
  pages: z.array(WebPageSchema).default([]),
  places: z.array(WebPlaceSchema).default([]),
};

export type WebImage = z.infer<typeof WebImageSchema>;
export type WebPage = z.infer<typeof WebPageSchema>;
export type WebPlace = z.infer<typeof WebPlaceSchema>;

/** A page as the store keeps it: the dataset's fields with every default resolved. */
export interface PageDoc extends Omit<WebPage, 'description' | 'site' | 'crawled'> {
  description: string;
  site: string;
  host: string;
  crawled: string;
  /** Every outgoing link, in order of appearance: the markdown's, then `links`. */
  outlinks: string[];
}

/** Canonical form of a URL for lookups: no fragment, no trailing slash on a non-root path. */
export function normalizeUrl(raw: string): string {
  try {
    const u = new URL(raw.trim());
    u.hash = '';
    let s = u.toString();
    if (u.pathname !== '/' && s.endsWith('/') && !u.search) s = s.slice(0, -1);
    return s;
  } catch {
    return raw.trim();
  }
}

/** `[text](url)` links of a markdown body. */
export function markdownLinks(markdown: string): string[] {
  const out: string[] = [];
  for (const match of markdown.matchAll(/\[[^\]]*\]\((https?:\/\/[^)\s]+)\)/g)) out.push(match[1]!);
  return out;
}

/** The page as stored: defaults resolved from the text and the epoch. */
export function pageDoc(page: WebPage, epochMs: number): PageDoc {
  const url = normalizeUrl(page.url);
  const host = new URL(url).hostname;
  const outlinks = [...new Set([...markdownLinks(page.markdown), ...page.links].map(normalizeUrl))].filter((l) => l !== url);
  const { description, site, crawled, ...rest } = page;
  return {
    ...rest,
    url,
    host,
    site: site ?? host.replace(/^www\./, ''),
    description: description ?? firstParagraph(page.markdown),
    crawled: crawled ?? new Date(epochMs).toISOString(),
    outlinks,
  };
}

/** The first prose paragraph of a markdown body (no headings, tables or list markers). */
export function firstParagraph(markdown: string): string {
  for (const block of markdown.split(/\n\s*\n/)) {
    const line = block.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('|') || line.startsWith('```')) continue;
    return plainText(line).slice(0, 300);
  }
  return plainText(markdown).slice(0, 300);
}

/** Markdown as plain text: links keep their text, emphasis and heading marks go. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n([\s\S]*?)```/g, '$1')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^\s*[-*+]\s+/gm, '')
    .replace(/^\|?\s*:?-{3,}.*$/gm, '')
    .replace(/\|/g, ' ')
    .replace(/(^|\s)_([^_\n]+)_(?=[\s.,;:!?]|$)/gm, '$1$2')
    .replace(/(\*\*|__|\*|`)/g, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
