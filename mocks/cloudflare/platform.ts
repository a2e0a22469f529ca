import { z } from 'zod';
import { operation, rest, type Operation } from '../kit/operation.js';
import { accountOf, type CfCtx } from './context.js';
import { cfError, isoMicros, ok, pageOf, workerKey } from './model.js';
import { workerOf } from './workers.js';

/** Worker secrets and cron triggers, Queues and Workers for Platforms dispatch namespaces (their list and read calls). */

const A = '/client/v4/accounts/:account_id';
const SecretBody = z.object({ name: z.string().min(1), text: z.string(), type: z.literal('secret_text') }).passthrough();
const Page = z.object({ page: z.coerce.number().int().min(1).optional(), per_page: z.coerce.number().int().min(1).optional() }).passthrough();

export const platformOperations: Operation<CfCtx>[] = [
  operation<CfCtx, '/client/v4/accounts/:account_id/workers/scripts/:script_name/secrets'>('workers.scripts.secrets.list', rest('GET', `${A}/workers/scripts/:script_name/secrets`), (call, c) => {
    const w = workerOf(c, call.params.account_id, call.params.script_name);
    return ok(w.secrets.map((name) => ({ name, type: 'secret_text' })));
  }),

  // Secret values are write-only: the store keeps the name, never the text.
  operation<CfCtx, '/client/v4/accounts/:account_id/workers/scripts/:script_name/secrets', unknown, z.infer<typeof SecretBody>>('workers.scripts.secrets.update', rest('PUT', `${A}/workers/scripts/:script_name/secrets`), (call, c) => {
    const w = workerOf(c, call.params.account_id, call.params.script_name);
    const secrets = w.secrets.includes(call.body.name) ? w.secrets : [...w.secrets, call.body.name];
    c.db.workers.put(workerKey(w.account_id, w.id), { ...w, secrets });
    return ok({ name: call.body.name, type: 'secret_text' });
  }, { input: { body: SecretBody }, lazy: true }),

  operation<CfCtx, '/client/v4/accounts/:account_id/workers/scripts/:script_name/secrets/:secret_name'>('workers.scripts.secrets.delete', rest('DELETE', `${A}/workers/scripts/:script_name/secrets/:secret_name`), (call, c) => {
    const w = workerOf(c, call.params.account_id, call.params.script_name);
    if (!w.secrets.includes(call.params.secret_name)) throw cfError(404, [{ code: 10056, message: `Secret '${call.params.secret_name}' not found.` }]);
    c.db.workers.put(workerKey(w.account_id, w.id), { ...w, secrets: w.secrets.filter((s) => s !== call.params.secret_name) });
    return ok({});
  }),

  operation<CfCtx, '/client/v4/accounts/:account_id/workers/scripts/:script_name/schedules'>('workers.scripts.schedules.get', rest('GET', `${A}/workers/scripts/:script_name/schedules`), (call, c) => (
    ok({ schedules: workerOf(c, call.params.account_id, call.params.script_name).schedules })
  )),

  // The body is an array of `{cron}`; it replaces the Worker's triggers.
  operation<CfCtx, '/client/v4/accounts/:account_id/workers/scripts/:script_name/schedules'>('workers.scripts.schedules.update', rest('PUT', `${A}/workers/scripts/:script_name/schedules`), (call, c) => {
    const w = workerOf(c, call.params.account_id, call.params.script_name);
    const parsed = z.array(z.object({ cron: z.string().regex(/^\S+( \S+){4}$/) }).passthrough()).safeParse(call.decoded.value);
    if (!parsed.success) throw cfError(400, [{ code: 10021, message: 'Invalid request body: expected an array of objects with a valid "cron" expression.' }]);
    const now = isoMicros(c.ctx.nowMs);
    const schedules = parsed.data.map((s) => ({ cron: s.cron, created_on: w.schedules.find((o) => o.cron === s.cron)?.created_on ?? now, modified_on: now }));
    c.db.workers.put(workerKey(w.account_id, w.id), { ...w, schedules });
    return ok({ schedules });
  }),

  operation<CfCtx, '/client/v4/accounts/:account_id/queues', z.infer<typeof Page>>('queues.list', rest('GET', `${A}/queues`), (call, c) => {
    accountOf(c, call.params.account_id);
    const page = pageOf(c.db.queues.filter((q) => q.account_id === call.params.account_id), call.query, 100, 1000);
    return ok(page.items.map((q) => ({ queue_id: q.queue_id, queue_name: q.queue_name, created_on: q.created_on, modified_on: q.modified_on, producers_total_count: 0, producers: [], consumers_total_count: 0, consumers: [] })), { result_info: page.result_info });
  }, { input: { query: Page } }),

  operation<CfCtx, '/client/v4/accounts/:account_id/workers/dispatch/namespaces'>('workers_for_platforms.dispatch.namespaces.list', rest('GET', `${A}/workers/dispatch/namespaces`), (call, c) => {
    accountOf(c, call.params.account_id);
    return ok(c.db.dispatch_namespaces.filter((n) => n.account_id === call.params.account_id).map((n) => ({
      namespace_id: n.namespace_id, namespace_name: n.namespace_name, created_on: n.created_on, modified_on: n.modified_on, script_count: n.script_count, trusted_workers: false,
    })));
  }),
];
