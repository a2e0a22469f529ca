import { z } from 'zod';

/**
 * The `jira` section of `dataset/atlassian.json`. People are named by email, account ID or
 * display name; issues by key (`ENG-12`); dates are ISO 8601. A description or comment body is
 * plain text (each blank-line-separated block a paragraph of Atlassian Document Format) or an ADF
 * document as the API returns it.
 */
const Iso = z.string().datetime({ offset: true });
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date such as 2025-10-01');
const IssueKey = z.string().regex(/^[A-Z][A-Z0-9_]{0,9}-\d+$/, 'must be an issue key such as ENG-12');
const ProjectKey = z.string().regex(/^[A-Z][A-Z0-9_]{0,9}$/, 'must be a project key such as ENG');
/** Plain text or an ADF document (`{type: "doc", version: 1, content: [...]}`). */
export const RichText = z.union([z.string(), z.object({ type: z.literal('doc'), version: z.literal(1), content: z.array(z.unknown()) }).passthrough()]);

export const StatusSchema = z.object({
  id: z.string().regex(/^\d+$/),
  name: z.string().min(1),
  category: z.enum(['new', 'indeterminate', 'done']),
  description: z.string().default(''),
}).strict();

/** A workflow transition; `to` names a status. Every transition is global (from any status), as in a simplified workflow. */
export const TransitionSchema = z.object({
  id: z.string().regex(/^\d+$/),
  name: z.string().min(1),
  to: z.string().min(1),
}).strict();

export const ProjectSchema = z.object({
  key: ProjectKey,
  name: z.string().min(1),
  description: z.string().default(''),
  lead: z.string().min(1),
  type: z.enum(['software', 'business', 'service_desk']).default('software'),
  components: z.array(z.object({ name: z.string().min(1), description: z.string().default(''), lead: z.string().optional() }).strict()).default([]),
  versions: z.array(z.object({ name: z.string().min(1), description: z.string().default(''), released: z.boolean().default(false), archived: z.boolean().default(false), start_date: Day.optional(), release_date: Day.optional() }).strict()).default([]),
}).strict();

export const CommentSchema = z.object({
  author: z.string().min(1),
  body: RichText,
  created: Iso,
}).strict();

export const WorklogSchema = z.object({
  author: z.string().min(1),
  /** Jira's duration notation: `3h 30m`, `1d`, `45m` (a day is 8 hours, a week 5 days). */
  time_spent: z.string().regex(/^\s*(\d+[wdhm]\s*)+$/, 'must be a duration such as 2h 30m'),
  started: Iso,
  comment: z.string().optional(),
}).strict();

export const IssueSchema = z.object({
  key: IssueKey,
  type: z.string().min(1).default('Task'),
  summary: z.string().min(1),
  description: RichText.nullable().default(null),
  /** A status name of the workflow. */
  status: z.string().min(1).default('To Do'),
  /** Defaults to `Done` for an issue in a done status, else none. */
  resolution: z.string().nullable().optional(),
  priority: z.string().min(1).default('Medium'),
  assignee: z.string().nullable().default(null),
  reporter: z.string().min(1),
  labels: z.array(z.string().regex(/^\S+$/, 'labels have no spaces')).default([]),
  components: z.array(z.string()).default([]),
  fix_versions: z.array(z.string()).default([]),
  /** The parent: an epic, or the issue of a subtask. */
  parent: IssueKey.optional(),
  due: Day.optional(),
  created: Iso,
  updated: Iso.optional(),
  /** A sprint by name. */
  sprint: z.string().optional(),
  story_points: z.number().nonnegative().optional(),
  environment: z.string().optional(),
  comments: z.array(CommentSchema).default([]),
  worklogs: z.array(WorklogSchema).default([]),
  watchers: z.array(z.string()).default([]),
  /** Outward links from this issue: `{type: "Blocks", issue: "ENG-3"}` means this issue blocks ENG-3. */
  links: z.array(z.object({ type: z.string().min(1), issue: IssueKey }).strict()).default([]),
}).strict();

export const BoardSchema = z.object({
  id: z.number().int().positive().optional(),
  name: z.string().min(1),
  type: z.enum(['scrum', 'kanban', 'simple']).default('scrum'),
  project: ProjectKey,
}).strict();

export const SprintSchema = z.object({
  id: z.number().int().positive().optional(),
  /** The board by name. */
  board: z.string().min(1),
  name: z.string().min(1),
  state: z.enum(['future', 'active', 'closed']),
  goal: z.string().default(''),
  start: Iso.optional(),
  end: Iso.optional(),
  complete: Iso.optional(),
}).strict();

export const FilterSchema = z.object({
  name: z.string().min(1),
  jql: z.string().min(1),
  owner: z.string().min(1),
  description: z.string().default(''),
  favourite: z.boolean().default(false),
}).strict();

/** Dashboards are answered by the spec fallback (`spec:/rest/api/3/dashboard`): seeded from here. */
export const DashboardSchema = z.object({
  id: z.string().regex(/^\d+$/),
  name: z.string().min(1),
  description: z.string().default(''),
  owner: z.string().min(1),
  favourite: z.boolean().default(false),
}).strict();

export const JiraDatasetSchema = z.object({
  /** The workflow's statuses; default To Do, In Progress, In Review, Done. */
  statuses: z.array(StatusSchema).optional(),
  /** Default: one transition to each status, named after it. */
  transitions: z.array(TransitionSchema).optional(),
  projects: z.array(ProjectSchema).default([]),
  issues: z.array(IssueSchema).default([]),
  boards: z.array(BoardSchema).default([]),
  sprints: z.array(SprintSchema).default([]),
  filters: z.array(FilterSchema).default([]),
  dashboards: z.array(DashboardSchema).default([]),
}).strict();

export type JiraDataset = z.infer<typeof JiraDatasetSchema>;
export type IssueInput = z.infer<typeof IssueSchema>;
