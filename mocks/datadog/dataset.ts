import { z } from 'zod';

/**
 * The Datadog dataset (`<scenario>/dataset/datadog.json`, and the background world in
 * scenarios/baseline/dataset/datadog.json): the single source of truth for its format. Times are
 * ISO strings; a record without one gets the scenario's epoch. Numeric IDs the dataset gives are
 * reserved, so new monitors and downtimes are numbered after them.
 */
const Iso = z.string().datetime({ offset: true });

/** An organisation's key pair: every request carries both (DD-API-KEY, DD-APPLICATION-KEY). */
const KeyPair = z.object({ api_key: z.string().min(1), app_key: z.string().min(1) }).strict();

const MonitorState = z.enum(['Alert', 'Warn', 'No Data', 'OK', 'Ignored', 'Skipped', 'Unknown']);

const Monitor = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  type: z.string().default('metric alert'),
  query: z.string().min(1),
  message: z.string().default(''),
  tags: z.array(z.string()).default([]),
  priority: z.number().int().min(1).max(5).nullable().default(null),
  overall_state: MonitorState.default('OK'),
  created: Iso.optional(),
  modified: Iso.optional(),
}).strict();

const Incident = z.object({
  /** Default: a seeded UUID. */
  id: z.string().min(1).optional(),
  public_id: z.number().int().positive(),
  title: z.string().min(1),
  severity: z.enum(['SEV-1', 'SEV-2', 'SEV-3', 'SEV-4', 'SEV-5', 'UNKNOWN']).default('UNKNOWN'),
  state: z.enum(['active', 'stable', 'resolved']).default('active'),
  customer_impacted: z.boolean().default(false),
  commander: z.string().nullable().default(null),
  created: Iso.optional(),
  resolved: Iso.nullable().default(null),
}).strict();

const Dashboard = z.object({
  /** Datadog's `abc-def-ghi` form. */
  id: z.string().regex(/^[a-z0-9]{3}-[a-z0-9]{3}-[a-z0-9]{3}$/),
  title: z.string().min(1),
  description: z.string().nullable().default(null),
  layout_type: z.enum(['ordered', 'free']).default('ordered'),
  author_handle: z.string().default('ops@example.com'),
  /** Widget definitions, in the API's shape. */
  widgets: z.array(z.record(z.unknown())).default([]),
  created: Iso.optional(),
}).strict();

const Host = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  aliases: z.array(z.string()).default([]),
  apps: z.array(z.string()).default(['agent']),
  up: z.boolean().default(true),
  platform: z.string().default('linux'),
  tags: z.array(z.string()).default([]),
  is_muted: z.boolean().default(false),
  /** POSIX seconds the mute ends, or null (forever). */
  mute_timeout: z.number().int().nullable().default(null),
  /** Seconds before the epoch it last reported. */
  last_reported_ago: z.number().int().min(0).default(60),
  metrics: z.object({ cpu: z.number(), iowait: z.number(), load: z.number() }).default({ cpu: 5, iowait: 0.5, load: 0.4 }),
}).strict();

const Downtime = z.object({
  id: z.number().int().positive(),
  scope: z.array(z.string()).min(1),
  message: z.string().nullable().default(null),
  monitor_id: z.number().int().nullable().default(null),
  monitor_tags: z.array(z.string()).default(['*']),
  start: Iso.optional(),
  end: Iso.nullable().default(null),
  /** When it was canceled; a canceled downtime is listed but inactive. */
  canceled: Iso.nullable().default(null),
}).strict();

const Log = z.object({
  id: z.string().min(1).optional(),
  timestamp: Iso,
  service: z.string(),
  host: z.string().default(''),
  status: z.enum(['emerg', 'alert', 'critical', 'error', 'warn', 'notice', 'info', 'debug', 'ok']).default('info'),
  message: z.string(),
  tags: z.array(z.string()).default([]),
  /** Attributes searchable as `@name:value`. */
  attributes: z.record(z.unknown()).default({}),
}).strict();

const Span = z.object({
  span_id: z.string().regex(/^\d+$/),
  trace_id: z.string().regex(/^\d+$/),
  parent_id: z.string().regex(/^\d+$/).default('0'),
  service: z.string(),
  operation_name: z.string(),
  resource_name: z.string(),
  env: z.string().default('prod'),
  host: z.string().default(''),
  start: Iso,
  duration_ms: z.number().min(0),
  status: z.enum(['ok', 'error']).default('ok'),
  tags: z.array(z.string()).default([]),
}).strict();

const RumApplication = z.object({
  id: z.string().uuid(),
  name: z.string().min(1),
  type: z.enum(['browser', 'ios', 'android', 'react-native', 'flutter']).default('browser'),
  created: Iso.optional(),
}).strict();

const RumEvent = z.object({
  id: z.string().min(1).optional(),
  timestamp: Iso,
  application: z.string().min(1),
  session_id: z.string().min(1),
  type: z.enum(['view', 'action', 'error', 'resource', 'long_task']).default('view'),
  service: z.string().default(''),
  /** The event's own attributes (`view`, `action`, `error`…), searchable as `@view.url:…`. */
  attributes: z.record(z.unknown()).default({}),
}).strict();

/** A metric series: its value at a point is `values[(t / interval) mod n]`, unless a `spike` covers t. */
const Series = z.object({
  metric: z.string().min(1),
  tags: z.array(z.string()).default([]),
  interval: z.number().int().positive().default(60),
  values: z.array(z.number()).min(1),
  spikes: z.array(z.object({ from: Iso, to: Iso, value: z.number() }).strict()).default([]),
}).strict();

export const DatadogDatasetSchema = z.object({
  keys: z.array(KeyPair).default([]),
  monitors: z.array(Monitor).default([]),
  incidents: z.array(Incident).default([]),
  dashboards: z.array(Dashboard).default([]),
  hosts: z.array(Host).default([]),
  downtimes: z.array(Downtime).default([]),
  logs: z.array(Log).default([]),
  spans: z.array(Span).default([]),
  rum_applications: z.array(RumApplication).default([]),
  rum_events: z.array(RumEvent).default([]),
  metrics: z.array(Series).default([]),
}).strict();
export type DatadogDataset = z.infer<typeof DatadogDatasetSchema>;
export type MonitorRecord = z.infer<typeof Monitor>;
export type IncidentRecord = z.infer<typeof Incident> & { id: string; created: string };
export type DashboardRecord = z.infer<typeof Dashboard> & { created: string };
export type HostRecord = z.infer<typeof Host>;
export type DowntimeRecord = Omit<z.infer<typeof Downtime>, 'start'> & { start: string; created: string; timezone: string; recurrence: Record<string, unknown> | null };
export type LogRecord = z.infer<typeof Log> & { id: string };
export type SpanRecord = z.infer<typeof Span>;
export type RumApplicationRecord = z.infer<typeof RumApplication> & { created: string };
export type RumEventRecord = z.infer<typeof RumEvent> & { id: string };
export type SeriesRecord = z.infer<typeof Series>;

// Request bodies and queries the handlers read (the API's own field names).
const Num = z.coerce.number();
const Bool = z.enum(['true', 'false']).transform((v) => v === 'true');

export const ListIncidentsQuery = z.object({ 'page[size]': Num.int().min(1).max(100).default(10), 'page[offset]': Num.int().min(0).default(0) }).passthrough();
export const ListMonitorsQuery = z.object({
  group_states: z.string().optional(), name: z.string().optional(), tags: z.string().optional(), monitor_tags: z.string().optional(),
  page: Num.int().min(0).optional(), page_size: Num.int().min(1).max(1000).default(100),
}).passthrough();
export const ListHostsQuery = z.object({
  filter: z.string().optional(), sort_field: z.string().optional(), sort_dir: z.enum(['asc', 'desc']).optional(),
  start: Num.int().min(0).default(0), count: Num.int().min(1).max(1000).default(100), from: Num.int().optional(),
  include_muted_hosts_data: Bool.optional(), include_hosts_metadata: Bool.optional(),
}).passthrough();
export const HostTotalsQuery = z.object({ from: Num.int().optional() }).passthrough();
export const MuteHostBody = z.object({ message: z.string().optional(), end: z.number().int().optional(), override: z.boolean().optional() }).passthrough();
export const ListDowntimesQuery = z.object({ current_only: Bool.optional() }).passthrough();
export const CreateDowntimeBody = z.object({
  scope: z.array(z.string().min(1)).min(1),
  start: z.number().int().nullable().optional(), end: z.number().int().nullable().optional(),
  message: z.string().nullable().optional(), timezone: z.string().optional(),
  monitor_id: z.number().int().nullable().optional(), monitor_tags: z.array(z.string()).optional(),
  recurrence: z.object({ type: z.enum(['days', 'weeks', 'months', 'years']), period: z.number().int().min(1), week_days: z.array(z.string()).optional(), until_date: z.number().int().optional() }).passthrough().nullable().optional(),
}).passthrough();
export const QueryMetricsQuery = z.object({ from: Num.int(), to: Num.int(), query: z.string().min(1) }).passthrough();
export const LogsSearchBody = z.object({
  filter: z.object({ query: z.string().default('*'), from: z.string().default('now-15m'), to: z.string().default('now'), indexes: z.array(z.string()).optional(), storage_tier: z.string().optional() }).passthrough().default({}),
  page: z.object({ limit: z.number().int().min(1).max(5000).default(10), cursor: z.string().optional() }).passthrough().default({}),
  sort: z.enum(['timestamp', '-timestamp']).default('timestamp'),
}).passthrough();
export const SpansSearchBody = z.object({
  data: z.object({
    type: z.literal('search_request'),
    attributes: z.object({
      filter: z.object({ query: z.string().default('*'), from: z.string().default('now-15m'), to: z.string().default('now') }).passthrough().default({}),
      page: z.object({ limit: z.number().int().min(1).max(1000).default(10), cursor: z.string().optional() }).passthrough().default({}),
      sort: z.enum(['timestamp', '-timestamp']).default('timestamp'),
    }).passthrough().default({}),
  }).passthrough(),
}).passthrough();
export const RumEventsQuery = z.object({
  'filter[query]': z.string().default('*'), 'filter[from]': z.string().default('now-15m'), 'filter[to]': z.string().default('now'),
  sort: z.enum(['timestamp', '-timestamp']).default('-timestamp'), 'page[limit]': Num.int().min(1).max(5000).default(10), 'page[cursor]': z.string().optional(),
}).passthrough();
