import { jsonResponse } from '../core/http.js';
import type { Fallback } from '../kit/define.js';
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

const tail = specFallback<PdCtx>({
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
    // The fallback keeps each answer whole (`{"change_event": {...}}`): a list shows the records.
    const records = slice.items.map((item) => {
      const entries = item && typeof item === 'object' ? Object.entries(item) : [];
      return entries.length === 1 && entries[0]![1] && typeof entries[0]![1] === 'object' && 'id' in (entries[0]![1] as object) ? entries[0]![1] : item;
    });
    const envelope = page.envelope(records) as Record<string, unknown>;
    return { ...envelope, limit: slice.limit, offset: slice.offset, more: slice.has_more, total: one(page.query, 'total') === 'true' ? slice.total : null };
  },
});

/**
 * PagerDuty wraps each record (`{"schedule": {...}}`), so the kit fills the new record's ID only
 * in its store key: a create's answer (and the stored copy) get it inside the wrapper too.
 */
export const fallback: Fallback<PdCtx> & { operations: typeof tail.operations; seed: typeof tail.seed } = {
  operations: tail.operations,
  seed: (records, ctx) => tail.seed(records, ctx),
  operation: (req) => tail.operation(req),
  operationNames: () => tail.operationNames(),
  handle(req, operation, context, ctx) {
    const response = tail.handle(req, operation, context, ctx);
    const op = tail.operations.find((o) => o.id === operation);
    if (op?.kind !== 'create' || response.status >= 300) return response;
    const text = new TextDecoder().decode(response.body);
    const store = ctx.store.collection<Record<string, Record<string, unknown>>>(`spec:${op.collection!}`);
    const found = store.entries().find(([, doc]) => JSON.stringify(doc) === text);
    const entries = found ? Object.entries(found[1]) : [];
    if (!found || entries.length !== 1 || typeof entries[0]![1] !== 'object' || (entries[0]![1]?.id ?? '') !== '') return response;
    const [wrapper, record] = entries[0]!;
    const fixed = { [wrapper]: { ...record, id: found[0].split('/').at(-1)! } };
    store.put(found[0], fixed);
    return jsonResponse(response.status, fixed, response.headers.filter(([name]) => name.toLowerCase() !== 'content-type' && name.toLowerCase() !== 'content-length'));
  },
};

/**
 * Stores documents the spec fallback serves by id where PagerDuty's list is not one the kit can
 * seed (event orchestrations and alert grouping settings list with cursors, so the fallback
 * answers those lists from the schema): `{"/event_orchestrations": [{id: "P…", …}]}`, kept as
 * the fallback keeps what it creates (`spec:<collection>`, key `<path>/<id>`).
 */
/** The entity wrapper of each seeded collection's answers (none: the document is the answer). */
const WRAPPER: Record<string, string | null> = {
  '/event_orchestrations': 'orchestration', '/event_orchestrations/services': 'orchestration_path', '/alert_grouping_settings': 'alert_grouping_setting',
  '/incident_workflows': 'incident_workflow', '/change_events': 'change_event', '/service_dependencies/technical_services': null,
};

export function seedItems(records: Readonly<Record<string, readonly Record<string, unknown>[]>>, ctx: { store: import('../core/store.js').DocumentStore }): void {
  for (const [path, docs] of Object.entries(records)) {
    if (!(path in WRAPPER)) throw new Error(`pagerduty dataset: spec_items cannot seed ${path}`);
    const wrapper = WRAPPER[path]!;
    const op = tail.operations.find((o) => o.kind === 'read' && o.collection !== null && new RegExp(`^${o.collection!.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
    if (!op) throw new Error(`pagerduty dataset: ${path} is no collection the spec reads items of`);
    for (const doc of docs) ctx.store.collection<unknown>(`spec:${op.collection!}`).put(`${path}/${String(doc.id)}`, wrapper ? { [wrapper]: doc } : doc);
  }
}
