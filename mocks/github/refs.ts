import type { Gh } from './context.js';
import { readableRepo, writableRepo } from './context.js';
import { notFound, unprocessable } from './errors.js';
import { isAncestor } from './git/history.js';
import { getCommit } from './git/objects.js';
import { issueKey, type RepoDoc } from './model.js';
import { op } from './operation.js';
import { freezePull } from './pull-state.js';
import { bodyParam, githubBody, optBool, reqString } from './params.js';
import { gitRef } from './render/git.js';
import { deleteRef, getRef, refsUnder, requireNotEmpty, setRef } from './repo-git.js';
import { created, list, noContent, ok } from './respond.js';

/**
 * Git references. `ref` parameters are `heads/main` (a leading `refs/` is tolerated). The legacy
 * `GET /git/refs/{prefix}` answers one object for an exact match and an array of the refs
 * that start with the string otherwise (`heads/feat` lists `feature-a`), as GitHub still does; an
 * empty repository is 409.
 */
const fullRef = (ref: string) => (ref.startsWith('refs/') ? ref : `refs/${ref}`);

function readRepo(gh: Gh, owner: string, name: string): RepoDoc {
  const repo = readableRepo(gh, owner, name);
  requireNotEmpty(gh, repo);
  return repo;
}

function validRefName(ref: string): boolean {
  return /^refs\/[^/]+\/.+/.test(ref) && !ref.endsWith('/') && !ref.includes('..') && !/[\s~^:?*[\\]/.test(ref) && !ref.endsWith('.lock');
}

function commitSha(gh: Gh, value: string): string {
  const sha = value.toLowerCase();
  if (!/^[0-9a-f]{40}$/.test(sha) || !gh.db.objects.has(sha)) throw unprocessable('Object does not exist');
  return sha;
}

export const refRoutes = [
  op('git.getRef', 'GET', '/repos/:owner/:repo/git/ref/*ref', 'git/refs#get-a-reference', (_req, { owner, repo: name, ref }, gh) => {
    const repo = readRepo(gh, owner, name);
    const found = getRef(gh, repo, fullRef(ref));
    if (!found) throw notFound();
    return ok(gitRef(gh, repo, found));
  }),

  op('git.listMatchingRefs', 'GET', '/repos/:owner/:repo/git/matching-refs/*ref', 'git/refs#list-matching-references', (req, { owner, repo: name, ref }, gh) => {
    const repo = readRepo(gh, owner, name);
    const prefix = fullRef(ref);
    return list(gh, req, refsUnder(gh, repo, prefix), (r) => gitRef(gh, repo, r), { repo });
  }),

  op('git.listRefs', 'GET', '/repos/:owner/:repo/git/refs/*ref', 'git/refs#get-a-reference', (req, { owner, repo: name, ref }, gh) => {
    const repo = readRepo(gh, owner, name);
    if (ref !== '') {
      const exact = getRef(gh, repo, fullRef(ref));
      if (exact) return ok(gitRef(gh, repo, exact));
    }
    const prefix = ref === '' ? 'refs/' : fullRef(ref);
    const below = refsUnder(gh, repo, prefix);
    if (below.length === 0) throw notFound();
    return list(gh, req, below, (r) => gitRef(gh, repo, r), { repo });
  }),

  op('git.createRef', 'POST', '/repos/:owner/:repo/git/refs', 'git/refs#create-a-reference', (req, { owner, repo: name }, gh, call) => {
    const repo = writableRepo(gh, owner, name);
    const body = call.body;
    const ref = reqString(body, 'ref');
    const sha = reqString(body, 'sha');
    if (!validRefName(ref)) throw unprocessable(`${ref} is not a valid ref name.`);
    const target = commitSha(gh, sha);
    if (getRef(gh, repo, ref)) throw unprocessable('Reference already exists');
    if (ref.startsWith('refs/heads/') && !getCommit(gh.db.objects, target)) throw unprocessable('Object does not exist');
    const doc = setRef(gh, repo, ref, target);
    return created(gitRef(gh, repo, doc), [['Location', gitRef(gh, repo, doc).url]]);
  }, { body: githubBody({ ref: bodyParam.string({ required: true }), sha: bodyParam.string({ required: true }) }) }),

  op('git.updateRef', 'PATCH', '/repos/:owner/:repo/git/refs/*ref', 'git/refs#update-a-reference', (req, { owner, repo: name, ref }, gh, call) => {
    const repo = writableRepo(gh, owner, name);
    const body = call.body;
    const sha = reqString(body, 'sha');
    const force = optBool(body, 'force') ?? false;
    const existing = getRef(gh, repo, fullRef(ref));
    if (!existing) throw unprocessable('Reference does not exist');
    const target = commitSha(gh, sha);
    if (existing.ref.startsWith('refs/heads/') && !getCommit(gh.db.objects, target)) throw unprocessable('Object does not exist');
    if (!force && !isAncestor(gh.db.objects, existing.sha, target)) throw unprocessable('Update is not a fast forward');
    return ok(gitRef(gh, repo, setRef(gh, repo, existing.ref, target)));
  }, { body: githubBody({ sha: bodyParam.string({ required: true }), force: bodyParam.boolean() }) }),

  op('git.deleteRef', 'DELETE', '/repos/:owner/:repo/git/refs/*ref', 'git/refs#delete-a-reference', (_req, { owner, repo: name, ref }, gh) => {
    const repo = writableRepo(gh, owner, name);
    const existing = getRef(gh, repo, fullRef(ref));
    if (!existing) throw unprocessable('Reference does not exist');
    closePullsFrom(gh, repo, existing.ref);
    deleteRef(gh, repo, existing.ref);
    return noContent();
  }),
];

/** Open pull requests whose head or base branch is being deleted close, as on GitHub. */
function closePullsFrom(gh: Gh, repo: RepoDoc, ref: string): void {
  if (!ref.startsWith('refs/heads/')) return;
  const branch = ref.slice('refs/heads/'.length);
  const key = repo.full_name.toLowerCase();
  for (const pull of gh.db.pulls.filter((p) => (p.head.repo === key && p.head.ref === branch) || (p.base.repo === key && p.base.ref === branch))) {
    const issue = gh.db.issues.get(issueKey(pull.repo, pull.number));
    if (issue?.state !== 'open') continue;
    freezePull(gh, pull);
    gh.db.issues.update(issueKey(pull.repo, pull.number), { state: 'closed', closed_at: gh.now, closed_by: gh.viewer?.login ?? null, updated_at: gh.now });
  }
}
