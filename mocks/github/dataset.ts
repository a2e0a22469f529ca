import { z } from 'zod';

/**
 * The schema of `<scenario>/dataset/github.json`. Every list defaults to empty, so a missing file
 * (parsed as `{}`) is an empty GitHub. Objects are strict: a misspelt key is an error, not a
 * silently ignored field. Timestamps are ISO 8601; a missing one is derived from the epoch.
 */
const Login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/, 'not a GitHub login');
const RepoName = z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, 'not a repository name');
const Timestamp = z.string().datetime({ offset: true });
const Permission = z.enum(['read', 'triage', 'write', 'maintain', 'admin']);

const TokenSchema = z.union([
  z.string().min(1),
  z.object({ token: z.string().min(1), scopes: z.array(z.string()).optional() }).strict(),
]);

export const UserSchema = z.object({
  login: Login,
  id: z.number().int().positive().optional(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  company: z.string().nullable().optional(),
  blog: z.string().optional(),
  location: z.string().nullable().optional(),
  bio: z.string().nullable().optional(),
  twitter_username: z.string().nullable().optional(),
  hireable: z.boolean().nullable().optional(),
  site_admin: z.boolean().optional(),
  followers: z.number().int().nonnegative().optional(),
  following: z.number().int().nonnegative().optional(),
  created_at: Timestamp.optional(),
  /** Personal access tokens (`ghp_…`); a bare string gets the scopes `repo, read:org, user`. */
  tokens: z.array(TokenSchema).default([]),
}).strict();

export const OrgSchema = z.object({
  login: Login,
  id: z.number().int().positive().optional(),
  name: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  blog: z.string().optional(),
  location: z.string().nullable().optional(),
  created_at: Timestamp.optional(),
  /** A bare login is a `member`. */
  members: z.array(z.union([Login, z.object({ login: Login, role: z.enum(['admin', 'member']) }).strict()])).default([]),
  /** What members may do in every repository of the org (GitHub's default is `read`). */
  default_repository_permission: z.enum(['none', 'read', 'write', 'admin']).default('read'),
  members_can_create_repositories: z.boolean().default(true),
}).strict();

/** A file's new content: text, `{base64}` for bytes, `{content, mode}` for an executable; null deletes. */
const FileChange = z.union([
  z.string(),
  z.object({ base64: z.string() }).strict(),
  z.object({ content: z.string(), mode: z.enum(['100644', '100755']) }).strict(),
  z.null(),
]);
const PersonSchema = z.union([Login, z.object({ name: z.string(), email: z.string() }).strict()]);

/** A commit on `branch` (created from `from`, or as a root, the first time it is named). */
export const CommitEntrySchema = z.object({
  branch: z.string().min(1),
  from: z.string().optional(),
  message: z.string().min(1),
  author: PersonSchema.optional(),
  committer: PersonSchema.optional(),
  date: Timestamp.optional(),
  files: z.record(FileChange).default({}),
}).strict();

/** A branch pointing where `from` (a branch) points at that moment of the history. */
export const BranchEntrySchema = z.object({ branch: z.string().min(1), from: z.string().min(1) }).strict();

const CommentSchema = z.object({
  id: z.number().int().positive().optional(),
  user: Login,
  body: z.string(),
  created_at: Timestamp.optional(),
  updated_at: Timestamp.optional(),
}).strict();

export const IssueSchema = z.object({
  number: z.number().int().positive().optional(),
  id: z.number().int().positive().optional(),
  title: z.string().min(1),
  body: z.string().nullable().optional(),
  user: Login,
  labels: z.array(z.string()).default([]),
  assignees: z.array(Login).default([]),
  milestone: z.number().int().positive().nullable().optional(),
  state: z.enum(['open', 'closed']).default('open'),
  state_reason: z.enum(['completed', 'not_planned', 'reopened', 'duplicate']).nullable().optional(),
  locked: z.boolean().default(false),
  created_at: Timestamp.optional(),
  updated_at: Timestamp.optional(),
  closed_at: Timestamp.optional(),
  closed_by: Login.optional(),
  comments: z.array(CommentSchema).default([]),
}).strict();

const ReviewSchema = z.object({
  user: Login,
  state: z.enum(['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED']),
  body: z.string().default(''),
  submitted_at: Timestamp.optional(),
}).strict();

const ReviewCommentSchema = z.object({
  user: Login,
  path: z.string(),
  line: z.number().int().positive(),
  body: z.string(),
  created_at: Timestamp.optional(),
}).strict();

export const PullSchema = z.object({
  number: z.number().int().positive().optional(),
  id: z.number().int().positive().optional(),
  title: z.string().min(1),
  body: z.string().nullable().optional(),
  user: Login,
  /** `branch` in this repository, or `owner:branch` for a branch of a fork. */
  head: z.string().min(1),
  base: z.string().min(1),
  state: z.enum(['open', 'closed']).default('open'),
  draft: z.boolean().default(false),
  labels: z.array(z.string()).default([]),
  assignees: z.array(Login).default([]),
  requested_reviewers: z.array(Login).default([]),
  milestone: z.number().int().positive().nullable().optional(),
  created_at: Timestamp.optional(),
  updated_at: Timestamp.optional(),
  closed_at: Timestamp.optional(),
  comments: z.array(CommentSchema).default([]),
  reviews: z.array(ReviewSchema).default([]),
  review_comments: z.array(ReviewCommentSchema).default([]),
}).strict();

const LabelSchema = z.object({
  name: z.string().min(1),
  color: z.string().regex(/^[0-9a-fA-F]{6}$/).default('ededed'),
  description: z.string().nullable().default(null),
  default: z.boolean().default(false),
}).strict();

const MilestoneSchema = z.object({
  number: z.number().int().positive().optional(),
  title: z.string().min(1),
  description: z.string().nullable().default(null),
  state: z.enum(['open', 'closed']).default('open'),
  due_on: Timestamp.nullable().default(null),
  creator: Login.optional(),
  created_at: Timestamp.optional(),
}).strict();

const StatusSchema = z.object({
  /** A branch name or a commit SHA. */
  ref: z.string().min(1),
  state: z.enum(['error', 'failure', 'pending', 'success']),
  context: z.string().default('default'),
  description: z.string().nullable().default(null),
  target_url: z.string().nullable().default(null),
  creator: Login.optional(),
  created_at: Timestamp.optional(),
}).strict();

export const RepoSchema = z.object({
  owner: Login,
  name: RepoName,
  id: z.number().int().positive().optional(),
  description: z.string().nullable().default(null),
  homepage: z.string().nullable().default(null),
  private: z.boolean().default(false),
  default_branch: z.string().default('main'),
  topics: z.array(z.string()).default([]),
  language: z.string().nullable().default(null),
  /** An SPDX-like key GitHub knows (`mit`, `apache-2.0`, …). */
  license: z.string().nullable().default(null),
  /** `owner/name` of a repository defined earlier in the list: this one is its fork. */
  fork_of: z.string().optional(),
  has_issues: z.boolean().default(true),
  has_wiki: z.boolean().default(true),
  has_projects: z.boolean().default(true),
  archived: z.boolean().default(false),
  allow_forking: z.boolean().default(true),
  stargazers_count: z.number().int().nonnegative().default(0),
  created_at: Timestamp.optional(),
  /** A bare login gets `write`. */
  collaborators: z.array(z.union([Login, z.object({ login: Login, permission: Permission }).strict()])).default([]),
  /** The history, in order: commits and branch creations. */
  commits: z.array(z.union([CommitEntrySchema, BranchEntrySchema])).default([]),
  labels: z.array(LabelSchema).default([]),
  milestones: z.array(MilestoneSchema).default([]),
  issues: z.array(IssueSchema).default([]),
  pulls: z.array(PullSchema).default([]),
  statuses: z.array(StatusSchema).default([]),
}).strict();

export const RateLimitsSchema = z.object({
  core: z.number().int().positive().default(5000),
  search: z.number().int().positive().default(30),
  anonymous_core: z.number().int().positive().default(60),
  anonymous_search: z.number().int().positive().default(10),
}).strict();

export const GitHubDatasetSchema = z.object({
  users: z.array(UserSchema).default([]),
  orgs: z.array(OrgSchema).default([]),
  repos: z.array(RepoSchema).default([]),
  rate_limits: RateLimitsSchema.default({}),
}).strict();

export type GitHubDataset = z.infer<typeof GitHubDatasetSchema>;
export type UserData = z.infer<typeof UserSchema>;
export type OrgData = z.infer<typeof OrgSchema>;
export type RepoData = z.infer<typeof RepoSchema>;
export type CommitEntry = z.infer<typeof CommitEntrySchema>;
export type IssueData = z.infer<typeof IssueSchema>;
export type PullData = z.infer<typeof PullSchema>;
export type PersonData = z.infer<typeof PersonSchema>;
export type FileChangeData = z.infer<typeof FileChange>;
export type RateLimits = z.infer<typeof RateLimitsSchema>;
