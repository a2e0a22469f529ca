import type { LoadContext } from '../core/service.js';
import type { LinearDataset } from './dataset.js';
import { col, createTeamStates, DEFAULT_STATES, defaultState, insert, issueNumbering, priorityLabel, slug, stateStamps, type Make, type Rec } from './model.js';

/** A dataset names things by email, key, name or identifier: a dangling name is a clear load error. */
function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`linear dataset: ${what}`);
  return value;
}

const iso = (date: string) => (date.length === 10 ? `${date}T00:00:00.000Z` : new Date(date).toISOString());

export function loadLinear(data: LinearDataset, ctx: LoadContext): void {
  const make: Make = { store: ctx.store, ids: ctx.ids, nowIso: new Date(ctx.epochMs).toISOString() };
  const userByEmail = new Map<string, Rec>();
  const teamByKey = new Map<string, Rec>();
  const projectByName = new Map<string, Rec>();
  const issueById = new Map<string, Rec>();

  insert(make, 'Organization', { name: data.organization.name, urlKey: data.organization.url_key, userCount: data.users.length, roadmapEnabled: true, customersEnabled: true, initiativesEnabled: true });
  for (const user of data.users) {
    if (userByEmail.has(user.email)) throw new Error(`linear dataset: users: ${user.email} appears twice`);
    userByEmail.set(user.email, insert(make, 'User', {
      name: user.name, displayName: user.display_name ?? user.email.split('@')[0], email: user.email, admin: user.admin, active: user.active,
      apiKeys: user.api_keys, url: `https://linear.app/${data.organization.url_key}/profiles/${user.email.split('@')[0]}`,
    }));
  }
  const userId = (email: string | undefined, where: string) => (email === undefined ? null : need(userByEmail.get(email), `${where}: no user ${email}`).id);

  for (const team of data.teams) {
    if (teamByKey.has(team.key)) throw new Error(`linear dataset: teams: ${team.key} appears twice`);
    const record = insert(make, 'Team', { key: team.key, name: team.name, description: team.description ?? null, private: false, cyclesEnabled: team.cycles.length > 0, issueCount: 0 });
    teamByKey.set(team.key, record);
    createTeamStates(make, record.id, team.states ?? DEFAULT_STATES);
    for (const email of team.members) insert(make, 'TeamMembership', { teamId: record.id, userId: userId(email, `team ${team.key}`), owner: false, sortOrder: 0 });
    for (const cycle of team.cycles) insert(make, 'Cycle', { teamId: record.id, number: cycle.number, name: cycle.name ?? null, description: cycle.description ?? null, startsAt: iso(cycle.starts_at), endsAt: iso(cycle.ends_at), progress: 0 });
  }
  const teamId = (key: string, where: string) => need(teamByKey.get(key), `${where}: no team ${key}`).id;

  const labelIdOf = new Map<string, string>(); // `${teamKey}/${name}` and `/${name}`
  for (const label of data.labels) {
    const record = insert(make, 'IssueLabel', { name: label.name, color: label.color, description: label.description ?? null, teamId: label.team ? teamId(label.team, `label ${label.name}`) : null, isGroup: false });
    labelIdOf.set(`${label.team ?? ''}/${label.name}`, record.id);
  }

  for (const project of data.projects) {
    const record = insert(make, 'Project', {
      name: project.name, description: project.description, content: project.content ?? null, slugId: slug(project.name),
      teamIds: project.teams.map((key) => teamId(key, `project ${project.name}`)), leadId: userId(project.lead, `project ${project.name}`),
      memberIds: project.members.map((email) => userId(email, `project ${project.name}`)), state: project.state, priority: project.priority,
      startDate: project.start_date ?? null, targetDate: project.target_date ?? null, progress: 0, url: `https://linear.app/${data.organization.url_key}/project/${slug(project.name)}`,
    });
    projectByName.set(project.name, record);
    project.milestones.forEach((m, sortOrder) => insert(make, 'ProjectMilestone', { projectId: record.id, name: m.name, description: m.description ?? null, targetDate: m.target_date ?? null, sortOrder }));
  }

  const byIdentifier = new Map<string, Rec>();
  data.issues.forEach((issue, index) => {
    const where = `issues[${index}] (${issue.title})`;
    const team = need(teamByKey.get(issue.team), `${where}: no team ${issue.team}`);
    const states = col(ctx.store, 'WorkflowState').filter((s) => s.teamId === team.id);
    const state = issue.state ? need(states.find((s) => s.name === issue.state), `${where}: team ${issue.team} has no state ${issue.state}`) : defaultState(ctx.store, team.id);
    const project = issue.project ? need(projectByName.get(issue.project), `${where}: no project ${issue.project}`) : null;
    const milestone = issue.milestone ? need(col(ctx.store, 'ProjectMilestone').find((m) => m.projectId === project?.id && m.name === issue.milestone), `${where}: no milestone ${issue.milestone} in its project`) : null;
    const cycle = issue.cycle ? need(col(ctx.store, 'Cycle').find((c) => c.teamId === team.id && c.number === issue.cycle), `${where}: team ${issue.team} has no cycle ${issue.cycle}`) : null;
    const labelIds = issue.labels.map((name) => need(labelIdOf.get(`${issue.team}/${name}`) ?? labelIdOf.get(`/${name}`), `${where}: no label ${name} for team ${issue.team}`));
    const createdAt = issue.created_at ? iso(issue.created_at) : make.nowIso;
    const numbering = issueNumbering(ctx.store, team, issue.title, issue.number);
    if (byIdentifier.has(numbering.identifier as string)) throw new Error(`linear dataset: ${where}: ${numbering.identifier as string} appears twice`);
    const parent = issue.parent ? need(byIdentifier.get(issue.parent), `${where}: parent ${issue.parent} must come earlier`) : null;
    const record = insert(make, 'Issue', {
      ...numbering, teamId: team.id, title: issue.title, description: issue.description ?? null, stateId: state?.id ?? null,
      priority: issue.priority, priorityLabel: priorityLabel(issue.priority), estimate: issue.estimate ?? null,
      assigneeId: userId(issue.assignee, where), creatorId: userId(issue.creator ?? issue.assignee ?? data.users[0]?.email, where),
      labelIds, projectId: project?.id ?? null, projectMilestoneId: milestone?.id ?? null, cycleId: cycle?.id ?? null, parentId: parent?.id ?? null,
      dueDate: issue.due_date ?? null, subscriberIds: issue.subscribers.map((email) => userId(email, where)), sortOrder: index, trashed: false,
      createdAt, updatedAt: createdAt, ...stateStamps(state, createdAt, null),
    });
    byIdentifier.set(record.identifier as string, record);
    issueById.set(record.id, record);
    col(ctx.store, 'Team').update(team.id, { issueCount: (col(ctx.store, 'Team').get(team.id)!.issueCount as number) + 1 });
    for (const comment of issue.comments) {
      const at = comment.created_at ? iso(comment.created_at) : createdAt;
      insert(make, 'Comment', { issueId: record.id, userId: userId(comment.user, where), body: comment.body, createdAt: at, updatedAt: at, editedAt: null, parentId: null, url: `${record.url as string}#comment` });
    }
  });
  const issueId = (identifier: string, where: string) => need(byIdentifier.get(identifier), `${where}: no issue ${identifier}`).id;

  for (const relation of data.relations) insert(make, 'IssueRelation', { issueId: issueId(relation.issue, 'relations'), relatedIssueId: issueId(relation.related, 'relations'), type: relation.type });
  for (const document of data.documents) {
    insert(make, 'Document', {
      title: document.title, content: document.content, icon: document.icon ?? null, slugId: slug(document.title),
      projectId: document.project ? need(projectByName.get(document.project), `document ${document.title}: no project ${document.project}`).id : null,
      creatorId: userId(document.creator ?? data.users[0]?.email, `document ${document.title}`), url: `https://linear.app/${data.organization.url_key}/document/${slug(document.title)}`,
    });
  }
  for (const initiative of data.initiatives) {
    const record = insert(make, 'Initiative', { name: initiative.name, description: initiative.description ?? null, ownerId: userId(initiative.owner, `initiative ${initiative.name}`), status: initiative.status, targetDate: initiative.target_date ?? null, slugId: slug(initiative.name) });
    for (const name of initiative.projects) insert(make, 'InitiativeToProject', { initiativeId: record.id, projectId: need(projectByName.get(name), `initiative ${initiative.name}: no project ${name}`).id, sortOrder: '0' });
  }
  for (const [name, color] of [['Active', '#0f783c'], ['Churned', '#95a2b3']] as const) insert(make, 'CustomerStatus', { name, displayName: name, color, position: 0 });
  for (const [name, color] of [['Enterprise', '#5e6ad2'], ['Startup', '#f2c94c']] as const) insert(make, 'CustomerTier', { name, displayName: name, color, position: 0 });
  const active = col(ctx.store, 'CustomerStatus').values()[0]!;
  for (const customer of data.customers) {
    const record = insert(make, 'Customer', { statusId: active.id, name: customer.name, domains: customer.domains, externalIds: [], revenue: customer.revenue ?? null, size: customer.size ?? null, ownerId: userId(customer.owner, `customer ${customer.name}`), slugId: slug(customer.name), approximateNeedCount: customer.needs.length });
    for (const n of customer.needs) {
      insert(make, 'CustomerNeed', {
        customerId: record.id, issueId: n.issue ? issueId(n.issue, `customer ${customer.name}`) : null,
        projectId: n.project ? need(projectByName.get(n.project), `customer ${customer.name}: no project ${n.project}`).id : null, body: n.body ?? null, priority: n.priority,
      });
    }
  }
  for (const status of [['Backlog', 'backlog'], ['Planned', 'planned'], ['In Progress', 'started'], ['Paused', 'paused'], ['Completed', 'completed'], ['Canceled', 'canceled']] as const) {
    insert(make, 'ProjectStatus', { name: status[0], type: status[1], color: '#bec2c8', position: 0, indefinite: false });
  }
}
