import { newId, readableRepo, writableRepo } from './context.js';
import { invalidType, notFound, validationFailed } from './errors.js';
import { ensureLabels, findIssue, issueRepo } from './issue-edits.js';
import { issueKey, labelKey } from './model.js';
import { op } from './operation.js';
import { bodyParam, githubBody, optString, reqString } from './params.js';
import { label, labelsOf } from './render/issues.js';
import { created, list, ok } from './respond.js';

/** Labels of a repository (list, get, create) and of an issue (list, add). */
function labelsToAdd(value: unknown): string[] {
  const raw = Array.isArray(value) ? value : (value as { labels?: unknown } | undefined)?.labels;
  if (!Array.isArray(raw) || raw.length === 0) throw validationFailed({ resource: 'Label', code: 'missing_field', field: 'labels' });
  return raw.map((item) => {
    if (typeof item === 'string') return item;
    if (item && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string') return (item as { name: string }).name;
    throw invalidType('labels/items', item, 'string');
  });
}

export const labelRoutes = [
  op('issues.listLabelsForRepo', 'GET', '/repos/:owner/:repo/labels', 'issues/labels#list-labels-for-a-repository', (req, { owner, repo: name }, gh) => {
    const repo = readableRepo(gh, owner, name);
    const key = repo.full_name.toLowerCase();
    return list(gh, req, gh.db.labels.filter((l) => l.repo === key), (l) => label(gh, repo, l), { repo });
  }),

  op('issues.getLabel', 'GET', '/repos/:owner/:repo/labels/:name', 'issues/labels#get-a-label', (_req, { owner, repo: name, name: labelName }, gh) => {
    const repo = readableRepo(gh, owner, name);
    const doc = gh.db.labels.get(labelKey(repo.full_name.toLowerCase(), labelName));
    if (!doc) throw notFound();
    return ok(label(gh, repo, doc));
  }),

  op('issues.createLabel', 'POST', '/repos/:owner/:repo/labels', 'issues/labels#create-a-label', (req, { owner, repo: name }, gh, call) => {
    const repo = writableRepo(gh, owner, name, 'triage');
    const body = call.body;
    const labelName = reqString(body, 'name', () => validationFailed({ resource: 'Label', code: 'missing_field', field: 'name' }));
    const color = (optString(body, 'color') ?? 'ededed').replace(/^#/, '').toLowerCase();
    if (!/^[0-9a-f]{6}$/.test(color)) throw validationFailed({ resource: 'Label', code: 'invalid', field: 'color' });
    const key = repo.full_name.toLowerCase();
    if (gh.db.labels.has(labelKey(key, labelName))) throw validationFailed({ resource: 'Label', code: 'already_exists', field: 'name' });
    const doc = gh.db.labels.put(labelKey(key, labelName), {
      id: newId(gh, 'label'), repo: key, name: labelName, color, description: optString(body, 'description') ?? null, default: false,
    });
    const rendered = label(gh, repo, doc);
    return created(rendered, [['Location', rendered.url]]);
  }, { body: githubBody({
      name: bodyParam.string({ required: true, missing: () => validationFailed({ resource: 'Label', code: 'missing_field', field: 'name' }) }),
      color: bodyParam.string(),
    }) }),

  op('issues.listLabelsOnIssue', 'GET', '/repos/:owner/:repo/issues/:issue_number/labels', 'issues/labels#list-labels-for-an-issue', (req, { owner, repo: name, issue_number }, gh) => {
    const repo = issueRepo(gh, owner, name, { pullsToo: true });
    const issue = findIssue(gh, repo, issue_number);
    return list(gh, req, labelsOf(gh, repo, issue.labels), (l) => l, { repo });
  }),

  op('issues.addLabels', 'POST', '/repos/:owner/:repo/issues/:issue_number/labels', 'issues/labels#add-labels-to-an-issue', (_req, { owner, repo: name, issue_number }, gh, call) => {
    const repo = writableRepo(gh, owner, name, 'triage');
    const issue = findIssue(gh, repo, issue_number);
    const names = labelsToAdd(call.body);
    const labels = ensureLabels(gh, repo, [...issue.labels, ...names]);
    gh.db.issues.update(issueKey(issue.repo, issue.number), { labels, updated_at: gh.now });
    return ok(labelsOf(gh, repo, labels));
  }),
];
