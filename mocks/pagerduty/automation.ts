import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { actor, required, type PdCtx } from './context.js';
import { addLogEntry } from './incident.js';
import { API, invalid, iso, pdId, pdError, refOf, type Doc, type Ref } from './model.js';

/**
 * What changes state around incidents beyond the incident itself: responder requests, incident
 * workflow instances, and event orchestration routers (rules an agent appends or replaces).
 * Orchestrations and workflows themselves live in the spec fallback's collections.
 */

const specDoc = (c: PdCtx, collection: string, path: string, wrapper: string): Record<string, unknown> | undefined =>
  (c.ctx.store.collection<Record<string, Record<string, unknown>>>(`spec:${collection}`).get(path)?.[wrapper]);

const Rule = z.object({ id: z.string().optional(), label: z.string().nullable().optional(), conditions: z.array(z.object({ expression: z.string() }).passthrough()).default([]), actions: z.record(z.unknown()).default({}), disabled: z.boolean().optional() }).passthrough();
const RouterBody = z.object({ orchestration_path: z.object({ sets: z.array(z.object({ id: z.string(), rules: z.array(Rule) }).passthrough()).min(1), catch_all: z.object({ actions: z.record(z.unknown()) }).passthrough().optional() }).passthrough() });

function routerOf(c: PdCtx, id: string): Doc {
  if (!specDoc(c, '/event_orchestrations', `/event_orchestrations/${id}`, 'orchestration')) throw pdError(404, 2100, 'Not Found');
  return c.ctx.store.collection<Doc>('orchestration_routers').get(id) ?? {
    id, type: 'router', parent: { id, type: 'event_orchestration_reference', self: `${API}/event_orchestrations/${id}` },
    sets: [{ id: 'start', rules: [] }], catch_all: { actions: { route_to: 'unrouted' } }, created_at: null, created_by: null, updated_at: null, updated_by: null, version: null,
  };
}

export const automationOperations: Operation<PdCtx>[] = [
  operation<PdCtx, '/incidents/:id/responder_requests', Record<string, string | string[]>, { message?: string; requester_id: string; responder_request_targets: { responder_request_target: { id: string; type: string } }[] }>(
    'incidents.responder_requests.create', rest('POST', '/incidents/:id/responder_requests'), (call, c) => {
      const incident = required(c.db.incidents.get(call.params.id));
      if (incident.status === 'resolved') throw invalid('Incident Already Resolved');
      const requester = c.db.users.get(call.body.requester_id);
      if (!requester) throw invalid('Requester not found');
      const at = iso(c.ctx.nowMs);
      const targets = call.body.responder_request_targets.map(({ responder_request_target: t }) => {
        const doc = t.type === 'escalation_policy_reference' ? c.db.escalation_policies.get(t.id) : c.db.users.get(t.id);
        if (!doc) throw invalid(`Responder request target ${t.id} not found`);
        const ref = refOf(t.type === 'escalation_policy_reference' ? 'escalation_policy' : 'user', doc)!;
        return { responder_request_target: { ...ref, incidents_responders: [{ state: 'pending', user: t.type === 'user_reference' ? ref : null, incident: refOf('incident', incident), updated_at: at, message: call.body.message ?? '', requester: refOf('user', requester) }] } };
      });
      const request = { incident: refOf('incident', incident), requester: refOf('user', requester), requested_at: at, message: call.body.message ?? '', responder_request_targets: targets };
      const responders = targets.map((t) => ({ state: 'pending', user: t.responder_request_target.incidents_responders[0]!.user, incident: refOf('incident', incident), updated_at: at, message: request.message, requester: request.requester }));
      c.db.incidents.put(incident.id, { ...incident, responder_requests: [...(incident.responder_requests as unknown[]), request], incidents_responders: [...(incident.incidents_responders as unknown[]), ...responders], updated_at: at });
      addLogEntry(c.db, c.ctx, 'responder_request', incident, c.ctx.nowMs, refOf('user', requester), {});
      return jsonResponse(200, { responder_request: request });
    }, { input: { body: z.object({ message: z.string().optional(), requester_id: z.string(), responder_request_targets: z.array(z.object({ responder_request_target: z.object({ id: z.string(), type: z.enum(['user_reference', 'escalation_policy_reference']) }).passthrough() })).min(1) }).passthrough() } }),

  operation<PdCtx, '/incident_workflows/:id/instances', Record<string, string | string[]>, { incident_workflow_instance: { id?: string; incident: { id: string } } }>(
    'incident_workflows.instances.create', rest('POST', '/incident_workflows/:id/instances'), (call, c) => {
      const workflow = specDoc(c, '/incident_workflows', `/incident_workflows/${call.params.id}`, 'incident_workflow');
      if (!workflow) throw pdError(404, 2100, 'Not Found');
      const incident = required(c.db.incidents.get(call.body.incident_workflow_instance.incident.id));
      const instance = { id: call.body.incident_workflow_instance.id ?? pdId(c.ctx, 'workflow_instance'), type: 'incident_workflow_instance', incident: refOf('incident', incident), incident_workflow: { id: String(workflow.id), type: 'incident_workflow_reference', summary: String(workflow.name) } };
      c.ctx.store.collection<unknown>('workflow_instances').put(instance.id, instance);
      addLogEntry(c.db, c.ctx, 'workflow_started', incident, c.ctx.nowMs, actor(c), {});
      return jsonResponse(201, { incident_workflow_instance: instance });
    }, { input: { body: z.object({ incident_workflow_instance: z.object({ id: z.string().optional(), incident: z.object({ id: z.string() }).passthrough() }).passthrough() }) } }),

  operation<PdCtx, '/event_orchestrations/:id/router'>('event_orchestrations.router.get', rest('GET', '/event_orchestrations/:id/router'), (call, c) =>
    jsonResponse(200, { orchestration_path: routerOf(c, call.params.id) })),
  operation<PdCtx, '/event_orchestrations/:id/router', Record<string, string | string[]>, z.infer<typeof RouterBody>>('event_orchestrations.router.update', rest('PUT', '/event_orchestrations/:id/router'), (call, c) => {
    const current = routerOf(c, call.params.id);
    const who = actor(c);
    const path = call.body.orchestration_path;
    // Rules without an id (or with a placeholder) get PagerDuty's short hex ids.
    const sets = path.sets.map((set) => ({ ...set, rules: set.rules.map((r) => ({ ...r, id: r.id && !r.id.startsWith('temp_') ? r.id : uuidId(c.ctx, 'router_rule').slice(0, 8) })) }));
    for (const set of sets) for (const rule of set.rules) {
      const route = (rule.actions as { route_to?: string }).route_to;
      if (route && route !== 'unrouted' && !c.db.services.get(route)) throw invalid(`Rule ${rule.id} routes to an unknown service ${route}`);
    }
    const next = { ...current, sets, catch_all: path.catch_all ?? current.catch_all, updated_at: iso(c.ctx.nowMs), updated_by: { id: who.id, type: 'user_reference', self: (who as Ref).self }, version: String(c.ctx.seq) };
    c.ctx.store.collection<Doc>('orchestration_routers').put(call.params.id, next);
    return jsonResponse(200, { orchestration_path: next });
  }, { input: { body: RouterBody } }),
];
