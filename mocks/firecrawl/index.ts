import type { ServiceRequest, ServiceResponse } from '../core/http.js';
import type { FaultOrder, ServiceContext } from '../core/service.js';
import { defineService } from '../kit/define.js';
import { loadCorpus } from '../kit/web/render.js';
import { accountOperations } from './account.js';
import { badRequest, firecrawlAuth, firecrawlContext, firecrawlError, iso, renderError, type FirecrawlCtx } from './context.js';
import { crawlOperations } from './crawl.js';
import { FirecrawlDatasetSchema, type FirecrawlDataset } from './dataset.js';
import { cronOf, monitorOperations, type MonitorDoc } from './monitors.js';
import { researchOperations } from './research.js';
import { scrapeOperations } from './scrape.js';
import { searchOperations } from './search.js';

/**
 * Firecrawl's API v2 (api.firecrawl.dev) over the scenario's web (mocks/kit/web): scrape, batch
 * scrape, crawl, map, search, extract, agent, monitors, the developer and research indexes and the
 * team's credits. A `fc-` key as a bearer token; errors as `{success: false, error, code?}` with
 * Firecrawl's statuses (400, 401, 402, 403, 404, 429). docs/firecrawl-mock.md.
 */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Tue Mar 11 2025 09:00:30 GMT+0000 (Coordinated Universal Time)`: a JavaScript Date's string on a UTC host, as Firecrawl prints `resets at`. */
function dateString(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${p(d.getUTCDate())} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} GMT+0000 (Coordinated Universal Time)`;
}

function firecrawlFault(order: FaultOrder, _req: ServiceRequest, ctx: ServiceContext): ServiceResponse {
  if (order.kind === '429') {
    const message = `Rate limit exceeded. Consumed (req/min): 11, Remaining (req/min): 0. Upgrade your plan at https://firecrawl.dev/pricing for increased rate limits or please retry after ${order.retryAfter}s, resets at ${dateString(ctx.nowMs + order.retryAfter * 1000)}`;
    return renderError(firecrawlError(429, message, '', {}, [['Retry-After', String(order.retryAfter)]]));
  }
  const status = order.kind === 'timeout' ? 504 : order.kind === 'reset' ? 502 : Number(order.kind);
  const message = status === 503 ? 'Service Unavailable' : status === 504 ? 'Gateway Timeout' : status === 502 ? 'Bad Gateway' : 'An unexpected error occurred. Please contact help@firecrawl.com for help. Your exception ID is unavailable.';
  return renderError(firecrawlError(status, message, '', {}, status === 503 ? [['Retry-After', String(order.retryAfter)]] : []));
}

export const firecrawlService = defineService<FirecrawlDataset, FirecrawlCtx>({
  id: 'firecrawl',
  // Bump when any answer changes a byte: journals of this service then need a re-record.
  version: '1',
  dataset: FirecrawlDatasetSchema,
  load(data, ctx) {
    const keys = ctx.store.collection('keys');
    for (const key of data.keys) keys.put(key.key, key);
    const monitors = ctx.store.collection<MonitorDoc>('monitors');
    for (const m of data.monitors) {
      const team = data.keys.find((k) => k.key === m.key)?.team;
      if (!team) throw new Error(`firecrawl dataset: monitor ${m.id} names a key the dataset does not list`);
      const at = iso(ctx.epochMs);
      monitors.put(m.id, {
        id: m.id, team, name: m.name, status: m.status, schedule: { text: m.schedule.text, cron: m.schedule.cron ?? cronOf(m.schedule.text), timezone: m.schedule.timezone },
        targets: m.targets.map((t, i) => ({ id: `${m.id.slice(0, 24)}${(i + 1).toString(16).padStart(12, '0')}`, ...t })), goal: m.goal, judgeEnabled: false, retentionDays: m.retentionDays,
        webhook: null, notification: null, lastRunAt: null, currentCheckId: null, createdAt: at, updatedAt: at,
      });
    }
    loadCorpus(ctx.store, ctx, data.pages, data.places);
  },
  context: firecrawlContext,
  operations: [...scrapeOperations, ...crawlOperations, ...searchOperations, ...researchOperations, ...monitorOperations, ...accountOperations],
  errors: (error) => renderError(error),
  refusal: (reason, detail) => {
    switch (reason) {
      case 'invalid_params': {
        const issues = detail.issues ?? [];
        return badRequest(issues.map((i) => ({ code: i.code, path: [...i.path], message: i.message })));
      }
      case 'malformed_body': return badRequest([{ code: 'invalid_json', path: [], message: detail.message ?? 'Unexpected token in JSON' }]);
      case 'unauthenticated': return firecrawlError(401, 'Unauthorized: Invalid token');
      case 'method_not_allowed': return firecrawlError(404, 'Not Found');
      case 'payload_too_large': return firecrawlError(413, 'Payload Too Large');
      case 'internal_error': return firecrawlError(500, 'An unexpected error occurred. Please contact help@firecrawl.com for help.');
      case 'not_found': return firecrawlError(404, 'Not Found');
    }
  },
  middleware: [firecrawlAuth],
  fault: firecrawlFault,
  // Keys are credentials and usage counts every call; ids and timestamps are seeded or logical.
  volatile: {
    keys: '*', usage: '*', scrapes: '*', searches: '*', jobs: '*', feedback: '*',
    monitors: ['id', 'createdAt', 'updatedAt', 'lastRunAt', 'currentCheckId'], monitor_checks: '*',
  },
});
