import { account, atLeast, newId, permission, readableRepo, requireViewer, type Gh } from './context.js';
import { GitHubError, notFound, validationFailed } from './errors.js';
import { putTextBlob } from './git/objects.js';
import { accountKey, repoKey, type AccountDoc, type RepoDoc } from './model.js';
import { op } from './operation.js';
import { type Body, bodyParam, githubBody, githubQuery, optBool, optEnum, optString, queryEnum } from './params.js';
import { fullRepository, minimalRepo, repository } from './render/repos.js';
import { commitOnBranch, viewerPerson } from './repo-git.js';
import { created, list, ok } from './respond.js';
import { repoApi } from './urls.js';

/** Repositories: get, create (for the user or an org), and the user's, a user's and an org's lists. */
type SortBy = 'created' | 'updated' | 'pushed' | 'full_name';

/** The sort parameters every repository list takes (after its own). */
const sortQuery = {
  sort: queryEnum(['created', 'updated', 'pushed', 'full_name'] as const, 'Repository'),
  direction: queryEnum(['asc', 'desc'] as const, 'Repository'),
};

function sortRepos(query: { sort?: SortBy | undefined; direction?: 'asc' | 'desc' | undefined }, repos: RepoDoc[], defaultSort: 'full_name' | 'created'): RepoDoc[] {
  const sort = query.sort ?? defaultSort;
  const direction = query.direction ?? (sort === 'full_name' ? 'asc' : 'desc');
  const key = (r: RepoDoc) => sort === 'full_name' ? r.full_name.toLowerCase() : sort === 'created' ? r.created_at : sort === 'updated' ? r.updated_at : r.pushed_at;
  const sorted = [...repos].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
  return direction === 'desc' ? sorted.reverse() : sorted;
}

const isOwner = (repo: RepoDoc, login: string) => repo.owner.toLowerCase() === login.toLowerCase();

function repositoryCreationFailed(field: string, code: string, message?: string): GitHubError {
  return new GitHubError(422, 'Repository creation failed.', { errors: [{ resource: 'Repository', code, field, ...(message ? { message } : {}) }] });
}

/** The body of both creates: `name` is checked first. */
const createBody = githubBody({ name: bodyParam.string() });

/** Creates a repository for `owner` from a request body, as POST /user/repos and /orgs/:org/repos do. */
function createRepo(body: Body, gh: Gh, owner: AccountDoc) {
  const viewer = requireViewer(gh);
  const rawName = optString(body, 'name');
  if (rawName === undefined || rawName.trim() === '') throw repositoryCreationFailed('name', 'missing_field');
  const name = rawName.trim().replace(/[^A-Za-z0-9_.-]/g, '-');
  if (name === '.' || name === '..') throw repositoryCreationFailed('name', 'custom', 'name is invalid');
  const description = optString(body, 'description') ?? null;
  const homepage = optString(body, 'homepage') ?? null;
  const visibility = optEnum(body, 'visibility', ['public', 'private', 'internal'] as const);
  const isPrivate = optBool(body, 'private') ?? (visibility === 'private' || visibility === 'internal');
  const autoInit = optBool(body, 'auto_init') ?? false;
  const hasIssues = optBool(body, 'has_issues') ?? true;
  const hasWiki = optBool(body, 'has_wiki') ?? true;
  const hasProjects = optBool(body, 'has_projects') ?? true;
  const key = repoKey(owner.login, name);
  if (gh.db.repos.has(key)) throw repositoryCreationFailed('name', 'custom', 'name already exists on this account');
  const repo: RepoDoc = {
    id: newId(gh, 'repo'), owner: owner.login, name, full_name: `${owner.login}/${name}`, description, homepage,
    private: isPrivate, default_branch: 'main', topics: [], language: null, license: null, parent: null, source: null,
    has_issues: hasIssues, has_wiki: hasWiki, has_projects: hasProjects, archived: false, allow_forking: true,
    stargazers_count: 0, collaborators: [], created_at: gh.now, updated_at: gh.now, pushed_at: gh.now, last_number: 0,
  };
  gh.db.repos.put(key, repo);
  if (autoInit) {
    const readme = putTextBlob(gh.db.objects, description ? `# ${name}\n${description}\n` : `# ${name}\n`);
    const person = viewerPerson(gh, viewer);
    commitOnBranch(gh, repo, {
      branch: 'main', parent: null, changes: new Map([['README.md', { mode: '100644', type: 'blob', sha: readme.sha }]]),
      message: 'Initial commit', author: person, committer: person,
    });
  }
  return created(fullRepository(gh, gh.db.repos.get(key)!), [['Location', repoApi(repo.full_name)]]);
}

export const repoRoutes = [
  op('repos.get', 'GET', '/repos/:owner/:repo', 'repos/repos#get-a-repository', (_req, { owner, repo }, gh) =>
    ok(fullRepository(gh, readableRepo(gh, owner, repo)))),

  op('repos.createForAuthenticatedUser', 'POST', '/user/repos', 'repos/repos#create-a-repository-for-the-authenticated-user', (_req, _p, gh, call) =>
    createRepo(call.body, gh, requireViewer(gh)), { body: createBody }),

  op('repos.createInOrg', 'POST', '/orgs/:org/repos', 'repos/repos#create-an-organization-repository', (_req, { org }, gh, call) => {
    const viewer = requireViewer(gh);
    const found = account(gh, org);
    if (found?.type !== 'Organization') throw notFound();
    const membership = found.members?.find((m) => m.login.toLowerCase() === viewer.login.toLowerCase());
    if (!membership) throw notFound();
    if (membership.role !== 'admin' && !found.members_can_create_repositories) {
      throw new GitHubError(403, 'You need admin access to the organization before adding a repository to it.');
    }
    return createRepo(call.body, gh, found);
  }, { body: createBody }),

  op('repos.listForAuthenticatedUser', 'GET', '/user/repos', 'repos/repos#list-repositories-for-the-authenticated-user', (req, _p, gh, call) => {
    const viewer = requireViewer(gh);
    const type = req.query.get('type');
    if (type !== null && (req.query.has('visibility') || req.query.has('affiliation'))) {
      throw validationFailed({ resource: 'Repository', field: 'type', code: 'invalid', message: 'If you specify visibility or affiliation, you cannot specify type.' });
    }
    const visibility = call.query.visibility ?? 'all';
    const affiliation = (req.query.get('affiliation') ?? 'owner,collaborator,organization_member').split(',').map((s) => s.trim());
    const mine = gh.db.repos.filter((repo) => {
      if (!atLeast(permission(gh, repo), 'read')) return false;
      if (visibility !== 'all' && repo.private !== (visibility === 'private')) return false;
      if (type === 'public' || type === 'private') return repo.private === (type === 'private');
      const owned = isOwner(repo, viewer.login);
      const collaborator = repo.collaborators.some((c) => c.login.toLowerCase() === viewer.login.toLowerCase());
      const org = gh.db.accounts.get(accountKey(repo.owner));
      const member = org?.members?.some((m) => m.login.toLowerCase() === viewer.login.toLowerCase()) ?? false;
      if (type === 'owner') return owned;
      if (type === 'member') return member || collaborator;
      return (affiliation.includes('owner') && owned) || (affiliation.includes('collaborator') && collaborator)
        || (affiliation.includes('organization_member') && member);
    });
    return list(gh, req, sortRepos(call.query, mine, 'full_name'), (r) => repository(gh, r));
  }, { auth: true, query: githubQuery({ visibility: queryEnum(['all', 'public', 'private'] as const, 'Repository'), ...sortQuery }) }),

  op('repos.listForUser', 'GET', '/users/:username/repos', 'repos/repos#list-repositories-for-a-user', (req, { username }, gh, call) => {
    const user = account(gh, username);
    if (!user) throw notFound();
    const type = call.query.type ?? 'owner';
    const repos = gh.db.repos.filter((r) => !r.private && (isOwner(r, user.login)
      || (type !== 'owner' && r.collaborators.some((c) => c.login.toLowerCase() === user.login.toLowerCase()))));
    return list(gh, req, sortRepos(call.query, repos, 'full_name'), (r) => minimalRepo(gh, r));
  }, { query: githubQuery({ type: queryEnum(['all', 'owner', 'member'] as const, 'Repository'), ...sortQuery }) }),

  op('repos.listForOrg', 'GET', '/orgs/:org/repos', 'repos/repos#list-organization-repositories', (req, { org }, gh, call) => {
    const found = account(gh, org);
    if (found?.type !== 'Organization') throw notFound();
    const type = call.query.type ?? 'all';
    const repos = gh.db.repos.filter((r) => isOwner(r, found.login) && atLeast(permission(gh, r), 'read') && (
      type === 'all' || type === 'member' || (type === 'public' && !r.private) || (type === 'private' && r.private)
      || (type === 'forks' && r.parent !== null) || (type === 'sources' && r.parent === null)));
    return list(gh, req, sortRepos(call.query, repos, 'created'), (r) => minimalRepo(gh, r));
  }, { query: githubQuery({ type: queryEnum(['all', 'public', 'private', 'forks', 'sources', 'member'] as const, 'Repository'), ...sortQuery }) }),
];
