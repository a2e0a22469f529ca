import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { PageDoc } from '../kit/web/corpus.js';
import { extractAcross, type JsonSchema } from '../kit/web/extract.js';
import { extractiveAnswer } from '../kit/web/render.js';
import { search, type Hit } from '../kit/web/search.js';
import { badRequest, charge, firecrawlError, invalidUrls, iso, requireCredits, type FirecrawlCtx } from './context.js';
import { fetchUrl } from './documents.js';
import { cancelJob, findJob, jobs, jobStatus, putJob } from './jobs.js';

/**
 * `/v2/extract` and `/v2/agent`: structured data from pages, as async jobs on the logical clock.
 * The fields come from what the pages state (mocks/kit/web/extract.ts), never from a model's
 * guess; the agent reads the URLs it was given, then the corpus's best pages for its prompt.
 */

const DAY = 86_400_000;

/** `https://site/*` stands for every page of the site under that path. */
function expandUrls(c: FirecrawlCtx, urls: readonly string[]): { pages: PageDoc[]; invalid: string[] } {
  const pages: PageDoc[] = [];
  const invalid: string[] = [];
  for (const raw of urls) {
    if (raw.endsWith('/*')) {
      const base = raw.slice(0, -2);
      const found = fetchUrl(c, base);
      if (found.kind === 'invalid') { invalid.push(raw); continue; }
      const prefix = new URL(/^https?:\/\//.test(base) ? base : `https://${base}`);
      pages.push(...c.web.pages.values().filter((p) => p.status < 400 && p.host.replace(/^www\./, '') === prefix.hostname.replace(/^www\./, '') && new URL(p.url).pathname.startsWith(prefix.pathname.replace(/\/$/, ''))).sort((a, b) => (a.url < b.url ? -1 : 1)));
      continue;
    }
    const found = fetchUrl(c, raw);
    if (found.kind === 'page' && found.page.status < 400) pages.push(found.page);
    else if (found.kind === 'invalid') invalid.push(raw);
  }
  return { pages: [...new Map(pages.map((p) => [p.url, p])).values()], invalid };
}

const topPages = (c: FirecrawlCtx, prompt: string, n: number): PageDoc[] => search(c.web.pages.values(), prompt).slice(0, n).map((h: Hit) => h.page);

const ExtractBody = z.object({
  urls: z.array(z.string()).max(10).optional(),
  prompt: z.string().optional(),
  schema: z.record(z.unknown()).optional(),
  systemPrompt: z.string().optional(),
  enableWebSearch: z.boolean().default(false),
  allowExternalLinks: z.boolean().default(false),
  showSources: z.boolean().default(false),
  ignoreInvalidURLs: z.boolean().default(true),
  scrapeOptions: z.record(z.unknown()).optional(),
  agent: z.unknown().optional(),
  webhook: z.unknown().optional(),
  origin: z.string().optional(),
  integration: z.string().optional(),
}).passthrough();

function extractStart(call: { body: z.infer<typeof ExtractBody> }, c: FirecrawlCtx) {
  const b = call.body;
  if ((!b.urls || b.urls.length === 0) && !b.prompt) throw badRequest([{ code: 'custom', path: ['urls'], message: 'Either urls or prompt is required' }]);
  const { pages: given, invalid } = expandUrls(c, b.urls ?? []);
  if (invalid.length > 0 && !b.ignoreInvalidURLs) throw invalidUrls('urls', invalid);
  const pages = b.enableWebSearch || given.length === 0 ? [...given, ...topPages(c, b.prompt ?? '', 5).filter((p) => !given.includes(p))] : given;
  const cost = Math.max(1, pages.length) * 5;
  requireCredits(c, cost);
  const id = uuidId(c.ctx, 'extract');
  const { data, sources } = extractAcross(pages, b.schema as JsonSchema | undefined, b.prompt);
  putJob(c, { id, team: c.key!.team, kind: 'extract', url: pages[0]?.url ?? null, credits: charge(c, cost), data, sources: b.showSources ? sources : null });
  return jsonResponse(200, { success: true, id, ...(invalid.length > 0 ? { invalidURLs: invalid } : {}) });
}

function extractGet(call: { params: { id: string } }, c: FirecrawlCtx) {
  const job = findJob(c, 'extract', call.params.id);
  const status = jobStatus(c, job);
  const done = status === 'completed';
  return jsonResponse(200, {
    success: true, status, data: done ? job.data : [], expiresAt: iso(job.created_ms + DAY),
    ...(done ? { creditsUsed: job.credits } : {}), ...(done && job.sources ? { sources: job.sources } : {}),
  });
}

const AgentBody = z.object({
  prompt: z.string().min(1).max(10_000),
  urls: z.array(z.string()).optional(),
  schema: z.record(z.unknown()).optional(),
  maxCredits: z.number().int().positive().default(2500),
  strictConstrainToURLs: z.boolean().default(false),
  model: z.enum(['spark-2', 'spark-1-pro', 'spark-1-mini']).default('spark-1-pro'),
  effort: z.enum(['low', 'medium', 'high']).optional(),
  threadId: z.string().uuid().optional(),
  mode: z.enum(['extract', 'chat']).default('extract'),
  exchange: z.record(z.unknown()).optional(),
  webhook: z.unknown().optional(),
  origin: z.string().optional(),
  integration: z.string().optional(),
}).passthrough();

/** The agent's reading list: its URLs (and, unless constrained to them, the corpus's best pages for the prompt). */
function agentStart(call: { body: z.infer<typeof AgentBody> }, c: FirecrawlCtx) {
  const b = call.body;
  const team = c.key!.team;
  const previous = b.threadId ? jobs(c).values().filter((j) => j.kind === 'agent' && j.team === team && j.extra.threadId === b.threadId) : [];
  if (b.threadId && previous.length === 0) throw firecrawlError(404, 'Agent thread not found');
  const { pages: given } = expandUrls(c, b.urls ?? []);
  const pages = b.strictConstrainToURLs ? given : [...given, ...topPages(c, b.prompt, 5).filter((p) => !given.includes(p))];
  const cost = Math.min(b.maxCredits, 10 + pages.length * 5);
  requireCredits(c, cost);
  const id = uuidId(c.ctx, 'agent');
  const threadId = b.threadId ?? uuidId(c.ctx, 'thread');
  const data = b.schema ? extractAcross(pages, b.schema as JsonSchema).data : { answer: extractiveAnswer(search(pages, b.prompt), b.prompt, 3) };
  putJob(c, {
    id, team, kind: 'agent', url: pages[0]?.url ?? null, credits: charge(c, cost), data,
    sources: pages.map((p) => ({ url: p.url, title: p.title })), extra: { threadId, threadTurn: previous.length + 1, model: b.model, mode: b.mode },
  });
  return jsonResponse(200, { success: true, id, threadId, threadTurn: previous.length + 1 });
}

function agentGet(call: { params: { id: string } }, c: FirecrawlCtx) {
  const job = findJob(c, 'agent', call.params.id);
  const status = jobStatus(c, job);
  const done = status === 'completed';
  return jsonResponse(200, {
    success: true, id: job.id, status, model: job.extra.model, mode: job.extra.mode, threadId: job.extra.threadId, threadTurn: job.extra.threadTurn,
    expiresAt: iso(job.created_ms + DAY),
    ...(done ? { data: job.data, sources: job.sources, creditsUsed: job.credits } : { progress: { pagesRead: 0 } }),
  });
}

export const researchOperations: Operation<FirecrawlCtx>[] = [
  operation<FirecrawlCtx, '/v2/extract', Record<string, string>, z.infer<typeof ExtractBody>>('extract.create', rest('POST', '/v2/extract'), extractStart, { input: { body: ExtractBody } }),
  operation<FirecrawlCtx, '/v2/extract/:id'>('extract.get', rest('GET', '/v2/extract/:id'), extractGet),
  operation<FirecrawlCtx, '/v2/agent', Record<string, string>, z.infer<typeof AgentBody>>('agent.create', rest('POST', '/v2/agent'), agentStart, { input: { body: AgentBody } }),
  operation<FirecrawlCtx, '/v2/agent/:id'>('agent.get', rest('GET', '/v2/agent/:id'), agentGet),
  operation<FirecrawlCtx, '/v2/agent/:id'>('agent.cancel', rest('DELETE', '/v2/agent/:id'), (call, c) => cancelJob(c, findJob(c, 'agent', call.params.id))),
];
