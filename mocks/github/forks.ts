import { account, atLeast, newId, permission, readableRepo, requireViewer } from './context.js';
import { GitHubError, validationFailed } from './errors.js';
import { forksOf, repoKey, type RepoDoc } from './model.js';
import { op } from './operation.js';
import { bodyParam, githubBody, githubQuery, optBool, optString, queryEnum } from './params.js';
import { fullRepository, minimalRepo } from './render/repos.js';
import { repoRefs, setRef } from './repo-git.js';
import { accepted, list } from './respond.js';

/**
 * Forks: a new repository owned by the viewer or one of their orgs, sharing the parent's objects
 * and copying its branches (only the default one with `default_branch_only`). Forking again into
 * the same account returns the existing fork, as GitHub does. `organization` is read from the
 * body, or from the query string as the MCP server sends it.
 */
export const forkRoutes = [
  op('repos.createFork', 'POST', '/repos/:owner/:repo/forks', 'repos/forks#create-a-fork', (req, { owner, repo: name }, gh, call) => {
    const viewer = requireViewer(gh);
    const parent = readableRepo(gh, owner, name);
    const body = call.body;
    const orgName = optString(body, 'organization') ?? req.query.get('organization') ?? undefined;
    const wantedName = optString(body, 'name');
    const defaultOnly = optBool(body, 'default_branch_only') ?? false;
    if (!parent.allow_forking && parent.private) throw new GitHubError(403, 'Repository cannot be forked.');
    let target = viewer;
    if (orgName !== undefined) {
      const org = account(gh, orgName);
      const member = org?.members?.some((m) => m.login.toLowerCase() === viewer.login.toLowerCase());
      if (org?.type !== 'Organization' || !member) throw validationFailed({ resource: 'Fork', field: 'organization', code: 'invalid' });
      target = org;
    }
    if (parent.owner.toLowerCase() === target.login.toLowerCase()) {
      throw validationFailed({ resource: 'Fork', field: 'organization', code: 'custom', message: 'Cannot fork a repository into its own account.' });
    }
    const network = parent.source ?? parent.full_name.toLowerCase();
    const existing = gh.db.repos.find((r) => r.owner.toLowerCase() === target.login.toLowerCase() && r.source === network);
    if (existing) return accepted(fullRepository(gh, existing));
    let forkName = wantedName ?? parent.name;
    for (let n = 1; gh.db.repos.has(repoKey(target.login, forkName)); n++) forkName = `${wantedName ?? parent.name}-${n}`;
    const fork: RepoDoc = {
      ...parent,
      id: newId(gh, 'repo'), owner: target.login, name: forkName, full_name: `${target.login}/${forkName}`,
      parent: parent.full_name.toLowerCase(), source: network, stargazers_count: 0, collaborators: [],
      created_at: gh.now, updated_at: gh.now, last_number: 0, topics: [...parent.topics],
    };
    gh.db.repos.put(repoKey(target.login, forkName), fork);
    for (const ref of repoRefs(gh, parent)) {
      if (defaultOnly && ref.ref !== `refs/heads/${parent.default_branch}`) continue;
      setRef(gh, fork, ref.ref, ref.sha);
    }
    gh.db.repos.update(repoKey(target.login, forkName), { pushed_at: parent.pushed_at });
    return accepted(fullRepository(gh, gh.db.repos.get(repoKey(target.login, forkName))!));
  }, { body: githubBody({ organization: bodyParam.string(), name: bodyParam.string(), default_branch_only: bodyParam.boolean() }) }),

  op('repos.listForks', 'GET', '/repos/:owner/:repo/forks', 'repos/forks#list-forks', (req, { owner, repo: name }, gh, call) => {
    const parent = readableRepo(gh, owner, name);
    const sort = call.query.sort ?? 'newest';
    const key = parent.full_name.toLowerCase();
    const forks = forksOf(gh.db).docs(key).filter((r) => atLeast(permission(gh, r), 'read'));
    forks.sort((a, b) => sort === 'oldest' ? a.id - b.id : sort === 'newest' ? b.id - a.id : b.stargazers_count - a.stargazers_count || b.id - a.id);
    return list(gh, req, forks, (r) => minimalRepo(gh, r), { repo: parent });
  }, { query: githubQuery({ sort: queryEnum(['newest', 'oldest', 'stargazers', 'watchers'] as const, 'Repository') }) }),
];
