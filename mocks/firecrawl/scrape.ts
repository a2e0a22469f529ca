import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { bestSentences, findPage } from '../kit/web/search.js';
import { badRequest, charge, firecrawlError, invalidUrls, iso, requireCredits, type FirecrawlCtx } from './context.js';
import { fetchUrl, pageCredits, ScrapeOptionsShape, scrapeUrl, type ScrapeDoc } from './documents.js';
import { cancelJob, documentPage, errorsOf, findJob, jobUrl, putJob, type JobError } from './jobs.js';
import { exchangeDisabled } from './account.js';

/** `/v2/scrape`, `/v2/batch/scrape` and interact sessions over the corpus. */

const ScrapeBody = z.object({
  url: z.string().min(1).optional(),
  alexandria: z.unknown().optional(),
  ...ScrapeOptionsShape,
}).passthrough();

function scrape(call: { body: z.infer<typeof ScrapeBody> }, c: FirecrawlCtx) {
  const b = call.body;
  // Alexandria execution needs a team with the exchange enabled; this world's teams have none.
  if (b.alexandria !== undefined) throw exchangeDisabled();
  if (!b.url) throw badRequest([{ code: 'invalid_type', path: ['url'], message: 'Required' }]);
  const cost = pageCredits(b);
  requireCredits(c, cost);
  const result = scrapeUrl(c, b.url, b);
  // Firecrawl answers a host that does not resolve with HTTP 200 and success false (and bills it).
  if (!result.ok) {
    if (result.code === 'BAD_REQUEST') throw invalidUrls('url', [b.url!]);
    charge(c, 1);
    return jsonResponse(200, { success: false, code: result.code, error: result.error });
  }
  charge(c, cost);
  return jsonResponse(200, { success: true, data: result.doc });
}

const BatchBody = z.object({
  urls: z.array(z.string()).min(1, 'URLs list cannot be empty').max(1000),
  ignoreInvalidURLs: z.boolean().default(true),
  webhook: z.unknown().optional(),
  appendToId: z.string().optional(),
  maxConcurrency: z.number().int().positive().optional(),
  ...ScrapeOptionsShape,
}).passthrough();

function batchStart(call: { body: z.infer<typeof BatchBody> }, c: FirecrawlCtx) {
  const b = call.body;
  const invalid = b.urls.filter((u) => fetchUrl(c, u).kind === 'invalid');
  if (invalid.length > 0 && !b.ignoreInvalidURLs) throw invalidUrls('urls', invalid);
  const urls = b.urls.filter((u) => !invalid.includes(u));
  const per = pageCredits(b);
  requireCredits(c, per * urls.length);
  const id = uuidId(c.ctx, 'batch');
  const docs: Record<string, unknown>[] = [];
  const errors: JobError[] = [];
  for (const url of urls) {
    const result = scrapeUrl(c, url, b);
    if (result.ok) docs.push(result.doc);
    else errors.push({ id: uuidId(c.ctx, 'scrape'), timestamp: iso(c.ctx.nowMs), url, code: result.code, error: result.error });
  }
  const credits = charge(c, per * docs.length + errors.length);
  putJob(c, { id, team: c.key!.team, kind: 'batch', url: urls[0] ?? null, docs, errors, credits });
  return jsonResponse(200, { success: true, id, url: jobUrl('batch', id), ...(b.ignoreInvalidURLs ? { invalidURLs: invalid } : {}) });
}

const Skip = z.object({ skip: z.string().optional() }).passthrough();

const InteractBody = z.object({
  prompt: z.string().optional(),
  code: z.string().optional(),
  language: z.enum(['bash', 'python', 'node']).default('node'),
  timeout: z.number().optional(),
  origin: z.string().optional(),
}).passthrough();

function ownScrape(c: FirecrawlCtx, id: string): ScrapeDoc {
  const s = c.ctx.store.collection<ScrapeDoc>('scrapes').get(id);
  if (!s || s.team !== c.key!.team) throw firecrawlError(404, 'Scrape job not found.');
  return s;
}

/**
 * A session on the scraped page. The corpus pages are static documents, so a `prompt` is answered
 * from the page's text (its best sentences); running code needs the scrape's live browser, which
 * this world never had: Firecrawl's 409 for a scrape without a replay context (docs/firecrawl-mock.md).
 */
function interact(call: { params: { id: string }; body: z.infer<typeof InteractBody> }, c: FirecrawlCtx) {
  const s = ownScrape(c, call.params.id);
  const b = call.body;
  if (!b.prompt && !b.code) throw firecrawlError(400, "Either 'code' or 'prompt' must be provided", 'BAD_REQUEST');
  if (b.code) throw firecrawlError(409, 'Replay context is unavailable for this scrape job. Please rerun the scrape.');
  const page = findPage(c.web, s.url);
  const output = page ? bestSentences(page, b.prompt!, 2).join(' ') : '';
  charge(c, 1);
  return jsonResponse(200, { success: true, cdpUrl: null, liveViewUrl: null, interactiveLiveViewUrl: null, output, stdout: null, result: null, stderr: null, exitCode: null, killed: false, error: null });
}

function interactStop(call: { params: { id: string } }, c: FirecrawlCtx) {
  const s = ownScrape(c, call.params.id);
  return jsonResponse(200, { success: true });
}

type Id = { params: { id: string } };

export const scrapeOperations: Operation<FirecrawlCtx>[] = [
  operation<FirecrawlCtx, '/v2/scrape', Record<string, string>, z.infer<typeof ScrapeBody>>('scrape', rest('POST', '/v2/scrape'), scrape, { input: { body: ScrapeBody } }),
  operation<FirecrawlCtx, '/v2/scrape/:id/interact', Record<string, string>, z.infer<typeof InteractBody>>('scrape.interact', rest('POST', '/v2/scrape/:id/interact'), interact, { input: { body: InteractBody } }),
  operation<FirecrawlCtx, '/v2/scrape/:id/interact'>('scrape.interact.stop', rest('DELETE', '/v2/scrape/:id/interact'), interactStop),
  operation<FirecrawlCtx, '/v2/batch/scrape', Record<string, string>, z.infer<typeof BatchBody>>('batch.scrape.create', rest('POST', '/v2/batch/scrape'), batchStart, { input: { body: BatchBody } }),
  operation<FirecrawlCtx, '/v2/batch/scrape/:id', z.infer<typeof Skip>>('batch.scrape.get', rest('GET', '/v2/batch/scrape/:id'), (call, c) => documentPage(c, findJob(c, 'batch', call.params.id), call.query.skip), { input: { query: Skip } }),
  operation<FirecrawlCtx, '/v2/batch/scrape/:id/errors'>('batch.scrape.errors', rest('GET', '/v2/batch/scrape/:id/errors'), (call: Id, c) => errorsOf(findJob(c, 'batch', call.params.id))),
  operation<FirecrawlCtx, '/v2/batch/scrape/:id'>('batch.scrape.cancel', rest('DELETE', '/v2/batch/scrape/:id'), (call: Id, c) => cancelJob(c, findJob(c, 'batch', call.params.id))),
];
