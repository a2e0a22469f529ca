import type { LoadContext } from '../core/service.js';
import { API, WEB, iso, pdId, ref, refOf, type Db, type Doc, type Ref } from './model.js';

/** Incidents as the store keeps them, their alerts and log entries: shared by the loader and the handlers. */

type Ids = Pick<LoadContext, 'ids'>;

export interface NewIncident {
  id?: string; number?: number; title: string; service: Doc; urgency: 'high' | 'low'; priority: string | null; at: number;
  incident_key: string | null; details: string | null; assignees: string[] | null; escalation_level: number; by: Ref | null;
  escalation_policy?: Doc;
}

/** Who the escalation policy's rule at `level` pages: its users, and the first user of each schedule (on call now). */
export function levelAssignees(db: Db, ep: Doc | undefined, level: number): string[] {
  const rules = (ep?.escalation_rules ?? []) as { targets: Ref[] }[];
  if (rules.length === 0) return [];
  const rule = rules[Math.min(level, rules.length) - 1]!;
  return rule.targets.flatMap((t) => (t.type === 'user_reference' ? [t.id] : [((db.schedules.get(t.id)?.users ?? []) as Ref[])[0]?.id].filter((x): x is string => !!x)));
}

export function newIncident(db: Db, ctx: Ids, spec: NewIncident): Doc {
  const id = spec.id ?? pdId(ctx, 'incident');
  const number = spec.number ?? ctx.ids.next('incident_number');
  const ep = spec.escalation_policy ?? db.escalation_policies.get((spec.service.escalation_policy as Ref).id);
  const assignees = spec.assignees ?? levelAssignees(db, ep, spec.escalation_level);
  const at = iso(spec.at);
  const priority = spec.priority ? db.priorities.get(spec.priority) : undefined;
  const incident: Doc = {
    id, type: 'incident', summary: `[#${number}] ${spec.title}`, self: `${API}/incidents/${id}`, html_url: `${WEB}/incidents/${id}`,
    incident_number: number, title: spec.title, description: spec.title, created_at: at, updated_at: at, status: 'triggered',
    incident_key: spec.incident_key ?? idKey(id), service: refOf('service', spec.service),
    assignments: assignees.map((u) => ({ at, assignee: refOf('user', db.users.get(u)) ?? ref('user', u, u) })),
    assigned_via: 'escalation_policy', acknowledgements: [], last_status_change_at: at, last_status_change_by: refOf('service', spec.service),
    first_trigger_log_entry: null, escalation_policy: refOf('escalation_policy', ep), teams: (spec.service.teams ?? []) as Ref[],
    pending_actions: [], urgency: spec.urgency, priority: priority ? { id: priority.id, type: 'priority', summary: priority.name, self: priority.self, html_url: null, name: priority.name, order: priority.order } : null,
    resolve_reason: null, alert_counts: { all: 0, triggered: 0, resolved: 0 }, conference_bridge: null, incidents_responders: [], responder_requests: [],
    is_mergeable: true, incident_type: { name: 'incident_default' }, resolved_at: null,
    body: { type: 'incident_body', details: spec.details },
    escalation_level: spec.escalation_level,
  };
  db.incidents.put(id, incident);
  const entry = addLogEntry(db, ctx, 'trigger', incident, spec.at, spec.by, {});
  db.incidents.put(id, { ...incident, first_trigger_log_entry: { id: entry.id, type: 'trigger_log_entry_reference', summary: entry.summary, self: entry.self, html_url: entry.html_url } });
  db.services.put(spec.service.id, { ...spec.service, last_incident_timestamp: at });
  return db.incidents.get(id)!;
}

/** A deterministic 32-hex dedup key from the incident ID (PagerDuty makes one when none is given). */
function idKey(id: string): string {
  let h = 0x811c9dc5;
  let out = '';
  for (let round = 0; out.length < 32; round++) {
    for (const ch of `${id}:${round}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 32);
}

const LOG_SUMMARY: Record<string, (who: string) => string> = {
  trigger: (who) => (who ? `Triggered through the API by ${who}` : 'Triggered through the API'),
  acknowledge: (who) => `Acknowledged by ${who || 'the API'}`,
  resolve: (who) => `Resolved by ${who || 'the API'}`,
  assign: (who) => `Assigned by ${who || 'the API'}`,
  escalate: (who) => `Escalated by ${who || 'the API'}`,
  annotate: (who) => `Note added by ${who || 'the API'}`,
  urgency_change: (who) => `Urgency changed by ${who || 'the API'}`,
  priority_change: (who) => `Priority changed by ${who || 'the API'}`,
  merge: (who) => `Merged by ${who || 'the API'}`,
};

export function addLogEntry(db: Db, ctx: Ids, kind: string, incident: Doc, atMs: number, agent: Ref | null, extra: Record<string, unknown>): Doc & { seq: number; incident_id: string | null } {
  const id = pdId(ctx, 'log_entry');
  const entry = {
    id, type: `${kind}_log_entry`, summary: (LOG_SUMMARY[kind] ?? ((w: string) => `${kind} by ${w}`))(agent?.summary ?? ''),
    self: `${API}/log_entries/${id}`, html_url: `${WEB}/incidents/${incident.id}/log_entries/${id}`, created_at: iso(atMs),
    agent: agent ?? refOf('service', db.services.get((incident.service as Ref).id)), channel: { type: agent ? 'web_ui' : 'api' },
    service: incident.service, incident: refOf('incident', incident), teams: incident.teams, contexts: [], event_details: {},
    ...extra, seq: ctx.ids.next('log_seq'), incident_id: incident.id,
  };
  db.log_entries.put(id, entry);
  return entry;
}

export function addAlert(db: Db, ctx: Ids, incident: Doc, alert: { summary: string; severity: string; source: string; details: Record<string, unknown>; at: number }): void {
  const id = pdId(ctx, 'alert');
  db.alerts.put(id, {
    id, type: 'alert', summary: alert.summary, self: `${API}/alerts/${id}`, html_url: `${WEB}/alerts/${id}`, created_at: iso(alert.at), status: 'triggered',
    resolved_at: null, alert_key: `${alert.source}:${id}`, suppressed: false, service: incident.service, severity: alert.severity,
    incident: refOf('incident', incident), body: { type: 'alert_body', contexts: [], details: alert.details, cef_details: { source_origin: alert.source, severity: alert.severity, summary: alert.summary } },
    integration: null, incident_id: incident.id,
  });
  const all = db.alerts.filter((a) => a.incident_id === incident.id);
  const current = db.incidents.get(incident.id)!;
  db.incidents.put(incident.id, { ...current, alert_counts: { all: all.length, triggered: all.filter((a) => a.status === 'triggered').length, resolved: all.filter((a) => a.status === 'resolved').length } });
}

/** The incident as the API answers it: `body` only with `include[]=body`... PagerDuty shows it on GET by id. */
export function renderIncident(doc: Doc, withBody: boolean): Record<string, unknown> {
  const { escalation_level: _level, body, ...rest } = doc;
  return withBody ? { ...rest, body } : rest;
}

export const stripInternal = <T extends Record<string, unknown>>(doc: T): Omit<T, 'seq' | 'incident_id' | 'schedule_id'> => {
  const { seq: _s, incident_id: _i, schedule_id: _sc, ...rest } = doc;
  return rest;
};
