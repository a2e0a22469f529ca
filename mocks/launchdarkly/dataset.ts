import { z } from 'zod';

/**
 * The LaunchDarkly world a scenario starts from (`<scenario>/dataset/launchdarkly.json`): access
 * tokens, projects with their environments, feature flags with per-environment targeting, AI
 * configs, code-reference repositories and audit-log entries. Every field has a default; a
 * missing file is `{}`.
 */

const Json: z.ZodType<unknown> = z.unknown();

export const ClauseSchema = z.object({
  attribute: z.string().min(1),
  op: z.string().min(1),
  values: z.array(Json),
  contextKind: z.string().default('user'),
  negate: z.boolean().default(false),
}).strict();

export const RuleSchema = z.object({
  _id: z.string().optional(),
  description: z.string().optional(),
  clauses: z.array(ClauseSchema).default([]),
  variation: z.number().int().min(0).optional(),
  trackEvents: z.boolean().default(false),
}).strict();

export const TargetSchema = z.object({
  values: z.array(z.string()),
  variation: z.number().int().min(0),
  contextKind: z.string().optional(),
}).strict();

export const FlagEnvSchema = z.object({
  on: z.boolean().default(false),
  offVariation: z.number().int().min(0).optional(),
  fallthrough: z.object({ variation: z.number().int().min(0) }).strict().optional(),
  targets: z.array(TargetSchema).default([]),
  rules: z.array(RuleSchema).default([]),
  /** When an SDK last evaluated the flag here (ISO time); absent: never (status `new`/`inactive`). */
  lastRequested: z.string().datetime().optional(),
}).strict();

export const VariationSchema = z.object({
  _id: z.string().optional(),
  value: Json,
  name: z.string().optional(),
  description: z.string().optional(),
}).strict();

export const FlagSchema = z.object({
  project: z.string().min(1),
  key: z.string().min(1),
  name: z.string().min(1),
  description: z.string().default(''),
  kind: z.enum(['boolean', 'multivariate']).default('boolean'),
  variations: z.array(VariationSchema).min(2).optional(),
  tags: z.array(z.string()).default([]),
  temporary: z.boolean().default(true),
  archived: z.boolean().default(false),
  deprecated: z.boolean().default(false),
  maintainerId: z.string().optional(),
  /** Days before the scenario's epoch the flag was created. */
  createdDaysAgo: z.number().int().min(0).default(30),
  /** By environment key; environments of the project the flag does not name get the defaults. */
  environments: z.record(FlagEnvSchema).default({}),
}).strict();

export const EnvironmentSchema = z.object({
  key: z.string().min(1),
  name: z.string().min(1),
  color: z.string().regex(/^[0-9a-fA-F]{6}$/).default('417505'),
  critical: z.boolean().default(false),
  tags: z.array(z.string()).default([]),
  requireComments: z.boolean().default(false),
  confirmChanges: z.boolean().default(false),
}).strict();

export const ProjectSchema = z.object({
  key: z.string().min(1),
  name: z.string().min(1),
  tags: z.array(z.string()).default([]),
  environments: z.array(EnvironmentSchema).min(1),
}).strict();

export const AiVariationSchema = z.object({
  key: z.string().min(1),
  name: z.string().min(1),
  model: z.record(Json).default({}),
  modelConfigKey: z.string().optional(),
  instructions: z.string().optional(),
  messages: z.array(z.object({ content: z.string(), role: z.string() }).strict()).optional(),
}).strict();

export const AiConfigSchema = z.object({
  project: z.string().min(1),
  key: z.string().min(1),
  name: z.string().min(1),
  description: z.string().default(''),
  mode: z.enum(['agent', 'completion', 'judge']).default('completion'),
  tags: z.array(z.string()).default([]),
  variations: z.array(AiVariationSchema).default([]),
}).strict();

export const RepositorySchema = z.object({
  name: z.string().min(1),
  type: z.enum(['bitbucket', 'custom', 'github', 'gitlab']).default('github'),
  defaultBranch: z.string().default('main'),
  enabled: z.boolean().default(true),
  sourceLink: z.string().optional(),
}).strict();

export const AuditEntrySchema = z.object({
  kind: z.string().min(1),
  name: z.string().min(1),
  description: z.string(),
  /** Minutes before the scenario's epoch. */
  minutesAgo: z.number().int().min(0).default(60),
  member: z.string().email().optional(),
}).strict();

export const MemberSchema = z.object({
  _id: z.string().regex(/^[0-9a-f]{24}$/),
  email: z.string().email(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  role: z.string().default('writer'),
}).strict();

export const LaunchDarklyDatasetSchema = z.object({
  /** API access tokens (`api-…`) the `Authorization` header may carry; `reader` tokens cannot write. */
  tokens: z.array(z.object({ token: z.string().min(1), role: z.enum(['reader', 'writer', 'admin']).default('writer') }).strict()).default([]),
  members: z.array(MemberSchema).default([]),
  projects: z.array(ProjectSchema).default([]),
  flags: z.array(FlagSchema).default([]),
  aiConfigs: z.array(AiConfigSchema).default([]),
  repositories: z.array(RepositorySchema).default([]),
  auditLog: z.array(AuditEntrySchema).default([]),
}).strict();
export type LaunchDarklyDataset = z.infer<typeof LaunchDarklyDatasetSchema>;
export type FlagInput = z.infer<typeof FlagSchema>;
export type FlagEnvInput = z.infer<typeof FlagEnvSchema>;
export type RuleInput = z.infer<typeof RuleSchema>;
export type TargetInput = z.infer<typeof TargetSchema>;
