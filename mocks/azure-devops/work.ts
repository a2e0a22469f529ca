import { jsonResponse } from '../core/http.js';
import { operation, type Operation } from '../kit/operation.js';
import { identityRef, meOf, projectOf, q, teamOf, userOf, type AdoCtx } from './context.js';
import { ado } from './locations.js';
import { adoError, badRequest, list, type IterationDoc, type ProjectDoc, type TeamDoc } from './model.js';
import { timeFrame, witUrl } from './wit.js';

/**
 * Work (`_apis/work`): team settings and field values, team iterations (list, assign),
 * capacities, backlogs and their work items, iteration work items, predefined queries.
 */

const WORK_NS = 'Microsoft.TeamFoundation.Work.WebApi';

function iterationOf(c: AdoCtx, project: ProjectDoc, id: string): IterationDoc {
  const found = c.db.iterations.values().find((i) => i.project === project.id && (i.id === id.toLowerCase() || i.path.toLowerCase() === decodeURIComponent(id).toLowerCase()));
  if (!found) throw adoError(404, 'IterationNotFoundException', `VS403305: The iteration with identifier ${id} does not exist.`, { namespace: WORK_NS });
  return found;
}

function renderIteration(c: AdoCtx, project: ProjectDoc, team: TeamDoc, i: IterationDoc) {
  return {
    id: i.id, name: i.name, path: i.path,
    attributes: { startDate: i.startDate, finishDate: i.finishDate, timeFrame: timeFrame(c, i.startDate, i.finishDate) },
    url: `${c.base}/${project.id}/${team.id}/_apis/work/teamsettings/iterations/${i.id}`,
  };
}

const teamCtx = (c: AdoCtx, project: string, team: string) => {
  const p = projectOf(c, project);
  return { p, t: teamOf(c, p, team) };
};

function rootIterationId(c: AdoCtx, p: ProjectDoc): string {
  return `${p.id.slice(0, 24)}000000000001`;
}

function capacityDoc(c: AdoCtx, team: TeamDoc, iteration: IterationDoc, member: string) {
  return c.db.capacities.get(`${team.id}:${iteration.id}:${member}`) ?? { team: team.id, iteration: iteration.id, member, activities: [], daysOff: [] };
}

function renderCapacity(c: AdoCtx, p: ProjectDoc, team: TeamDoc, i: IterationDoc, cap: { member: string; activities: { name: string; capacityPerDay: number }[]; daysOff: { start: string; end: string }[] }) {
  return {
    teamMember: identityRef(c, cap.member), activities: cap.activities.length > 0 ? cap.activities : [{ capacityPerDay: 0, name: null }], daysOff: cap.daysOff,
    url: `${c.base}/${p.id}/${team.id}/_apis/work/teamsettings/iterations/${i.id}/capacities/${userOf(c, cap.member)?.id ?? cap.member}`,
  };
}

/** Working days of an iteration (Monday to Friday), for the totals ADO adds to capacities. */
function workingDays(i: IterationDoc): number {
  if (!i.startDate || !i.finishDate) return 0;
  let n = 0;
  for (let t = Date.parse(i.startDate); t <= Date.parse(i.finishDate); t += 86400000) {
    const d = new Date(t).getUTCDay();
    if (d !== 0 && d !== 6) n++;
  }
  return n;
}

const BACKLOGS = [
  { id: 'Microsoft.EpicCategory', name: 'Epics', rank: 3, types: ['Epic'] },
  { id: 'Microsoft.FeatureCategory', name: 'Features', rank: 2, types: ['Feature'] },
  { id: 'Microsoft.RequirementCategory', name: 'Stories', rank: 1, types: ['User Story', 'Bug'] },
  { id: 'Microsoft.TaskCategory', name: 'Tasks', rank: 0, types: ['Task'] },
];

export const workOperations: Operation<AdoCtx>[] = [
  operation<AdoCtx, '/:org/:project/:team/_apis/work/teamsettings'>('work.getTeamSettings', ado('GET', '/work/teamsettings'), (call, c) => {
    const { p, t } = teamCtx(c, call.params.project, call.params.team);
    const mine = c.db.iterations.values().filter((i) => i.project === p.id && i.teams.includes(t.id));
    const current = mine.find((i) => timeFrame(c, i.startDate, i.finishDate) === 'current');
    const root = { id: rootIterationId(c, p), name: p.name, path: '', url: `${c.base}/${p.id}/_apis/wit/classificationNodes/Iterations` };
    return jsonResponse(200, {
      backlogIteration: root, bugsBehavior: 'asRequirements', workingDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
      backlogVisibilities: { 'Microsoft.EpicCategory': false, 'Microsoft.FeatureCategory': true, 'Microsoft.RequirementCategory': true },
      defaultIteration: current ? { id: current.id, name: current.name, path: current.path, url: `${c.base}/${p.id}/_apis/wit/classificationNodes/Iterations/${encodeURIComponent(current.name)}` } : null,
      defaultIterationMacro: '@currentIteration',
      url: `${c.base}/${p.id}/${t.id}/_apis/work/teamsettings`,
    });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/work/teamsettings/teamfieldvalues'>('work.getTeamFieldValues', ado('GET', '/work/teamsettings/teamfieldvalues'), (call, c) => {
    const { p, t } = teamCtx(c, call.params.project, call.params.team);
    return jsonResponse(200, {
      field: { referenceName: 'System.AreaPath', url: `${c.base}/_apis/wit/fields/System.AreaPath` }, defaultValue: t.areaPath,
      values: [{ value: t.areaPath, includeChildren: t.areaPath === p.name }], url: `${c.base}/${p.id}/${t.id}/_apis/work/teamsettings/teamfieldvalues`,
    });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/work/teamsettings/iterations'>('work.getTeamIterations', ado('GET', '/work/teamsettings/iterations'), (call, c) => {
    const { p, t } = teamCtx(c, call.params.project, call.params.team);
    const frame = q(call.req, '$timeframe')?.toLowerCase();
    if (frame !== undefined && frame !== 'current' && frame !== 'past' && frame !== 'future') throw badRequest(`The timeframe '${frame}' is not valid; use current.`);
    const its = c.db.iterations.values().filter((i) => i.project === p.id && i.teams.includes(t.id) && (frame === undefined || timeFrame(c, i.startDate, i.finishDate) === frame))
      .sort((a, b) => (a.startDate ?? '').localeCompare(b.startDate ?? ''));
    return list(its.map((i) => renderIteration(c, p, t, i)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/work/teamsettings/iterations'>('work.postTeamIteration', ado('POST', '/work/teamsettings/iterations'), (call, c) => {
    const { p, t } = teamCtx(c, call.params.project, call.params.team);
    const body = (call.req.json() ?? {}) as { id?: string; path?: string };
    if (!body.id) throw badRequest('The iteration id is required.');
    const i = iterationOf(c, p, body.id);
    const updated = c.db.iterations.put(i.id, { ...i, teams: i.teams.includes(t.id) ? i.teams : [...i.teams, t.id] });
    return jsonResponse(200, renderIteration(c, p, t, updated));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/work/teamsettings/iterations/:iterationId/capacities'>('work.getCapacitiesWithIdentityRefAndTotals', ado('GET', '/work/teamsettings/iterations/:iterationId/capacities'), (call, c) => {
    const { p, t } = teamCtx(c, call.params.project, call.params.team);
    const i = iterationOf(c, p, call.params.iterationId);
    const caps = t.members.map((m) => capacityDoc(c, t, i, m));
    const days = workingDays(i);
    const perDay = caps.reduce((s, x) => s + x.activities.reduce((a, b) => a + b.capacityPerDay, 0), 0);
    return jsonResponse(200, { teamMembers: caps.map((x) => renderCapacity(c, p, t, i, x)), totalCapacityPerDay: perDay, totalDaysOff: 0, totalCapacity: perDay * days });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/work/teamsettings/iterations/:iterationId/capacities/:member'>('work.updateCapacityWithIdentityRef', ado('PATCH', '/work/teamsettings/iterations/:iterationId/capacities/:member'), (call, c) => {
    const { p, t } = teamCtx(c, call.params.project, call.params.team);
    const i = iterationOf(c, p, call.params.iterationId);
    const user = userOf(c, call.params.member);
    if (!user || !t.members.includes(user.uniqueName)) throw adoError(404, 'TeamMemberNotFoundException', `VS403327: The team member ${call.params.member} is not a member of team ${t.name}.`, { namespace: WORK_NS });
    const body = (call.req.json() ?? {}) as { activities?: { name?: string; capacityPerDay?: number }[]; daysOff?: { start: string; end: string }[] };
    const prior = capacityDoc(c, t, i, user.uniqueName);
    const doc = c.db.capacities.put(`${t.id}:${i.id}:${user.uniqueName}`, {
      ...prior, activities: body.activities?.map((a) => ({ name: a.name ?? '', capacityPerDay: Number(a.capacityPerDay ?? 0) })) ?? prior.activities,
      daysOff: body.daysOff?.map((d) => ({ start: new Date(d.start).toISOString(), end: new Date(d.end).toISOString() })) ?? prior.daysOff,
    });
    return jsonResponse(200, renderCapacity(c, p, t, i, doc));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/work/iterations/:iterationId/iterationcapacities'>('work.getTotalIterationCapacities', ado('GET', '/work/iterations/:iterationId/iterationcapacities'), (call, c) => {
    const p = projectOf(c, call.params.project);
    const i = iterationOf(c, p, call.params.iterationId);
    const days = workingDays(i);
    const teams = c.db.teams.values().filter((t) => t.project === p.id && i.teams.includes(t.id)).map((t) => {
      const perDay = t.members.map((m) => capacityDoc(c, t, i, m)).reduce((s, x) => s + x.activities.reduce((a, b) => a + b.capacityPerDay, 0), 0);
      return { teamId: t.id, teamCapacityPerDay: perDay, teamTotalDaysOff: 0 };
    });
    const total = teams.reduce((s, t) => s + t.teamCapacityPerDay, 0);
    return jsonResponse(200, { teams, totalIterationCapacityPerDay: total, totalIterationDaysOff: 0, totalIterationCapacity: total * days });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/work/teamsettings/iterations/:iterationId/workItems'>('work.getIterationWorkItems', ado('GET', '/work/teamsettings/iterations/:iterationId/workItems'), (call, c) => {
    const { p } = teamCtx(c, call.params.project, call.params.team);
    const i = iterationOf(c, p, call.params.iterationId);
    const items = c.db.work_items.values().filter((w) => w.project === p.id && String(w.fields['System.IterationPath']).toLowerCase() === i.path.toLowerCase());
    const rel = items.flatMap((w) => {
      const parent = w.relations.find((r) => r.rel === 'System.LinkTypes.Hierarchy-Reverse');
      const pid = parent ? Number(/(\d+)$/.exec(parent.url)![1]) : null;
      return [{ rel: pid === null ? null : 'System.LinkTypes.Hierarchy-Forward', source: pid === null ? null : { id: pid, url: witUrl(c, pid) }, target: { id: w.id, url: witUrl(c, w.id) } }];
    });
    return jsonResponse(200, { workItemRelations: rel, url: `${c.base}/${p.id}/_apis/work/teamsettings/iterations/${i.id}/workitems` });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/work/backlogs'>('work.getBacklogs', ado('GET', '/work/backlogs'), (call, c) => {
    const { p, t } = teamCtx(c, call.params.project, call.params.team);
    return list(BACKLOGS.map((b) => ({
      id: b.id, name: b.name, rank: b.rank, workItemCountLimit: 1000, addPanelFields: [{ referenceName: 'System.Title', name: 'Title' }], columnFields: [],
      workItemTypes: b.types.map((w) => ({ name: w })), defaultWorkItemType: { name: b.types[0] }, color: b.rank === 0 ? 'F2CB1D' : '009CCC',
      isHidden: false, type: b.rank === 0 ? 'task' : b.rank === 1 ? 'requirement' : 'portfolio', url: `${c.base}/${p.id}/${t.id}/_apis/work/backlogs/${b.id}`,
    })));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/work/backlogs/:backlogId/workItems'>('work.getBacklogLevelWorkItems', ado('GET', '/work/backlogs/:backlogId/workItems'), (call, c) => {
    const { p, t } = teamCtx(c, call.params.project, call.params.team);
    const level = BACKLOGS.find((b) => b.id.toLowerCase() === decodeURIComponent(call.params.backlogId).toLowerCase());
    if (!level) throw adoError(404, 'BacklogLevelNotFoundException', `VS403382: The backlog level ${call.params.backlogId} does not exist.`, { namespace: WORK_NS });
    const items = c.db.work_items.values().filter((w) => w.project === p.id && level.types.includes(String(w.fields['System.WorkItemType']))
      && !['Closed', 'Removed'].includes(String(w.fields['System.State']))
      && (String(w.fields['System.AreaPath']).toLowerCase() === t.areaPath.toLowerCase() || (t.areaPath === p.name && String(w.fields['System.AreaPath']).startsWith(`${p.name}`))));
    return jsonResponse(200, { workItems: items.map((w) => ({ rel: null, source: null, target: { id: w.id, url: witUrl(c, w.id) } })) });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/work/predefinedQueries/:id'>('work.getPredefinedQueryResults', ado('GET', '/work/predefinedQueries/:id'), (call, c) => {
    const p = projectOf(c, call.params.project);
    const id = call.params.id.toLowerCase();
    const me = meOf(c).uniqueName;
    const includeCompleted = q(call.req, 'includeCompleted') === 'true';
    const top = Number(q(call.req, '$top') ?? 50);
    const done = (w: { fields: Record<string, unknown> }) => ['Closed', 'Removed', 'Done'].includes(String(w.fields['System.State']));
    const pick: Record<string, (w: { fields: Record<string, unknown> }) => boolean> = {
      assignedtome: (w) => w.fields['System.AssignedTo'] === me,
      following: () => false,
      mentioned: () => false,
      myactivity: (w) => w.fields['System.ChangedBy'] === me || w.fields['System.CreatedBy'] === me,
    };
    if (!pick[id]) throw adoError(404, 'PredefinedQueryNotFoundException', `VS403418: The predefined query ${call.params.id} does not exist.`, { namespace: WORK_NS });
    const items = c.db.work_items.values().filter((w) => w.project === p.id && pick[id]!(w) && (includeCompleted || !done(w)))
      .sort((a, b) => String(b.fields['System.ChangedDate']).localeCompare(String(a.fields['System.ChangedDate'])));
    return jsonResponse(200, {
      id, name: { assignedtome: 'Assigned to me', following: 'Following', mentioned: 'Mentioned', myactivity: 'My activity' }[id], hasMore: items.length > top,
      results: items.slice(0, top).map((w) => ({ id: w.id, rev: w.rev, fields: { 'System.Id': w.id, 'System.Title': w.fields['System.Title'], 'System.State': w.fields['System.State'], 'System.WorkItemType': w.fields['System.WorkItemType'] }, url: witUrl(c, w.id) })),
      url: `${c.base}/${p.id}/_apis/work/predefinedQueries/${id}`,
    });
  }),
];
