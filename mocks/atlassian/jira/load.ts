import { ToolbenchError } from '../../core/errors.js';
import type { LoadContext } from '../../core/service.js';
import type { JiraDataset } from './dataset.js';
import { jiraSpecFallback } from './fallback.js';
import {
  adfOf, DEFAULT_STATUSES, ISSUE_TYPES, jiraDb, jiraTime, LINK_TYPES, parseDuration, PRIORITIES, RESOLUTIONS, type Adf, type JiraDb,
} from './model.js';

function datasetError(where: string, message: string): ToolbenchError {
  return new ToolbenchError('TB_ERR_DATASET', `atlassian dataset, jira.${where}: ${message}`);
}

const ms = (iso: string): number => Date.parse(iso);
const rich = (value: string | { type: 'doc' } | null | undefined): Adf | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? adfOf(value) : (value as unknown as Adf);

/** Loads the Jira section: projects, the workflow, boards and sprints, then issues with their comments, worklogs and links. */
export function loadJira(data: JiraDataset, ctx: LoadContext, user: (ref: string, where: string) => string): void {
  const db = jiraDb(ctx.store);
  const statuses = data.statuses ?? DEFAULT_STATUSES;
  for (const s of statuses) db.statuses.put(s.id, { id: s.id, name: s.name, category: s.category, description: s.description });
  const transitions = data.transitions ?? statuses.map((s, i) => ({ id: String(11 + 10 * i), name: s.name, to: s.name }));
  transitions.forEach((t, i) => {
    if (!statuses.some((s) => s.name === t.to)) throw datasetError(`transitions[${i}].to`, `no status ${JSON.stringify(t.to)}`);
    db.transitions.put(t.id, { id: t.id, name: t.name, to: t.to });
  });
  for (const lt of LINK_TYPES) db.link_types.put(lt.id, lt);

  let componentId = 10000;
  let versionId = 10000;
  data.projects.forEach((p, i) => {
    if (db.projects.has(p.key)) throw datasetError(`projects[${i}].key`, `${p.key} is used twice`);
    db.projects.put(p.key, {
      id: String(10000 + i), key: p.key, name: p.name, description: p.description, lead: user(p.lead, `projects[${i}].lead`), projectTypeKey: p.type,
      components: p.components.map((c, j) => ({ id: String(componentId++), name: c.name, description: c.description, lead: c.lead ? user(c.lead, `projects[${i}].components[${j}].lead`) : null })),
      versions: p.versions.map((v) => ({ id: String(versionId++), name: v.name, description: v.description, released: v.released, archived: v.archived, startDate: v.start_date ?? null, releaseDate: v.release_date ?? null })),
      last_number: 0,
    });
  });

  const boardByName = new Map<string, number>();
  let boardId = 0;
  data.boards.forEach((b, i) => {
    if (!db.projects.has(b.project)) throw datasetError(`boards[${i}].project`, `no project ${b.project}`);
    const id = b.id ?? boardId + 1;
    boardId = Math.max(boardId, id);
    if (db.boards.has(id)) throw datasetError(`boards[${i}].id`, `${id} is used twice`);
    boardByName.set(b.name, id);
    db.boards.put(id, { id, name: b.name, type: b.type, project: b.project, filter: String(10000 + i) });
  });
  ctx.ids.reserve('jira-board', boardId);
  const sprintByName = new Map<string, number>();
  let sprintId = 0;
  data.sprints.forEach((s, i) => {
    const board = boardByName.get(s.board);
    if (board === undefined) throw datasetError(`sprints[${i}].board`, `no board ${JSON.stringify(s.board)}`);
    const id = s.id ?? sprintId + 1;
    sprintId = Math.max(sprintId, id);
    if (db.sprints.has(id) || sprintByName.has(s.name)) throw datasetError(`sprints[${i}]`, `sprint ${s.name} (${id}) is given twice`);
    sprintByName.set(s.name, id);
    const created = s.start ?? s.end ?? new Date(ctx.epochMs).toISOString();
    db.sprints.put(id, {
      id, board, name: s.name, state: s.state, goal: s.goal, startDate: s.start ? jiraIso(s.start) : null, endDate: s.end ? jiraIso(s.end) : null,
      completeDate: s.complete ? jiraIso(s.complete) : null, createdDate: jiraIso(created),
    });
  });
  ctx.ids.reserve('jira-sprint', sprintId);

  let issueId = 10000;
  let commentId = 10000;
  let worklogId = 10000;
  const statusNames = new Set(statuses.map((s) => s.name));
  data.issues.forEach((issue, i) => {
    const where = `issues[${i}]`;
    const projectKey = issue.key.slice(0, issue.key.lastIndexOf('-'));
    const project = db.projects.get(projectKey);
    if (!project) throw datasetError(`${where}.key`, `no project ${projectKey}`);
    if (db.issues.has(issue.key)) throw datasetError(`${where}.key`, `${issue.key} is used twice`);
    if (!statusNames.has(issue.status)) throw datasetError(`${where}.status`, `no status ${JSON.stringify(issue.status)} in the workflow`);
    if (!ISSUE_TYPES.some((t) => t.name === issue.type)) throw datasetError(`${where}.type`, `no issue type ${JSON.stringify(issue.type)} (${ISSUE_TYPES.map((t) => t.name).join(', ')})`);
    if (!PRIORITIES.some((p) => p.name === issue.priority)) throw datasetError(`${where}.priority`, `no priority ${JSON.stringify(issue.priority)}`);
    for (const c of issue.components) if (!project.components.some((pc) => pc.name === c)) throw datasetError(`${where}.components`, `no component ${JSON.stringify(c)} in ${projectKey}`);
    for (const v of issue.fix_versions) if (!project.versions.some((pv) => pv.name === v)) throw datasetError(`${where}.fix_versions`, `no version ${JSON.stringify(v)} in ${projectKey}`);
    let sprint: number | null = null;
    if (issue.sprint !== undefined) {
      sprint = sprintByName.get(issue.sprint) ?? null;
      if (sprint === null) throw datasetError(`${where}.sprint`, `no sprint ${JSON.stringify(issue.sprint)}`);
    }
    const number = Number(issue.key.slice(projectKey.length + 1));
    db.projects.put(projectKey, { ...db.projects.get(projectKey)!, last_number: Math.max(project.last_number, number, db.projects.get(projectKey)!.last_number) });
    const done = statuses.find((s) => s.name === issue.status)!.category === 'done';
    const resolution = issue.resolution === undefined ? (done ? 'Done' : null) : issue.resolution;
    if (resolution !== null && !RESOLUTIONS.some((r) => r.name === resolution)) throw datasetError(`${where}.resolution`, `no resolution ${JSON.stringify(resolution)}`);
    const updated = issue.updated ?? issue.created;
    const reporter = user(issue.reporter, `${where}.reporter`);
    db.issues.put(issue.key, {
      id: String(++issueId), key: issue.key, project: projectKey, issuetype: issue.type, summary: issue.summary, description: rich(issue.description),
      status: issue.status, resolution, resolutiondate: resolution ? jiraIso(updated) : null, priority: issue.priority,
      assignee: issue.assignee === null ? null : user(issue.assignee, `${where}.assignee`), reporter, creator: reporter,
      labels: issue.labels, components: issue.components, fixVersions: issue.fix_versions, parent: issue.parent ?? null,
      duedate: issue.due ?? null, environment: rich(issue.environment), created: jiraIso(issue.created), updated: jiraIso(updated),
      sprint, closed_sprints: [], story_points: issue.story_points ?? null, rank: i + 1,
      watchers: issue.watchers.map((w, j) => user(w, `${where}.watchers[${j}]`)), voters: [], original_estimate: null,
    });
    issue.comments.forEach((c, j) => {
      const author = user(c.author, `${where}.comments[${j}].author`);
      const id = String(++commentId);
      db.comments.put(id, { id, issue: issue.key, author, updateAuthor: author, body: rich(c.body)!, created: jiraIso(c.created), updated: jiraIso(c.created) });
    });
    issue.worklogs.forEach((w, j) => {
      const author = user(w.author, `${where}.worklogs[${j}].author`);
      const seconds = parseDuration(w.time_spent);
      if (seconds === null || seconds === 0) throw datasetError(`${where}.worklogs[${j}].time_spent`, `not a duration: ${w.time_spent}`);
      const id = String(++worklogId);
      const started = ms(w.started);
      db.worklogs.put(id, {
        id, issue: issue.key, issueId: String(issueId), author, updateAuthor: author, comment: w.comment ? adfOf(w.comment) : null,
        started: jiraTime(started), timeSpentSeconds: seconds, created: jiraTime(started), updated: jiraTime(started), updated_ms: started,
      });
    });
  });
  let linkId = 10000;
  data.issues.forEach((issue, i) => {
    if (issue.parent !== undefined && !db.issues.has(issue.parent)) throw datasetError(`issues[${i}].parent`, `no issue ${issue.parent}`);
    issue.links.forEach((link, j) => {
      const type = LINK_TYPES.find((t) => t.name === link.type);
      if (!type) throw datasetError(`issues[${i}].links[${j}].type`, `no link type ${JSON.stringify(link.type)} (${LINK_TYPES.map((t) => t.name).join(', ')})`);
      if (!db.issues.has(link.issue)) throw datasetError(`issues[${i}].links[${j}].issue`, `no issue ${link.issue}`);
      const id = String(++linkId);
      // Jira's link: the outward issue is the one acted on ("A blocks B": inward A, outward B).
      db.links.put(id, { id, type: type.name, inward: issue.key, outward: link.issue });
    });
  });
  data.filters.forEach((f, i) => {
    const id = String(10000 + i);
    db.filters.put(id, { id, name: f.name, jql: f.jql, owner: user(f.owner, `filters[${i}].owner`), description: f.description, favourite: f.favourite });
  });
  if (data.dashboards.length > 0) {
    const site = ctx.store.collection<{ base_url: string }>('site').get('site')!;
    jiraSpecFallback().seed({
      '/rest/api/3/dashboard': data.dashboards.map((d, i) => {
        const owner = user(d.owner, `dashboards[${i}].owner`);
        const name = ctx.store.collection<{ displayName: string }>('users').get(owner)!.displayName;
        return {
          id: d.id, name: d.name, description: d.description, isFavourite: d.favourite, popularity: d.favourite ? 1 : 0, owner: { accountId: owner, displayName: name, active: true },
          self: `${site.base_url}/rest/api/3/dashboard/${d.id}`, view: `${site.base_url}/jira/dashboards/${d.id}`, sharePermissions: [], editPermissions: [], isWritable: true, systemDashboard: false,
        };
      }),
    }, ctx);
  }
  ctx.ids.reserve('jira-issue', issueId);
  ctx.ids.reserve('jira-comment', commentId);
  ctx.ids.reserve('jira-worklog', worklogId);
  ctx.ids.reserve('jira-link', linkId);
  ctx.ids.reserve('jira-filter', 10000 + data.filters.length);
  ctx.ids.reserve('jira-version', versionId);
  ctx.ids.reserve('jira-component', componentId);
}

function jiraIso(iso: string): string {
  return jiraTime(ms(iso));
}

export type { JiraDb };
