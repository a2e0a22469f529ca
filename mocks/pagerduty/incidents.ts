import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { actor, required, type PdCtx } from './context.js';
import { addLogEntry, levelAssignees, newIncident, renderIncident, stripInternal } from './incident.js';
import { classicPage, includes, invalid, iso, many, one, pdError, pdId, refOf, type Doc, type Query, type Ref } from './model.js';

/** Incidents: list with filters, get, create, update one or many (acknowledge, resolve, reassign, escalate, urgency, priority), notes, alerts, merge, log entries, status updates. */

const RefBody = z.object({ id: z.string(), type: z.string() }).passthrough();
const Assignment = z.object({ assignee: RefBody }).passthrough();
const Change = z.object({
  type: z.string().optional(), status: z.enum(['acknowledged', 'resolved', 'triggered']).optional(), urgency: z.enum(['high', 'low']).optional(),
  escalation_level: z.number().int().min(1).optional(), assignments: z.array(Assignment).optional(), priority: RefBody.nullable().optional(),
  title: z.string().min(1).optional(), resolution: z.string().optional(), escalation_policy: RefBody.optional(),
}).passthrough();
const CreateBody = z.object({
  incident: z.object({
    type: z.literal('incident'), title: z.string().min(1), service: RefBody, urgency: z.enum(['high', 'low']).optional(),
    incident_key: z.string().optional(), body: z.object({ type: z.string().optional(), details: z.string() }).passthrough().optional(),
    priority: RefBody.optional(), escalation_policy: RefBody.optional(), assignments: z.array(Assignment).optional(),
  }).passthrough(),
});

function incidentOf(c: PdCtx, idOrNumber: string): Doc {
  const byId = c.db.incidents.get(idOrNumber);
  if (byId) return byId;
  if (/^\d+$/.test(idOrNumber)) return required(c.db.incidents.find((i) => i.incident_number === Number(idOrNumber)));
  throw pdError(404, 2100, 'Not Found');
}

function listIncidents(c: PdCtx, query: Query): Doc[] {
  const statuses = many(query, 'statuses');
  const urgencies = many(query, 'urgencies');
  const services = many(query, 'service_ids');
  const teams = many(query, 'team_ids');
  const users = many(query, 'user_ids');
  const priorities = many(query, 'priority_ids');
  const key = one(query, 'incident_key');
  for (const s of statuses) if (!['triggered', 'acknowledged', 'resolved'].includes(s)) throw invalid('Statuses is invalid');
  for (const u of urgencies) if (!['high', 'low'].includes(u)) throw invalid('Urgencies is invalid');
  const all = one(query, 'date_range') === 'all';
  const parse = (name: string): number | undefined => {
    const raw = one(query, name);
    if (!raw) return undefined;
    const ms = Date.parse(raw);
    if (Number.isNaN(ms)) throw invalid(`${name[0]!.toUpperCase()}${name.slice(1)} is not a valid date`);
    return ms;
  };
  // Without since/until PagerDuty searches the last month (date_range=all searches everything).
  const until = all ? undefined : parse('until') ?? c.ctx.nowMs;
  const since = all ? undefined : parse('since') ?? (until! - 30 * 86_400_000);
  const out = c.db.incidents.values().filter((i) => {
    const created = Date.parse(String(i.created_at));
    if (since !== undefined && created < since) return false;
    if (until !== undefined && created >= until) return false;
    if (statuses.length > 0 && !statuses.includes(String(i.status))) return false;
    if (urgencies.length > 0 && !urgencies.includes(String(i.urgency))) return false;
    if (services.length > 0 && !services.includes((i.service as Ref).id)) return false;
    if (teams.length > 0 && !(i.teams as Ref[]).some((t) => teams.includes(t.id))) return false;
    if (users.length > 0 && !(i.assignments as { assignee: Ref }[]).some((a) => users.includes(a.assignee.id))) return false;
    if (priorities.length > 0 && !priorities.includes((i.priority as Ref | null)?.id ?? 'none')) return false;
    if (key !== undefined && i.incident_key !== key) return false;
    return true;
  });
  const sort = one(query, 'sort_by') ?? 'created_at:asc';
  const [field, dir] = sort.split(':');
  const sign = dir === 'desc' ? -1 : 1;
  const value = (i: Doc) => (field === 'incident_number' ? Number(i.incident_number) : field === 'resolved_at' ? String(i.resolved_at ?? '') : field === 'urgency' ? String(i.urgency) : String(i.created_at));
  return out.sort((a, b) => (value(a) < value(b) ? -sign : value(a) > value(b) ? sign : Number(a.incident_number) - Number(b.incident_number)));
}

/** Applies one change to an incident as PagerDuty's update does; writes log entries. */
function applyChange(c: PdCtx, incident: Doc, change: z.infer<typeof Change>, who: Ref): Doc {
  const now = c.ctx.nowMs;
  const at = iso(now);
  let next: Doc = { ...incident };
  if (incident.status === 'resolved' && change.status !== undefined && change.status !== 'resolved') throw invalid('Incident Already Resolved');
  if (change.status === 'triggered' && incident.status !== 'triggered') throw invalid('Status cannot transition from acknowledged to triggered');
  if (change.title !== undefined) next.title = change.title, next.summary = `[#${String(incident.incident_number)}] ${change.title}`;
  if (change.urgency !== undefined && change.urgency !== incident.urgency) {
    next.urgency = change.urgency;
    addLogEntry(c.db, c.ctx, 'urgency_change', next, now, who, {});
  }
  if (change.priority !== undefined) {
    const p = change.priority === null ? null : required(c.db.priorities.get(change.priority.id));
    next.priority = p ? { id: p.id, type: 'priority', summary: p.name, self: p.self, html_url: null, name: p.name, order: p.order } : null;
    addLogEntry(c.db, c.ctx, 'priority_change', next, now, who, {});
  }
  if (change.escalation_level !== undefined) {
    if (incident.status === 'resolved') throw invalid('Incident Already Resolved');
    const ep = c.db.escalation_policies.get((incident.escalation_policy as Ref).id);
    const levels = ((ep?.escalation_rules ?? []) as unknown[]).length;
    if (change.escalation_level > levels) throw invalid(`Escalation level must be between 1 and ${levels}`);
    next.escalation_level = change.escalation_level;
    next.assignments = levelAssignees(c.db, ep, change.escalation_level).map((u) => ({ at, assignee: refOf('user', c.db.users.get(u)) }));
    next.acknowledgements = [];
    if (next.status === 'acknowledged') next.status = 'triggered';
    addLogEntry(c.db, c.ctx, 'escalate', next, now, who, { assigned_user: null });
  }
  if (change.assignments !== undefined) {
    if (incident.status === 'resolved') throw invalid('Incident Already Resolved');
    next.assignments = change.assignments.map((a) => ({ at, assignee: refOf('user', required(c.db.users.get(a.assignee.id))) }));
    next.assigned_via = 'direct_assignment';
    next.acknowledgements = [];
    if (next.status === 'acknowledged') next.status = 'triggered';
    addLogEntry(c.db, c.ctx, 'assign', next, now, who, { assignees: (next.assignments as { assignee: Ref }[]).map((a) => a.assignee) });
  }
  if (change.status === 'acknowledged' && incident.status !== 'resolved') {
    next.status = 'acknowledged';
    next.acknowledgements = [...(next.acknowledgements as unknown[]).filter((a) => (a as { acknowledger: Ref }).acknowledger.id !== who.id), { at, acknowledger: who }];
    next.last_status_change_at = at;
    next.last_status_change_by = who;
    addLogEntry(c.db, c.ctx, 'acknowledge', next, now, who, {});
  }
  if (change.status === 'resolved' && incident.status !== 'resolved') {
    next = { ...next, status: 'resolved', assignments: [], acknowledgements: [], resolved_at: at, last_status_change_at: at, last_status_change_by: who, pending_actions: [] };
    if (change.resolution) next.resolve_reason = null;
    for (const alert of c.db.alerts.filter((a) => a.incident_id === incident.id && a.status === 'triggered')) c.db.alerts.put(alert.id, { ...alert, status: 'resolved', resolved_at: at });
    const counts = next.alert_counts as { all: number };
    next.alert_counts = { all: counts.all, triggered: 0, resolved: counts.all };
    addLogEntry(c.db, c.ctx, 'resolve', next, now, who, change.resolution ? { note: change.resolution } : {});
  }
  next.updated_at = at;
  return c.db.incidents.put(incident.id, next);
}

const wants = (query: Query) => includes(query).includes('body');

export const incidentOperations: Operation<PdCtx>[] = [
  operation<PdCtx, '/incidents'>('incidents.list', rest('GET', '/incidents'), (call, c) => {
    const withBody = wants(call.query);
    return classicPage('incidents', listIncidents(c, call.query).map((i) => renderIncident(i, withBody)), call.query);
  }),
  operation<PdCtx, '/incidents/:id'>('incidents.get', rest('GET', '/incidents/:id'), (call, c) =>
    jsonResponse(200, { incident: renderIncident(incidentOf(c, call.params.id), true) })),
  operation<PdCtx, '/incidents', Query, z.infer<typeof CreateBody>>('incidents.create', rest('POST', '/incidents'), (call, c) => {
    const who = actor(c);
    const body = call.body.incident;
    const service = c.db.services.get(body.service.id);
    if (!service) throw invalid('Service not found');
    if (service.status === 'disabled') throw invalid('Service is disabled');
    if (body.incident_key !== undefined && c.db.incidents.find((i) => i.incident_key === body.incident_key && (i.service as Ref).id === service.id && i.status !== 'resolved')) {
      throw invalid('Open incident with matching dedup key already exists on this service');
    }
    const ep = body.escalation_policy ? required(c.db.escalation_policies.get(body.escalation_policy.id)) : undefined;
    if (body.priority) required(c.db.priorities.get(body.priority.id));
    const incident = newIncident(c.db, c.ctx, {
      title: body.title, service, urgency: body.urgency ?? 'high', priority: body.priority?.id ?? null, at: c.ctx.nowMs,
      incident_key: body.incident_key ?? null, details: body.body?.details ?? null,
      assignees: body.assignments ? body.assignments.map((a) => required(c.db.users.get(a.assignee.id)).id) : null, escalation_level: 1, by: who,
      ...(ep ? { escalation_policy: ep } : {}),
    });
    return jsonResponse(201, { incident: renderIncident(incident, true) });
  }, { input: { body: CreateBody } }),
  operation<PdCtx, '/incidents', Query, { incidents: (z.infer<typeof Change> & { id: string })[] }>('incidents.manage', rest('PUT', '/incidents'), (call, c) => {
    const who = actor(c);
    if (call.body.incidents.length > 250) throw invalid('Too many incidents');
    const targets = call.body.incidents.map((change) => [required(c.db.incidents.get(change.id)), change] as const);
    const out = targets.map(([incident, change]) => renderIncident(applyChange(c, incident, change, who), false));
    return jsonResponse(200, { incidents: out, limit: out.length, offset: 0, more: false, total: null });
  }, { input: { body: z.object({ incidents: z.array(Change.extend({ id: z.string() })).min(1) }) } }),
  operation<PdCtx, '/incidents/:id', Query, { incident: z.infer<typeof Change> }>('incidents.update', rest('PUT', '/incidents/:id'), (call, c) => {
    const who = actor(c);
    return jsonResponse(200, { incident: renderIncident(applyChange(c, incidentOf(c, call.params.id), call.body.incident, who), true) });
  }, { input: { body: z.object({ incident: Change }) } }),
  operation<PdCtx, '/incidents/:id/notes'>('incidents.notes.list', rest('GET', '/incidents/:id/notes'), (call, c) => {
    const incident = incidentOf(c, call.params.id);
    const notes = c.db.notes.filter((n) => n.incident_id === incident.id).sort((a, b) => a.seq - b.seq).map(({ seq: _s, incident_id: _i, ...note }) => note);
    return jsonResponse(200, { notes });
  }),
  operation<PdCtx, '/incidents/:id/notes', Query, { note: { content: string } }>('incidents.notes.create', rest('POST', '/incidents/:id/notes'), (call, c) => {
    const who = actor(c);
    const incident = incidentOf(c, call.params.id);
    const note = { id: pdId(c.ctx, 'note'), incident_id: incident.id, seq: c.ctx.ids.next('note_seq'), user: who, channel: { summary: 'The PagerDuty website or APIs' }, content: call.body.note.content, created_at: iso(c.ctx.nowMs) };
    c.db.notes.put(note.id, note);
    addLogEntry(c.db, c.ctx, 'annotate', incident, c.ctx.nowMs, who, {});
    const { seq: _s, incident_id: _i, ...shown } = note;
    return jsonResponse(201, { note: shown });
  }, { input: { body: z.object({ note: z.object({ content: z.string().min(1).max(25000) }) }) } }),
  operation<PdCtx, '/incidents/:id/alerts'>('incidents.alerts.list', rest('GET', '/incidents/:id/alerts'), (call, c) => {
    const incident = incidentOf(c, call.params.id);
    const statuses = many(call.query, 'statuses');
    const alerts = c.db.alerts.filter((a) => a.incident_id === incident.id && (statuses.length === 0 || statuses.includes(String(a.status)))).map(stripInternal);
    return classicPage('alerts', alerts, call.query);
  }),
  operation<PdCtx, '/incidents/:id/alerts/:alert_id'>('incidents.alerts.get', rest('GET', '/incidents/:id/alerts/:alert_id'), (call, c) => {
    const incident = incidentOf(c, call.params.id);
    const alert = c.db.alerts.get(call.params.alert_id);
    if (!alert || alert.incident_id !== incident.id) throw pdError(404, 2100, 'Not Found');
    return jsonResponse(200, { alert: stripInternal(alert) });
  }),
  operation<PdCtx, '/incidents/:id/merge', Query, { source_incidents: { id: string; type: string }[] }>('incidents.merge', rest('PUT', '/incidents/:id/merge'), (call, c) => {
    const who = actor(c);
    const target = incidentOf(c, call.params.id);
    if (target.status === 'resolved') throw invalid('Incident Already Resolved');
    for (const s of call.body.source_incidents) {
      const source = required(c.db.incidents.get(s.id));
      if (source.id === target.id) throw invalid('Cannot merge an incident into itself');
      for (const alert of c.db.alerts.filter((a) => a.incident_id === source.id)) c.db.alerts.put(alert.id, { ...alert, incident_id: target.id, incident: refOf('incident', target) });
      const resolved = applyChange(c, source, { status: 'resolved' }, who);
      c.db.incidents.put(source.id, { ...resolved, alert_counts: { all: 0, triggered: 0, resolved: 0 } });
      addLogEntry(c.db, c.ctx, 'merge', target, c.ctx.nowMs, who, {});
    }
    const all = c.db.alerts.filter((a) => a.incident_id === target.id);
    const merged = c.db.incidents.put(target.id, { ...target, updated_at: iso(c.ctx.nowMs), alert_counts: { all: all.length, triggered: all.filter((a) => a.status === 'triggered').length, resolved: all.filter((a) => a.status === 'resolved').length } });
    return jsonResponse(200, { incident: renderIncident(merged, true) });
  }, { input: { body: z.object({ source_incidents: z.array(RefBody).min(1) }) } }),
  operation<PdCtx, '/incidents/:id/status_updates', Query, { message: string }>('incidents.status_updates.create', rest('POST', '/incidents/:id/status_updates'), (call, c) => {
    const who = actor(c);
    const incident = incidentOf(c, call.params.id);
    const update = { id: pdId(c.ctx, 'status_update'), message: call.body.message, sender: who, created_at: iso(c.ctx.nowMs), incident_id: incident.id };
    c.db.status_updates.put(update.id, update);
    const { incident_id: _i, ...shown } = update;
    return jsonResponse(200, { status_update: shown });
  }, { input: { body: z.object({ message: z.string().min(1) }).passthrough() } }),
  operation<PdCtx, '/incidents/:id/log_entries'>('incidents.log_entries.list', rest('GET', '/incidents/:id/log_entries'), (call, c) => {
    const incident = incidentOf(c, call.params.id);
    const entries = c.db.log_entries.filter((e) => e.incident_id === incident.id).sort((a, b) => b.seq - a.seq).map(stripInternal);
    return classicPage('log_entries', entries, call.query);
  }),
  operation<PdCtx, '/log_entries'>('log_entries.list', rest('GET', '/log_entries'), (call, c) => {
    const since = one(call.query, 'since');
    const until = one(call.query, 'until');
    const entries = c.db.log_entries.values().filter((e) => (!since || String(e.created_at) >= iso(Date.parse(since))) && (!until || String(e.created_at) < iso(Date.parse(until))))
      .sort((a, b) => b.seq - a.seq).map(stripInternal);
    return classicPage('log_entries', entries, call.query);
  }),
  operation<PdCtx, '/log_entries/:id'>('log_entries.get', rest('GET', '/log_entries/:id'), (call, c) => jsonResponse(200, { log_entry: stripInternal(required(c.db.log_entries.get(call.params.id))) })),
  // Intelligence endpoints: answered from the account's own history on the same service.
  operation<PdCtx, '/incidents/:id/outlier_incident'>('incidents.outlier_incident', rest('GET', '/incidents/:id/outlier_incident'), (call, c) => {
    const incident = incidentOf(c, call.params.id);
    return jsonResponse(200, { outlier_incident: { incident: { id: incident.id, created_at: incident.created_at, self: incident.self, title: incident.title, occurrence: { count: 1, frequency: 0.01, category: 'rare', since: incident.created_at, until: iso(c.ctx.nowMs) } }, incident_template: { id: pdId(c.ctx, 'template'), cluster_id: pdId(c.ctx, 'cluster'), mined_text: incident.title } } });
  }),
  operation<PdCtx, '/incidents/:id/past_incidents'>('incidents.past_incidents', rest('GET', '/incidents/:id/past_incidents'), (call, c) => {
    const incident = incidentOf(c, call.params.id);
    const past = c.db.incidents.filter((i) => i.id !== incident.id && (i.service as Ref).id === (incident.service as Ref).id && i.status === 'resolved')
      .map((i) => ({ incident: { id: i.id, created_at: i.created_at, self: i.self, title: i.title }, score: 0.5 }));
    const limit = Number(one(call.query, 'limit') ?? 5);
    return jsonResponse(200, { past_incidents: past.slice(0, limit), limit, total: past.length });
  }),
  operation<PdCtx, '/incidents/:id/related_incidents'>('incidents.related_incidents', rest('GET', '/incidents/:id/related_incidents'), (call, c) => {
    const incident = incidentOf(c, call.params.id);
    const related = c.db.incidents.filter((i) => i.id !== incident.id && i.status !== 'resolved' && (i.teams as Ref[]).some((t) => (incident.teams as Ref[]).some((u) => u.id === t.id)))
      .map((i) => ({ incident: renderIncident(i, false), relationships: [{ type: 'machine_learning_inferred', metadata: { grouping_classification: 'similar_contents', user_feedback: { positive_feedback_count: 0, negative_feedback_count: 0 } } }] }));
    return jsonResponse(200, { related_incidents: related });
  }),
];
