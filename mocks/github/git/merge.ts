import { ancestors, mergeBase } from './history.js';
import { applyChanges, flattenTree, getCommit, type Objects, type PathChange } from './objects.js';

/**
 * Merging at file granularity: a path changed on only one side takes that side; a path changed
 * identically on both sides is fine; a path changed differently on both sides is a conflict
 * (GitHub would try a line merge first; we report it as a conflict, which is the safe answer).
 */
export type MergeOutcome =
  | { kind: 'up-to-date' }
  | { kind: 'fast-forward'; tree: string }
  | { kind: 'merged'; tree: string }
  | { kind: 'conflict'; paths: string[] };

/** Merges commit `theirs` into commit `ours`. */
export function mergeCommits(objects: Objects, ours: string, theirs: string): MergeOutcome {
  const oursAncestors = ancestors(objects, ours);
  if (oursAncestors.has(theirs)) return { kind: 'up-to-date' };
  const theirsCommit = getCommit(objects, theirs)!;
  if (ancestors(objects, theirs).has(ours)) return { kind: 'fast-forward', tree: theirsCommit.tree };
  const base = mergeBase(objects, ours, theirs);
  const baseTree = base ? getCommit(objects, base)!.tree : null;
  return mergeTrees(objects, baseTree, getCommit(objects, ours)!.tree, theirsCommit.tree);
}

export function mergeTrees(objects: Objects, baseTree: string | null, oursTree: string, theirsTree: string): MergeOutcome {
  const base = baseTree ? flattenTree(objects, baseTree) : new Map();
  const ours = flattenTree(objects, oursTree);
  const theirs = flattenTree(objects, theirsTree);
  const paths = [...new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])].sort();
  const changes = new Map<string, PathChange>();
  const conflicts: string[] = [];
  const same = (x?: { sha: string; mode: string }, y?: { sha: string; mode: string }) =>
    x === y || (x !== undefined && y !== undefined && x.sha === y.sha && x.mode === y.mode);
  for (const path of paths) {
    const b = base.get(path);
    const o = ours.get(path);
    const t = theirs.get(path);
    if (same(o, t) || same(b, t)) continue;
    if (same(b, o)) changes.set(path, t ?? null);
    else conflicts.push(path);
  }
  if (conflicts.length > 0) return { kind: 'conflict', paths: conflicts };
  return { kind: 'merged', tree: applyChanges(objects, oursTree, changes) };
}
