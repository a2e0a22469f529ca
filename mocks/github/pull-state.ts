import type { Gh } from './context.js';
import { diffTrees, type FileDiff } from './git/diff.js';
import { commitsBetween, mergeBase } from './git/history.js';
import { mergeCommits, type MergeOutcome } from './git/merge.js';
import { getCommit, type CommitObject } from './git/objects.js';
import { refKey, type PullDoc } from './model.js';

/**
 * What a pull request looks like now: while open its head and base follow their branches; once
 * closed or merged they are frozen at the SHAs stored on the document.
 */
function liveSha(gh: Gh, repo: string | null, ref: string): string | undefined {
  return repo === null ? undefined : gh.db.refs.get(refKey(repo, `refs/heads/${ref}`))?.sha;
}

export function isOpen(gh: Gh, pull: PullDoc): boolean {
  return gh.db.issues.get(`${pull.repo}#${pull.number}`)?.state === 'open';
}

export function headSha(gh: Gh, pull: PullDoc): string {
  return (isOpen(gh, pull) ? liveSha(gh, pull.head.repo, pull.head.ref) : undefined) ?? pull.head.sha;
}

export function baseSha(gh: Gh, pull: PullDoc): string {
  return (isOpen(gh, pull) ? liveSha(gh, pull.base.repo, pull.base.ref) : undefined) ?? pull.base.sha;
}

/** The files a pull request changes: from the merge base to the head. */
export function pullFiles(gh: Gh, pull: PullDoc): FileDiff[] {
  const head = headSha(gh, pull);
  const base = mergeBase(gh.db.objects, baseSha(gh, pull), head);
  const baseTree = base ? getCommit(gh.db.objects, base)!.tree : null;
  return diffTrees(gh.db.objects, baseTree, getCommit(gh.db.objects, head)!.tree);
}

/** The commits a pull request adds, oldest first. */
export function pullCommits(gh: Gh, pull: PullDoc): CommitObject[] {
  return commitsBetween(gh.db.objects, baseSha(gh, pull), headSha(gh, pull));
}

export function mergeOutcome(gh: Gh, pull: PullDoc): MergeOutcome {
  return mergeCommits(gh.db.objects, baseSha(gh, pull), headSha(gh, pull));
}

/** A new file line (RIGHT) or old file line (LEFT) as a 1-based position in a file's patch. */
export function positionOfLine(patch: string, line: number, side: 'LEFT' | 'RIGHT'): number | null {
  let oldNo = 0;
  let newNo = 0;
  const lines = patch.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      oldNo = Number(hunk[1]) - 1;
      newNo = Number(hunk[2]) - 1;
      continue;
    }
    if (text.startsWith('\\')) continue;
    const kind = text[0];
    if (kind !== '+') oldNo++;
    if (kind !== '-') newNo++;
    if (side === 'RIGHT' && kind !== '-' && newNo === line) return i;
    if (side === 'LEFT' && kind !== '+' && oldNo === line) return i;
  }
  return null;
}

/** The new-file line at a patch position (null for a removed line), and whether it exists. */
export function lineOfPosition(patch: string, position: number): { valid: boolean; line: number | null } {
  const lines = patch.split('\n');
  if (position < 1 || position >= lines.length) return { valid: false, line: null };
  let newNo = 0;
  for (let i = 0; i <= position; i++) {
    const text = lines[i]!;
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      newNo = Number(hunk[1]) - 1;
      if (i === position) return { valid: false, line: null };
      continue;
    }
    if (text.startsWith('\\')) continue;
    if (text[0] !== '-') newNo++;
    if (i === position) return { valid: true, line: text[0] === '-' ? null : newNo };
  }
  return { valid: false, line: null };
}

/** GitHub's `diff_hunk` of a review comment: the hunk header down to the commented line. */
export function diffHunk(patch: string, position: number): string {
  const lines = patch.split('\n');
  let start = 0;
  for (let i = 0; i <= position && i < lines.length; i++) if (lines[i]!.startsWith('@@')) start = i;
  return lines.slice(start, position + 1).join('\n');
}

/** Stores the live head and base SHAs on the document, before the pull request closes. */
export function freezePull(gh: Gh, pull: PullDoc): PullDoc {
  const head = headSha(gh, pull);
  const base = baseSha(gh, pull);
  return gh.db.pulls.put(`${pull.repo}#${pull.number}`, { ...pull, head: { ...pull.head, sha: head }, base: { ...pull.base, sha: base } });
}
