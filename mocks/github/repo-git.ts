import type { Gh } from './context.js';
import { applyChanges, getCommit, putCommit, type CommitObject, type PathChange, type Person } from './git/objects.js';
import { emptyRepository, notFound } from './errors.js';
import { refKey, refPrefix, refsByName, type AccountDoc, type RefDoc, type RepoDoc } from './model.js';
import { noreplyEmail } from './render/git.js';

/** A repository's git state: its refs in the store, and the objects they point to. */
export function repoRefs(gh: Gh, repo: RepoDoc): RefDoc[] {
  const key = repo.full_name.toLowerCase();
  return gh.db.refs.filter((r) => r.repo === key);
}

/** A repository's refs whose name starts with `prefix`, in name order (`refs/heads/`: its branches). */
export function refsUnder(gh: Gh, repo: RepoDoc, prefix: string): RefDoc[] {
  return refsByName(gh.db).range(refPrefix(repo.full_name.toLowerCase(), prefix));
}

export function getRef(gh: Gh, repo: RepoDoc, ref: string): RefDoc | undefined {
  return gh.db.refs.get(refKey(repo.full_name.toLowerCase(), ref));
}

export function branchSha(gh: Gh, repo: RepoDoc, branch: string): string | undefined {
  return getRef(gh, repo, `refs/heads/${branch}`)?.sha;
}

export function isEmpty(gh: Gh, repo: RepoDoc): boolean {
  return !refsByName(gh.db).any(refPrefix(repo.full_name.toLowerCase()));
}

/** Points `ref` at `sha` and marks the repository as pushed. */
export function setRef(gh: Gh, repo: RepoDoc, ref: string, sha: string): RefDoc {
  const key = repo.full_name.toLowerCase();
  const doc = gh.db.refs.put(refKey(key, ref), { repo: key, ref, sha });
  gh.db.repos.update(key, { pushed_at: gh.now, updated_at: gh.now });
  return doc;
}

export function deleteRef(gh: Gh, repo: RepoDoc, ref: string): void {
  gh.db.refs.delete(refKey(repo.full_name.toLowerCase(), ref));
  gh.db.repos.update(repo.full_name.toLowerCase(), { pushed_at: gh.now, updated_at: gh.now });
}

/**
 * A commit-ish as GitHub accepts it in `ref`/`sha` parameters: a branch or tag name (also as
 * `heads/x` or `refs/heads/x`), or a full or abbreviated (7+ hex) commit SHA.
 */
export function resolveCommitish(gh: Gh, repo: RepoDoc, name: string): string | undefined {
  for (const candidate of [name, `refs/${name}`, `refs/heads/${name}`, `refs/tags/${name}`]) {
    const ref = getRef(gh, repo, candidate);
    if (ref) return ref.sha;
  }
  if (/^[0-9a-f]{40}$/i.test(name)) return getCommit(gh.db.objects, name.toLowerCase()) ? name.toLowerCase() : undefined;
  if (/^[0-9a-f]{7,39}$/i.test(name)) {
    const prefix = name.toLowerCase();
    const found = gh.db.objects.find((o) => o.type === 'commit' && o.sha.startsWith(prefix));
    return found?.sha;
  }
  return undefined;
}

/** The commit for a `ref` query parameter (default branch when absent); GitHub's errors otherwise. */
export function commitForRef(gh: Gh, repo: RepoDoc, ref: string | null): { sha: string; ref: string } {
  if (isEmpty(gh, repo)) throw notFound('This repository is empty.');
  const name = ref ?? repo.default_branch;
  const sha = resolveCommitish(gh, repo, name);
  if (!sha) throw notFound(`No commit found for the ref ${name}`);
  return { sha, ref: name };
}

export function treeOf(gh: Gh, sha: string): string {
  return getCommit(gh.db.objects, sha)!.tree;
}

/** The viewer as a git author or committer, now. */
export function viewerPerson(gh: Gh, viewer: AccountDoc): Person {
  return { name: viewer.name ?? viewer.login, email: viewer.email ?? noreplyEmail(viewer), date: gh.now };
}

/** `{name, email, date?}` from a request body (`author`/`committer`), else `fallback`. */
export function personFrom(value: unknown, fallback: Person, now: string): Person {
  if (!value || typeof value !== 'object') return fallback;
  const v = value as Record<string, unknown>;
  if (typeof v.name !== 'string' || typeof v.email !== 'string') return fallback;
  const date = typeof v.date === 'string' && !Number.isNaN(Date.parse(v.date)) ? new Date(Date.parse(v.date)).toISOString().replace(/\.\d{3}Z$/, 'Z') : now;
  return { name: v.name, email: v.email, date };
}

/** Writes a commit on top of `parent` (null for a root commit) with `changes`, and moves `branch`. */
export function commitOnBranch(gh: Gh, repo: RepoDoc, options: {
  branch: string;
  parent: string | null;
  changes: Map<string, PathChange>;
  message: string;
  author: Person;
  committer: Person;
}): CommitObject {
  const baseTree = options.parent ? treeOf(gh, options.parent) : null;
  const tree = applyChanges(gh.db.objects, baseTree, options.changes);
  const commit = putCommit(gh.db.objects, {
    tree,
    parents: options.parent ? [options.parent] : [],
    author: options.author,
    committer: options.committer,
    message: options.message,
  });
  setRef(gh, repo, `refs/heads/${options.branch}`, commit.sha);
  return commit;
}

export function requireNotEmpty(gh: Gh, repo: RepoDoc): void {
  if (isEmpty(gh, repo)) throw emptyRepository();
}
