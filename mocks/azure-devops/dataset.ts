import { z } from 'zod';

/**
 * The Azure DevOps dataset (`<scenario>/dataset/azure-devops.json`, and the shared background world
 * in scenarios/baseline/dataset/azure-devops.json): one organization, its users, projects with
 * teams and iterations, work items, Git repositories with pull requests, build pipelines with logs
 * and test results, test plans and wikis. The single source of truth for the format;
 * docs/azure-devops-mock.md describes each part.
 */
const Iso = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/, 'an ISO time in UTC (…Z)');

const User = z.object({
  /** Identity id (a GUID); default: seeded. */
  id: z.string().uuid().optional(),
  displayName: z.string().min(1),
  /** The sign-in name, an e-mail address. */
  uniqueName: z.string().min(1),
}).strict();

const Token = z.object({ token: z.string().min(1), user: z.string().min(1).describe('uniqueName of the acting user') }).strict();

const Iteration = z.object({
  name: z.string().min(1),
  startDate: Iso.nullable().default(null),
  finishDate: Iso.nullable().default(null),
}).strict();

const Team = z.object({
  name: z.string().min(1),
  description: z.string().default(''),
  /** uniqueNames. */
  members: z.array(z.string()).default([]),
  /** Iteration names (under the project's root) the team works in. */
  iterations: z.array(z.string()).default([]),
  /** Area path the team owns (default: the project's root area). */
  areaPath: z.string().optional(),
  /** Capacity per member and iteration: hours a day per activity, days off. */
  capacities: z.array(z.object({
    member: z.string(), iteration: z.string(),
    activities: z.array(z.object({ name: z.string().default(''), capacityPerDay: z.number().min(0) }).strict()).default([]),
  }).strict()).default([]),
}).strict();

const Project = z.object({
  id: z.string().uuid().optional(),
  name: z.string().min(1),
  description: z.string().default(''),
  visibility: z.enum(['private', 'public']).default('private'),
  /** Sub-areas under the project's root area (`Checkout`, `Checkout/Payments`). */
  areas: z.array(z.string()).default([]),
  iterations: z.array(Iteration).default([]),
  /** The first team is the default team; default: one team named `<project> Team`. */
  teams: z.array(Team).default([]),
}).strict();

const Comment = z.object({
  author: z.string(),
  text: z.string(),
  createdDate: Iso,
}).strict();

const WorkItem = z.object({
  id: z.number().int().min(1),
  project: z.string(),
  type: z.enum(['Bug', 'Task', 'User Story', 'Feature', 'Epic', 'Issue', 'Test Case']),
  title: z.string().min(1),
  state: z.string().default('New'),
  reason: z.string().optional(),
  /** uniqueName, or null for unassigned. */
  assignedTo: z.string().nullable().default(null),
  createdBy: z.string(),
  createdDate: Iso,
  changedDate: Iso.optional(),
  /** Relative to the project (`Checkout/Payments`); default: the project's root area. */
  area: z.string().optional(),
  /** An iteration name of the project; default: the project's root iteration. */
  iteration: z.string().optional(),
  tags: z.array(z.string()).default([]),
  description: z.string().optional(),
  reproSteps: z.string().optional(),
  priority: z.number().int().min(1).max(4).optional(),
  severity: z.enum(['1 - Critical', '2 - High', '3 - Medium', '4 - Low']).optional(),
  storyPoints: z.number().optional(),
  /** Any other field by reference name (`Custom.Service`). */
  fields: z.record(z.union([z.string(), z.number(), z.boolean()])).default({}),
  parent: z.number().int().optional(),
  related: z.array(z.number().int()).default([]),
  comments: z.array(Comment).default([]),
}).strict();

const SavedQuery = z.object({
  project: z.string(),
  /** Folder path under the project's root (`Shared Queries/Triage`). */
  folder: z.string().default('Shared Queries'),
  name: z.string().min(1),
  wiql: z.string().min(1),
}).strict();

const FileMap = z.record(z.string());

const Repository = z.object({
  id: z.string().uuid().optional(),
  project: z.string(),
  name: z.string().min(1),
  defaultBranch: z.string().default('main'),
  isDisabled: z.boolean().default(false),
  /** Branch name → commit SHA and the files at that commit. */
  branches: z.array(z.object({
    name: z.string().min(1),
    commit: z.string().regex(/^[0-9a-f]{40}$/).optional(),
    author: z.string().optional(),
    message: z.string().default('Initial commit'),
    date: Iso.optional(),
    files: FileMap.default({}),
  }).strict()).default([]),
  tags: z.array(z.object({ name: z.string(), branch: z.string() }).strict()).default([]),
}).strict();

const Thread = z.object({
  status: z.enum(['active', 'fixed', 'wontFix', 'closed', 'byDesign', 'pending']).default('active'),
  filePath: z.string().optional(),
  line: z.number().int().optional(),
  comments: z.array(z.object({ author: z.string(), content: z.string(), publishedDate: Iso }).strict()).min(1),
}).strict();

const PullRequest = z.object({
  id: z.number().int().min(1),
  repository: z.string().describe('repository name'),
  project: z.string(),
  title: z.string(),
  description: z.string().default(''),
  source: z.string(),
  target: z.string(),
  status: z.enum(['active', 'completed', 'abandoned']).default('active'),
  isDraft: z.boolean().default(false),
  createdBy: z.string(),
  creationDate: Iso,
  closedDate: Iso.optional(),
  reviewers: z.array(z.object({ user: z.string(), vote: z.number().int().min(-10).max(10).default(0), isRequired: z.boolean().default(false) }).strict()).default([]),
  labels: z.array(z.string()).default([]),
  workItems: z.array(z.number().int()).default([]),
  /** Files the PR changes (its one iteration). */
  changes: z.array(z.object({ path: z.string(), changeType: z.enum(['add', 'edit', 'delete']).default('edit') }).strict()).default([]),
  threads: z.array(Thread).default([]),
}).strict();

const Definition = z.object({
  id: z.number().int().min(1),
  project: z.string(),
  name: z.string().min(1),
  path: z.string().default('\\'),
  repository: z.string(),
  yamlPath: z.string().default('azure-pipelines.yml'),
  revision: z.number().int().min(1).default(1),
}).strict();

const TestResult = z.object({
  name: z.string(),
  automatedTestName: z.string().optional(),
  outcome: z.enum(['Passed', 'Failed', 'NotExecuted', 'Aborted']),
  errorMessage: z.string().optional(),
  stackTrace: z.string().optional(),
  durationInMs: z.number().default(100),
}).strict();

const Build = z.object({
  id: z.number().int().min(1),
  project: z.string(),
  definition: z.number().int(),
  buildNumber: z.string(),
  status: z.enum(['completed', 'inProgress', 'notStarted', 'cancelling']).default('completed'),
  result: z.enum(['succeeded', 'partiallySucceeded', 'failed', 'canceled']).nullable().default(null),
  sourceBranch: z.string(),
  sourceVersion: z.string().regex(/^[0-9a-f]{40}$/).optional(),
  reason: z.enum(['manual', 'individualCI', 'batchedCI', 'schedule', 'pullRequest']).default('individualCI'),
  requestedFor: z.string(),
  queueTime: Iso,
  startTime: Iso.optional(),
  finishTime: Iso.optional(),
  tags: z.array(z.string()).default([]),
  /** Logs by id (1 = the whole job log); each is its lines. */
  logs: z.array(z.array(z.string())).default([]),
  changes: z.array(z.object({ id: z.string(), message: z.string(), author: z.string() }).strict()).default([]),
  artifacts: z.array(z.object({ name: z.string(), files: FileMap.default({}) }).strict()).default([]),
  stages: z.array(z.object({ name: z.string(), result: z.string().default('succeeded') }).strict()).default([]),
  tests: z.array(TestResult).default([]),
}).strict();

const TestPlan = z.object({
  id: z.number().int().min(1),
  project: z.string(),
  name: z.string(),
  iteration: z.string().optional(),
  state: z.enum(['Active', 'Inactive']).default('Active'),
  suites: z.array(z.object({ id: z.number().int().min(1), name: z.string(), testCases: z.array(z.number().int()).default([]) }).strict()).default([]),
}).strict();

const Wiki = z.object({
  id: z.string().uuid().optional(),
  project: z.string(),
  name: z.string(),
  type: z.enum(['projectWiki', 'codeWiki']).default('projectWiki'),
  /** Page path (`/Runbooks/Payments`) → markdown. */
  pages: FileMap.default({}),
}).strict();

const Alert = z.object({
  id: z.number().int().min(1),
  project: z.string(),
  repository: z.string(),
  alertType: z.enum(['code', 'secret', 'dependency']),
  severity: z.enum(['critical', 'high', 'medium', 'low', 'note']),
  state: z.enum(['active', 'dismissed', 'fixed']).default('active'),
  title: z.string(),
  ruleName: z.string(),
  filePath: z.string(),
  line: z.number().int().default(1),
  firstSeenDate: Iso,
}).strict();

export const AzureDevopsDatasetSchema = z.object({
  organization: z.object({
    name: z.string().min(1).default('contoso'),
    /** The Entra tenant the organization belongs to (X-VSS-ResourceTenant). */
    tenantId: z.string().uuid().default('72f988bf-86f1-41af-91ab-2d7cd011db47'),
  }).strict().default({}),
  tokens: z.array(Token).default([]),
  users: z.array(User).default([]),
  projects: z.array(Project).default([]),
  work_items: z.array(WorkItem).default([]),
  queries: z.array(SavedQuery).default([]),
  repositories: z.array(Repository).default([]),
  pull_requests: z.array(PullRequest).default([]),
  definitions: z.array(Definition).default([]),
  builds: z.array(Build).default([]),
  test_plans: z.array(TestPlan).default([]),
  wikis: z.array(Wiki).default([]),
  alerts: z.array(Alert).default([]),
}).strict();
export type AzureDevopsDataset = z.infer<typeof AzureDevopsDatasetSchema>;
export type DatasetWorkItem = z.infer<typeof WorkItem>;
export type DatasetBuild = z.infer<typeof Build>;
