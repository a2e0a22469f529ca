import type { Gh } from '../context.js';
import { accountKey, issueKey, issuesByMilestone, labelKey, milestoneKey, milestoneState, type CommentDoc, type IssueDoc, type LabelDoc, type MilestoneDoc, type RepoDoc } from '../model.js';
import { WEB, nodeId, repoApi } from '../urls.js';
import { userByLogin } from './users.js';

/** Issues, labels, milestones and issue comments in GitHub's shapes. */
export function reactions(url: string) {
  return { url, total_count: 0, '+1': 0, '-1': 0, laugh: 0, hooray: 0, confused: 0, heart: 0, rocket: 0, eyes: 0 };
}

/** OWNER, MEMBER (of the owning org), COLLABORATOR or NONE. */
export function authorAssociation(gh: Gh, repo: RepoDoc, login: string): string {
  const lower = login.toLowerCase();
  if (repo.owner.toLowerCase() === lower) return 'OWNER';
  const org = gh.db.accounts.get(accountKey(repo.owner));
  if (org?.members?.some((m) => m.login.toLowerCase() === lower)) return 'MEMBER';
  if (repo.collaborators.some((c) => c.login.toLowerCase() === lower)) return 'COLLABORATOR';
  return 'NONE';
}

export function label(gh: Gh, repo: RepoDoc, doc: LabelDoc) {
  return {
    id: doc.id,
    node_id: nodeId(gh.ctx.ids, 'label', doc.id),
    url: `${repoApi(repo.full_name)}/labels/${encodeURIComponent(doc.name)}`,
    name: doc.name,
    color: doc.color,
    default: doc.default,
    description: doc.description,
  };
}

export function labelsOf(gh: Gh, repo: RepoDoc, names: readonly string[]) {
  const key = repo.full_name.toLowerCase();
  return names.flatMap((name) => {
    const doc = gh.db.labels.get(labelKey(key, name));
    return doc ? [label(gh, repo, doc)] : [];
  });
}

export function milestone(gh: Gh, repo: RepoDoc, doc: MilestoneDoc) {
  const url = `${repoApi(repo.full_name)}/milestones/${doc.number}`;
  const key = repo.full_name.toLowerCase();
  const counted = issuesByMilestone(gh.db);
  return {
    url,
    html_url: `${WEB}/${repo.full_name}/milestone/${doc.number}`,
    labels_url: `${url}/labels`,
    id: doc.id,
    node_id: nodeId(gh.ctx.ids, 'milestone', doc.id),
    number: doc.number,
    title: doc.title,
    description: doc.description,
    creator: userByLogin(gh, doc.creator),
    open_issues: counted.count(milestoneState(key, doc.number, 'open')),
    closed_issues: counted.count(milestoneState(key, doc.number, 'closed')),
    state: doc.state,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    due_on: doc.due_on,
    closed_at: doc.closed_at,
  };
}

function milestoneOf(gh: Gh, repo: RepoDoc, number: number | null) {
  if (number === null) return null;
  const doc = gh.db.milestones.get(milestoneKey(repo.full_name.toLowerCase(), number));
  return doc ? milestone(gh, repo, doc) : null;
}

/** `issue`; a pull request's issue carries `pull_request` and `draft`. */
export function issue(gh: Gh, repo: RepoDoc, doc: IssueDoc) {
  const url = `${repoApi(repo.full_name)}/issues/${doc.number}`;
  const assignees = doc.assignees.map((login) => userByLogin(gh, login));
  const pull = doc.pull ? gh.db.pulls.get(issueKey(doc.repo, doc.number)) : undefined;
  const html = `${WEB}/${repo.full_name}/${doc.pull ? 'pull' : 'issues'}/${doc.number}`;
  return {
    url,
    repository_url: repoApi(repo.full_name),
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: html,
    id: doc.id,
    node_id: nodeId(gh.ctx.ids, doc.pull ? 'pull' : 'issue', doc.id),
    number: doc.number,
    title: doc.title,
    user: userByLogin(gh, doc.user),
    labels: labelsOf(gh, repo, doc.labels),
    state: doc.state,
    locked: doc.locked,
    assignee: assignees[0] ?? null,
    assignees,
    milestone: milestoneOf(gh, repo, doc.milestone),
    comments: doc.comments,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    closed_at: doc.closed_at,
    author_association: authorAssociation(gh, repo, doc.user),
    type: null,
    active_lock_reason: null,
    ...(pull ? {
      draft: pull.draft,
      pull_request: {
        url: `${repoApi(repo.full_name)}/pulls/${doc.number}`, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch`,
        merged_at: pull.merged_at,
      },
    } : {}),
    body: doc.body,
    closed_by: doc.closed_by === null ? null : userByLogin(gh, doc.closed_by),
    reactions: reactions(`${url}/reactions`),
    timeline_url: `${url}/timeline`,
    performed_via_github_app: null,
    state_reason: doc.state_reason,
  };
}

export function comment(gh: Gh, repo: RepoDoc, doc: CommentDoc) {
  const url = `${repoApi(repo.full_name)}/issues/comments/${doc.id}`;
  const parent = gh.db.issues.get(issueKey(doc.repo, doc.issue));
  return {
    url,
    html_url: `${WEB}/${repo.full_name}/${parent?.pull ? 'pull' : 'issues'}/${doc.issue}#issuecomment-${doc.id}`,
    issue_url: `${repoApi(repo.full_name)}/issues/${doc.issue}`,
    id: doc.id,
    node_id: nodeId(gh.ctx.ids, 'comment', doc.id),
    user: userByLogin(gh, doc.user),
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    author_association: authorAssociation(gh, repo, doc.user),
    body: doc.body,
    reactions: reactions(`${url}/reactions`),
    performed_via_github_app: null,
  };
}
