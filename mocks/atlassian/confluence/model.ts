import type { Collection, DocumentStore } from '../../core/store.js';

/**
 * What the Confluence mock stores (collections `confluence.*`): spaces by key, and every piece of
 * content (pages, blog posts, comments, attachments) by its numeric ID, as Confluence keeps them.
 * Bodies are storage format; times are ISO with milliseconds (`2025-09-14T09:01:47.000Z`).
 */
export interface SpaceDoc { id: number; key: string; name: string; description: string; type: 'global' | 'personal'; status: 'current' | 'archived'; homepage: string | null }

export interface ContentDoc {
  id: string;
  type: 'page' | 'blogpost' | 'comment' | 'attachment';
  status: 'current' | 'archived' | 'trashed' | 'draft';
  title: string;
  space: string;
  /** A page's parent page; a comment's parent comment; null at the top. */
  parent: string | null;
  /** The page a comment or attachment belongs to. */
  container: string | null;
  body: string;
  creator: string;
  created: string;
  version: { number: number; when: string; by: string; message: string; minorEdit: boolean };
  labels: string[];
  /** Attachments: media type, and the file's bytes as base64. */
  mediaType: string | null;
  data: string | null;
  /** Sibling order. */
  position: number;
}

export interface ConfluenceDb {
  spaces: Collection<SpaceDoc>;
  content: Collection<ContentDoc>;
}

export function confluenceDb(store: DocumentStore): ConfluenceDb {
  return { spaces: store.collection('confluence.spaces'), content: store.collection('confluence.content') };
}

/** Confluence's times: ISO with milliseconds. */
export const confluenceTime = (ms: number): string => new Date(ms).toISOString();

/** The text of a storage-format body (tags dropped, entities decoded), for search and excerpts. */
export function storageText(xhtml: string): string {
  return xhtml.replace(/<ri:user [^>]*ri:account-id="([^"]+)"[^>]*\/>/g, ' @$1 ').replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ').trim();
}

/** The URL slug Confluence puts after a page's ID in its web link. */
export const slug = (title: string): string => encodeURIComponent(title.replace(/ /g, '+')).replace(/%2B/g, '+');
