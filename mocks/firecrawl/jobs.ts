import { jsonResponse } from '../core/http.js';
import type { Collection } from '../core/store.js';
import { API_BASE, firecrawlError, iso, ownJob, type FirecrawlCtx } from './context.js';

/**
 * Firecrawl's asynchronous jobs (crawl, batch scrape, extract, agent) on the logical clock: the work
 * is done when the job is created (the corpus is static), but the job reads as in progress at the
 * moment of its creation and as completed from the next logical moment on, as a poll a little
 * later finds it. Documents are paged by `next` links, absolute on the API host.
 */

export type JobKind = 'crawl' | 'batch' | 'extract' | 'agent';

export interface JobError { id: string; timestamp: string; url: string; code: string; error: string }

export interface JobDoc {
  id: string;
  team: string;
  kind: JobKind;
  created_ms: number;
  /** The crawl's start URL, the batch's first URL, the extract's first URL. */
  url: string | null;
  cancelled: boolean;
  /** Scraped documents (crawl, batch). */
  docs: Record<string, unknown>[];
  errors: JobError[];
  robotsBlocked: string[];
  credits: number;
  /** Extract and agent results. */
  data: unknown;
  sources: unknown;
  /** Agent threads; the request's options (for `/v2/crawl/active`). */
  extra: Record<string, unknown>;
}

export const jobs = (c: FirecrawlCtx): Collection<JobDoc> => c.ctx.store.collection<JobDoc>('jobs');

/** Documents per page of a job's status; a fuller answer carries `next`. */
export const JOB_PAGE = 10;
const DAY = 86_400_000;

const NOT_FOUND: Record<JobKind, string> = { crawl: 'Job not found', batch: 'Job not found', extract: 'Extract job not found', agent: 'Agent job not found' };
const PATH: Record<JobKind, string> = { crawl: '/v2/crawl', batch: '/v2/batch/scrape', extract: '/v2/extract', agent: '/v2/agent' };

export function jobUrl(kind: JobKind, id: string): string {
  return `${API_BASE}${PATH[kind]}/${id}`;
}

/** `scraping`/`processing` at the moment of creation, `completed` after, `cancelled` once cancelled. */
export function jobStatus(c: FirecrawlCtx, job: JobDoc): string {
  if (job.cancelled) return 'cancelled';
  if (c.ctx.nowMs <= job.created_ms) return job.kind === 'crawl' || job.kind === 'batch' ? 'scraping' : 'processing';
  return 'completed';
}

export function findJob(c: FirecrawlCtx, kind: JobKind, id: string): JobDoc {
  const job = jobs(c).get(id);
  return ownJob(c, job?.kind === kind ? job : undefined, NOT_FOUND[kind]);
}

export function putJob(c: FirecrawlCtx, job: Omit<JobDoc, 'created_ms' | 'cancelled' | 'errors' | 'robotsBlocked' | 'docs' | 'data' | 'sources' | 'extra'> & Partial<JobDoc>): JobDoc {
  return jobs(c).put(job.id, { created_ms: c.ctx.nowMs, cancelled: false, errors: [], robotsBlocked: [], docs: [], data: null, sources: null, extra: {}, ...job });
}

/** `GET /v2/crawl/{id}` and `/v2/batch/scrape/{id}`: one page of documents from `skip`. */
export function documentPage(c: FirecrawlCtx, job: JobDoc, skipRaw: string | undefined) {
  const status = jobStatus(c, job);
  const done = status !== 'scraping';
  const all = done ? job.docs : [];
  const skip = Math.max(0, Number.parseInt(skipRaw ?? '0', 10) || 0);
  const page = all.slice(skip, skip + JOB_PAGE);
  const more = skip + JOB_PAGE < all.length;
  return jsonResponse(200, {
    success: true,
    status,
    completed: done ? job.docs.length : 0,
    total: job.docs.length,
    creditsUsed: done ? job.credits : 0,
    expiresAt: iso(job.created_ms + DAY),
    ...(more ? { next: `${jobUrl(job.kind, job.id)}?skip=${skip + JOB_PAGE}` } : {}),
    data: page,
  });
}

export function errorsOf(job: JobDoc) {
  return jsonResponse(200, { errors: job.errors, robotsBlocked: job.robotsBlocked });
}

/** Cancels a job still running; a finished one stays as it is (its status says so). */
export function cancelJob(c: FirecrawlCtx, job: JobDoc) {
  if (jobStatus(c, job) === 'completed') throw firecrawlError(409, 'Job already completed and cannot be cancelled.');
  jobs(c).put(job.id, { ...job, cancelled: true });
  return jsonResponse(200, { success: true, status: 'cancelled' });
}
