import { z } from 'zod';
import { FAULT_KINDS, FaultPlanSchema } from './fault-plan.js';

/**
 * The journal's on-disk format: the single source of truth for what a trial recorded.
 * Version 2 (entries name their operation; the header records each service's mock version).
 * Bump JOURNAL_FORMAT on any incompatible change; readers refuse versions outside
 * READABLE_FORMATS. A format-1 journal reads with `operation: null` on every entry and no mock
 * versions (docs/replay.md).
 */
export const JOURNAL_FORMAT = 2;
export const READABLE_FORMATS: readonly number[] = [1, 2];

export const HeaderListSchema = z.array(z.tuple([z.string(), z.string()]));

/**
 * HeaderListSchema for the journal's entries, which replay reads by the thousand: a plain loop
 * accepts a well-formed list as it is (zod's tuples copied every pair: ~10% of replay); anything
 * else goes through HeaderListSchema, so a bad list fails with the same path and message.
 */
const JournalHeaderListSchema = z.any().superRefine((value, ctx) => {
  if (isHeaderList(value)) return;
  const parsed = HeaderListSchema.safeParse(value);
  for (const issue of parsed.success ? [] : parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
}) as unknown as typeof HeaderListSchema;

function isHeaderList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const pair of value) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return false;
  }
  return true;
}
const BytesSchema = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'expected bytes');

export const JournalHeaderSchema = z.object({
  format: z.union([z.literal(1), z.literal(JOURNAL_FORMAT)]),
  toolbench: z.string(),
  /**
   * Each hosted service's mock version (`ServiceDefinition.version`) when the world started;
   * replay checks only the services the journal's entries touched. Absent in format 1.
   */
  mocks: z.record(z.string()).optional(),
  scenario: z.string(),
  /** sha256 of the scenario's dataset files (names and bytes). */
  datasetHash: z.string(),
  /**
   * sha256 of each shared baseline dataset the world loaded (services the scenario does not
   * name), by service; replay checks only the services the journal touched. Absent in format 1.
   */
  baselines: z.record(z.string()).optional(),
  seed: z.number().int(),
  /** sha256 of the parsed catalog, canonical JSON. */
  catalogHash: z.string(),
  /** The logical clock's start, ISO 8601, and its tick. */
  epoch: z.string(),
  tickMs: z.number().positive(),
  /** Where the scenario was loaded from, to find it again on replay. */
  scenarioDir: z.string(),
  /** The fault plan the world ran with (scenario rules and `--chaos` preset); absent: none. */
  faults: FaultPlanSchema.optional(),
});
export type JournalHeader = z.infer<typeof JournalHeaderSchema>;

/** Who made a request: filled by the proxy (issue: proxy); `null` on the plain ports. */
export const AttributionSchema = z.object({
  kind: z.enum(['mcp', 'startup', 'direct', 'blocked']),
  client: z.string().nullable().default(null),
  endpoint: z.string().nullable().default(null),
  tool: z.string().nullable().default(null),
  callId: z.string().nullable().default(null),
});
export type Attribution = z.infer<typeof AttributionSchema>;

/**
 * A fault the world applied (docs/faults.md): `latency` delays the handler's answer; any other
 * kind answered instead of the handler, which never ran. `latencyMs` is real time waited on record
 * (a timeout's hold included) and never on replay. `rule` names the deciding rule's stream and `n`
 * says which matching request of its route this was.
 */
export const FaultSchema = z.object({
  kind: z.enum(['latency', ...FAULT_KINDS]),
  latencyMs: z.number().nonnegative().default(0),
  rule: z.string().optional(),
  n: z.number().int().positive().optional(),
});
export type Fault = z.infer<typeof FaultSchema>;

export const JournalRequestSchema = z.object({
  headers: JournalHeaderListSchema,
  body: BytesSchema,
  /** The client sent more than the body limit; `body` is empty and the world refused it. */
  oversize: z.boolean().default(false),
});

export const JournalResponseSchema = z.object({
  status: z.number().int().min(100).max(599),
  headers: JournalHeaderListSchema,
  body: BytesSchema,
});

/**
 * The operation a request was (`issues.create`, `chat.postMessage`, `Query.issues`), and what
 * answered it: a hand-written handler or the spec fallback. `null`: no operation matched (or a
 * format-1 journal, or a request no service answered).
 */
export const OperationRefSchema = z.object({
  name: z.string(),
  via: z.enum(['handler', 'spec']),
});
export type OperationRef = z.infer<typeof OperationRefSchema>;

export const JournalEntrySchema = z.object({
  seq: z.number().int().positive(),
  /** Logical time, ISO 8601 with milliseconds. */
  time: z.string(),
  /**
   * `http`: a request to a service (or refused); `noise`: telemetry or an update check the
   * catalog's `[[noise]]` answered (never an API call); `reset`: the world went back to its dataset.
   */
  kind: z.enum(['http', 'noise', 'reset']),
  service: z.string().nullable(),
  host: z.string(),
  method: z.string(),
  target: z.string(),
  operation: OperationRefSchema.nullable().default(null),
  request: JournalRequestSchema,
  response: JournalResponseSchema,
  attribution: AttributionSchema.nullable(),
  fault: FaultSchema.nullable(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

const ENTRY_KEYS = ['seq', 'time', 'kind', 'service', 'host', 'method', 'target', 'operation', 'request', 'response', 'attribution', 'fault'];
const REQUEST_KEYS = ['headers', 'body', 'oversize'];
const RESPONSE_KEYS = ['status', 'headers', 'body'];
const OPERATION_KEYS = ['name', 'via'];
const ATTRIBUTION_KEYS = ['kind', 'client', 'endpoint', 'tool', 'callId'];
const ENTRY_KINDS = new Set(['http', 'noise', 'reset']);
const ATTRIBUTION_KINDS = new Set(['mcp', 'startup', 'direct', 'blocked']);

/**
 * JournalEntrySchema.safeParse for the entries replay reads by the thousand: an entry exactly as
 * the world writes it (every key present, in the schema's order, nothing to default or strip, no
 * fault) is what zod would return, so it is accepted as it is; anything else (format 1, a fault,
 * another key order, a bad value) goes through zod, with its output, errors and messages.
 */
export function parseJournalEntry(value: unknown): z.SafeParseReturnType<unknown, JournalEntry> {
  if (isWrittenEntry(value)) return { success: true, data: value };
  return JournalEntrySchema.safeParse(value);
}

function isWrittenEntry(value: unknown): value is JournalEntry {
  if (!hasKeys(value, ENTRY_KEYS)) return false;
  const { seq, time, kind, service, host, method, target, operation, request, response, attribution, fault } = value;
  return Number.isInteger(seq) && (seq as number) > 0 && typeof time === 'string' && typeof kind === 'string' && ENTRY_KINDS.has(kind)
    && (service === null || typeof service === 'string') && typeof host === 'string' && typeof method === 'string' && typeof target === 'string'
    && (operation === null || (hasKeys(operation, OPERATION_KEYS) && typeof operation.name === 'string' && (operation.via === 'handler' || operation.via === 'spec')))
    && hasKeys(request, REQUEST_KEYS) && isHeaderList(request.headers) && request.body instanceof Uint8Array && typeof request.oversize === 'boolean'
    && hasKeys(response, RESPONSE_KEYS) && Number.isInteger(response.status) && (response.status as number) >= 100 && (response.status as number) <= 599
    && isHeaderList(response.headers) && response.body instanceof Uint8Array
    && (attribution === null || (hasKeys(attribution, ATTRIBUTION_KEYS) && typeof attribution.kind === 'string' && ATTRIBUTION_KINDS.has(attribution.kind)
      && nullableString(attribution.client) && nullableString(attribution.endpoint) && nullableString(attribution.tool) && nullableString(attribution.callId)))
    && fault === null;
}

/** A plain object whose own enumerable keys are exactly `keys`, in that order. */
function hasKeys(value: unknown, keys: readonly string[]): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  let i = 0;
  for (const key in value) if (key !== keys[i++]) return false;
  return i === keys.length;
}

function nullableString(value: unknown): boolean {
  return value === null || typeof value === 'string';
}

/**
 * An MCP-level record, under its own key prefix: a tool call through a bridge and its result, an
 * endpoint becoming ready, or an endpoint's server crashing. `worldSeqBefore`/`worldSeqAfter`
 * bracket the world requests made while it was in flight.
 */
export const McpRecordSchema = z.object({
  n: z.number().int().positive(),
  endpoint: z.string(),
  kind: z.enum(['ready', 'call', 'crash']),
  tool: z.string().nullable(),
  callId: z.string().nullable(),
  arguments: z.unknown(),
  result: z.unknown(),
  isError: z.boolean(),
  /** Why the call or the endpoint failed, when it did (protocol error, crash, exit code). */
  error: z.string().nullable(),
  worldSeqBefore: z.number().int().nonnegative(),
  worldSeqAfter: z.number().int().nonnegative(),
  /**
   * How the call reached the endpoint when not straight from the agent: `router`, forwarded by
   * the router endpoint's `call_tool` (docs/catalog.md, "The router"). Absent: the agent called
   * the endpoint's bridge itself (and in every journal written before the router existed).
   */
  via: z.enum(['router']).optional(),
});
export type McpRecord = z.infer<typeof McpRecordSchema>;

/** Keys: zero-padded so LevelDB's byte order is sequence order. */
export const KEY_FORMAT = 'meta:format';
export const KEY_HEADER = 'meta:header';
/**
 * Written last, when the world closes its journal: what it wrote. A journal without it was not
 * closed cleanly (the world was killed, or still runs); one whose entries stop short of it lost
 * its tail. Journals written before the marker existed have none (same format): they read as not
 * closed cleanly.
 */
export const KEY_END = 'meta:end';
export const JournalEndSchema = z.object({
  /** The last sequence number journaled (0: none). */
  lastSeq: z.number().int().nonnegative(),
  entries: z.number().int().nonnegative(),
  mcpRecords: z.number().int().nonnegative(),
});
export type JournalEnd = z.infer<typeof JournalEndSchema>;
export const ENTRY_PREFIX = 'req:';
export const entryKey = (seq: number) => ENTRY_PREFIX + String(seq).padStart(12, '0');
export const MCP_PREFIX = 'mcp:';
export const mcpKey = (n: number) => MCP_PREFIX + String(n).padStart(12, '0');
