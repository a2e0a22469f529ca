import { z } from 'zod';

/**
 * The Notion dataset (`<scenario>/dataset/notion.json`, and the background world in
 * scenarios/baseline/dataset/notion.json): the single source of truth for its format
 * (docs/notion-mock.md). Values are written the short way (a status is its option's name, people
 * are user IDs, a date is `YYYY-MM-DD`); the loader builds Notion's objects from them.
 */

/** Notion IDs are UUIDs; the API also accepts them without dashes. */
const NotionId = z.string().regex(/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/, 'a UUID');
const Timestamp = z.string().datetime();

export const PROPERTY_TYPES = ['title', 'rich_text', 'number', 'select', 'multi_select', 'status', 'date', 'people', 'checkbox', 'url', 'email', 'created_time', 'last_edited_time'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export const COLORS = ['default', 'gray', 'brown', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'red'] as const;
const Option = z.union([z.string().min(1), z.object({ name: z.string().min(1), color: z.enum(COLORS).default('default') }).strict()]);

/** One column of a data source: its type, and the options of a select, multi-select or status. */
export const PropertySchemaInput = z.object({
  type: z.enum(PROPERTY_TYPES),
  options: z.array(Option).optional(),
}).strict();
export type PropertySchemaInput = z.infer<typeof PropertySchemaInput>;

/** A property value, the short way: text, a number, a checkbox, option or user names/IDs, a date or a range. */
export const PropertyValueInput = z.union([
  z.string(), z.number(), z.boolean(), z.null(), z.array(z.string()),
  z.object({ start: z.string(), end: z.string().nullable().default(null) }).strict(),
]);
export type PropertyValueInput = z.infer<typeof PropertyValueInput>;

export const BLOCK_TYPES = ['paragraph', 'heading_1', 'heading_2', 'heading_3', 'bulleted_list_item', 'numbered_list_item', 'to_do', 'toggle', 'quote', 'callout', 'code', 'divider'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export interface BlockInput {
  id?: string | undefined;
  type: BlockType;
  text: string;
  checked?: boolean | undefined;
  children: BlockInput[];
}
export const BlockInputSchema: z.ZodType<BlockInput, z.ZodTypeDef, unknown> = z.lazy(() => z.object({
  /** Default: a seeded UUID. */
  id: NotionId.optional(),
  type: z.enum(BLOCK_TYPES).default('paragraph'),
  text: z.string().default(''),
  /** to_do blocks only. */
  checked: z.boolean().optional(),
  children: z.array(BlockInputSchema).default([]),
}).strict());

const Parent = z.union([
  z.object({ page_id: NotionId }).strict(),
  z.object({ data_source_id: NotionId }).strict(),
  z.object({ workspace: z.literal(true) }).strict(),
]);

export const NotionDatasetSchema = z.object({
  /** Integration tokens (`ntn_…`, `secret_…`) the API accepts; all act as `bot`. */
  tokens: z.array(z.string().min(1)).default([]),
  /** The integration's bot user (GET /v1/users/me). */
  bot: z.object({
    id: NotionId.default('9a3b5c7d-1e2f-4a6b-8c9d-0e1f2a3b4c5d'),
    name: z.string().default('Toolbench Integration'),
    workspace_name: z.string().default('Acme'),
  }).strict().default({}),
  users: z.array(z.object({
    id: NotionId,
    name: z.string().min(1),
    email: z.string().email().optional(),
    avatar_url: z.string().url().nullable().default(null),
  }).strict()).default([]),
  /** Databases, each with its data sources (tables) and their property schemas. */
  databases: z.array(z.object({
    id: NotionId,
    title: z.string(),
    /** The page the database sits in; none: the workspace. */
    parent_page_id: NotionId.optional(),
    is_inline: z.boolean().default(false),
    created_time: Timestamp.optional(),
    last_edited_time: Timestamp.optional(),
    in_trash: z.boolean().default(false),
    data_sources: z.array(z.object({
      id: NotionId,
      /** Default: the database's title. */
      title: z.string().optional(),
      properties: z.record(PropertySchemaInput).refine((props) => Object.values(props).filter((p) => p.type === 'title').length === 1, 'exactly one title property'),
    }).strict()).min(1),
  }).strict()).default([]),
  /** Pages: standalone (`title`) or rows of a data source (`properties`, by the source's names). */
  pages: z.array(z.object({
    id: NotionId,
    parent: Parent,
    /** A standalone page's title (a row's title is its title property). */
    title: z.string().optional(),
    properties: z.record(PropertyValueInput).default({}),
    icon: z.string().optional(),
    in_trash: z.boolean().default(false),
    created_time: Timestamp.optional(),
    last_edited_time: Timestamp.optional(),
    /** A user ID (default: the first user, or the bot). */
    created_by: NotionId.optional(),
    blocks: z.array(BlockInputSchema).default([]),
  }).strict()).default([]),
  comments: z.array(z.object({
    id: NotionId.optional(),
    /** The page or block the comment is on. */
    on: NotionId,
    discussion_id: NotionId.optional(),
    text: z.string().min(1),
    created_by: NotionId,
    created_time: Timestamp.optional(),
  }).strict()).default([]),
}).strict();
export type NotionDataset = z.infer<typeof NotionDatasetSchema>;
