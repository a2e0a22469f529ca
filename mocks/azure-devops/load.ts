import type { LoadContext } from '../core/service.js';
import { uuidId } from '../kit/ids.js';
import type { AzureDevopsDataset } from './dataset.js';
import { dbOf, type RelationDoc } from './model.js';
import { normaliseTags } from './wit.js';

/** Fills the store from the dataset, once, at the scenario's epoch; IDs the dataset leaves out are seeded. */
export function loadAzureDevops(data: AzureDevopsDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const epoch = new Date(ctx.epochMs).toISOString();
  const org = data.organization;
  db.org.put('org', { name: org.name, id: uuidId(ctx, 'organization'), tenantId: org.tenantId });
  const base = `https://dev.azure.com/${org.name}`;
  for (const t of data.tokens) db.tokens.put(t.token, t);
  for (const u of data.users) {
    const id = u.id ?? uuidId(ctx, 'user');
    db.users.put(id, { id, displayName: u.displayName, uniqueName: u.uniqueName });
  }
  const projectId = new Map<string, string>();
  const lookup = (name: string) => {
    const id = projectId.get(name.toLowerCase());
    if (id === undefined) throw new Error(`azure-devops dataset: unknown project ${name}`);
    return id;
  };
  for (const p of data.projects) {
    const id = p.id ?? uuidId(ctx, 'project');
    projectId.set(p.name.toLowerCase(), id);
    const teams = p.teams.length > 0 ? p.teams : [{ name: `${p.name} Team`, description: `The default project team.`, members: [], iterations: p.iterations.map((i) => i.name), capacities: [] }];
    const teamIds = teams.map(() => uuidId(ctx, 'team'));
    db.projects.put(id, { id, name: p.name, description: p.description, visibility: p.visibility, revision: 400 + projectId.size, lastUpdateTime: epoch, defaultTeam: teamIds[0]!, areas: p.areas });
    const iterationIds = new Map<string, string>();
    p.iterations.forEach((it) => {
      const iid = uuidId(ctx, 'iteration');
      iterationIds.set(it.name, iid);
      db.iterations.put(iid, { id: iid, identifier: ctx.ids.next('iteration', 1000), project: id, name: it.name, path: `${p.name}\\${it.name}`, startDate: it.startDate, finishDate: it.finishDate,
        teams: teams.flatMap((t, k) => (t.iterations.includes(it.name) ? [teamIds[k]!] : [])) });
    });
    teams.forEach((t, k) => {
      db.teams.put(teamIds[k]!, { id: teamIds[k]!, name: t.name, project: id, description: t.description, members: t.members, areaPath: t.areaPath ? `${p.name}\\${t.areaPath.replace(/\//g, '\\')}` : p.name });
      for (const cap of 'capacities' in t ? t.capacities : []) {
        const iid = iterationIds.get(cap.iteration);
        if (iid === undefined) throw new Error(`azure-devops dataset: team ${t.name} has capacity in unknown iteration ${cap.iteration}`);
        db.capacities.put(`${teamIds[k]}:${iid}:${cap.member}`, { team: teamIds[k]!, iteration: iid, member: cap.member, activities: cap.activities, daysOff: [] });
      }
    });
  }

  const witUrl = (id: number) => `${base}/_apis/wit/workItems/${id}`;
  let maxItem = 0;
  for (const w of data.work_items) {
    maxItem = Math.max(maxItem, w.id);
    const pid = lookup(w.project);
    const project = db.projects.get(pid)!;
    const changed = w.changedDate ?? w.comments.at(-1)?.createdDate ?? w.createdDate;
    const fields: Record<string, unknown> = {
      'System.Id': w.id, 'System.AreaPath': w.area ? `${project.name}\\${w.area.replace(/\//g, '\\')}` : project.name, 'System.TeamProject': project.name,
      'System.IterationPath': w.iteration ? `${project.name}\\${w.iteration}` : project.name, 'System.WorkItemType': w.type, 'System.State': w.state,
      'System.Reason': w.reason ?? (w.state === 'New' ? 'New' : w.state === 'Active' ? 'Implementation started' : w.state === 'Resolved' ? 'Fixed' : w.state === 'Closed' ? 'Verified' : w.state),
      ...(w.assignedTo ? { 'System.AssignedTo': w.assignedTo } : {}), 'System.CreatedDate': w.createdDate, 'System.CreatedBy': w.createdBy,
      'System.ChangedDate': changed, 'System.ChangedBy': w.assignedTo ?? w.createdBy, 'System.CommentCount': w.comments.length, 'System.Title': w.title,
      ...(w.tags.length > 0 ? { 'System.Tags': normaliseTags(w.tags.join(';')) } : {}), ...(w.description ? { 'System.Description': w.description } : {}),
      ...(w.reproSteps ? { 'Microsoft.VSTS.TCM.ReproSteps': w.reproSteps } : {}), ...(w.priority ? { 'Microsoft.VSTS.Common.Priority': w.priority } : {}),
      ...(w.severity ? { 'Microsoft.VSTS.Common.Severity': w.severity } : {}), ...(w.storyPoints !== undefined ? { 'Microsoft.VSTS.Scheduling.StoryPoints': w.storyPoints } : {}),
      ...(['Resolved', 'Closed'].includes(w.state) ? { 'Microsoft.VSTS.Common.ResolvedDate': changed, 'Microsoft.VSTS.Common.ResolvedBy': w.assignedTo ?? w.createdBy } : {}),
      ...(w.state === 'Closed' ? { 'Microsoft.VSTS.Common.ClosedDate': changed, 'Microsoft.VSTS.Common.ClosedBy': w.assignedTo ?? w.createdBy } : {}),
      ...w.fields, 'System.Rev': 1,
    };
    db.work_items.put(String(w.id), { id: w.id, rev: 1, project: pid, fields, relations: [] });
    db.revisions.put(`${w.id}:1`, { id: w.id, rev: 1, fields });
    for (const cm of w.comments) {
      const id = ctx.ids.next('comment', 1_000_000);
      db.comments.put(`${w.id}:${id}`, { workItemId: w.id, id, version: 1, text: cm.text, format: 'markdown', createdBy: cm.author, createdDate: cm.createdDate, modifiedDate: cm.createdDate });
    }
  }
  ctx.ids.reserve('workitem', maxItem);
  // Links, both ends, once every item exists.
  const link = (from: number, rel: string, to: number, name: string) => {
    const doc = db.work_items.get(String(from));
    if (!doc) throw new Error(`azure-devops dataset: link from unknown work item ${from}`);
    if (!db.work_items.has(String(to))) throw new Error(`azure-devops dataset: link to unknown work item ${to}`);
    const relation: RelationDoc = { rel, url: witUrl(to), attributes: { isLocked: false, name } };
    if (!doc.relations.some((r) => r.rel === rel && r.url === relation.url)) db.work_items.put(String(from), { ...doc, relations: [...doc.relations, relation] });
  };
  for (const w of data.work_items) {
    if (w.parent !== undefined) { link(w.id, 'System.LinkTypes.Hierarchy-Reverse', w.parent, 'Parent'); link(w.parent, 'System.LinkTypes.Hierarchy-Forward', w.id, 'Child'); }
    for (const r of w.related) { link(w.id, 'System.LinkTypes.Related', r, 'Related'); link(r, 'System.LinkTypes.Related', w.id, 'Related'); }
  }

  for (const p of db.projects.values()) {
    for (const root of ['My Queries', 'Shared Queries']) {
      const id = uuidId(ctx, 'query');
      db.queries.put(id, { id, project: p.id, name: root, path: root, wiql: null, isFolder: true, parent: null });
    }
  }
  const folderOf = (pid: string, path: string): string => {
    const existing = db.queries.values().find((x) => x.project === pid && x.isFolder && x.path.toLowerCase() === path.toLowerCase());
    if (existing) return existing.id;
    const parentPath = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : null;
    if (parentPath === null) throw new Error(`azure-devops dataset: query folder ${path} is not under My Queries or Shared Queries`);
    const parent = folderOf(pid, parentPath);
    const id = uuidId(ctx, 'query');
    db.queries.put(id, { id, project: pid, name: path.slice(path.lastIndexOf('/') + 1), path, wiql: null, isFolder: true, parent });
    return id;
  };
  for (const sq of data.queries) {
    const pid = lookup(sq.project);
    const parent = folderOf(pid, sq.folder);
    const id = uuidId(ctx, 'query');
    db.queries.put(id, { id, project: pid, name: sq.name, path: `${sq.folder}/${sq.name}`, wiql: sq.wiql, isFolder: false, parent });
  }

  const repoId = new Map<string, string>();
  for (const r of data.repositories) {
    const pid = lookup(r.project);
    const id = r.id ?? uuidId(ctx, 'repository');
    repoId.set(`${pid}:${r.name.toLowerCase()}`, id);
    db.repositories.put(id, { id, name: r.name, project: pid, defaultBranch: r.defaultBranch, isDisabled: r.isDisabled });
    for (const b of r.branches) {
      const sha = b.commit ?? ctx.ids.opaque(`commit:${id}:${b.name}`, 0, 40);
      const author = b.author ?? data.users[0]?.uniqueName ?? 'unknown';
      db.commits.put(`${id}:${sha}`, { repo: id, commitId: sha, message: b.message, author, date: b.date ?? epoch, branch: b.name, files: b.files });
      db.refs.put(`${id}:refs/heads/${b.name}`, { repo: id, name: `refs/heads/${b.name}`, objectId: sha, creator: author });
    }
    for (const t of r.tags) {
      const head = db.refs.get(`${id}:refs/heads/${t.branch}`);
      if (!head) throw new Error(`azure-devops dataset: tag ${t.name} on unknown branch ${t.branch}`);
      db.refs.put(`${id}:refs/tags/${t.name}`, { repo: id, name: `refs/tags/${t.name}`, objectId: head.objectId, creator: head.creator });
    }
  }
  const repoOf = (project: string, name: string) => {
    const id = repoId.get(`${lookup(project)}:${name.toLowerCase()}`);
    if (id === undefined) throw new Error(`azure-devops dataset: unknown repository ${project}/${name}`);
    return id;
  };
  const userId = (unique: string) => db.users.values().find((u) => u.uniqueName === unique)?.id ?? unique;
  let maxPr = 0;
  for (const pr of data.pull_requests) {
    maxPr = Math.max(maxPr, pr.id);
    db.pull_requests.put(String(pr.id), {
      id: pr.id, repo: repoOf(pr.project, pr.repository), project: lookup(pr.project), title: pr.title, description: pr.description, source: pr.source, target: pr.target,
      status: pr.status, isDraft: pr.isDraft, createdBy: pr.createdBy, creationDate: pr.creationDate, closedDate: pr.closedDate ?? null,
      reviewers: pr.reviewers.map((r) => ({ id: userId(r.user), vote: r.vote, isRequired: r.isRequired })), labels: pr.labels, workItems: pr.workItems, changes: pr.changes,
      mergeStatus: 'succeeded', completionOptions: null, autoCompleteSetBy: null,
    });
    pr.threads.forEach((t, k) => {
      db.threads.put(`${pr.id}:${k + 1}`, {
        pr: pr.id, id: k + 1, status: t.status, filePath: t.filePath ?? null, line: t.line ?? null, publishedDate: t.comments[0]!.publishedDate, lastUpdatedDate: t.comments.at(-1)!.publishedDate,
        comments: t.comments.map((cm, i) => ({ id: i + 1, parentCommentId: i === 0 ? 0 : 1, author: cm.author, content: cm.content, publishedDate: cm.publishedDate, lastUpdatedDate: cm.publishedDate, commentType: 'text' })),
      });
    });
  }
  ctx.ids.reserve('pullrequest', maxPr);

  for (const d of data.definitions) {
    db.definitions.put(String(d.id), { id: d.id, project: lookup(d.project), name: d.name, path: d.path, repo: repoOf(d.project, d.repository), yamlPath: d.yamlPath, revision: d.revision, createdDate: epoch });
  }
  ctx.ids.reserve('definition', Math.max(0, ...data.definitions.map((d) => d.id)));
  let result = 0;
  for (const b of data.builds) {
    const def = db.definitions.get(String(b.definition));
    if (!def) throw new Error(`azure-devops dataset: build ${b.id} of unknown definition ${b.definition}`);
    const head = db.refs.get(`${def.repo}:${b.sourceBranch.startsWith('refs/') ? b.sourceBranch : `refs/heads/${b.sourceBranch}`}`);
    db.builds.put(String(b.id), {
      id: b.id, project: lookup(b.project), definition: b.definition, buildNumber: b.buildNumber, status: b.status, result: b.result,
      sourceBranch: b.sourceBranch.startsWith('refs/') ? b.sourceBranch : `refs/heads/${b.sourceBranch}`, sourceVersion: b.sourceVersion ?? head?.objectId ?? ctx.ids.opaque(`build:${b.id}`, 0, 40),
      reason: b.reason, requestedFor: b.requestedFor, queueTime: b.queueTime, startTime: b.startTime ?? null, finishTime: b.finishTime ?? null, tags: b.tags,
      templateParameters: {}, changes: b.changes, artifacts: b.artifacts, stages: b.stages,
    });
    b.logs.forEach((lines, k) => db.logs.put(`${b.id}:${k + 1}`, { build: b.id, id: k + 1, lines, createdOn: b.startTime ?? b.queueTime }));
    b.tests.forEach((t) => {
      result++;
      db.test_results.put(String(100000 + result), { build: b.id, id: 100000 + result, runId: 1000 + b.id, name: t.name, automatedTestName: t.automatedTestName ?? t.name, outcome: t.outcome,
        errorMessage: t.errorMessage ?? null, stackTrace: t.stackTrace ?? null, durationInMs: t.durationInMs });
    });
  }
  ctx.ids.reserve('build', Math.max(0, ...data.builds.map((b) => b.id)));

  let maxSuite = 0;
  for (const tp of data.test_plans) maxSuite = Math.max(maxSuite, ...tp.suites.map((s) => s.id));
  for (const tp of data.test_plans) {
    const pid = lookup(tp.project);
    const project = db.projects.get(pid)!;
    const root = ++maxSuite;
    db.test_plans.put(String(tp.id), { id: tp.id, project: pid, name: tp.name, iteration: tp.iteration ? `${project.name}\\${tp.iteration}` : project.name, state: tp.state, rootSuite: root, areaPath: project.name, owner: data.users[0]?.uniqueName ?? '', revision: 1 });
    db.test_suites.put(String(root), { id: root, plan: tp.id, project: pid, name: tp.name, parent: null, suiteType: 'staticTestSuite', testCases: [] });
    for (const s of tp.suites) db.test_suites.put(String(s.id), { id: s.id, plan: tp.id, project: pid, name: s.name, parent: root, suiteType: 'staticTestSuite', testCases: s.testCases });
  }
  ctx.ids.reserve('testplan', Math.max(0, ...data.test_plans.map((t) => t.id)));
  ctx.ids.reserve('testsuite', maxSuite);

  let pageId = 0;
  for (const w of data.wikis) {
    const id = w.id ?? uuidId(ctx, 'wiki');
    db.wikis.put(id, { id, project: lookup(w.project), name: w.name, type: w.type, repositoryId: uuidId(ctx, 'wiki-repository') });
    Object.entries(w.pages).sort(([a], [b]) => a.localeCompare(b)).forEach(([path, content], order) => {
      const normal = `/${path.replace(/^\/+|\/+$/g, '')}`;
      db.pages.put(`${id}:${normal.toLowerCase()}`, { wiki: id, path: normal, id: ++pageId, content, order, eTag: ctx.ids.opaque(`etag:${id}:${normal}`, 0, 40) });
    });
  }
  ctx.ids.reserve('wikipage', pageId);
  for (const a of data.alerts) {
    const repo = repoOf(a.project, a.repository);
    db.alerts.put(`${repo}:${a.id}`, { id: a.id, project: lookup(a.project), repo, alertType: a.alertType, severity: a.severity, state: a.state, title: a.title, ruleName: a.ruleName, filePath: a.filePath, line: a.line, firstSeenDate: a.firstSeenDate });
  }
}
