import { readableRepo } from './context.js';
import { notFound } from './errors.js';
import { getCommit } from './git/objects.js';
import { op } from './operation.js';
import { restCommit } from './render/git.js';
import { getRef, refsUnder } from './repo-git.js';
import { list, ok } from './respond.js';
import { WEB, encodePath, repoApi } from './urls.js';

/** Branches: the list (`short-branch`) and one branch with its head commit (no protection rules). */
export const branchRoutes = [
  op('repos.listBranches', 'GET', '/repos/:owner/:repo/branches', 'branches/branches#list-branches', (req, { owner, repo: name }, gh) => {
    const repo = readableRepo(gh, owner, name);
    const onlyProtected = req.query.get('protected') === 'true';
    const branches = onlyProtected ? [] : refsUnder(gh, repo, 'refs/heads/');
    return list(gh, req, branches, (r) => ({
      name: r.ref.slice('refs/heads/'.length),
      commit: { sha: r.sha, url: `${repoApi(repo.full_name)}/commits/${r.sha}` },
      protected: false,
    }), { repo });
  }),

  op('repos.getBranch', 'GET', '/repos/:owner/:repo/branches/*branch', 'branches/branches#get-a-branch', (_req, { owner, repo: name, branch }, gh) => {
    const repo = readableRepo(gh, owner, name);
    const ref = branch === '' ? undefined : getRef(gh, repo, `refs/heads/${branch}`);
    const commit = ref ? getCommit(gh.db.objects, ref.sha) : undefined;
    if (!ref || !commit) throw notFound('Branch not found');
    const self = `${repoApi(repo.full_name)}/branches/${encodePath(branch)}`;
    return ok({
      name: branch,
      commit: restCommit(gh, repo, commit),
      _links: { self, html: `${WEB}/${repo.full_name}/tree/${encodePath(branch)}` },
      protected: false,
      protection: { enabled: false, required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] } },
      protection_url: `${self}/protection`,
    });
  }),
];
