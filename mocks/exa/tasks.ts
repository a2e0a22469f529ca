import { z } from 'zod';
import { bytes, jsonResponse, type ServiceResponse } from '../core/http.js';
import { prefixedId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { extractiveAnswer } from '../kit/web/render.js';
import { bestSentences, search, type Hit } from '../kit/web/search.js';
import { bill, exaError, type ExaCtx } from './context.js';
import { fillSchema } from './results.js';

/**
 * Exa's asynchronous work over the corpus: research tasks (/research/v1, polled) and agent runs
 * (/agent/runs, streamed as server-sent events or polled). Both finish on the logical clock, never
 * the wall clock: a task is `pending`, then `running`, then `completed` a fixed logical time after
 * it was created, so the same requests always meet the same status.
 */

export interface ResearchDoc {
  researchId: string; key: string; createdAt: number; model: string; instructions: string;
  outputSchema?: Record<string, unknown>; content: string; parsed?: unknown; pages: number;
}

export interface AgentRunDoc {
  id: string; key: string; createdMs: number; query: string; effort: string; streamed: boolean;
  cancelledMs: number | null; text: string; structured: unknown; citations: { url: string; title: string }[]; searches: number;
}

/** Logical milliseconds a research model takes (fast finishes by the next tick at 1 s a request). */
const RESEARCH_MS: Record<string, number> = { 'exa-research-fast': 1000, 'exa-research': 3000, 'exa-research-pro': 6000 };

const ResearchBody = z.object({
  instructions: z.string({ required_error: 'instructions is required' }).min(1, 'instructions must not be empty').max(4096, 'instructions must be at most 4096 characters'),
  model: z.enum(['exa-research-fast', 'exa-research', 'exa-research-pro']).default('exa-research'),
  outputSchema: z.record(z.unknown()).optional(),
}).passthrough();
type ResearchBody = z.infer<typeof ResearchBody>;

const ListQuery = z.object({ cursor: z.string().optional(), limit: z.coerce.number().int().min(1).max(50).default(10) }).passthrough();
type ListQuery = z.infer<typeof ListQuery>;

/** The report: what each of the top pages says, quoted and cited, then the sources. */
function report(hits: readonly Hit[], instructions: string): string {
  if (hits.length === 0) return `# Research report\n\nNo sources in the index address: ${instructions}`;
  const findings = hits.map((h, i) => `- ${bestSentences(h.page, instructions, 2).join(' ')} [${i + 1}]`);
  const sources = hits.map((h, i) => `[${i + 1}] ${h.page.title} (${h.page.published ?? 'undated'}): ${h.page.url}`);
  return `# Research report\n\n${instructions}\n\n## Findings\n\n${findings.join('\n')}\n\n## Sources\n\n${sources.join('\n')}`;
}

function researchCreate(call: { body: ResearchBody }, c: ExaCtx) {
  const b = call.body;
  const hits = search(c.web.pages.values(), b.instructions).slice(0, 6);
  const parsed = b.outputSchema ? fillSchema(b.outputSchema, hits, b.instructions) : undefined;
  const doc: ResearchDoc = {
    researchId: prefixedId(c.ctx, '', 'research', 26).toLowerCase(), key: c.key!.key, createdAt: c.ctx.nowMs, model: b.model, instructions: b.instructions,
    ...(b.outputSchema ? { outputSchema: b.outputSchema } : {}),
    content: parsed === undefined ? report(hits, b.instructions) : JSON.stringify(parsed), ...(parsed === undefined ? {} : { parsed }), pages: hits.length,
  };
  c.research.put(doc.researchId, doc);
  return jsonResponse(201, { researchId: doc.researchId, createdAt: doc.createdAt, model: doc.model, instructions: doc.instructions, ...(doc.outputSchema ? { outputSchema: doc.outputSchema } : {}), status: 'pending' });
}

/** The task as the API shows it at this logical moment. */
function researchView(doc: ResearchDoc, nowMs: number): Record<string, unknown> {
  const base = { researchId: doc.researchId, createdAt: doc.createdAt, model: doc.model, instructions: doc.instructions, ...(doc.outputSchema ? { outputSchema: doc.outputSchema } : {}) };
  // Object.assign on the fresh base, not `{ ...base, … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  if (nowMs <= doc.createdAt) return Object.assign(base, { status: 'pending' });
  const finishedAt = doc.createdAt + RESEARCH_MS[doc.model]!;
  if (nowMs < finishedAt) return Object.assign(base, { status: 'running' });
  const numSearches = 3;
  const reasoningTokens = 900 + doc.content.length;
  const total = Math.round((numSearches * 0.005 + doc.pages * 0.005 + reasoningTokens * 0.000005) * 1e6) / 1e6;
  return Object.assign(base, { status: 'completed', output: { content: doc.content, ...(doc.parsed === undefined ? {} : { parsed: doc.parsed }) }, costDollars: { numPages: doc.pages, numSearches, reasoningTokens, total }, finishedAt });
}

/** The task's event log so far: its definition, then its output once it has finished. */
function researchEvents(doc: ResearchDoc, view: Record<string, unknown>): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [{ eventType: 'research-definition', researchId: doc.researchId, createdAt: doc.createdAt, instructions: doc.instructions, ...(doc.outputSchema ? { outputSchema: doc.outputSchema } : {}) }];
  if (view.status === 'completed') events.push({ eventType: 'research-output', researchId: doc.researchId, createdAt: view.finishedAt, output: { outputType: 'completed', ...(view.output as object), costDollars: view.costDollars } });
  return events;
}

const GetQuery = z.object({ stream: z.enum(['true', 'false']).default('false'), events: z.enum(['true', 'false']).default('false') }).passthrough();
type GetQuery = z.infer<typeof GetQuery>;

/** One task; `events=true` adds its log, `stream=true` sends the log as server-sent events. */
function researchGet(call: { params: { id: string }; query: GetQuery }, c: ExaCtx) {
  const doc = c.research.get(call.params.id);
  if (!doc || doc.key !== c.key!.key) throw exaError(404, 'NOT_FOUND', `Research request ${call.params.id} not found`);
  const view = researchView(doc, c.ctx.nowMs);
  const events = researchEvents(doc, view);
  if (call.query.stream === 'true') return sseResponse(events.map((e) => ({ event: String(e.eventType), data: e })));
  return jsonResponse(200, call.query.events === 'true' ? { ...view, events } : view);
}

/** Newest first; the cursor is the id of the last item of the previous page. */
function page<T>(items: readonly T[], idOf: (t: T) => string, q: ListQuery) {
  const start = q.cursor === undefined ? 0 : items.findIndex((t) => idOf(t) === q.cursor) + 1;
  const slice = items.slice(start, start + q.limit);
  const hasMore = start + q.limit < items.length;
  return { slice, hasMore, nextCursor: hasMore && slice.length > 0 ? idOf(slice[slice.length - 1]!) : null };
}

function researchList(call: { query: ListQuery }, c: ExaCtx) {
  const mine = c.research.values().filter((d) => d.key === c.key!.key).sort((a, b) => b.createdAt - a.createdAt || (a.researchId < b.researchId ? 1 : -1));
  const { slice, hasMore, nextCursor } = page(mine, (d) => d.researchId, call.query);
  return jsonResponse(200, { data: slice.map((d) => researchView(d, c.ctx.nowMs)), hasMore, nextCursor });
}

const AgentBody = z.object({
  query: z.string({ required_error: 'query is required' }).min(1, 'query must not be empty'),
  systemPrompt: z.string().optional(),
  outputSchema: z.record(z.unknown()).optional(),
  input: z.object({ data: z.array(z.record(z.unknown())).optional(), exclusion: z.array(z.record(z.unknown())).optional() }).passthrough().optional(),
  dataSources: z.array(z.object({ provider: z.string() }).passthrough()).max(5).optional(),
  previousRunId: z.string().optional(),
  effort: z.enum(['minimal', 'low', 'medium', 'high', 'xhigh', 'auto', 'ultra', 'max']).default('low'),
  stream: z.boolean().default(false),
}).passthrough();
type AgentBody = z.infer<typeof AgentBody>;

const SEARCHES: Record<string, number> = { minimal: 1, low: 2, medium: 4, high: 8, xhigh: 12, auto: 4, ultra: 16, max: 20 };

/** The run as the API shows it at `nowMs`: queued until the next logical moment, then completed. */
function runView(run: AgentRunDoc, nowMs: number): Record<string, unknown> {
  const createdAt = new Date(run.createdMs).toISOString();
  const base = { id: run.id, object: 'agent_run', createdAt, request: { query: run.query, effort: run.effort } };
  if (run.cancelledMs !== null) return Object.assign(base, { status: 'cancelled', stopReason: 'cancelled', completedAt: new Date(run.cancelledMs).toISOString(), output: null });
  if (!run.streamed && nowMs <= run.createdMs) return Object.assign(base, { status: 'queued', stopReason: null, completedAt: null, output: null });
  const compute = SEARCHES[run.effort]!;
  return Object.assign(base, { status: 'completed', stopReason: run.structured === null ? 'stopped' : 'schema_satisfied', completedAt: createdAt,
    output: { text: run.text, structured: run.structured, grounding: [{ field: run.structured === null ? 'text' : 'structured', citations: run.citations, confidence: run.citations.length >= 2 ? 'high' : 'low' }] },
    usage: { agentComputeUnits: compute, searches: run.searches },
    costDollars: { total: Math.round((compute * 0.01 + run.searches * 0.005) * 1e6) / 1e6, agentCompute: compute * 0.01, search: run.searches * 0.005 },
  });
}

/** Server-sent events, the whole stream in one body: the logical clock does not move inside a request. */
function sseResponse(events: { event: string; data: unknown }[]): ServiceResponse {
  const body = events.map((e, i) => `id: ${i + 1}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join('');
  return { status: 200, headers: [['Content-Type', 'text/event-stream; charset=utf-8'], ['Cache-Control', 'no-cache']], body: bytes(body) };
}

function agentCreate(call: { body: AgentBody; req: { header(name: string): string | undefined } }, c: ExaCtx) {
  const b = call.body;
  const streamed = b.stream || (call.req.header('accept') ?? '').includes('text/event-stream');
  if (b.previousRunId !== undefined && !c.agentRuns.get(b.previousRunId)) throw exaError(404, 'NOT_FOUND', `Agent run ${b.previousRunId} not found`);
  const searches = SEARCHES[b.effort]!;
  const hits = search(c.web.pages.values(), b.query).slice(0, Math.max(3, searches));
  const run: AgentRunDoc = {
    id: prefixedId(c.ctx, 'agent_run_', 'agent_run', 24), key: c.key!.key, createdMs: c.ctx.nowMs, query: b.query, effort: b.effort, streamed, cancelledMs: null,
    text: hits.length === 0 ? 'No sources in the index answer this query.' : extractiveAnswer(hits, b.query, 3, 1200),
    structured: b.outputSchema ? fillSchema(b.outputSchema, hits, b.query) : null,
    citations: hits.slice(0, 5).map((h) => ({ url: h.page.url, title: h.page.title })), searches,
  };
  c.agentRuns.put(run.id, run);
  bill(c, Math.round((searches * 0.01 + searches * 0.005) * 1_000_000));
  if (!streamed) return jsonResponse(200, runView(run, c.ctx.nowMs));
  const done = runView(run, c.ctx.nowMs);
  return sseResponse([
    { event: 'agent_run.created', data: { id: run.id, object: 'agent_run', status: 'queued', createdAt: done.createdAt } },
    { event: 'agent_run.started', data: { id: run.id, status: 'running' } },
    ...hits.slice(0, searches).map((h, i) => ({ event: 'agent_run.search_trace', data: { id: run.id, index: i, url: h.page.url, title: h.page.title } })),
    { event: 'agent_run.completed', data: done },
  ]);
}

function ownRun(c: ExaCtx, id: string): AgentRunDoc {
  const run = c.agentRuns.get(id);
  if (!run || run.key !== c.key!.key) throw exaError(404, 'NOT_FOUND', `Agent run ${id} not found`);
  return run;
}

function agentGet(call: { params: { id: string } }, c: ExaCtx) {
  return jsonResponse(200, runView(ownRun(c, call.params.id), c.ctx.nowMs));
}

function agentList(call: { query: ListQuery }, c: ExaCtx) {
  const mine = c.agentRuns.values().filter((r) => r.key === c.key!.key).sort((a, b) => b.createdMs - a.createdMs || (a.id < b.id ? 1 : -1));
  const { slice, hasMore, nextCursor } = page(mine, (r) => r.id, call.query);
  return jsonResponse(200, { data: slice.map((r) => runView(r, c.ctx.nowMs)), hasMore, nextCursor });
}

function agentCancel(call: { params: { id: string } }, c: ExaCtx) {
  const run = ownRun(c, call.params.id);
  const view = runView(run, c.ctx.nowMs);
  if (view.status === 'completed' || view.status === 'cancelled') throw exaError(409, 'CONFLICT', `Agent run ${run.id} is already ${String(view.status)}`);
  const cancelled = c.agentRuns.put(run.id, { ...run, cancelledMs: c.ctx.nowMs });
  return jsonResponse(200, runView(cancelled, c.ctx.nowMs));
}

export const taskOperations: Operation<ExaCtx>[] = [
  operation<ExaCtx, '/research/v1', Record<string, string>, ResearchBody>('research.create', rest('POST', '/research/v1'), researchCreate, { input: { body: ResearchBody } }),
  operation<ExaCtx, '/research/v1', ListQuery>('research.list', rest('GET', '/research/v1'), researchList, { input: { query: ListQuery } }),
  operation<ExaCtx, '/research/v1/:id', GetQuery>('research.get', rest('GET', '/research/v1/:id'), researchGet, { input: { query: GetQuery } }),
  operation<ExaCtx, '/agent/runs', Record<string, string>, AgentBody>('agent.runs.create', rest('POST', '/agent/runs'), agentCreate, { input: { body: AgentBody } }),
  operation<ExaCtx, '/agent/runs', ListQuery>('agent.runs.list', rest('GET', '/agent/runs'), agentList, { input: { query: ListQuery } }),
  operation<ExaCtx, '/agent/runs/:id'>('agent.runs.get', rest('GET', '/agent/runs/:id'), agentGet),
  operation<ExaCtx, '/agent/runs/:id/cancel'>('agent.runs.cancel', rest('POST', '/agent/runs/:id/cancel'), agentCancel),
];
