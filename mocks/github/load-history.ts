import type { Gh } from './context.js';
import type { CommitEntry, FileChangeData, PersonData, RepoData } from './dataset.js';
import { putBlob, type PathChange, type Person } from './git/objects.js';
import { at, datasetError } from './load-util.js';
import { accountKey, type RepoDoc } from './model.js';
import { noreplyEmail } from './render/git.js';
import { branchSha, commitOnBranch, setRef } from './repo-git.js';

const HOUR = 3_600_000;
const encoder = new TextEncoder();

/**
 * Replays a repository's `commits` list: each commit entry applies its files on top of its
 * branch (creating the branch from `from`, or as a root commit); a branch entry creates a branch
 * where `from` points. Dates default to one commit every two hours, ending before the epoch.
 */
export function loadHistory(gh: Gh, repo: RepoDoc, data: RepoData, where: string): void {
  const commits = data.commits.filter((e): e is CommitEntry => 'message' in e);
  let index = 0;
  data.commits.forEach((entry, i) => {
    const here = `${where}.commits[${i}]`;
    const existing = branchSha(gh, repo, entry.branch);
    if (!('message' in entry)) {
      const from = branchSha(gh, repo, entry.from!);
      if (!from) throw datasetError(`${here}.from`, `no branch ${entry.from} yet`);
      if (existing) throw datasetError(`${here}.branch`, `branch ${entry.branch} already exists`);
      setRef(gh, repo, `refs/heads/${entry.branch}`, from);
      return;
    }
    let parent: string | null = existing ?? null;
    if (!existing && entry.from !== undefined) {
      parent = branchSha(gh, repo, entry.from) ?? null;
      if (!parent) throw datasetError(`${here}.from`, `no branch ${entry.from} yet`);
    }
    const date = at(entry.date, gh.ctx.epochMs - (commits.length - index) * 2 * HOUR);
    index++;
    const author = person(gh, repo, entry.author, date, `${here}.author`);
    const committer = entry.committer === undefined ? author : person(gh, repo, entry.committer, date, `${here}.committer`);
    const changes = new Map<string, PathChange>();
    for (const [path, change] of Object.entries(entry.files)) changes.set(normalizePath(path, `${here}.files`), fileChange(gh, change));
    commitOnBranch(gh, repo, { branch: entry.branch, parent, changes, message: entry.message, author, committer });
  });
  gh.db.repos.update(repo.full_name.toLowerCase(), { pushed_at: latestPush(gh, repo), updated_at: latestPush(gh, repo) });
}

function latestPush(gh: Gh, repo: RepoDoc): string {
  let latest = gh.db.repos.get(repo.full_name.toLowerCase())!.created_at;
  for (const ref of gh.db.refs.filter((r) => r.repo === repo.full_name.toLowerCase())) {
    const commit = gh.db.objects.get(ref.sha);
    if (commit?.type === 'commit' && commit.committer.date > latest) latest = commit.committer.date;
  }
  return latest;
}

function normalizePath(path: string, where: string): string {
  const clean = path.split('/').filter((p) => p !== '').join('/');
  if (clean === '' || clean.split('/').some((p) => p === '.' || p === '..' || p === '.git')) {
    throw datasetError(where, `invalid path ${JSON.stringify(path)}`);
  }
  return clean;
}

function fileChange(gh: Gh, change: FileChangeData): PathChange {
  if (change === null) return null;
  if (typeof change === 'string') return { mode: '100644', type: 'blob', sha: putBlob(gh.db.objects, encoder.encode(change)).sha };
  if ('base64' in change) return { mode: '100644', type: 'blob', sha: putBlob(gh.db.objects, Buffer.from(change.base64, 'base64')).sha };
  return { mode: change.mode, type: 'blob', sha: putBlob(gh.db.objects, encoder.encode(change.content)).sha };
}

/** A login becomes that user's name and email (noreply when none); the default is the owner. */
function person(gh: Gh, repo: RepoDoc, value: PersonData | undefined, date: string, where: string): Person {
  if (value !== undefined && typeof value !== 'string') return { name: value.name, email: value.email, date };
  let login = value;
  if (login === undefined) {
    const owner = gh.db.accounts.get(accountKey(repo.owner))!;
    login = owner.type === 'User' ? owner.login : owner.members?.[0]?.login;
    if (login === undefined) return { name: 'GitHub', email: 'noreply@github.com', date };
  }
  const account = gh.db.accounts.get(accountKey(login));
  if (account?.type !== 'User') throw datasetError(where, `no user ${login}`);
  return { name: account.name ?? account.login, email: account.email ?? noreplyEmail(account), date };
}
