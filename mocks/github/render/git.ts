import type { Gh } from '../context.js';
import type { FileDiff } from '../git/diff.js';
import { blobBytes, getCommit, getTree, type BlobObject, type CommitObject, type TreeObject } from '../git/objects.js';
import type { AccountDoc, RefDoc, RepoDoc } from '../model.js';
import { RAW, WEB, encodePath, nodeId, repoApi } from '../urls.js';
import { embeddedUser } from './users.js';

const UNSIGNED = { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null };

/** The noreply address GitHub gives a user, which commits made through the API carry. */
export function noreplyEmail(account: AccountDoc): string {
  return `${account.id}+${account.login}@users.noreply.github.com`;
}

/** The account a commit's author or committer email belongs to, if any. */
export function accountByEmail(gh: Gh, email: string): AccountDoc | undefined {
  const lower = email.toLowerCase();
  return gh.db.accounts.find((a) => a.type === 'User' && ((a.email ?? '').toLowerCase() === lower || noreplyEmail(a).toLowerCase() === lower));
}

export function gitRef(gh: Gh, repo: RepoDoc, ref: RefDoc) {
  const base = repoApi(repo.full_name);
  const type = gh.db.objects.get(ref.sha)?.type ?? 'commit';
  return {
    ref: ref.ref,
    node_id: nodeId(gh.ctx.ids, 'ref', `${repo.id}:${ref.ref}`),
    url: `${base}/git/${encodePath(ref.ref)}`,
    object: { sha: ref.sha, type, url: `${base}/git/${type}s/${ref.sha}` },
  };
}

export function gitCommit(gh: Gh, repo: RepoDoc, commit: CommitObject) {
  const base = repoApi(repo.full_name);
  return {
    sha: commit.sha,
    node_id: nodeId(gh.ctx.ids, 'commit', `${repo.id}:${commit.sha}`),
    url: `${base}/git/commits/${commit.sha}`,
    html_url: `${WEB}/${repo.full_name}/commit/${commit.sha}`,
    author: { ...commit.author },
    committer: { ...commit.committer },
    tree: { sha: commit.tree, url: `${base}/git/trees/${commit.tree}` },
    message: commit.message,
    parents: commit.parents.map((sha) => ({ sha, url: `${base}/git/commits/${sha}`, html_url: `${WEB}/${repo.full_name}/commit/${sha}` })),
    verification: UNSIGNED,
  };
}

/** `git-tree`: one level, or every level below with `recursive`. */
export function gitTree(gh: Gh, repo: RepoDoc, tree: TreeObject, recursive: boolean) {
  const base = repoApi(repo.full_name);
  const entries: Record<string, unknown>[] = [];
  const walk = (t: TreeObject, prefix: string) => {
    for (const entry of t.entries) {
      const size = entry.type === 'blob' ? gh.db.objects.get(entry.sha) : undefined;
      entries.push({
        path: prefix + entry.name,
        mode: entry.mode,
        type: entry.type,
        sha: entry.sha,
        ...(size?.type === 'blob' ? { size: size.size } : {}),
        ...(entry.type === 'commit' ? {} : { url: `${base}/git/${entry.type}s/${entry.sha}` }),
      });
      if (recursive && entry.type === 'tree') {
        const sub = getTree(gh.db.objects, entry.sha);
        if (sub) walk(sub, `${prefix}${entry.name}/`);
      }
    }
  };
  walk(tree, '');
  return { sha: tree.sha, url: `${base}/git/trees/${tree.sha}`, tree: entries, truncated: false };
}

/** Base64 wrapped at 60 columns with a final newline, as GitHub sends file contents. */
export function wrapBase64(bytes: Buffer): string {
  const text = bytes.toString('base64');
  let out = '';
  for (let i = 0; i < text.length; i += 60) out += `${text.slice(i, i + 60)}\n`;
  return out;
}

export function gitBlob(gh: Gh, repo: RepoDoc, blob: BlobObject) {
  return {
    sha: blob.sha,
    node_id: nodeId(gh.ctx.ids, 'blob', `${repo.id}:${blob.sha}`),
    size: blob.size,
    url: `${repoApi(repo.full_name)}/git/blobs/${blob.sha}`,
    content: wrapBase64(blobBytes(blob)),
    encoding: 'base64',
  };
}

/** `diff-entry`, as in a commit's or a pull request's `files`. */
export function diffEntry(repo: RepoDoc, ref: string, file: FileDiff) {
  const path = encodePath(file.filename);
  return {
    sha: file.sha,
    filename: file.filename,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.changes,
    blob_url: `${WEB}/${repo.full_name}/blob/${ref}/${path}`,
    raw_url: `${WEB}/${repo.full_name}/raw/${ref}/${path}`,
    contents_url: `${repoApi(repo.full_name)}/contents/${path}?ref=${ref}`,
    ...(file.patch === undefined ? {} : { patch: file.patch }),
  };
}

/** `commit` (the REST commits API): the git commit plus GitHub users and, for one commit, files. */
export function restCommit(gh: Gh, repo: RepoDoc, commit: CommitObject, files?: FileDiff[]) {
  const base = repoApi(repo.full_name);
  const author = accountByEmail(gh, commit.author.email);
  const committer = accountByEmail(gh, commit.committer.email);
  const git = gitCommit(gh, repo, commit);
  const out: Record<string, unknown> = {
    sha: commit.sha,
    node_id: git.node_id,
    commit: {
      author: git.author,
      committer: git.committer,
      message: commit.message,
      tree: git.tree,
      url: git.url,
      comment_count: 0,
      verification: UNSIGNED,
    },
    url: `${base}/commits/${commit.sha}`,
    html_url: git.html_url,
    comments_url: `${base}/commits/${commit.sha}/comments`,
    author: author ? embeddedUser(gh, author) : null,
    committer: committer ? embeddedUser(gh, committer) : null,
    parents: commit.parents.map((sha) => ({ sha, url: `${base}/commits/${sha}`, html_url: `${WEB}/${repo.full_name}/commit/${sha}` })),
  };
  if (files) {
    const additions = files.reduce((n, f) => n + f.additions, 0);
    const deletions = files.reduce((n, f) => n + f.deletions, 0);
    out.stats = { total: additions + deletions, additions, deletions };
    out.files = files.map((f) => diffEntry(repo, commit.sha, f));
  }
  return out;
}

/** The `commit` half of a contents API answer (`file-commit`). */
export function fileCommit(gh: Gh, repo: RepoDoc, sha: string) {
  const commit = getCommit(gh.db.objects, sha)!;
  return gitCommit(gh, repo, commit);
}

export function rawUrl(repo: RepoDoc, ref: string, path: string): string {
  return `${RAW}/${repo.full_name}/${ref}/${encodePath(path)}`;
}
