import { z } from 'zod';

/**
 * `<scenario>/dataset/gitlab.json`: one GitLab instance (users, groups, projects with their
 * repositories, issues, merge requests, pipelines and jobs, labels, milestones, wiki pages).
 * Every field has a default, so a missing file is an empty instance. Numeric ids the dataset
 * gives are reserved, so ids the world makes come after them.
 */

const Username = z.string().min(1);
const Iso = z.string().datetime();

export const UserSchema = z.object({
  id: z.number().int().positive(),
  username: Username,
  name: z.string().min(1),
  email: z.string().email().optional(),
  state: z.enum(['active', 'blocked', 'deactivated']).default('active'),
  bot: z.boolean().default(false),
}).strict();

export const TokenSchema = z.object({
  token: z.string().min(1),
  /** The user the personal access token belongs to. */
  user: Username,
  scopes: z.array(z.string()).default(['api']),
}).strict();

export const GroupSchema = z.object({
  id: z.number().int().positive(),
  /** The full path (`acme`, `acme/platform`): a parent is the path before the last `/`. */
  full_path: z.string().min(1),
  name: z.string().min(1).optional(),
  description: z.string().default(''),
  visibility: z.enum(['private', 'internal', 'public']).default('private'),
  members: z.array(z.object({ user: Username, access_level: z.number().int().default(30) }).strict()).default([]),
}).strict();

/** One commit: the files it changes (`null` deletes a file) on top of its parent's tree. */
export const CommitSchema = z.object({
  /** 40 hex digits; default: derived from the project, message and parent. */
  id: z.string().regex(/^[0-9a-f]{40}$/).optional(),
  /** The branches this commit is the new head of (later commits move them on). */
  branches: z.array(z.string().min(1)).default([]),
  /** Parent commit; default: the head of `from`, else of the first of `branches` so far, else the previous commit. */
  parent: z.string().regex(/^[0-9a-f]{40}$/).nullable().optional(),
  /** A branch whose head so far is the parent (a new branch forks from it). */
  from: z.string().min(1).optional(),
  message: z.string().min(1),
  author: Username,
  at: Iso.optional(),
  files: z.record(z.string().nullable()).default({}),
}).strict();

export const PositionSchema = z.object({
  new_path: z.string(),
  old_path: z.string().optional(),
  new_line: z.number().int().nullable().default(null),
  old_line: z.number().int().nullable().default(null),
}).strict();

export const NoteSchema = z.object({
  author: Username,
  body: z.string().min(1),
  at: Iso.optional(),
  system: z.boolean().default(false),
  internal: z.boolean().default(false),
}).strict();

/** A thread: its first note, replies, and for a merge request a position on its diff. */
export const DiscussionSchema = NoteSchema.extend({
  replies: z.array(NoteSchema).default([]),
  position: PositionSchema.optional(),
  resolvable: z.boolean().default(false),
  resolved: z.boolean().default(false),
}).strict();

export const IssueSchema = z.object({
  iid: z.number().int().positive(),
  title: z.string().min(1),
  description: z.string().default(''),
  state: z.enum(['opened', 'closed']).default('opened'),
  author: Username,
  assignees: z.array(Username).default([]),
  labels: z.array(z.string()).default([]),
  milestone: z.string().optional(),
  confidential: z.boolean().default(false),
  issue_type: z.enum(['issue', 'incident', 'test_case', 'task']).default('issue'),
  due_date: z.string().nullable().default(null),
  weight: z.number().int().nullable().default(null),
  at: Iso.optional(),
  closed_at: Iso.optional(),
  discussions: z.array(DiscussionSchema).default([]),
}).strict();

export const MergeRequestSchema = z.object({
  iid: z.number().int().positive(),
  title: z.string().min(1),
  description: z.string().default(''),
  state: z.enum(['opened', 'closed', 'merged']).default('opened'),
  source_branch: z.string().min(1),
  target_branch: z.string().min(1),
  author: Username,
  assignees: z.array(Username).default([]),
  reviewers: z.array(Username).default([]),
  labels: z.array(z.string()).default([]),
  milestone: z.string().optional(),
  draft: z.boolean().default(false),
  approvals_required: z.number().int().min(0).default(0),
  approved_by: z.array(Username).default([]),
  /** Merged merge requests: the commit their merge made on the target branch. */
  merge_commit_sha: z.string().regex(/^[0-9a-f]{40}$/).optional(),
  merged_by: Username.optional(),
  at: Iso.optional(),
  merged_at: Iso.optional(),
  discussions: z.array(DiscussionSchema).default([]),
}).strict();

export const JobSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  stage: z.string().default('test'),
  status: z.enum(['created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual']),
  /** The job log (what /trace answers). */
  log: z.string().default(''),
  failure_reason: z.string().optional(),
  allow_failure: z.boolean().default(false),
  duration: z.number().nonnegative().optional(),
  when: z.enum(['on_success', 'manual', 'always']).default('on_success'),
}).strict();

export const PipelineSchema = z.object({
  id: z.number().int().positive(),
  iid: z.number().int().positive().optional(),
  ref: z.string().min(1),
  /** The commit; default: the head of `ref`. */
  sha: z.string().regex(/^[0-9a-f]{40}$/).optional(),
  status: z.enum(['created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual']),
  source: z.enum(['push', 'web', 'api', 'merge_request_event', 'schedule', 'trigger']).default('push'),
  user: Username,
  at: Iso.optional(),
  duration: z.number().nonnegative().optional(),
  jobs: z.array(JobSchema).default([]),
  variables: z.array(z.object({ key: z.string(), value: z.string() }).strict()).default([]),
}).strict();

export const LabelSchema = z.object({
  id: z.number().int().positive().optional(),
  name: z.string().min(1),
  color: z.string().default('#6699cc'),
  description: z.string().nullable().default(null),
}).strict();

export const MilestoneSchema = z.object({
  id: z.number().int().positive().optional(),
  iid: z.number().int().positive(),
  title: z.string().min(1),
  description: z.string().default(''),
  state: z.enum(['active', 'closed']).default('active'),
  due_date: z.string().nullable().default(null),
  start_date: z.string().nullable().default(null),
}).strict();

export const WikiPageSchema = z.object({
  slug: z.string().min(1),
  title: z.string().min(1),
  content: z.string().default(''),
  format: z.enum(['markdown', 'rdoc', 'asciidoc', 'org']).default('markdown'),
}).strict();

export const ProjectSchema = z.object({
  id: z.number().int().positive(),
  /** The namespace's full path: a group's or a user's username. */
  namespace: z.string().min(1),
  path: z.string().min(1),
  name: z.string().min(1).optional(),
  description: z.string().default(''),
  default_branch: z.string().default('main'),
  visibility: z.enum(['private', 'internal', 'public']).default('private'),
  archived: z.boolean().default(false),
  topics: z.array(z.string()).default([]),
  only_allow_merge_if_pipeline_succeeds: z.boolean().default(false),
  members: z.array(z.object({ user: Username, access_level: z.number().int().default(30) }).strict()).default([]),
  protected_branches: z.array(z.string()).default([]),
  commits: z.array(CommitSchema).default([]),
  tags: z.array(z.object({ name: z.string().min(1), commit: z.string().regex(/^[0-9a-f]{40}$/).optional(), branch: z.string().optional(), message: z.string().default('') }).strict()).default([]),
  issues: z.array(IssueSchema).default([]),
  merge_requests: z.array(MergeRequestSchema).default([]),
  pipelines: z.array(PipelineSchema).default([]),
  labels: z.array(LabelSchema).default([]),
  milestones: z.array(MilestoneSchema).default([]),
  wiki: z.array(WikiPageSchema).default([]),
  variables: z.array(z.object({ key: z.string().min(1), value: z.string(), protected: z.boolean().default(false), masked: z.boolean().default(false) }).strict()).default([]),
}).strict();

export const GitlabDatasetSchema = z.object({
  users: z.array(UserSchema).default([]),
  tokens: z.array(TokenSchema).default([]),
  groups: z.array(GroupSchema).default([]),
  projects: z.array(ProjectSchema).default([]),
  /** Records of the long-tail collections (`/projects/:id/hooks` …), by collection name (tail.ts). */
  records: z.record(z.array(z.record(z.unknown()))).default({}),
}).strict();

export type GitlabDataset = z.infer<typeof GitlabDatasetSchema>;
export type ProjectData = z.infer<typeof ProjectSchema>;
export type DiscussionData = z.infer<typeof DiscussionSchema>;
export type NoteData = z.infer<typeof NoteSchema>;
