import { unifiedDiff } from '../kit/text-diff.js';
import type { GlCtx } from './context.js';
import { glError, iso, key, notFound, seededSha, shaOf, type BranchDoc, type CommitDoc, type ProjectDoc } from './model.js';

/**
 * The repositories: commits keep their whole tree (small repositories), branches and tags point at
 * commits. New commits get a SHA from the seeded IDs, so replays make the same ones.
 */

/** A branch name, tag name or SHA (or a prefix of 8+ hex digits) of a project, as its commit. */
export function resolveRef(c: GlCtx, project: ProjectDoc, ref: string | null | undefined): CommitDoc | undefined {
  const name = ref ?? project.default_branch;
  const branch = c.db.branches.get(key(project.id, name));
  if (branch) return c.db.commits.get(key(project.id, branch.commit));
  const tag = c.db.tags.get(key(project.id, name));
  if (tag) return c.db.commits.get(key(project.id, tag.commit));
  const exact = c.db.commits.get(key(project.id, name));
  if (exact) return exact;
  if (/^[0-9a-f]{7,40}$/.test(name)) return c.db.commits.find((x) => x.project_id === project.id && x.id.startsWith(name));
  return undefined;
}

export function branchOf(c: GlCtx, project: ProjectDoc, name: string): BranchDoc {
  const branch = c.db.branches.get(key(project.id, name));
  if (!branch) throw notFound('Branch');
  return branch;
}

/** Commits reachable from `head`, newest first (first parents, then the merged side). */
export function history(c: GlCtx, projectId: number, head: string): CommitDoc[] {
  const out: CommitDoc[] = [];
  const seen = new Set<string>();
  const queue = [head];
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const commit = c.db.commits.get(key(projectId, id));
    if (!commit) continue;
    out.push(commit);
    queue.push(...commit.parent_ids);
  }
  return out.sort((a, b) => b.authored_date.localeCompare(a.authored_date) || 0);
}

/** The newest commit reachable from `head` that changed `path` (GitLab's `last_commit_id` of a file). */
export function lastCommitFor(c: GlCtx, projectId: number, head: string, path: string): CommitDoc | undefined {
  return history(c, projectId, head).find((x) => {
    const parent = x.parent_ids[0] ? c.db.commits.get(key(projectId, x.parent_ids[0])) : undefined;
    return parent?.tree[path] !== x.tree[path];
  });
}

/** The newest commit both `a` and `b` reach (the merge base). */
export function mergeBase(c: GlCtx, projectId: number, a: string, b: string): string | null {
  const reachable = new Set(history(c, projectId, a).map((x) => x.id));
  for (const commit of history(c, projectId, b)) if (reachable.has(commit.id)) return commit.id;
  return null;
}

/** Makes a commit on `branch` (created from `start` when it does not exist) and moves the branch. */
export function commitOn(c: GlCtx, project: ProjectDoc, branch: string, message: string, change: (tree: Record<string, string>) => void, options: { start?: string | null; parents?: string[]; authorId?: number } = {}): CommitDoc {
  const existing = c.db.branches.get(key(project.id, branch));
  const base = existing ? c.db.commits.get(key(project.id, existing.commit)) : resolveRef(c, project, options.start ?? null);
  if (!existing && options.start !== undefined && !base) throw glError(400, 'You can only create or edit files when you are on a branch');
  const tree = { ...(base?.tree ?? {}) };
  change(tree);
  const id = seededSha(c.ctx, 'commit');
  const commit: CommitDoc = {
    project_id: project.id, id, parent_ids: options.parents ?? (base ? [base.id] : []), title: message.split('\n')[0]!, message,
    author_id: options.authorId ?? c.user!.id, authored_date: iso(c.ctx.nowMs), tree,
  };
  c.db.commits.put(key(project.id, id), commit);
  c.db.branches.put(key(project.id, branch), { project_id: project.id, name: branch, commit: id, protected: existing?.protected ?? false });
  c.db.projects.update(project.id, { last_activity_at: iso(c.ctx.nowMs) });
  return commit;
}

export interface FileChange {
  old_path: string; new_path: string; a_mode: string; b_mode: string; new_file: boolean; renamed_file: boolean; deleted_file: boolean;
  generated_file: boolean; diff: string;
}

/** GitLab's per-file diffs between two trees (`diff` is the hunks, with a trailing newline). */
export function treeDiff(before: Record<string, string>, after: Record<string, string>): FileChange[] {
  const out: FileChange[] = [];
  for (const path of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const a = before[path];
    const b = after[path];
    if (a === b) continue;
    const patch = unifiedDiff(a ?? '', b ?? '').patch;
    out.push({
      old_path: path, new_path: path, a_mode: a === undefined ? '0' : '100644', b_mode: b === undefined ? '0' : '100644', new_file: a === undefined,
      renamed_file: false, deleted_file: b === undefined, generated_file: false, diff: patch === undefined ? '' : `${patch}\n`,
    });
  }
  return out;
}

/** The old and new line numbers a diff shows (changed and context lines), for positions of diff notes. */
export function diffLines(diff: string): { old: Set<number>; new: Set<number>; pairs: Map<number, number | null> } {
  const old = new Set<number>();
  const neu = new Set<number>();
  const pairs = new Map<number, number | null>();
  let o = 0;
  let n = 0;
  for (const line of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) { o = Number(hunk[1]); n = Number(hunk[2]); continue; }
    if (line.startsWith('+')) { neu.add(n); pairs.set(n, null); n++; }
    else if (line.startsWith('-')) { old.add(o); o++; }
    else if (line.startsWith(' ')) { old.add(o); neu.add(n); pairs.set(n, o); o++; n++; }
  }
  return { old, new: neu, pairs };
}

export function blobId(content: string): string {
  return shaOf('blob', content);
}
