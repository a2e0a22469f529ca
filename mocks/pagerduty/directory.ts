import { z } from 'zod';
import { emptyResponse, jsonResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { required, type PdCtx } from './context.js';
import { levelAssignees } from './incident.js';
import { API, WEB, avatarOf, classicPage, invalid, iso, many, matchesQuery, one, pdId, refOf, type Doc, type Query, type Ref } from './model.js';

/** The account's directory: users, teams (and their members), services, escalation policies, schedules (users, overrides), on-calls, priorities. */

const byName = (a: Doc, b: Doc) => String(a.name).localeCompare(String(b.name));
const inTeams = (doc: Doc, teams: string[]) => teams.length === 0 || ((doc.teams ?? []) as Ref[]).some((t) => teams.includes(t.id));
const RefBody = z.object({ id: z.string(), type: z.string() }).passthrough();
const TeamBody = z.object({ team: z.object({ type: z.literal('team').optional(), name: z.string().min(1), description: z.string().nullable().optional() }).passthrough() });
const ServiceBody = z.object({ service: z.object({
  type: z.string().optional(), name: z.string().min(1).optional(), description: z.string().nullable().optional(), escalation_policy: RefBody.optional(),
  status: z.enum(['active', 'warning', 'critical', 'maintenance', 'disabled']).optional(), acknowledgement_timeout: z.number().int().nullable().optional(), auto_resolve_timeout: z.number().int().nullable().optional(),
}).passthrough() });

function teamMembers(c: PdCtx, teamId: string): { user: Ref; role: string }[] {
  return c.db.users.values().filter((u) => ((u.teams ?? []) as Ref[]).some((t) => t.id === teamId)).sort(byName).map((u) => ({ user: refOf('user', u)!, role: String((u.team_roles as Record<string, string> | undefined)?.[teamId] ?? 'manager') }));
}

/** Who is on call now: each escalation policy level's users (schedules resolve to their first member). */
function oncalls(c: PdCtx, query: Query): unknown[] {
  const users = many(query, 'user_ids');
  const eps = many(query, 'escalation_policy_ids');
  const schedules = many(query, 'schedule_ids');
  const earliest = one(query, 'earliest') === 'true';
  const now = c.ctx.nowMs;
  const out: unknown[] = [];
  for (const ep of c.db.escalation_policies.values().sort(byName)) {
    if (eps.length > 0 && !eps.includes(ep.id)) continue;
    ((ep.escalation_rules ?? []) as { targets: Ref[] }[]).forEach((rule, index) => {
      for (const target of rule.targets) {
        const schedule = target.type === 'schedule_reference' ? c.db.schedules.get(target.id) : undefined;
        if (schedules.length > 0 && !schedule) continue;
        if (schedules.length > 0 && schedule && !schedules.includes(schedule.id)) continue;
        const userId = schedule ? (((schedule.users ?? []) as Ref[])[0]?.id) : target.id;
        const user = userId ? c.db.users.get(userId) : undefined;
        if (!user || (users.length > 0 && !users.includes(user.id))) continue;
        if (earliest && out.some((o) => (o as { user: Ref; escalation_policy: Ref }).user.id === user.id && (o as { escalation_policy: Ref }).escalation_policy.id === ep.id)) continue;
        out.push({
          escalation_policy: refOf('escalation_policy', ep), escalation_level: index + 1, schedule: schedule ? refOf('schedule', schedule) : null, user: refOf('user', user),
          start: schedule ? iso(now - 2 * 86_400_000) : null, end: schedule ? iso(now + 5 * 86_400_000) : null,
        });
      }
    });
  }
  return out;
}

export const directoryOperations: Operation<PdCtx>[] = [
  operation<PdCtx, '/users'>('users.list', rest('GET', '/users'), (call, c) =>
    classicPage('users', c.db.users.values().filter((u) => (matchesQuery(u.name, one(call.query, 'query')) || matchesQuery(u.email, one(call.query, 'query'))) && inTeams(u, many(call.query, 'team_ids'))).sort(byName), call.query)),
  operation<PdCtx, '/users/me'>('users.me', rest('GET', '/users/me'), (_call, c) => {
    if (!c.token?.user_id) throw invalid('This endpoint requires a user-level API token');
    return jsonResponse(200, { user: required(c.db.users.get(c.token.user_id)) });
  }),
  operation<PdCtx, '/users/:id'>('users.get', rest('GET', '/users/:id'), (call, c) => jsonResponse(200, { user: required(c.db.users.get(call.params.id)) })),
  operation<PdCtx, '/users', Query, { user: { name: string; email: string; role?: string; time_zone?: string; job_title?: string } }>('users.create', rest('POST', '/users'), (call, c) => {
    const u = call.body.user;
    if (c.db.users.find((x) => String(x.email).toLowerCase() === u.email.toLowerCase())) throw invalid('Email has already been taken');
    const id = pdId(c.ctx, 'user');
    const user = c.db.users.put(id, {
      id, type: 'user', summary: u.name, self: `${API}/users/${id}`, html_url: `${WEB}/users/${id}`, name: u.name, email: u.email, time_zone: u.time_zone ?? 'America/New_York',
      color: 'purple', role: u.role ?? 'user', avatar_url: avatarOf(u.email), description: null, invitation_sent: true,
      job_title: u.job_title ?? null, teams: [], contact_methods: [], notification_rules: [], coordinated_incidents: [],
    });
    return jsonResponse(201, { user });
  }, { input: { body: z.object({ user: z.object({ name: z.string().min(1), email: z.string().email(), role: z.string().optional(), time_zone: z.string().optional(), job_title: z.string().optional() }).passthrough() }) } }),

  operation<PdCtx, '/teams'>('teams.list', rest('GET', '/teams'), (call, c) =>
    classicPage('teams', c.db.teams.values().filter((t) => matchesQuery(t.name, one(call.query, 'query'))).sort(byName), call.query)),
  operation<PdCtx, '/teams/:id'>('teams.get', rest('GET', '/teams/:id'), (call, c) => jsonResponse(200, { team: required(c.db.teams.get(call.params.id)) })),
  operation<PdCtx, '/teams', Query, z.infer<typeof TeamBody>>('teams.create', rest('POST', '/teams'), (call, c) => {
    if (c.db.teams.find((t) => t.name === call.body.team.name)) throw invalid('Name has already been taken');
    const id = pdId(c.ctx, 'team');
    const team = c.db.teams.put(id, { id, type: 'team', summary: call.body.team.name, self: `${API}/teams/${id}`, html_url: `${WEB}/teams/${id}`, name: call.body.team.name, description: call.body.team.description ?? null, default_role: 'manager', parent: null });
    return jsonResponse(201, { team });
  }, { input: { body: TeamBody } }),
  operation<PdCtx, '/teams/:id', Query, z.infer<typeof TeamBody>>('teams.update', rest('PUT', '/teams/:id'), (call, c) => {
    const team = required(c.db.teams.get(call.params.id));
    const name = call.body.team.name;
    return jsonResponse(200, { team: c.db.teams.put(team.id, { ...team, name, summary: name, description: call.body.team.description === undefined ? team.description : call.body.team.description }) });
  }, { input: { body: TeamBody } }),
  operation<PdCtx, '/teams/:id'>('teams.delete', rest('DELETE', '/teams/:id'), (call, c) => {
    const team = required(c.db.teams.get(call.params.id));
    if (c.db.incidents.find((i) => i.status !== 'resolved' && (i.teams as Ref[]).some((t) => t.id === team.id))) throw invalid('Team has unresolved incidents');
    for (const u of c.db.users.values()) if ((u.teams as Ref[]).some((t) => t.id === team.id)) c.db.users.put(u.id, { ...u, teams: (u.teams as Ref[]).filter((t) => t.id !== team.id) });
    c.db.teams.delete(team.id);
    return emptyResponse(204);
  }),
  operation<PdCtx, '/teams/:id/members'>('teams.members.list', rest('GET', '/teams/:id/members'), (call, c) => classicPage('members', teamMembers(c, required(c.db.teams.get(call.params.id)).id), call.query)),
  operation<PdCtx, '/teams/:id/users/:user_id', Query, { role?: string }>('teams.users.add', rest('PUT', '/teams/:id/users/:user_id'), (call, c) => {
    const team = required(c.db.teams.get(call.params.id));
    const user = required(c.db.users.get(call.params.user_id));
    const teams = (user.teams as Ref[]).some((t) => t.id === team.id) ? user.teams : [...(user.teams as Ref[]), refOf('team', team)];
    c.db.users.put(user.id, { ...user, teams, team_roles: { ...(user.team_roles as Record<string, string> | undefined), [team.id]: call.body.role ?? 'manager' } });
    return emptyResponse(204);
  }, { input: { body: z.object({ role: z.enum(['observer', 'responder', 'manager']).optional() }).passthrough() } }),
  operation<PdCtx, '/teams/:id/users/:user_id'>('teams.users.remove', rest('DELETE', '/teams/:id/users/:user_id'), (call, c) => {
    const team = required(c.db.teams.get(call.params.id));
    const user = required(c.db.users.get(call.params.user_id));
    c.db.users.put(user.id, { ...user, teams: (user.teams as Ref[]).filter((t) => t.id !== team.id) });
    return emptyResponse(204);
  }),

  operation<PdCtx, '/services'>('services.list', rest('GET', '/services'), (call, c) =>
    classicPage('services', c.db.services.values().filter((s) => matchesQuery(s.name, one(call.query, 'query')) && inTeams(s, many(call.query, 'team_ids'))).sort(byName), call.query)),
  operation<PdCtx, '/services/:id'>('services.get', rest('GET', '/services/:id'), (call, c) => jsonResponse(200, { service: required(c.db.services.get(call.params.id)) })),
  operation<PdCtx, '/services', Query, z.infer<typeof ServiceBody>>('services.create', rest('POST', '/services'), (call, c) => {
    const s = call.body.service;
    if (!s.name) throw invalid('Name cannot be empty');
    if (!s.escalation_policy) throw invalid('Escalation policy must be specified');
    const ep = c.db.escalation_policies.get(s.escalation_policy.id);
    if (!ep) throw invalid('Escalation policy not found');
    if (c.db.services.find((x) => x.name === s.name)) throw invalid('Name has already been taken');
    const id = pdId(c.ctx, 'service');
    const at = iso(c.ctx.nowMs);
    const service = c.db.services.put(id, {
      id, type: 'service', summary: s.name, self: `${API}/services/${id}`, html_url: `${WEB}/service-directory/${id}`, name: s.name, description: s.description ?? null,
      auto_resolve_timeout: s.auto_resolve_timeout ?? 14400, acknowledgement_timeout: s.acknowledgement_timeout ?? 1800, created_at: at, updated_at: at, status: s.status ?? 'active',
      last_incident_timestamp: null, escalation_policy: refOf('escalation_policy', ep), response_play: null, teams: [], integrations: [], incident_urgency_rule: { type: 'constant', urgency: 'high' },
      support_hours: null, scheduled_actions: [], addons: [], alert_creation: 'create_alerts_and_incidents', alert_grouping_parameters: { type: null }, auto_pause_notifications_parameters: { enabled: false, timeout: null },
    });
    c.db.escalation_policies.put(ep.id, { ...ep, services: [...(ep.services as unknown[]), refOf('service', service)] });
    return jsonResponse(201, { service });
  }, { input: { body: ServiceBody } }),
  operation<PdCtx, '/services/:id', Query, z.infer<typeof ServiceBody>>('services.update', rest('PUT', '/services/:id'), (call, c) => {
    const service = required(c.db.services.get(call.params.id));
    const s = call.body.service;
    const next: Doc = { ...service, updated_at: iso(c.ctx.nowMs) };
    for (const key of ['name', 'description', 'status', 'acknowledgement_timeout', 'auto_resolve_timeout'] as const) if (s[key] !== undefined) next[key] = s[key];
    if (s.name) next.summary = s.name;
    if (s.escalation_policy) next.escalation_policy = refOf('escalation_policy', c.db.escalation_policies.get(s.escalation_policy.id) ?? (() => { throw invalid('Escalation policy not found'); })());
    return jsonResponse(200, { service: c.db.services.put(service.id, next) });
  }, { input: { body: ServiceBody } }),

  operation<PdCtx, '/escalation_policies'>('escalation_policies.list', rest('GET', '/escalation_policies'), (call, c) => {
    const users = many(call.query, 'user_ids');
    const eps = c.db.escalation_policies.values().filter((ep) => matchesQuery(ep.name, one(call.query, 'query')) && inTeams(ep, many(call.query, 'team_ids'))
      && (users.length === 0 || ((ep.escalation_rules ?? []) as unknown[]).some((_r, i) => levelAssignees(c.db, ep, i + 1).some((u) => users.includes(u))))).sort(byName);
    return classicPage('escalation_policies', eps, call.query);
  }),
  operation<PdCtx, '/escalation_policies/:id'>('escalation_policies.get', rest('GET', '/escalation_policies/:id'), (call, c) => jsonResponse(200, { escalation_policy: required(c.db.escalation_policies.get(call.params.id)) })),

  operation<PdCtx, '/schedules'>('schedules.list', rest('GET', '/schedules'), (call, c) =>
    classicPage('schedules', c.db.schedules.values().filter((s) => matchesQuery(s.name, one(call.query, 'query'))).sort(byName).map(({ schedule_layers: _l, ...s }) => s), call.query)),
  operation<PdCtx, '/schedules/:id'>('schedules.get', rest('GET', '/schedules/:id'), (call, c) => {
    const s = required(c.db.schedules.get(call.params.id));
    const now = c.ctx.nowMs;
    const first = ((s.users ?? []) as Ref[])[0];
    const entry = first ? [{ user: first, start: iso(now - 2 * 86_400_000), end: iso(now + 5 * 86_400_000) }] : [];
    return jsonResponse(200, { schedule: { ...s, final_schedule: { name: 'Final Schedule', rendered_schedule_entries: entry, rendered_coverage_percentage: 100 }, overrides_subschedule: { name: 'Overrides', rendered_schedule_entries: [], rendered_coverage_percentage: 0 } } });
  }),
  operation<PdCtx, '/schedules/:id/users'>('schedules.users.list', rest('GET', '/schedules/:id/users'), (call, c) => {
    const s = required(c.db.schedules.get(call.params.id));
    return jsonResponse(200, { users: ((s.users ?? []) as Ref[]).map((u) => c.db.users.get(u.id)).filter(Boolean) });
  }),
  operation<PdCtx, '/schedules/:id/overrides'>('schedules.overrides.list', rest('GET', '/schedules/:id/overrides'), (call, c) => {
    const s = required(c.db.schedules.get(call.params.id));
    const overrides = c.db.overrides.filter((o) => o.schedule_id === s.id).map(({ schedule_id: _s, ...o }) => o);
    return jsonResponse(200, { overrides });
  }),
  operation<PdCtx, '/schedules/:id/overrides', Query, { overrides?: { start: string; end: string; user: { id: string } }[]; override?: { start: string; end: string; user: { id: string } } }>('schedules.overrides.create', rest('POST', '/schedules/:id/overrides'), (call, c) => {
    const s = required(c.db.schedules.get(call.params.id));
    const list = call.body.overrides ?? (call.body.override ? [call.body.override] : []);
    if (list.length === 0) throw invalid('Overrides must be specified');
    const out = list.map((o) => {
      const user = c.db.users.get(o.user.id);
      if (!user) return { status: 400, errors: ['User not found'] };
      if (!(Date.parse(o.end) > Date.parse(o.start))) return { status: 400, errors: ['End must be after start'] };
      const id = pdId(c.ctx, 'override');
      const doc = { id, start: iso(Date.parse(o.start)), end: iso(Date.parse(o.end)), user: refOf('user', user), schedule_id: s.id };
      c.db.overrides.put(id, doc);
      const { schedule_id: _s, ...shown } = doc;
      return { status: 201, override: shown };
    });
    return call.body.overrides ? jsonResponse(201, out) : jsonResponse(201, { override: (out[0] as { override?: unknown }).override ?? out[0] });
  }, { input: { body: z.object({ overrides: z.array(z.object({ start: z.string(), end: z.string(), user: RefBody }).passthrough()).optional(), override: z.object({ start: z.string(), end: z.string(), user: RefBody }).passthrough().optional() }).passthrough() } }),

  // Shift-based (v3) schedules are created through the spec fallback; their list is this one.
  operation<PdCtx, '/v3/schedules'>('schedules_v3.list', rest('GET', '/v3/schedules'), (call, c) => {
    const stored = c.ctx.store.collection<Record<string, Doc>>('spec:/v3/schedules').values().map((d) => d.schedule).filter((d): d is Doc => !!d);
    return classicPage('schedules', stored.filter((s) => matchesQuery(s.name, one(call.query, 'query'))), call.query);
  }),
  operation<PdCtx, '/oncalls'>('oncalls.list', rest('GET', '/oncalls'), (call, c) => classicPage('oncalls', oncalls(c, call.query), call.query)),
  operation<PdCtx, '/priorities'>('priorities.list', rest('GET', '/priorities'), (call, c) =>
    classicPage('priorities', c.db.priorities.values().sort((a, b) => Number(a.order) - Number(b.order)), call.query)),
];
