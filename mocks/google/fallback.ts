import { jsonResponse, type ServiceRequest } from '../core/http.js';
import type { LoadContext } from '../core/service.js';
import { loadSpec, specFallback, type Fallback, type SpecFallback } from '../kit/index.js';
import { pageStart, pageToken } from './common.js';
import { googleError } from './errors.js';
import type { GoogleCtx } from './model.js';

/**
 * The long tail no handler takes, from Google's own descriptions (pruned; docs/provenance.md):
 * Drive v3 (shared drives, comments and replies, revisions, changes, apps), Calendar v3
 * (calendars, ACLs, colors, settings, free/busy, the calendar list's other methods) and Slides v1,
 * each under its base path, answered statefully by the kit's spec fallback with Google's 404 and
 * page tokens. Lists page with `pageSize`/`maxResults` and `pageToken` as the hand-written ones do.
 */
const parts: { base: string; fallback: SpecFallback<GoogleCtx> }[] = ([
  // The vendored copies' paths carry the APIs' base paths (docs/provenance.md).
  ['/drive/v3', './spec/drive.json'],
  ['/calendar/v3', './spec/calendar.json'],
  ['', './spec/slides.json'],
] as const).map(([base, file]) => ({
  base,
  fallback: specFallback<GoogleCtx>({
    spec: loadSpec(import.meta.url, file),
    notFound: (resource, id) => googleError(404, 'notFound', `${resource.charAt(0).toUpperCase()}${resource.slice(1)} not found: ${id}.`, { location: `${resource}Id`, locationType: 'parameter' }),
    invalid: (param, message) => googleError(400, 'required', message, { location: param, locationType: 'body' }),
    malformed: () => googleError(400, 'parseError', 'Invalid JSON payload received.'),
    id: (ctx, { collection }) => `${collection.includes('/drives') ? '0A' : 'A'}${ctx.ids.opaqueBase64(`spec:${collection}`, ctx.ids.next(`spec:${collection}`), 20)}`,
    paginate: (items, page) => {
      const size = Number(one(page.query.pageSize) ?? one(page.query.maxResults) ?? 100);
      const start = pageStart(page.req);
      const envelope = page.envelope(items.slice(start, start + size)) as Record<string, unknown>;
      return jsonResponse(200, { ...envelope, ...(start + size < items.length ? { nextPageToken: pageToken(start + size) } : {}) });
    },
  }),
}));

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function partFor(req: ServiceRequest): SpecFallback<GoogleCtx> | null {
  for (const { base, fallback } of parts) if (base !== '' && req.path.startsWith(`${base}/`)) return fallback;
  return req.path.startsWith('/v1/presentations') ? parts[2]!.fallback : null;
}

export function seedTail(records: Readonly<Record<string, readonly Record<string, unknown>[]>>, ctx: LoadContext): void {
  for (const { base, fallback } of parts) {
    const mine = Object.fromEntries(Object.entries(records).filter(([path]) => base !== '' && path.startsWith(`${base}/`)));
    if (Object.keys(mine).length) fallback.seed(mine, ctx);
  }
}

export const googleTail: Fallback<GoogleCtx> & { readonly operations: SpecFallback<GoogleCtx>['operations'] } = {
  get operations() { return parts.flatMap((p) => p.fallback.operations); },
  operation: (req) => partFor(req)?.operation(req) ?? null,
  operationNames: () => parts.flatMap((p) => p.fallback.operationNames()),
  handle: (req, name, context, ctx) => partFor(req)!.handle(req, name, context, ctx),
};
