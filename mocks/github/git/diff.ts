import { unifiedDiff } from '../../kit/text-diff.js';
import { blobBytes, flattenTree, getBlob, type Mode, type Objects } from './objects.js';

/**
 * Diffs as GitHub reports them: per file a status, line counts and a unified `patch` (hunks only,
 * three lines of context, no file header). Binary files (a NUL byte) have counts of 0 and no patch.
 */
export interface FileDiff {
  filename: string;
  status: 'added' | 'removed' | 'modified';
  /** The blob after the change (before it, for a removed file). */
  sha: string;
  oldSha: string | null;
  mode: Mode;
  additions: number;
  deletions: number;
  changes: number;
  patch: string | undefined;
}

export function diffTrees(objects: Objects, oldTree: string | null, newTree: string): FileDiff[] {
  const before = oldTree ? flattenTree(objects, oldTree) : new Map();
  const after = flattenTree(objects, newTree);
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const out: FileDiff[] = [];
  for (const path of paths) {
    const a = before.get(path);
    const b = after.get(path);
    if (a && b && a.sha === b.sha && a.mode === b.mode) continue;
    const status = !a ? 'added' : !b ? 'removed' : 'modified';
    const counts = diffBlobs(objects, a?.sha ?? null, b?.sha ?? null);
    out.push({
      filename: path, status, sha: (b ?? a)!.sha, oldSha: a?.sha ?? null, mode: (b ?? a)!.mode,
      additions: counts.additions, deletions: counts.deletions, changes: counts.additions + counts.deletions, patch: counts.patch,
    });
  }
  return out;
}

function blobText(objects: Objects, sha: string | null): string | null {
  if (sha === null) return '';
  const blob = getBlob(objects, sha);
  if (!blob) return '';
  const bytes = blobBytes(blob);
  if (bytes.includes(0)) return null;
  return bytes.toString('utf8');
}

export function diffBlobs(objects: Objects, oldSha: string | null, newSha: string | null) {
  const oldText = blobText(objects, oldSha);
  const newText = blobText(objects, newSha);
  if (oldText === null || newText === null) return { additions: 0, deletions: 0, patch: undefined };
  return unifiedDiff(oldText, newText);
}
