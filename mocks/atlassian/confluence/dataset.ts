import { z } from 'zod';

/**
 * The `confluence` section of `dataset/atlassian.json`: spaces and their pages (a tree by
 * `parent`), blog posts, comments, labels and attachments. Bodies are Confluence storage format
 * (XHTML); people are named by email, account ID or display name; dates are ISO 8601.
 */
const Iso = z.string().datetime({ offset: true });
const SpaceKey = z.string().regex(/^[A-Za-z0-9]{1,255}$/, 'must be a space key such as ENG');

export const SpaceSchema = z.object({
  key: SpaceKey,
  name: z.string().min(1),
  description: z.string().default(''),
  type: z.enum(['global', 'personal']).default('global'),
  status: z.enum(['current', 'archived']).default('current'),
  /** The title of the space's home page (one of its pages). */
  homepage: z.string().optional(),
}).strict();

export const PageCommentSchema = z.object({
  author: z.string().min(1),
  body: z.string().min(1),
  created: Iso,
}).strict();

export const PageSchema = z.object({
  /** Numeric string; seeded from the page's place in the file when left out. */
  id: z.string().regex(/^\d+$/).optional(),
  space: SpaceKey,
  title: z.string().min(1).max(255),
  type: z.enum(['page', 'blogpost']).default('page'),
  status: z.enum(['current', 'archived', 'trashed', 'draft']).default('current'),
  /** The parent page, by title in the same space. */
  parent: z.string().optional(),
  /** Storage format (XHTML), e.g. `<p>Hello</p>`. */
  body: z.string().default(''),
  author: z.string().min(1),
  created: Iso,
  /** The last editor and time; default the author at `created`. */
  last_editor: z.string().optional(),
  updated: Iso.optional(),
  /** The version number; default 1. */
  version: z.number().int().positive().default(1),
  labels: z.array(z.string().regex(/^[^\s:]+$/, 'labels have no spaces or colons')).default([]),
  comments: z.array(PageCommentSchema).default([]),
  attachments: z.array(z.object({ filename: z.string().min(1), media_type: z.string().default('text/plain'), text: z.string(), author: z.string().optional() }).strict()).default([]),
}).strict();

export const ConfluenceDatasetSchema = z.object({
  spaces: z.array(SpaceSchema).default([]),
  pages: z.array(PageSchema).default([]),
}).strict();

export type ConfluenceDataset = z.infer<typeof ConfluenceDatasetSchema>;
