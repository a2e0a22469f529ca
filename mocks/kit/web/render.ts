import type { DocumentStore } from '../../core/store.js';
import type { LoadContext } from '../../core/service.js';
import { pageDoc, type PageDoc, type WebPage, type WebPlace } from './corpus.js';
import { bestSentences, clip, publishedMs, type Hit } from './search.js';

/** Shared renderings of pages: dates as the services print them, an extractive answer, HTML. */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Fills the store's `pages` and `places` from a dataset's corpus, once. */
export function loadCorpus(store: DocumentStore, ctx: Pick<LoadContext, 'epochMs'>, pages: readonly WebPage[], places: readonly WebPlace[]): void {
  const pageCollection = store.collection<PageDoc>('pages');
  for (const page of pages) {
    const doc = pageDoc(page, ctx.epochMs);
    if (pageCollection.get(doc.url)) throw new Error(`web corpus: the page ${doc.url} is listed twice`);
    pageCollection.put(doc.url, doc);
  }
  const placeCollection = store.collection<WebPlace>('places');
  for (const place of places) placeCollection.put(place.id, place);
}

/** `2025-03-14T00:00:00` (Brave's `page_age`: no zone). */
export function pageAge(page: PageDoc): string | undefined {
  const at = publishedMs(page);
  return at === null ? undefined : new Date(at).toISOString().slice(0, 19);
}

/** `March 14, 2025`, or `3 days ago` within a week of `nowMs` (Brave's `age`). */
export function humanAge(page: PageDoc, nowMs: number): string | undefined {
  const at = publishedMs(page);
  if (at === null) return undefined;
  const days = Math.floor((nowMs - at) / 86_400_000);
  if (days >= 0 && days < 7) {
    if (days === 0) {
      const hours = Math.max(1, Math.floor((nowMs - at) / 3_600_000));
      return `${hours} hour${hours === 1 ? '' : 's'} ago`;
    }
    return `${days} day${days === 1 ? '' : 's'} ago`;
  }
  const d = new Date(at);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** ISO 8601 with milliseconds and `Z` (Exa's and Tavily's dates), or null for an undated page. */
export function isoDate(page: PageDoc): string | null {
  const at = publishedMs(page);
  return at === null ? null : new Date(at).toISOString();
}

/**
 * A deterministic, extractive answer: the best sentence of each of the top pages (at most
 * `sources`), as search engines' answer boxes quote them. It never invents a fact the pages lack,
 * and when pages disagree it quotes both, so a reader still has to decide.
 */
export function extractiveAnswer(hits: readonly Hit[], query: string, sources = 2, max = 600): string {
  const parts: string[] = [];
  for (const hit of hits.slice(0, sources)) {
    const best = bestSentences(hit.page, query, 1)[0];
    if (best && !parts.includes(best)) parts.push(best);
  }
  return clip(parts.join(' '), max);
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, '<img src="$2" alt="$1">')
    .replace(/\[([^\]]*)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** The page's markdown as the HTML document a fetch returns (headings, paragraphs, lists, tables, code). */
export function pageHtml(page: PageDoc, mainOnly: boolean): string {
  const body: string[] = [];
  const blocks = page.markdown.split(/\n\s*\n/);
  for (const block of blocks) {
    const text = block.trim();
    if (text === '') continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(text);
    if (heading && !text.includes('\n')) {
      body.push(`<h${heading[1]!.length}>${inline(heading[2]!)}</h${heading[1]!.length}>`);
    } else if (text.startsWith('```')) {
      body.push(`<pre><code>${escapeHtml(text.replace(/^```[^\n]*\n?/, '').replace(/```$/, ''))}</code></pre>`);
    } else if (text.split('\n').every((l) => /^\s*[-*+]\s+/.test(l))) {
      body.push(`<ul>${text.split('\n').map((l) => `<li>${inline(l.replace(/^\s*[-*+]\s+/, ''))}</li>`).join('')}</ul>`);
    } else if (text.startsWith('|')) {
      const rows = text.split('\n').filter((l) => !/^\|?\s*:?-{3,}/.test(l)).map((l) => l.replace(/^\||\|$/g, '').split('|').map((c) => c.trim()));
      const [head, ...rest] = rows;
      body.push(`<table><thead><tr>${(head ?? []).map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead><tbody>${rest.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`);
    } else {
      body.push(`<p>${inline(text.replace(/\n/g, ' '))}</p>`);
    }
  }
  const main = `<main>${body.join('')}</main>`;
  if (mainOnly) return main;
  const nav = page.links.length > 0 ? `<nav>${page.links.map((l) => `<a href="${escapeHtml(l)}">${escapeHtml(l)}</a>`).join('')}</nav>` : '';
  const meta = [`<meta name="description" content="${escapeHtml(page.description)}">`, page.author ? `<meta name="author" content="${escapeHtml(page.author)}">` : '',
    page.published ? `<meta property="article:published_time" content="${escapeHtml(page.published)}">` : ''].join('');
  return `<!DOCTYPE html><html lang="${page.language}"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title>${meta}</head><body>${nav}${main}</body></html>`;
}
