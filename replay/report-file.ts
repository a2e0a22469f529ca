import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeAtomic } from '../certs/files.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import { HeaderListSchema } from '../mocks/core/journal-format.js';
import { bodyToJson } from '../mocks/core/journal-json.js';
import type { FirstResponses } from './run.js';
import type { ReplayReport } from './report.js';

/**
 * `toolbench replay --report FILE`: the verification as one JSON file, for `toolbench view` and
 * CI artifacts. The report `--json` prints, plus the first divergent entry's recorded and replayed
 * response bytes (the console report keeps only an excerpt). This schema is the format.
 */
export const REPORT_FILE_FORMAT = 1;

const JsonBodySchema = z.object({ encoding: z.enum(['utf8', 'base64']), data: z.string(), size: z.number().int().nonnegative() });
const ResponseBytesSchema = z.object({ status: z.number().int(), headers: HeaderListSchema, body: JsonBodySchema });
const Pair = <T extends z.ZodTypeAny>(value: T) => z.object({ recorded: value, replayed: value });

const HeaderChangeSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('changed'), name: z.string(), recorded: z.string(), replayed: z.string(), replayedName: z.string().optional() }),
  z.object({ op: z.literal('removed'), name: z.string(), recorded: z.string() }),
  z.object({ op: z.literal('added'), name: z.string(), replayed: z.string() }),
  z.object({ op: z.literal('moved'), name: z.string(), value: z.string() }),
]);

const BodyDiffSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('json'), recordedSize: z.number(), replayedSize: z.number(), totalPaths: z.number(),
    paths: z.array(z.object({ path: z.string(), op: z.enum(['changed', 'removed', 'added']), recorded: z.string().optional(), replayed: z.string().optional() })),
  }),
  z.object({
    kind: z.literal('bytes'), recordedSize: z.number(), replayedSize: z.number(), offset: z.number(), sameJson: z.boolean(),
    excerpt: z.object({ encoding: z.enum(['text', 'hex']), recorded: z.string(), replayed: z.string() }),
  }),
]);

const DIFF_FIELDS = ['missing', 'seq', 'request', 'status', 'headers', 'body', 'fault'] as const;

/** One entry's differences (replay/diff.ts `EntryDiff`). */
export const EntryDiffSchema = z.object({
  seq: z.number().int(),
  request: z.object({
    kind: z.enum(['http', 'reset']), method: z.string(), host: z.string(), target: z.string(),
    service: z.string().nullable(), attribution: z.string(),
  }),
  fields: z.array(z.enum(DIFF_FIELDS)),
  missing: z.enum(['recorded', 'replayed']).optional(),
  seqs: Pair(z.number()).optional(),
  requestChanges: z.array(z.object({ field: z.string(), recorded: z.string(), replayed: z.string() })).optional(),
  status: Pair(z.number()).optional(),
  headers: z.array(HeaderChangeSchema).optional(),
  body: BodyDiffSchema.optional(),
  fault: Pair(z.string().nullable()).optional(),
});

export const ReplayReportFileSchema = z.object({
  format: z.literal(REPORT_FILE_FORMAT),
  verdict: z.enum(['identical', 'divergent']),
  journal: z.string(),
  scenario: z.string(),
  seed: z.number().int(),
  recordedWith: z.string(),
  via: z.enum(['process', 'http']),
  checks: z.array(z.object({ name: z.string(), status: z.string(), message: z.string() })),
  entries: z.number().int().nonnegative(),
  identical: z.number().int().nonnegative(),
  divergent: z.number().int().nonnegative(),
  divergentSeqs: z.array(z.number().int()),
  byField: z.record(z.enum(DIFF_FIELDS), z.number().int()),
  /** The first divergent entry: what differs, and both responses in full. */
  firstDivergence: EntryDiffSchema.extend({ responses: Pair(ResponseBytesSchema) }).nullable(),
});
export type ReplayReportFile = z.infer<typeof ReplayReportFileSchema>;

export function reportFile(report: ReplayReport, first: FirstResponses | null): ReplayReportFile {
  const bytes = (response: { status: number; headers: [string, string][]; body: Uint8Array }) =>
    ({ status: response.status, headers: response.headers, body: bodyToJson(response.body) });
  const divergence = report.firstDivergence;
  return ReplayReportFileSchema.parse({
    format: REPORT_FILE_FORMAT,
    verdict: report.verdict,
    journal: report.journal,
    scenario: report.scenario,
    seed: report.seed,
    recordedWith: report.recordedWith,
    via: report.via,
    checks: report.checks,
    entries: report.entries,
    identical: report.identical,
    divergent: report.divergent,
    divergentSeqs: report.divergentSeqs,
    byField: report.byField,
    firstDivergence: divergence && first
      ? { ...divergence, responses: { recorded: bytes(first.recorded), replayed: bytes(first.replayed) } }
      : null,
  });
}

export function writeReportFile(path: string, file: ReplayReportFile): void {
  writeAtomic(path, JSON.stringify(file, null, 2) + '\n', 0o644);
}

/** Reads a report file; bad input is one line naming the file and the field. */
export function readReportFile(path: string): ReplayReportFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ToolbenchError('TB_ERR_USAGE', `replay report ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ToolbenchError('TB_ERR_USAGE', `replay report ${path}: not JSON (${(error as Error).message})`);
  }
  const parsed = ReplayReportFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ToolbenchError('TB_ERR_USAGE', `replay report ${path}: field ${issue.path.join('.') || '(top)'}: ${issue.message} (write it with toolbench replay --verify --report FILE)`);
  }
  return parsed.data;
}

/** A report body's bytes. */
export function bodyBytes(body: z.infer<typeof JsonBodySchema>): Buffer {
  return Buffer.from(body.data, body.encoding === 'utf8' ? 'utf8' : 'base64');
}
