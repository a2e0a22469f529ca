import type { LoadContext } from '../core/service.js';
import type { PagerDutyDataset } from './dataset.js';
import { addAlert, addLogEntry, newIncident } from './incident.js';
import { avatarOf, dbOf, iso, pdId, ref, refOf, API, WEB, type Doc } from './model.js';

const MIN = 60_000;

/** Fills the store from the dataset, once; every derived ID is seeded and every time counts back from the epoch. */
export function loadPagerDuty(data: PagerDutyDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const created = iso(ctx.epochMs - 400 * 86_400_000);
  for (const token of data.tokens) db.tokens.put(token.token, token);
  for (const team of data.teams) {
    db.teams.put(team.id, { id: team.id, type: 'team', summary: team.name, self: `${API}/teams/${team.id}`, html_url: `${WEB}/teams/${team.id}`, name: team.name, description: team.description, default_role: 'manager', parent: null });
  }
  const teamRefs = (ids: string[]) => ids.map((id) => refOf('team', db.teams.get(id)) ?? (() => { throw new Error(`pagerduty dataset: unknown team ${id}`); })());
  for (const user of data.users) {
    db.users.put(user.id, {
      id: user.id, type: 'user', summary: user.name, self: `${API}/users/${user.id}`, html_url: `${WEB}/users/${user.id}`,
      name: user.name, email: user.email, time_zone: user.time_zone, color: 'purple', role: user.role, avatar_url: avatarOf(user.email),
      description: null, invitation_sent: false, job_title: user.job_title, teams: teamRefs(user.teams), contact_methods: [], notification_rules: [], coordinated_incidents: [],
    });
  }
  const userRef = (id: string) => refOf('user', db.users.get(id)) ?? (() => { throw new Error(`pagerduty dataset: unknown user ${id}`); })();
  for (const s of data.schedules) {
    db.schedules.put(s.id, {
      id: s.id, type: 'schedule', summary: s.name, self: `${API}/schedules/${s.id}`, html_url: `${WEB}/schedules/${s.id}`, name: s.name,
      description: s.description, time_zone: s.time_zone, users: s.users.map(userRef), teams: teamRefs(s.teams), escalation_policies: [],
      schedule_layers: [{
        id: pdId(ctx, 'layer'), name: 'Layer 1', start: created, end: null, rotation_virtual_start: created, rotation_turn_length_seconds: 604800,
        users: s.users.map((id) => ({ user: userRef(id) })), restrictions: [],
      }],
    });
  }
  for (const ep of data.escalation_policies) {
    const rules = ep.rules.map((rule) => ({
      id: pdId(ctx, 'rule'), escalation_delay_in_minutes: rule.escalation_delay_in_minutes,
      targets: rule.targets.map((t) => (t.type === 'user_reference' ? userRef(t.id) : refOf('schedule', db.schedules.get(t.id)) ?? (() => { throw new Error(`pagerduty dataset: unknown schedule ${t.id}`); })())),
    }));
    db.escalation_policies.put(ep.id, {
      id: ep.id, type: 'escalation_policy', summary: ep.name, self: `${API}/escalation_policies/${ep.id}`, html_url: `${WEB}/escalation_policies/${ep.id}`,
      name: ep.name, description: ep.description, num_loops: ep.num_loops, on_call_handoff_notifications: 'if_has_services', escalation_rules: rules, services: [], teams: teamRefs(ep.teams),
    });
    for (const rule of rules) for (const t of rule.targets) {
      if (t.type === 'schedule_reference') {
        const schedule = db.schedules.get(t.id)!;
        db.schedules.put(t.id, { ...schedule, escalation_policies: [...(schedule.escalation_policies as unknown[]), refOf('escalation_policy', db.escalation_policies.get(ep.id))] });
      }
    }
  }
  for (const s of data.services) {
    const ep = db.escalation_policies.get(s.escalation_policy);
    if (!ep) throw new Error(`pagerduty dataset: service ${s.id} names an unknown escalation policy ${s.escalation_policy}`);
    db.services.put(s.id, {
      id: s.id, type: 'service', summary: s.name, self: `${API}/services/${s.id}`, html_url: `${WEB}/service-directory/${s.id}`, name: s.name,
      description: s.description, auto_resolve_timeout: s.auto_resolve_timeout, acknowledgement_timeout: s.acknowledgement_timeout, created_at: created, updated_at: created,
      status: s.status, last_incident_timestamp: null, escalation_policy: refOf('escalation_policy', ep), response_play: null, teams: teamRefs(s.teams),
      integrations: [], incident_urgency_rule: { type: 'constant', urgency: 'high' }, support_hours: null, scheduled_actions: [], addons: [],
      alert_creation: 'create_alerts_and_incidents', alert_grouping_parameters: { type: null }, auto_pause_notifications_parameters: { enabled: false, timeout: null },
    });
    db.escalation_policies.put(ep.id, { ...ep, services: [...(ep.services as unknown[]), refOf('service', db.services.get(s.id))] });
  }
  data.priorities.forEach((p, order) => {
    db.priorities.put(p.id, { id: p.id, type: 'priority', summary: p.name, self: `${API}/priorities/${p.id}`, html_url: null, name: p.name, description: p.description, order: (order + 1) * 32 });
  });
  ctx.ids.reserve('incident_number', Math.max(0, ...data.incidents.map((i) => i.number)));
  for (const i of [...data.incidents].sort((a, b) => b.minutes_ago - a.minutes_ago)) {
    const at = ctx.epochMs - i.minutes_ago * MIN;
    const service = db.services.get(i.service);
    if (!service) throw new Error(`pagerduty dataset: incident ${i.id} names an unknown service ${i.service}`);
    const actor = i.assignees?.[0] ?? null;
    const incident = newIncident(db, ctx, {
      id: i.id, number: i.number, title: i.title, service, urgency: i.urgency, priority: i.priority, at, incident_key: i.incident_key ?? null,
      details: i.details, assignees: i.assignees ?? null, escalation_level: i.escalation_level, by: null,
    });
    for (const alert of i.alerts) addAlert(db, ctx, incident, { ...alert, at });
    if (i.status !== 'triggered') {
      const later = at + 4 * MIN;
      const who = actor ? refOf('user', db.users.get(actor)) : null;
      const acked: Doc = { ...db.incidents.get(i.id)!, status: 'acknowledged', acknowledgements: who ? [{ at: iso(later), acknowledger: who }] : [], last_status_change_at: iso(later), last_status_change_by: who, updated_at: iso(later) };
      db.incidents.put(i.id, acked);
      addLogEntry(db, ctx, 'acknowledge', acked, later, who, {});
      if (i.status === 'resolved') {
        const done = at + 30 * MIN;
        db.incidents.put(i.id, { ...acked, status: 'resolved', assignments: [], acknowledgements: [], resolved_at: iso(done), last_status_change_at: iso(done), updated_at: iso(done), alert_counts: { all: i.alerts.length, triggered: 0, resolved: i.alerts.length } });
        for (const alert of db.alerts.filter((a) => a.incident_id === i.id)) db.alerts.put(alert.id, { ...alert, status: 'resolved', resolved_at: iso(done) });
        addLogEntry(db, ctx, 'resolve', db.incidents.get(i.id)!, done, who, {});
      }
    }
    i.notes.forEach((note) => {
      const n = { id: pdId(ctx, 'note'), incident_id: i.id, seq: ctx.ids.next('note_seq'), user: ref('user', note.user, String(db.users.get(note.user)?.name ?? note.user)), channel: { summary: 'The PagerDuty website or APIs' }, content: note.content, created_at: iso(ctx.epochMs - note.minutes_ago * MIN) };
      db.notes.put(n.id, n);
    });
  }
}
