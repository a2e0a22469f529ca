import type { DocumentStore, StoreDump } from '../core/store.js';
import { col, type Rec } from './model.js';

/**
 * What graders see besides Linear's raw collections: issues, comments and projects with their
 * references spelled as people write them (team key, state name, label names, assignee email),
 * keyed by identifier or name, so a scenario can say `where = { identifier = "ENG-12" }` and
 * `fields = { state = "Done", labels = { "$contains" = "bug" } }` without knowing seeded UUIDs.
 */
export function linearViews(store: DocumentStore): StoreDump {
  const name = (type: string, id: unknown, field = 'name') => (typeof id === 'string' ? (col(store, type).get(id)?.[field] as string | undefined) ?? null : null);
  const email = (id: unknown) => name('User', id, 'email');
  const issues: Record<string, unknown> = {};
  for (const issue of col(store, 'Issue').values()) {
    const state = typeof issue.stateId === 'string' ? col(store, 'WorkflowState').get(issue.stateId) : undefined;
    issues[issue.identifier as string] = {
      identifier: issue.identifier, title: issue.title, description: issue.description ?? null, team: name('Team', issue.teamId, 'key'),
      state: state?.name ?? null, state_type: state?.type ?? null, priority: issue.priority, estimate: issue.estimate ?? null,
      assignee: email(issue.assigneeId), creator: email(issue.creatorId),
      labels: ((issue.labelIds as string[] | undefined) ?? []).map((id) => name('IssueLabel', id)),
      project: name('Project', issue.projectId), milestone: name('ProjectMilestone', issue.projectMilestoneId), cycle: name('Cycle', issue.cycleId, 'number'),
      parent: name('Issue', issue.parentId, 'identifier'), due_date: issue.dueDate ?? null, archived: issue.archivedAt !== null, trashed: issue.trashed === true,
      comments: col(store, 'Comment').filter((c) => c.issueId === issue.id).length,
    };
  }
  const comments: Record<string, unknown> = {};
  for (const comment of col(store, 'Comment').values()) {
    comments[comment.id] = { issue: name('Issue', comment.issueId, 'identifier'), author: email(comment.userId), body: comment.body, parent: comment.parentId ?? null };
  }
  const projects: Record<string, unknown> = {};
  for (const project of col(store, 'Project').values()) {
    projects[project.id] = {
      name: project.name, description: project.description ?? null, state: project.state, lead: email(project.leadId), priority: project.priority ?? 0,
      teams: ((project.teamIds as string[] | undefined) ?? []).map((id) => name('Team', id, 'key')), target_date: project.targetDate ?? null, archived: project.archivedAt !== null,
    };
  }
  const labels: Record<string, unknown> = {};
  for (const label of col(store, 'IssueLabel').values() as Rec[]) labels[label.id] = { name: label.name, team: name('Team', label.teamId, 'key'), color: label.color, archived: label.archivedAt !== null };
  const relations: Record<string, unknown> = {};
  for (const relation of col(store, 'IssueRelation').values()) {
    relations[relation.id] = { issue: name('Issue', relation.issueId, 'identifier'), related: name('Issue', relation.relatedIssueId, 'identifier'), type: relation.type };
  }
  return { issues, comments, projects, labels, relations };
}

/**
 * Fields a state diff leaves out: seeded ids, times, counters Linear keeps as side effects. The
 * raw collections the views restate (`Issue` as `issues`, `Comment` as `comments`, …) are left
 * out whole, so one change counts once, in the views' terms; expectations may still name them.
 */
const common = ['id', 'createdAt', 'updatedAt'] as const;
export const linearVolatile: Readonly<Record<string, '*' | readonly string[]>> = {
  Issue: '*',
  Comment: '*',
  IssueRelation: '*',
  Project: '*',
  IssueLabel: '*',
  issues: ['state_type', 'comments'],
  Team: [...common, 'issueCount'],
  Organization: [...common, 'userCount'],
  User: common,
  WorkflowState: common,
  ProjectMilestone: common,
  Cycle: common,
  TeamMembership: common,
  Document: common,
  Initiative: common,
  InitiativeToProject: common,
  Customer: common,
  CustomerNeed: common,
  CustomerStatus: common,
  CustomerTier: common,
  ProjectStatus: common,
};
