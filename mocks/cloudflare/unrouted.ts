import { operation, rest, type Operation } from '../kit/operation.js';
import type { CfCtx } from './context.js';
import { noRoute } from './model.js';

/**
 * Paths the pinned MCP server calls that Cloudflare's API v4 has no route for: Workflows under
 * `/workers/workflows` (the API has `/workflows`), `/workers/templates`, `/workers/services/from-template`
 * and `/ai/models` (the API has `/ai/models/search`). Cloudflare answers each with its 400
 * `7000 No route for that URI`; naming them keeps the journal and coverage honest about what was called.
 */
const A = '/client/v4/accounts/:account_id';
const none = () => { throw noRoute(); };

export const unroutedOperations: Operation<CfCtx>[] = [
  ...['GET', 'POST'].map((m) => operation<CfCtx, '/client/v4/accounts/:account_id/workers/workflows'>(`unrouted.workers.workflows.${m === 'GET' ? 'list' : 'create'}`, rest(m, `${A}/workers/workflows`), none)),
  ...['GET', 'PUT', 'DELETE'].map((m) => operation<CfCtx, '/client/v4/accounts/:account_id/workers/workflows/:workflow'>(`unrouted.workers.workflows.${m.toLowerCase()}`, rest(m, `${A}/workers/workflows/:workflow`), none)),
  operation<CfCtx, '/client/v4/accounts/:account_id/workers/workflows/:workflow/executions'>('unrouted.workers.workflows.executions.create', rest('POST', `${A}/workers/workflows/:workflow/executions`), none),
  operation<CfCtx, '/client/v4/accounts/:account_id/workers/templates'>('unrouted.workers.templates.list', rest('GET', `${A}/workers/templates`), none),
  operation<CfCtx, '/client/v4/accounts/:account_id/workers/templates/:template'>('unrouted.workers.templates.get', rest('GET', `${A}/workers/templates/:template`), none),
  operation<CfCtx, '/client/v4/accounts/:account_id/workers/services/from-template'>('unrouted.workers.services.from_template', rest('POST', `${A}/workers/services/from-template`), none),
  operation<CfCtx, '/client/v4/accounts/:account_id/ai/models'>('unrouted.ai.models.list', rest('GET', `${A}/ai/models`), none),
];
