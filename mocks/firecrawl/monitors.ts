import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import type { Collection } from '../core/store.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { search } from '../kit/web/search.js';
import { API_BASE, caller, charge, firecrawlError, iso, ownJob, requireCredits, type FirecrawlCtx } from './context.js';
import { fetchUrl } from './documents.js';

/**
 * `/v2/monitor`: recurring checks of pages, crawls or searches, compared with the previous check.
 * Stored and listed statefully; a check queued by `run` is done from the next logical moment on.
 * The corpus does not change during a trial, so a page is `new` at its first check and `same`
 * after; a page the corpus lacks is `error`. Schedules never fire on their own (the logical clock
 * moves only with requests).
 */

export interface MonitorDoc {
  id: string; team: string; name: string; status: 'active' | 'paused';
  schedule: { text?: string; cron: string; timezone: string };
  targets: Record<string, unknown>[]; goal: string | null; judgeEnabled: boolean; retentionDays: number;
  webhook: Record<string, unknown> | null; notification: Record<string, unknown> | null;
  lastRunAt: string | null; currentCheckId: string | null; createdAt: string; updatedAt: string;
}

interface CheckPage { id: string; targetId: string; url: string; status: 'same' | 'new' | 'changed' | 'removed' | 'error'; statusCode: number | null; error: string | null; createdAt: string }
export interface CheckDoc {
  id: string; monitorId: string; team: string; created_ms: number; pages: CheckPage[];
  targetResults: Record<string, unknown>[]; credits: number;
}

const monitors = (c: FirecrawlCtx): Collection<MonitorDoc> => c.ctx.store.collection('monitors');
const checks = (c: FirecrawlCtx): Collection<CheckDoc> => c.ctx.store.collection('monitor_checks');

/** `every 30 minutes`, `hourly`, `daily at 9:00` as the cron Firecrawl normalises them to. */
export function cronOf(text: string): string {
  const t = text.trim().toLowerCase();
  const every = /^every (\d+) (minute|minutes|hour|hours)$/.exec(t);
  if (every) return every[2]!.startsWith('minute') ? `*/${every[1]} * * * *` : `0 */${every[1]} * * *`;
  if (t === 'hourly' || t === 'every hour') return '0 * * * *';
  const daily = /^(?:daily|every day)(?: at (\d{1,2})(?::(\d{2}))?)?$/.exec(t);
  if (daily) return `${Number(daily[2] ?? 0)} ${Number(daily[1] ?? 0)} * * *`;
  if (t === 'weekly' || t === 'every week') return '0 0 * * 1';
  if (/^(\S+\s+){4}\S+$/.test(t)) return t;
  throw firecrawlError(400, `Could not understand the schedule "${text}". Use a cron expression or text such as "every 30 minutes", "hourly" or "daily at 9:00".`, 'BAD_REQUEST');
}

const Target = z.object({ type: z.enum(['scrape', 'crawl', 'search']), id: z.string().optional() }).passthrough();
const Schedule = z.object({ cron: z.string().optional(), text: z.string().optional(), timezone: z.string().default('UTC') }).passthrough();

const CreateBody = z.object({
  name: z.string().min(1),
  schedule: Schedule,
  targets: z.array(Target).min(1),
  goal: z.string().optional(),
  judgeEnabled: z.boolean().default(false),
  retentionDays: z.number().int().positive().max(365).default(30),
  webhook: z.record(z.unknown()).optional(),
  notification: z.record(z.unknown()).optional(),
  origin: z.string().optional(),
}).passthrough();

const UpdateBody = z.object({
  name: z.string().min(1).optional(),
  status: z.enum(['active', 'paused']).optional(),
  schedule: Schedule.optional(),
  targets: z.array(Target).min(1).optional(),
  goal: z.string().nullable().optional(),
  judgeEnabled: z.boolean().optional(),
  retentionDays: z.number().int().positive().max(365).optional(),
  webhook: z.record(z.unknown()).nullable().optional(),
  notification: z.record(z.unknown()).nullable().optional(),
}).passthrough();

function withTargetIds(c: FirecrawlCtx, targets: z.infer<typeof Target>[]): Record<string, unknown>[] {
  return targets.map((t) => ({ ...t, id: t.id ?? uuidId(c.ctx, 'monitor-target') }));
}

function schedule(s: z.infer<typeof Schedule>): MonitorDoc['schedule'] {
  if (!s.cron && !s.text) throw firecrawlError(400, 'schedule needs cron or text', 'BAD_REQUEST');
  return { ...(s.text ? { text: s.text } : {}), cron: s.cron ?? cronOf(s.text!), timezone: s.timezone };
}

/** The public form: the stored monitor with its last check's summary; unset objects are left out. */
function view(c: FirecrawlCtx, m: MonitorDoc) {
  const { team: _team, webhook, notification, ...rest } = m;
  const last = m.currentCheckId ? checks(c).get(m.currentCheckId) : undefined;
  return {
    ...rest, ...(webhook ? { webhook } : {}), ...(notification ? { notification } : {}),
    nextRunAt: null, ...(last ? { lastCheckSummary: summary(last.pages) } : {}), estimatedCreditsPerMonth: estimate(m),
  };
}

/** Pages per check times checks a month (30 days of the cron's interval), one credit a page. */
function estimate(m: MonitorDoc): number {
  const pages = m.targets.reduce((n, t) => n + (Array.isArray(t.urls) ? t.urls.length : t.type === 'search' ? Number(t.maxResults ?? 10) : 10), 0);
  const minutes = /^\*\/(\d+) /.exec(m.schedule.cron)?.[1];
  const hours = /^0 \*\/(\d+) /.exec(m.schedule.cron)?.[1];
  const perDay = minutes ? 1440 / Number(minutes) : hours ? 24 / Number(hours) : m.schedule.cron.startsWith('0 * ') ? 24 : m.schedule.cron.endsWith('* * 1') ? 1 / 7 : 1;
  return Math.round(pages * perDay * 30);
}

function summary(pages: readonly CheckPage[]) {
  const count = (s: CheckPage['status']) => pages.filter((p) => p.status === s).length;
  return { totalPages: pages.length, same: count('same'), changed: count('changed'), new: count('new'), removed: count('removed'), error: count('error') };
}

function own(c: FirecrawlCtx, id: string): MonitorDoc {
  return ownJob(c, monitors(c).get(id), 'Monitor not found');
}

function create(call: { body: z.infer<typeof CreateBody> }, c: FirecrawlCtx) {
  const b = call.body;
  const id = uuidId(c.ctx, 'monitor');
  const now = iso(c.ctx.nowMs);
  const doc: MonitorDoc = {
    id, team: caller(c).team, name: b.name, status: 'active', schedule: schedule(b.schedule), targets: withTargetIds(c, b.targets),
    goal: b.goal ?? null, judgeEnabled: b.judgeEnabled, retentionDays: b.retentionDays, webhook: b.webhook ?? null, notification: b.notification ?? null,
    lastRunAt: null, currentCheckId: null, createdAt: now, updatedAt: now,
  };
  monitors(c).put(id, doc);
  return jsonResponse(200, { success: true, data: view(c, doc) });
}

const Page = z.object({ limit: z.coerce.number().int().positive().max(100).default(20), offset: z.coerce.number().int().nonnegative().default(0) }).passthrough();

function list(call: { query: z.infer<typeof Page> }, c: FirecrawlCtx) {
  const { limit, offset } = call.query;
  const all = monitors(c).values().filter((m) => m.team === caller(c).team).sort((a, b) => (a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  return jsonResponse(200, { success: true, data: all.slice(offset, offset + limit).map((m) => view(c, m)), pagination: { limit, offset, total: all.length, hasMore: offset + limit < all.length } });
}

function update(call: { params: { id: string }; body: z.infer<typeof UpdateBody> }, c: FirecrawlCtx) {
  const m = own(c, call.params.id);
  const b = call.body;
  const next: MonitorDoc = {
    ...m,
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(b.status !== undefined ? { status: b.status } : {}),
    ...(b.schedule !== undefined ? { schedule: schedule(b.schedule) } : {}),
    ...(b.targets !== undefined ? { targets: withTargetIds(c, b.targets) } : {}),
    ...(b.goal !== undefined ? { goal: b.goal } : {}),
    ...(b.judgeEnabled !== undefined ? { judgeEnabled: b.judgeEnabled } : {}),
    ...(b.retentionDays !== undefined ? { retentionDays: b.retentionDays } : {}),
    ...(b.webhook !== undefined ? { webhook: b.webhook } : {}),
    ...(b.notification !== undefined ? { notification: b.notification } : {}),
    updatedAt: iso(c.ctx.nowMs),
  };
  monitors(c).put(m.id, next);
  return jsonResponse(200, { success: true, data: view(c, next) });
}

function remove(call: { params: { id: string } }, c: FirecrawlCtx) {
  const m = own(c, call.params.id);
  monitors(c).delete(m.id);
  return jsonResponse(200, { success: true, data: { id: m.id, deleted: true } });
}

/** What one check sees: every scrape target's URLs, a crawl target's start URL, a search's hits. */
function checkPages(c: FirecrawlCtx, m: MonitorDoc, checkedBefore: (url: string) => boolean): { pages: CheckPage[]; results: Record<string, unknown>[] } {
  const pages: CheckPage[] = [];
  const results: Record<string, unknown>[] = [];
  const at = iso(c.ctx.nowMs);
  const add = (targetId: string, url: string) => {
    const f = fetchUrl(c, url);
    const ok = f.kind === 'page' && f.page.status < 400;
    pages.push({
      id: uuidId(c.ctx, 'monitor-page'), targetId, url: f.kind === 'page' ? f.page.url : url,
      status: ok ? (checkedBefore(f.page.url) ? 'same' : 'new') : 'error',
      statusCode: f.kind === 'page' ? f.page.status : f.kind === 'missing' ? 404 : null,
      error: ok ? null : f.kind === 'dns' ? 'SCRAPE_DNS_RESOLUTION_ERROR' : 'Not Found', createdAt: at,
    });
  };
  for (const t of m.targets) {
    const targetId = String(t.id);
    if (t.type === 'scrape') {
      for (const url of (t.urls as string[] | undefined) ?? []) add(targetId, url);
      results.push({ targetId, type: 'scrape', expectedJobs: [] });
    } else if (t.type === 'crawl') {
      if (typeof t.url === 'string') add(targetId, t.url);
      results.push({ targetId, type: 'crawl', crawlId: null });
    } else {
      const queries = (t.queries as string[] | undefined) ?? [];
      const hits = queries.flatMap((q) => search(c.web.pages.values(), q).slice(0, Number(t.maxResults ?? 10)).map((h) => h.page.url));
      for (const url of [...new Set(hits)]) add(targetId, url);
      results.push({ targetId, type: 'search', searchCompleted: true, resultCount: hits.length, matches: new Set(hits).size, searchCredits: 2 * queries.length });
    }
  }
  return { pages, results };
}

function run(call: { params: { id: string } }, c: FirecrawlCtx) {
  const m = own(c, call.params.id);
  const earlier = checks(c).values().filter((k) => k.monitorId === m.id);
  const seen = new Set(earlier.flatMap((k) => k.pages.filter((p) => p.status !== 'error').map((p) => p.url)));
  const { pages, results } = checkPages(c, m, (url) => seen.has(url));
  requireCredits(c, pages.length);
  const id = uuidId(c.ctx, 'monitor-check');
  const doc: CheckDoc = { id, monitorId: m.id, team: m.team, created_ms: c.ctx.nowMs, pages, targetResults: results, credits: charge(c, pages.length) };
  checks(c).put(id, doc);
  monitors(c).put(m.id, { ...m, lastRunAt: iso(c.ctx.nowMs), currentCheckId: id });
  return jsonResponse(200, { success: true, data: checkView(c, doc) });
}

/** A check is `queued` at the moment it was asked for and `completed` from the next moment on. */
function checkView(c: FirecrawlCtx, k: CheckDoc) {
  const done = c.ctx.nowMs > k.created_ms;
  return {
    id: k.id, monitorId: k.monitorId, status: done ? 'completed' : 'queued', trigger: 'manual', scheduledFor: null,
    startedAt: done ? iso(k.created_ms) : null, finishedAt: done ? iso(k.created_ms + 1) : null,
    estimatedCredits: k.pages.length, reservedCredits: k.pages.length, actualCredits: done ? k.credits : null,
    billingStatus: done ? 'confirmed' : 'reserved', summary: done ? summary(k.pages) : summary([]),
    targetResults: k.targetResults, error: null, createdAt: iso(k.created_ms), updatedAt: iso(done ? k.created_ms + 1 : k.created_ms),
  };
}

const CheckList = Page.extend({ status: z.string().optional() });

function checkList(call: { params: { id: string }; query: z.infer<typeof CheckList> }, c: FirecrawlCtx) {
  const m = own(c, call.params.id);
  const { limit, offset, status } = call.query;
  const all = checks(c).values().filter((k) => k.monitorId === m.id).map((k) => checkView(c, k)).reverse().filter((k) => !status || k.status === status);
  return jsonResponse(200, { success: true, data: all.slice(offset, offset + limit), pagination: { limit, offset, total: all.length, hasMore: offset + limit < all.length } });
}

const CheckQuery = z.object({ limit: z.coerce.number().int().positive().max(100).default(20), skip: z.coerce.number().int().nonnegative().default(0), status: z.enum(['same', 'new', 'changed', 'removed', 'error']).optional() }).passthrough();

function checkGet(call: { params: { id: string; checkId: string }; query: z.infer<typeof CheckQuery> }, c: FirecrawlCtx) {
  const m = own(c, call.params.id);
  const k = checks(c).get(call.params.checkId);
  if (!k || k.monitorId !== m.id) throw firecrawlError(404, 'Monitor check not found');
  const { limit, skip, status } = call.query;
  const done = c.ctx.nowMs > k.created_ms;
  const pages = (done ? k.pages : []).filter((p) => !status || p.status === status);
  const more = skip + limit < pages.length;
  const next = more ? `${API_BASE}/v2/monitor/${m.id}/checks/${k.id}?skip=${skip + limit}&limit=${limit}${status ? `&status=${status}` : ''}` : null;
  // Object.assign on the fresh render, not `{ ...checkView(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  return jsonResponse(200, { success: true, data: Object.assign(checkView(c, k), { pages: pages.slice(skip, skip + limit).map((p) => ({ ...p, previousScrapeId: null, currentScrapeId: null, diff: null, snapshot: null, judgment: null })), next }), pagination: { limit, skip, total: pages.length }, next });
}

type Id = { params: { id: string } };

export const monitorOperations: Operation<FirecrawlCtx>[] = [
  operation<FirecrawlCtx, '/v2/monitor', Record<string, string>, z.infer<typeof CreateBody>>('monitor.create', rest('POST', '/v2/monitor'), create, { input: { body: CreateBody } }),
  operation<FirecrawlCtx, '/v2/monitor', z.infer<typeof Page>>('monitor.list', rest('GET', '/v2/monitor'), list, { input: { query: Page } }),
  operation<FirecrawlCtx, '/v2/monitor/:id'>('monitor.get', rest('GET', '/v2/monitor/:id'), (call: Id, c) => jsonResponse(200, { success: true, data: view(c, own(c, call.params.id)) })),
  operation<FirecrawlCtx, '/v2/monitor/:id', Record<string, string>, z.infer<typeof UpdateBody>>('monitor.update', rest('PATCH', '/v2/monitor/:id'), update, { input: { body: UpdateBody } }),
  operation<FirecrawlCtx, '/v2/monitor/:id'>('monitor.delete', rest('DELETE', '/v2/monitor/:id'), remove),
  operation<FirecrawlCtx, '/v2/monitor/:id/run'>('monitor.run', rest('POST', '/v2/monitor/:id/run'), run),
  operation<FirecrawlCtx, '/v2/monitor/:id/checks', z.infer<typeof CheckList>>('monitor.checks.list', rest('GET', '/v2/monitor/:id/checks'), checkList, { input: { query: CheckList } }),
  operation<FirecrawlCtx, '/v2/monitor/:id/checks/:checkId', z.infer<typeof CheckQuery>>('monitor.checks.get', rest('GET', '/v2/monitor/:id/checks/:checkId'), checkGet, { input: { query: CheckQuery } }),
];
