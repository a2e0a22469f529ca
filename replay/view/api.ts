import { z } from 'zod';
import { AttributionSchema, FaultSchema, HeaderListSchema, JournalEndSchema, JournalHeaderSchema, McpRecordSchema } from '../../mocks/core/journal-format.js';
import { TrialResultSchema } from '../../scenarios/grade/result.js';
import { EntryDiffSchema, ReplayReportFileSchema } from '../report-file.js';

/**
 * The viewer's JSON API (`toolbench view`): every body the server sends, as zod schemas. The page
 * (assets/app.js) reads exactly these; the tests parse responses with them.
 */

/** How an entry came about: its attribution kind, `unattributed` on the plain ports, `reset`. */
export const ORIGINS = ['mcp', 'direct', 'startup', 'blocked', 'unattributed', 'reset'] as const;
export const OriginSchema = z.enum(ORIGINS);
export type Origin = z.infer<typeof OriginSchema>;

/** One world request in the timeline. */
export const EntryRowSchema = z.object({
  type: z.literal('entry'),
  /** 1: nested under the tool call (or startup fold) above it. */
  depth: z.number().int().min(0).max(1),
  seq: z.number().int().positive(),
  time: z.string(),
  method: z.string(),
  host: z.string(),
  target: z.string(),
  service: z.string().nullable(),
  /** `GET /repos/:owner/:repo`: the route pattern, or the path with ids collapsed. */
  route: z.string(),
  status: z.number().int(),
  origin: OriginSchema,
  /** The MCP tool and endpoint that caused it (origin `mcp`). */
  tool: z.string().nullable(),
  mcpEndpoint: z.string().nullable(),
  callId: z.string().nullable(),
  fault: z.object({ kind: FaultSchema.shape.kind, latencyMs: z.number() }).nullable(),
  requestBytes: z.number().int(),
  responseBytes: z.number().int(),
  /** The service's operation name, when the journal records one. */
  operation: z.string().nullable(),
  /** Listed as divergent by the replay report shown. */
  divergent: z.boolean(),
});
export type EntryRow = z.infer<typeof EntryRowSchema>;

/** An MCP tool call; the world requests it caused follow it at depth 1. */
export const CallRowSchema = z.object({
  type: z.literal('call'),
  depth: z.literal(0),
  n: z.number().int(),
  endpoint: z.string(),
  tool: z.string(),
  callId: z.string().nullable(),
  isError: z.boolean(),
  error: z.string().nullable(),
  /** World requests it caused (all of them, whatever the filter). */
  requests: z.number().int(),
});
export type CallRow = z.infer<typeof CallRowSchema>;

/** Consecutive startup requests, folded into one row unless unfolded. */
export const FoldRowSchema = z.object({
  type: z.literal('fold'),
  depth: z.literal(0),
  count: z.number().int(),
  firstSeq: z.number().int(),
  lastSeq: z.number().int(),
  folded: z.boolean(),
});

/** An MCP endpoint's server crashed. */
export const CrashRowSchema = z.object({
  type: z.literal('crash'),
  depth: z.literal(0),
  n: z.number().int(),
  endpoint: z.string(),
  error: z.string().nullable(),
});

export const TimelineRowSchema = z.discriminatedUnion('type', [EntryRowSchema, CallRowSchema, FoldRowSchema, CrashRowSchema]);
export type TimelineRow = z.infer<typeof TimelineRowSchema>;

/** `GET /api/timeline`: one page of rows. `found`: the row index of `?find=SEQ`, when shown. */
export const TimelinePageSchema = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  rows: z.array(TimelineRowSchema),
  found: z.number().int().nullable(),
});

/** What the filters of `GET /api/timeline` can take (every value present in the journal). */
export const FacetsSchema = z.object({
  services: z.array(z.string()),
  routes: z.array(z.string()),
  tools: z.array(z.string()),
  origins: z.array(OriginSchema),
  statuses: z.array(z.string()),
});

/** `GET /api/summary`: the trial at a glance. */
export const SummarySchema = z.object({
  source: z.object({ path: z.string(), journal: z.string(), result: z.string().nullable(), report: z.string().nullable() }),
  header: JournalHeaderSchema,
  end: JournalEndSchema.nullable().optional(),
  warnings: z.array(z.string()),
  counts: z.object({
    entries: z.number().int(), calls: z.number().int(), failedCalls: z.number().int(), crashes: z.number().int(),
    direct: z.number().int(), blocked: z.number().int(), startup: z.number().int(), faults: z.number().int(),
  }),
  facets: FacetsSchema,
  result: TrialResultSchema.nullable(),
  replay: ReplayReportFileSchema.omit({ firstDivergence: true }).extend({ firstSeq: z.number().int().nullable() }).nullable(),
});
export type Summary = z.infer<typeof SummarySchema>;

export const PrettyBodySchema = z.object({
  type: z.enum(['empty', 'json', 'form', 'graphql', 'xml', 'text', 'binary']),
  contentType: z.string().nullable(),
  size: z.number().int(),
  text: z.string(),
  variables: z.string().optional(),
  raw: z.string().nullable(),
  truncated: z.boolean(),
});

/** An MCP tool call in full: what the agent asked and what it got. */
export const CallDetailSchema = McpRecordSchema.omit({ kind: true }).extend({
  /** The world requests it caused. */
  seqs: z.array(z.number().int()),
});
export type CallDetail = z.infer<typeof CallDetailSchema>;

/** `GET /api/entry/SEQ`: one request in full, with the tool call that caused it. */
export const EntryDetailSchema = z.object({
  row: EntryRowSchema,
  kind: z.enum(['http', 'noise', 'reset']),
  attribution: AttributionSchema.nullable(),
  fault: FaultSchema.nullable(),
  request: z.object({ headers: HeaderListSchema, body: PrettyBodySchema, oversize: z.boolean() }),
  response: z.object({ status: z.number().int(), headers: HeaderListSchema, body: PrettyBodySchema }),
  call: CallDetailSchema.nullable(),
  /** Secret header values were replaced (start the viewer with --show-secrets to see them). */
  redacted: z.boolean(),
});
export type EntryDetail = z.infer<typeof EntryDetailSchema>;

/** One side of a body, split where the two sides stop agreeing: same, different, same. */
export const BodySidesSchema = z.object({
  encoding: z.enum(['text', 'hex']),
  /** Byte offsets of the differing run in this side's bytes, [start, end). */
  start: z.number().int(),
  end: z.number().int(),
  before: z.string(),
  differs: z.string(),
  after: z.string(),
  /** Text before/after was cut to CONTEXT characters. */
  cutBefore: z.boolean(),
  cutAfter: z.boolean(),
});

/** `GET /api/divergence`: the replay report's first divergent entry, side by side. */
export const DivergenceSchema = z.object({
  verdict: z.enum(['identical', 'divergent']),
  entries: z.number().int(),
  divergent: z.number().int(),
  divergentSeqs: z.array(z.number().int()),
  first: EntryDiffSchema.extend({
    status: z.object({ recorded: z.number().int(), replayed: z.number().int() }).optional(),
    recorded: z.object({ status: z.number().int(), headers: HeaderListSchema, body: BodySidesSchema }),
    replayed: z.object({ status: z.number().int(), headers: HeaderListSchema, body: BodySidesSchema }),
  }).nullable(),
});
export type Divergence = z.infer<typeof DivergenceSchema>;
