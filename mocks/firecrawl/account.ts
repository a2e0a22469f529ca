import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { caller, firecrawlError, iso, remainingCredits, type FirecrawlCtx } from './context.js';
import type { ScrapeDoc } from './documents.js';
import type { JobDoc } from './jobs.js';
import type { SearchDoc } from './search.js';

/** The team's credit usage, feedback on finished jobs, and the Alexandria exchange (not enabled here). */

/** What Firecrawl answers a team whose plan has no Alexandria exchange (firecrawl-mcp falls back to web results). */
export function exchangeDisabled() {
  return firecrawlError(403, 'Exchange is not enabled for this team.');
}

/** The billing period: the calendar month of the logical clock. */
function period(nowMs: number): { start: string; end: string } {
  const d = new Date(nowMs);
  return { start: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)), end: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - 1) };
}

function creditUsage(c: FirecrawlCtx) {
  const key = caller(c);
  const { start, end } = period(c.ctx.nowMs);
  return jsonResponse(200, { success: true, data: { remainingCredits: remainingCredits(c), planCredits: key.planCredits, billingPeriodStart: start, billingPeriodEnd: end } });
}

const Historical = z.object({ byApiKey: z.enum(['true', 'false']).optional() }).passthrough();

/** One period (this month) with what this world has billed, per key when asked. */
function creditUsageHistorical(call: { query: z.infer<typeof Historical> }, c: FirecrawlCtx) {
  const key = caller(c);
  const { start, end } = period(c.ctx.nowMs);
  const usage = c.usage.get(key.team);
  const periods = call.query.byApiKey === 'true'
    ? c.keys.values().filter((k) => k.team === key.team).map((k) => ({ startDate: start, endDate: end, apiKey: k.key.slice(0, 6) + '…' + k.key.slice(-4), creditsUsed: usage?.byKey[k.key] ?? 0 }))
    : [{ startDate: start, endDate: end, creditsUsed: usage?.used ?? 0 }];
  return jsonResponse(200, { success: true, periods });
}

const Rating = z.enum(['good', 'partial', 'bad'], { errorMap: () => ({ message: 'rating must be one of: good, partial, bad' }) });

const FeedbackBody = z.object({
  endpoint: z.string().min(1),
  jobId: z.string().optional(),
  rating: Rating,
}).passthrough();

export interface FeedbackDoc { id: string; team: string; endpoint: string; jobId: string | null; rating: string; body: Record<string, unknown>; at: number }

/** Whether `jobId` names one of the team's scrapes, searches or jobs (feedback needs a real job). */
function knownJob(c: FirecrawlCtx, jobId: string): boolean {
  const team = caller(c).team;
  const s = c.ctx.store;
  return [s.collection<ScrapeDoc>('scrapes').get(jobId), s.collection<SearchDoc>('searches').get(jobId), s.collection<JobDoc>('jobs').get(jobId)].some((d) => d?.team === team);
}

function record(c: FirecrawlCtx, endpoint: string, jobId: string | null, rating: string, body: Record<string, unknown>) {
  const feedback = c.ctx.store.collection<FeedbackDoc>('feedback');
  if (jobId !== null && feedback.values().some((f) => f.jobId === jobId && f.team === caller(c).team)) {
    return jsonResponse(200, { success: true, alreadySubmitted: true, message: 'Feedback for this job was already recorded.', creditsRefunded: 0 });
  }
  const id = uuidId(c.ctx, 'feedback');
  const { origin: _origin, ...rest } = body;
  feedback.put(id, { id, team: caller(c).team, endpoint, jobId, rating, body: rest, at: c.ctx.nowMs });
  return jsonResponse(200, { success: true, feedbackId: id, message: 'Thanks, your feedback was recorded.', creditsRefunded: 0, alreadySubmitted: false });
}

function feedback(call: { body: z.infer<typeof FeedbackBody> }, c: FirecrawlCtx) {
  const b = call.body;
  if (b.endpoint !== 'alexandria') {
    if (!b.jobId) throw firecrawlError(400, 'jobId is required', 'BAD_REQUEST', { feedbackErrorCode: 'INVALID_REQUEST' });
    if (!knownJob(c, b.jobId)) throw firecrawlError(404, 'Job not found for this team.', '', { feedbackErrorCode: 'JOB_NOT_FOUND' });
  }
  return record(c, b.endpoint, b.jobId ?? null, b.rating, b);
}

const SearchFeedbackBody = z.object({ rating: Rating }).passthrough();

function searchFeedback(call: { params: { id: string }; body: z.infer<typeof SearchFeedbackBody> }, c: FirecrawlCtx) {
  const found = c.ctx.store.collection<SearchDoc>('searches').get(call.params.id);
  if (!found || found.team !== caller(c).team) throw firecrawlError(404, 'Search not found for this team.', '', { feedbackErrorCode: 'JOB_NOT_FOUND' });
  return record(c, 'search', call.params.id, call.body.rating, call.body);
}

export const accountOperations: Operation<FirecrawlCtx>[] = [
  operation<FirecrawlCtx, '/v2/team/credit-usage'>('team.creditUsage', rest('GET', '/v2/team/credit-usage'), (_call, c) => creditUsage(c)),
  operation<FirecrawlCtx, '/v2/team/credit-usage/historical', z.infer<typeof Historical>>('team.creditUsage.historical', rest('GET', '/v2/team/credit-usage/historical'), creditUsageHistorical, { input: { query: Historical } }),
  operation<FirecrawlCtx, '/v2/feedback', Record<string, string>, z.infer<typeof FeedbackBody>>('feedback.create', rest('POST', '/v2/feedback'), feedback, { input: { body: FeedbackBody } }),
  operation<FirecrawlCtx, '/v2/search/:id/feedback', Record<string, string>, z.infer<typeof SearchFeedbackBody>>('search.feedback', rest('POST', '/v2/search/:id/feedback'), searchFeedback, { input: { body: SearchFeedbackBody } }),
  operation<FirecrawlCtx, '/exchange/discover'>('exchange.discover', rest('GET', '/exchange/discover'), () => { throw exchangeDisabled(); }),
];
