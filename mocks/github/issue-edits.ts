import { assignable, canPush, newId, readableRepo, type Gh } from './context.js';
import { GitHubError, invalidType, notFound, validationFailed } from './errors.js';
import { issueKey, labelKey, milestoneKey, type IssueDoc, type RepoDoc } from './model.js';
import { has, optString, optStringArray, type Body } from './params.js';
import { freezePull } from './pull-state.js';

/**
 * What issue create and update share: reading labels, assignees and a milestone from a body
 * (dropped silently for users without push access, as GitHub does), validating them, and the
 * label documents a push user's unknown labels create.
 */
export interface IssueFields {
  labels?: string[];
  assignees?: string[];
  milestone?: number | null;
}

export function issueRepo(gh: Gh, owner: string, name: string, options: { pullsToo?: boolean } = {}): RepoDoc {
  const repo = readableRepo(gh, owner, name);
  if (!repo.has_issues && !options.pullsToo) throw new GitHubError(410, 'Issues are disabled for this repo');
  return repo;
}

export function findIssue(gh: Gh, repo: RepoDoc, number: string): IssueDoc {
  if (!/^\d+$/.test(number)) throw notFound();
  const doc = gh.db.issues.get(issueKey(repo.full_name.toLowerCase(), Number(number)));
  if (!doc) throw notFound();
  if (!doc.pull && !repo.has_issues) throw new GitHubError(410, 'Issues are disabled for this repo');
  return doc;
}

function labelNames(body: Body): string[] | undefined {
  if (!has(body, 'labels') || body.labels === null) return undefined;
  const value = body.labels;
  if (!Array.isArray(value)) throw invalidType('labels', value, 'array');
  return value.map((item) => {
    if (typeof item === 'string') return item;
    if (item && typeof item === 'object' && typeof (item as Body).name === 'string') return (item as Body).name as string;
    throw invalidType('labels/items', item, 'string');
  });
}

export function readIssueFields(gh: Gh, repo: RepoDoc, body: Body): IssueFields {
  const labels = labelNames(body);
  const single = optString(body, 'assignee');
  const assignees = optStringArray(body, 'assignees') ?? (single !== undefined ? [single] : has(body, 'assignee') ? [] : undefined);
  let milestone: number | null | undefined;
  if (has(body, 'milestone')) {
    const raw = body.milestone;
    if (raw === null) milestone = null;
    else if (typeof raw === 'number' && Number.isInteger(raw)) milestone = raw;
    else if (typeof raw === 'string' && /^\d+$/.test(raw)) milestone = Number(raw);
    else throw invalidType('milestone', raw, 'integer');
  }
  if (!canPush(gh, repo)) return {};
  const key = repo.full_name.toLowerCase();
  for (const login of assignees ?? []) {
    if (!assignable(gh, repo, login)) throw validationFailed({ value: login, resource: 'Issue', field: 'assignees', code: 'invalid' });
  }
  if (milestone !== undefined && milestone !== null && !gh.db.milestones.has(milestoneKey(key, milestone))) {
    throw validationFailed({ value: milestone, resource: 'Issue', field: 'milestone', code: 'invalid' });
  }
  const fields: IssueFields = {};
  if (labels !== undefined) fields.labels = [...new Set(labels.map((l) => l.trim()).filter((l) => l !== ''))];
  if (assignees !== undefined) fields.assignees = [...new Set(assignees.map((a) => gh.db.accounts.get(a.toLowerCase())!.login))];
  if (milestone !== undefined) fields.milestone = milestone;
  return fields;
}

/** Resolves label names to the stored spelling, creating missing labels (call after validation). */
export function ensureLabels(gh: Gh, repo: RepoDoc, names: string[]): string[] {
  const key = repo.full_name.toLowerCase();
  const out: string[] = [];
  for (const name of names) {
    let doc = gh.db.labels.get(labelKey(key, name));
    if (!doc) {
      const id = newId(gh, 'label');
      doc = gh.db.labels.put(labelKey(key, name), { id, repo: key, name, color: 'ededed', description: null, default: false });
    }
    if (!out.includes(doc.name)) out.push(doc.name);
  }
  return out;
}

/** Closes or reopens an issue (and freezes a pull request's head and base when it closes). */
export function stateChange(gh: Gh, doc: IssueDoc, state: 'open' | 'closed', reason: IssueDoc['state_reason'] | undefined, by: string): Partial<IssueDoc> {
  if (state === doc.state) return reason !== undefined && state === 'closed' ? { state_reason: reason } : {};
  if (state === 'closed') {
    const pull = doc.pull ? gh.db.pulls.get(issueKey(doc.repo, doc.number)) : undefined;
    if (pull) freezePull(gh, pull);
    return { state, closed_at: gh.now, closed_by: by, state_reason: doc.pull ? null : reason ?? 'completed' };
  }
  return { state, closed_at: null, closed_by: null, state_reason: doc.pull ? null : 'reopened' };
}
