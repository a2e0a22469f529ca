import { permission, atLeast, type Gh } from '../context.js';
import { accountKey, forksOf, networkOf, openIssuesOf, type RepoDoc } from '../model.js';
import { API, WEB, nodeId, repoApi } from '../urls.js';
import { GHOST, embeddedUser } from './users.js';

/** GitHub's known licenses (a few); unknown keys render as `other`. */
const LICENSES: Record<string, { name: string; spdx_id: string }> = {
  'mit': { name: 'MIT License', spdx_id: 'MIT' },
  'apache-2.0': { name: 'Apache License 2.0', spdx_id: 'Apache-2.0' },
  'gpl-3.0': { name: 'GNU General Public License v3.0', spdx_id: 'GPL-3.0' },
  'bsd-3-clause': { name: 'BSD 3-Clause "New" or "Revised" License', spdx_id: 'BSD-3-Clause' },
  'mpl-2.0': { name: 'Mozilla Public License 2.0', spdx_id: 'MPL-2.0' },
};

function license(gh: Gh, key: string | null) {
  if (key === null) return null;
  const known = LICENSES[key.toLowerCase()];
  return {
    key: known ? key.toLowerCase() : 'other',
    name: known?.name ?? 'Other',
    spdx_id: known?.spdx_id ?? 'NOASSERTION',
    url: known ? `${API}/licenses/${key.toLowerCase()}` : null,
    node_id: nodeId(gh.ctx.ids, 'repo', `license:${key.toLowerCase()}`),
  };
}

function ownerUser(gh: Gh, repo: RepoDoc) {
  return embeddedUser(gh, gh.db.accounts.get(accountKey(repo.owner)) ?? GHOST);
}

function counts(gh: Gh, repo: RepoDoc) {
  const key = repo.full_name.toLowerCase();
  const forks = forksOf(gh.db).count(key);
  const openIssues = openIssuesOf(gh.db).count(key);
  return { forks, openIssues };
}

function permissions(gh: Gh, repo: RepoDoc) {
  const level = permission(gh, repo);
  return {
    admin: atLeast(level, 'admin'),
    maintain: atLeast(level, 'maintain'),
    push: atLeast(level, 'write'),
    triage: atLeast(level, 'triage'),
    pull: atLeast(level, 'read'),
  };
}

/** `minimal-repository` (lists of a user's or an org's repositories, search's `repository`). */
export function minimalRepo(gh: Gh, repo: RepoDoc) {
  const { forks, openIssues } = counts(gh, repo);
  const full = repo.full_name;
  const url = repoApi(full);
  // One flat literal: a spread in its middle (the URLs came from a helper) left V8 adding the fields
  // after it one by one, and the render in dictionary mode, which JSON.stringify serialises slowly.
  const base = {
    id: repo.id,
    node_id: nodeId(gh.ctx.ids, 'repo', repo.id),
    name: repo.name,
    full_name: repo.full_name,
    private: repo.private,
    owner: ownerUser(gh, repo),
    description: repo.description,
    fork: repo.parent !== null,
    html_url: `${WEB}/${full}`,
    url,
    forks_url: `${url}/forks`,
    keys_url: `${url}/keys{/key_id}`,
    collaborators_url: `${url}/collaborators{/collaborator}`,
    teams_url: `${url}/teams`,
    hooks_url: `${url}/hooks`,
    issue_events_url: `${url}/issues/events{/number}`,
    events_url: `${url}/events`,
    assignees_url: `${url}/assignees{/user}`,
    branches_url: `${url}/branches{/branch}`,
    tags_url: `${url}/tags`,
    blobs_url: `${url}/git/blobs{/sha}`,
    git_tags_url: `${url}/git/tags{/sha}`,
    git_refs_url: `${url}/git/refs{/sha}`,
    trees_url: `${url}/git/trees{/sha}`,
    statuses_url: `${url}/statuses/{sha}`,
    languages_url: `${url}/languages`,
    stargazers_url: `${url}/stargazers`,
    contributors_url: `${url}/contributors`,
    subscribers_url: `${url}/subscribers`,
    subscription_url: `${url}/subscription`,
    commits_url: `${url}/commits{/sha}`,
    git_commits_url: `${url}/git/commits{/sha}`,
    comments_url: `${url}/comments{/number}`,
    issue_comment_url: `${url}/issues/comments{/number}`,
    contents_url: `${url}/contents/{+path}`,
    compare_url: `${url}/compare/{base}...{head}`,
    merges_url: `${url}/merges`,
    archive_url: `${url}/{archive_format}{/ref}`,
    downloads_url: `${url}/downloads`,
    issues_url: `${url}/issues{/number}`,
    pulls_url: `${url}/pulls{/number}`,
    milestones_url: `${url}/milestones{/number}`,
    notifications_url: `${url}/notifications{?since,all,participating}`,
    labels_url: `${url}/labels{/name}`,
    releases_url: `${url}/releases{/id}`,
    deployments_url: `${url}/deployments`,
    created_at: repo.created_at,
    updated_at: repo.updated_at,
    pushed_at: repo.pushed_at,
    git_url: `git://github.com/${repo.full_name}.git`,
    ssh_url: `git@github.com:${repo.full_name}.git`,
    clone_url: `${WEB}/${repo.full_name}.git`,
    svn_url: `${WEB}/${repo.full_name}`,
    homepage: repo.homepage,
    size: 0,
    stargazers_count: repo.stargazers_count,
    watchers_count: repo.stargazers_count,
    language: repo.language,
    has_issues: repo.has_issues,
    has_projects: repo.has_projects,
    has_downloads: true,
    has_wiki: repo.has_wiki,
    has_pages: false,
    has_discussions: false,
    forks_count: forks,
    mirror_url: null,
    archived: repo.archived,
    disabled: false,
    open_issues_count: openIssues,
    license: license(gh, repo.license),
    allow_forking: repo.allow_forking,
    is_template: false,
    web_commit_signoff_required: false,
    topics: repo.topics,
    visibility: repo.private ? 'private' : 'public',
    forks,
    open_issues: openIssues,
    watchers: repo.stargazers_count,
    default_branch: repo.default_branch,
  };
  return gh.viewer ? Object.assign(base, { permissions: permissions(gh, repo) }) : base;
}

/*
 * Renders that add fields to another render's fresh result use Object.assign on it, not an object
 * literal that begins with a spread (the same keys in the same order): Node 20's V8 adds each
 * field after such a spread through a slow path, about 1.3 µs a field (docs/benchmarks.md,
 * issue 14's eighth pass).
 */

/** `repository` (`GET /user/repos`, pull request heads and bases, a fork's parent and source). */
export function repository(gh: Gh, repo: RepoDoc) {
  return Object.assign(minimalRepo(gh, repo), {
    allow_squash_merge: true,
    allow_merge_commit: true,
    allow_rebase_merge: true,
    allow_auto_merge: false,
    delete_branch_on_merge: false,
    allow_update_branch: false,
    use_squash_pr_title_as_default: false,
    squash_merge_commit_title: 'COMMIT_OR_PR_TITLE',
    squash_merge_commit_message: 'COMMIT_MESSAGES',
    merge_commit_title: 'MERGE_MESSAGE',
    merge_commit_message: 'PR_TITLE',
  });
}

/** `full-repository` (`GET /repos/:owner/:repo`, creation, forks). */
export function fullRepository(gh: Gh, repo: RepoDoc) {
  const org = gh.db.accounts.get(accountKey(repo.owner));
  const parent = repo.parent ? gh.db.repos.get(repo.parent) : undefined;
  const source = repo.source ? gh.db.repos.get(repo.source) : undefined;
  return Object.assign(
    repository(gh, repo),
    org?.type === 'Organization' ? { organization: embeddedUser(gh, org) } : {},
    parent ? { parent: repository(gh, parent) } : {},
    source ? { source: repository(gh, source) } : {},
    { network_count: networkOf(gh.db).count(repo.source ?? repo.full_name.toLowerCase()), subscribers_count: 0 },
  );
}
