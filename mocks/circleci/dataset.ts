import { z } from 'zod';

/**
 * `<scenario>/dataset/circleci.json`: one CircleCI organization, its projects (followed by the
 * token's user), their pipelines with workflows, jobs (steps with output, test results,
 * artifacts), flaky-test insights, deploy environments, components and versions, and the usage
 * rows an export returns. A missing file is an empty organization.
 */

const Step = z.object({
  name: z.string().min(1),
  status: z.enum(['success', 'failed', 'canceled', 'running']).default('success'),
  /** What the step printed (stdout); `error` is its stderr. */
  output: z.string().default(''),
  error: z.string().default(''),
  exit_code: z.number().int().nullable().optional(),
}).strict();

const TestResult = z.object({
  classname: z.string(),
  name: z.string(),
  file: z.string().optional(),
  result: z.enum(['success', 'failure', 'skipped']),
  message: z.string().default(''),
  run_time: z.number().nonnegative().default(0.1),
}).strict();

const Job = z.object({
  name: z.string().min(1),
  number: z.number().int().positive(),
  status: z.enum(['success', 'failed', 'running', 'not_run', 'canceled', 'blocked', 'queued', 'on_hold']),
  started_at: z.string().nullable().default(null),
  stopped_at: z.string().nullable().default(null),
  resource_class: z.string().default('medium'),
  parallelism: z.number().int().positive().default(1),
  steps: z.array(Step).default([]),
  tests: z.array(TestResult).default([]),
  artifacts: z.array(z.object({ path: z.string().min(1), content: z.string().default('') }).strict()).default([]),
}).strict();

const Workflow = z.object({
  name: z.string().min(1),
  status: z.enum(['success', 'running', 'not_run', 'failed', 'error', 'failing', 'on_hold', 'canceled', 'unauthorized']),
  created_at: z.string(),
  stopped_at: z.string().nullable().default(null),
  jobs: z.array(Job).default([]),
}).strict();

const Pipeline = z.object({
  project: z.string().min(1),
  number: z.number().int().positive(),
  branch: z.string().min(1),
  revision: z.string().regex(/^[0-9a-f]{40}$/),
  commit_subject: z.string().default(''),
  actor: z.string().default('ci-bot'),
  created_at: z.string(),
  workflows: z.array(Workflow).default([]),
}).strict();

export const CircleciDatasetSchema = z.object({
  tokens: z.array(z.object({ token: z.string().min(1), login: z.string().min(1) }).strict()).default([]),
  organization: z.object({
    name: z.string().min(1).default('acme'),
    vcs_type: z.enum(['github', 'bitbucket', 'circleci']).default('github'),
  }).strict().default({}),
  projects: z.array(z.object({
    /** `storefront` → slug `gh/<org>/storefront`. */
    name: z.string().min(1),
    default_branch: z.string().default('main'),
    followed: z.boolean().default(true),
    pipeline_definitions: z.array(z.string().min(1)).default(['build-and-test']),
    rollback_pipeline: z.boolean().default(false),
  }).strict()).default([]),
  pipelines: z.array(Pipeline).default([]),
  flaky_tests: z.array(z.object({
    project: z.string(),
    classname: z.string(),
    test_name: z.string(),
    file: z.string().default(''),
    job_name: z.string(),
    job_number: z.number().int().positive(),
    workflow_name: z.string(),
    pipeline_number: z.number().int().positive(),
    times_flaked: z.number().int().positive(),
    time_wasted: z.number().int().nonnegative().default(0),
  }).strict()).default([]),
  environments: z.array(z.object({ name: z.string().min(1), description: z.string().default('') }).strict()).default([]),
  components: z.array(z.object({
    name: z.string().min(1),
    project: z.string().min(1),
    versions: z.array(z.object({
      name: z.string().min(1),
      environment: z.string().min(1),
      is_live: z.boolean(),
      job_number: z.number().int().positive(),
      deployed_at: z.string(),
    }).strict()).default([]),
  }).strict()).default([]),
  /** Rows of the usage export (one per job run), as the CSV lists them. */
  usage: z.array(z.record(z.union([z.string(), z.number()]))).default([]),
}).strict();

export type CircleciDataset = z.infer<typeof CircleciDatasetSchema>;
