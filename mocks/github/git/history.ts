import { getCommit, type CommitObject, type Objects } from './objects.js';

/** Every commit reachable from `sha` (itself included). */
export function ancestors(objects: Objects, sha: string): Set<string> {
  const seen = new Set<string>();
  const stack = [sha];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    const commit = getCommit(objects, next);
    if (!commit) continue;
    seen.add(next);
    for (const parent of commit.parents) stack.push(parent);
  }
  return seen;
}

export function isAncestor(objects: Objects, ancestor: string, of: string): boolean {
  return ancestors(objects, of).has(ancestor);
}

/**
 * `git log` order: newest committer date first; among equal dates, the order in which commits
 * were reached from the tip (children before parents). Stops after `limit` commits.
 */
export function log(objects: Objects, tips: string[], exclude: Set<string> = new Set(), limit = Infinity): CommitObject[] {
  const out: CommitObject[] = [];
  const seen = new Set<string>();
  const queue: { commit: CommitObject; order: number }[] = [];
  let order = 0;
  const push = (sha: string) => {
    if (seen.has(sha) || exclude.has(sha)) return;
    seen.add(sha);
    const commit = getCommit(objects, sha);
    if (commit) queue.push({ commit, order: order++ });
  };
  for (const tip of tips) push(tip);
  while (queue.length > 0 && out.length < limit) {
    let best = 0;
    for (let i = 1; i < queue.length; i++) {
      const a = queue[i]!;
      const b = queue[best]!;
      if (a.commit.committer.date > b.commit.committer.date || (a.commit.committer.date === b.commit.committer.date && a.order < b.order)) best = i;
    }
    const [{ commit }] = queue.splice(best, 1) as [{ commit: CommitObject; order: number }];
    out.push(commit);
    for (const parent of commit.parents) push(parent);
  }
  return out;
}

/** The best common ancestor of two commits (the newest one reachable from both), or null. */
export function mergeBase(objects: Objects, a: string, b: string): string | null {
  const fromA = ancestors(objects, a);
  for (const commit of log(objects, [b])) if (fromA.has(commit.sha)) return commit.sha;
  return null;
}

/** Commits reachable from `head` but not from `base`, oldest first (what a pull request adds). */
export function commitsBetween(objects: Objects, base: string, head: string): CommitObject[] {
  return log(objects, [head], ancestors(objects, base)).reverse();
}
