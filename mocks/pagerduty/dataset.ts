import { z } from 'zod';

/**
 * A PagerDuty account as a scenario states it. IDs are given (scenarios name them); times are
 * minutes before the scenario's epoch. Everything else the API shows is derived at load time.
 */
const Id = z.string().regex(/^P[A-Z0-9]{6}$/, 'a PagerDuty ID: P and six upper-case letters or digits');
const Target = z.object({ type: z.enum(['user_reference', 'schedule_reference']), id: Id }).strict();

export const PagerDutyDatasetSchema = z.object({
  subdomain: z.string().default('northwind'),
  /** API tokens: a user token acts as its user; an account token (no user) must name one in `From` to write. */
  tokens: z.array(z.object({ token: z.string().min(1), user_id: Id.nullable().default(null) }).strict()).default([]),
  teams: z.array(z.object({ id: Id, name: z.string(), description: z.string().nullable().default(null) }).strict()).default([]),
  users: z.array(z.object({
    id: Id, name: z.string(), email: z.string().email(), role: z.enum(['admin', 'limited_user', 'observer', 'owner', 'read_only_user', 'restricted_access', 'read_only_limited_user', 'user']).default('user'),
    time_zone: z.string().default('America/New_York'), job_title: z.string().nullable().default(null), teams: z.array(Id).default([]),
  }).strict()).default([]),
  schedules: z.array(z.object({
    id: Id, name: z.string(), description: z.string().nullable().default(null), time_zone: z.string().default('America/New_York'),
    /** The rotation's members, in order; the first is on call now. */
    users: z.array(Id).min(1), teams: z.array(Id).default([]),
  }).strict()).default([]),
  escalation_policies: z.array(z.object({
    id: Id, name: z.string(), description: z.string().nullable().default(null), num_loops: z.number().int().min(0).default(0), teams: z.array(Id).default([]),
    rules: z.array(z.object({ escalation_delay_in_minutes: z.number().int().min(1).default(30), targets: z.array(Target).min(1) }).strict()).min(1),
  }).strict()).default([]),
  services: z.array(z.object({
    id: Id, name: z.string(), description: z.string().nullable().default(null), escalation_policy: Id,
    status: z.enum(['active', 'warning', 'critical', 'maintenance', 'disabled']).default('active'), teams: z.array(Id).default([]),
    acknowledgement_timeout: z.number().int().nullable().default(null), auto_resolve_timeout: z.number().int().nullable().default(14400),
  }).strict()).default([]),
  priorities: z.array(z.object({ id: Id, name: z.string(), description: z.string().default('') }).strict()).default([]),
  incidents: z.array(z.object({
    id: Id, number: z.number().int().min(1), title: z.string(), service: Id,
    status: z.enum(['triggered', 'acknowledged', 'resolved']).default('triggered'), urgency: z.enum(['high', 'low']).default('high'),
    priority: Id.nullable().default(null), minutes_ago: z.number().int().min(0),
    /** Assignees (default: the first target of the service's escalation policy). */
    assignees: z.array(Id).optional(), escalation_level: z.number().int().min(1).default(1),
    incident_key: z.string().optional(), details: z.string().nullable().default(null),
    notes: z.array(z.object({ user: Id, content: z.string(), minutes_ago: z.number().int().min(0) }).strict()).default([]),
    alerts: z.array(z.object({
      summary: z.string(), severity: z.enum(['critical', 'error', 'warning', 'info']).default('error'), source: z.string().default('monitoring'),
      details: z.record(z.unknown()).default({}),
    }).strict()).default([]),
  }).strict()).default([]),
  /** Spec-fallback collections (`{"/event_orchestrations": [...]}`), as created at load time. */
  spec: z.record(z.array(z.record(z.unknown()))).default({}),
  /** Spec-fallback documents read by id whose lists the kit cannot seed (`{"/event_orchestrations": [{id, ...}]}`). */
  spec_items: z.record(z.array(z.object({ id: z.string() }).passthrough())).default({}),
}).strict();
export type PagerDutyDataset = z.infer<typeof PagerDutyDatasetSchema>;
