import { loadSpec } from '../kit/openapi.js';
import { offsetPage } from '../kit/pagination/offset.js';
import { specFallback } from '../kit/spec-fallback.js';
import type { PdCtx } from './context.js';
import { invalid, one, pdError, pdId } from './model.js';

/**
 * The long tail of PagerDuty's REST API v2 (event orchestrations, alert grouping settings,
 * change events, incident workflows, status pages, analytics, service dependencies, v3
 * schedules, responder requests…), answered by the kit's spec fallback from PagerDuty's own
 * description (mocks/pagerduty/spec/pagerduty.json, pruned) and kept as state: PagerDuty's
 * `P…` IDs, its classic `offset`/`limit`/`more`/`total` lists and its error envelope.
 */
export const pagerdutySpec = loadSpec(import.meta.url, './spec/pagerduty.json');

export const fallback = specFallback<PdCtx>({
  spec: pagerdutySpec,
  notFound: () => pdError(404, 2100, 'Not Found'),
  invalid: (_param, message) => invalid(message),
  malformed: () => invalid('Invalid JSON body'),
  id: (ctx, { collection }) => pdId(ctx, `spec:${collection}`),
  paginate: (items, page) => {
    const num = (name: string) => {
      const raw = one(page.query, name);
      return raw === undefined ? undefined : Number(raw);
    };
    const slice = offsetPage(items, { offset: num('offset') ?? 0, limit: num('limit') ?? 25 }, { defaultLimit: 25, maxLimit: 100, clamp: true });
    const envelope = page.envelope(slice.items) as Record<string, unknown>;
    return { ...envelope, limit: slice.limit, offset: slice.offset, more: slice.has_more, total: one(page.query, 'total') === 'true' ? slice.total : null };
  },
});
