import { z } from 'zod';

/**
 * A Linear workspace as a scenario writes it: people by email, teams by key, states, labels,
 * projects and cycles by name or number, issues by `TEAM-n`. The loader turns it into Linear's
 * records (UUIDs from the seed) in collections named after Linear's types (`Issue`, `Team`, …).
 */
const email = z.string().email();
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/, 'an ISO date (2025-01-31 or 2025-01-31T12:00:00Z)');

export const StateTypeSchema = z.enum(['triage', 'backlog', 'unstarted', 'started', 'completed', 'canceled']);

const UserSchema = z.object({
  name: z.string().min(1),
  display_name: z.string().optional(),
  email,
  admin: z.boolean().default(false),
  active: z.boolean().default(true),
  /** Personal API keys (`lin_api_…`, sent as `Authorization: <key>`) and OAuth tokens (sent as `Bearer`). */
  api_keys: z.array(z.string().min(1)).default([]),
}).strict();

const StateSchema = z.object({ name: z.string().min(1), type: StateTypeSchema, color: z.string().default('#bec2c8'), description: z.string().optional() }).strict();

const CycleSchema = z.object({ number: z.number().int().positive(), name: z.string().optional(), starts_at: date, ends_at: date, description: z.string().optional() }).strict();

const TeamSchema = z.object({
  key: z.string().regex(/^[A-Z][A-Z0-9]{0,6}$/, 'a team key like ENG'),
  name: z.string().min(1),
  description: z.string().optional(),
  /** Members by email; the first is the team's owner in listings. */
  members: z.array(email).default([]),
  /** The workflow; default Linear's: Backlog, Todo, In Progress, In Review, Done, Canceled, Duplicate. */
  states: z.array(StateSchema).optional(),
  cycles: z.array(CycleSchema).default([]),
}).strict();

const LabelSchema = z.object({
  name: z.string().min(1),
  color: z.string().default('#95a2b3'),
  description: z.string().optional(),
  /** A team's label by the team's key; without it a workspace label. */
  team: z.string().optional(),
}).strict();

const MilestoneSchema = z.object({ name: z.string().min(1), description: z.string().optional(), target_date: date.optional() }).strict();

const ProjectSchema = z.object({
  name: z.string().min(1),
  description: z.string().default(''),
  content: z.string().optional(),
  teams: z.array(z.string()).min(1),
  lead: email.optional(),
  members: z.array(email).default([]),
  state: z.enum(['backlog', 'planned', 'started', 'paused', 'completed', 'canceled']).default('planned'),
  start_date: date.optional(),
  target_date: date.optional(),
  priority: z.number().int().min(0).max(4).default(0),
  milestones: z.array(MilestoneSchema).default([]),
}).strict();

const CommentSchema = z.object({ user: email, body: z.string().min(1), created_at: date.optional() }).strict();

const IssueSchema = z.object({
  team: z.string(),
  /** The issue's number in its team (`ENG-12`); default the next one. */
  number: z.number().int().positive().optional(),
  title: z.string().min(1),
  description: z.string().optional(),
  /** A state of the team by name; default the team's first backlog (or unstarted) state. */
  state: z.string().optional(),
  priority: z.number().int().min(0).max(4).default(0),
  estimate: z.number().optional(),
  assignee: email.optional(),
  creator: email.optional(),
  labels: z.array(z.string()).default([]),
  project: z.string().optional(),
  milestone: z.string().optional(),
  cycle: z.number().int().positive().optional(),
  /** The parent issue by identifier (`ENG-3`). */
  parent: z.string().optional(),
  due_date: date.optional(),
  created_at: date.optional(),
  subscribers: z.array(email).default([]),
  comments: z.array(CommentSchema).default([]),
}).strict();

const DocumentSchema = z.object({ title: z.string().min(1), content: z.string().default(''), project: z.string().optional(), creator: email.optional(), icon: z.string().optional() }).strict();

const InitiativeSchema = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  owner: email.optional(),
  status: z.enum(['Planned', 'Active', 'Completed']).default('Planned'),
  target_date: date.optional(),
  projects: z.array(z.string()).default([]),
}).strict();

const CustomerSchema = z.object({
  name: z.string().min(1),
  domains: z.array(z.string()).default([]),
  revenue: z.number().optional(),
  size: z.number().optional(),
  owner: email.optional(),
  /** Requests: issues by identifier, with what the customer said. */
  needs: z.array(z.object({ issue: z.string().optional(), project: z.string().optional(), body: z.string().optional(), priority: z.number().int().min(0).max(1).default(0) }).strict()).default([]),
}).strict();

const RelationSchema = z.object({ issue: z.string(), related: z.string(), type: z.enum(['blocks', 'duplicate', 'related', 'similar']).default('related') }).strict();

export const LinearDatasetSchema = z.object({
  organization: z.object({ name: z.string().min(1), url_key: z.string().regex(/^[a-z0-9-]+$/) }).strict().default({ name: 'Acme', url_key: 'acme' }),
  users: z.array(UserSchema).default([]),
  teams: z.array(TeamSchema).default([]),
  labels: z.array(LabelSchema).default([]),
  projects: z.array(ProjectSchema).default([]),
  issues: z.array(IssueSchema).default([]),
  relations: z.array(RelationSchema).default([]),
  documents: z.array(DocumentSchema).default([]),
  initiatives: z.array(InitiativeSchema).default([]),
  customers: z.array(CustomerSchema).default([]),
}).strict();

export type LinearDataset = z.infer<typeof LinearDatasetSchema>;
export type StateType = z.infer<typeof StateTypeSchema>;
