import { z } from 'zod';

/**
 * The Sentry dataset (`<scenario>/dataset/sentry.json`): one organization with its members,
 * teams, projects (and their client keys), releases, issues with their events, tag values and
 * notes. A missing file parses as `{}`; every field has a default. Timestamps default to the
 * scenario's epoch; numeric ids the dataset brings are reserved so new ones come after them.
 */

const Iso = z.string().datetime();
/** How long before the scenario's epoch (`90m`, `3h`, `2d`): a world that stays fresh whatever the epoch. */
const Ago = z.string().regex(/^\d+[smhdw]$/, 'a duration such as 90m, 3h or 2d');

export const IssueStatus = z.enum(['unresolved', 'resolved', 'ignored']);

const Frame = z.object({
  filename: z.string(),
  function: z.string(),
  lineNo: z.number().int(),
  inApp: z.boolean().default(true),
}).strict();

const Event = z.object({
  id: z.string().regex(/^[0-9a-f]{32}$/),
  /** When it happened: `dateCreated`, or `ago` before the epoch (default: the epoch). */
  dateCreated: Iso.optional(),
  ago: Ago.optional(),
  message: z.string().nullable().default(null),
  environment: z.string().default('production'),
  release: z.string().nullable().default(null),
  user: z.object({ id: z.string().nullable().default(null), email: z.string().nullable().default(null) }).strict().default({}),
  tags: z.record(z.string()).default({}),
  frames: z.array(Frame).default([]),
}).strict();
export type EventInput = z.infer<typeof Event>;

const Note = z.object({
  id: z.string().regex(/^\d+$/).optional(),
  user: z.string().email(),
  text: z.string().min(1),
  dateCreated: Iso.optional(),
}).strict();

const Issue = z.object({
  id: z.string().regex(/^\d+$/),
  /** The project's short-id number: PROJECT-N. */
  shortNumber: z.number().int().positive(),
  project: z.string(),
  title: z.string().min(1),
  culprit: z.string().nullable().default(null),
  type: z.string().default('TypeError'),
  value: z.string().default(''),
  level: z.enum(['fatal', 'error', 'warning', 'info']).default('error'),
  status: IssueStatus.default('unresolved'),
  substatus: z.string().nullable().optional(),
  /** A member's email, `team:<slug>`, or null. */
  assignedTo: z.string().nullable().default(null),
  count: z.number().int().nonnegative().default(1),
  userCount: z.number().int().nonnegative().default(1),
  firstSeen: Iso.optional(),
  lastSeen: Iso.optional(),
  firstRelease: z.string().nullable().default(null),
  events: z.array(Event).default([]),
  notes: z.array(Note).default([]),
}).strict();
export type IssueInput = z.infer<typeof Issue>;

const Member = z.object({
  id: z.string().regex(/^\d+$/),
  name: z.string(),
  email: z.string().email(),
  username: z.string().optional(),
  /** API tokens that authenticate as this member (Authorization: Bearer …). */
  tokens: z.array(z.string().min(1)).default([]),
}).strict();

const Team = z.object({
  id: z.string().regex(/^\d+$/),
  slug: z.string().regex(/^[a-z0-9_-]+$/),
  name: z.string(),
  members: z.array(z.string().email()).default([]),
}).strict();

const Project = z.object({
  id: z.string().regex(/^\d+$/),
  slug: z.string().regex(/^[a-z0-9_-]+$/),
  name: z.string(),
  platform: z.string().nullable().default(null),
  teams: z.array(z.string()).default([]),
  dateCreated: Iso.optional(),
}).strict();

const Release = z.object({
  version: z.string().min(1),
  projects: z.array(z.string()).min(1),
  dateCreated: Iso.optional(),
  /** Created and released this long before the epoch (instead of the two dates). */
  ago: Ago.optional(),
  dateReleased: Iso.nullable().default(null),
  newGroups: z.number().int().nonnegative().default(0),
  commitMessage: z.string().nullable().default(null),
  deployEnvironment: z.string().nullable().default(null),
}).strict();

export const SentryDatasetSchema = z.object({
  organization: z.object({
    id: z.string().regex(/^\d+$/).default('4509000000000001'),
    slug: z.string().regex(/^[a-z0-9-]+$/).default('example-org'),
    name: z.string().default('Example Org'),
  }).strict().default({}),
  members: z.array(Member).default([]),
  teams: z.array(Team).default([]),
  projects: z.array(Project).default([]),
  releases: z.array(Release).default([]),
  issues: z.array(Issue).default([]),
}).strict();
export type SentryDataset = z.infer<typeof SentryDatasetSchema>;
