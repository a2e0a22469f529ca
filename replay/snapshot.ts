import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private view of a journal directory for reading. LevelDB rewrites its files when it opens a
 * database (it turns the write-ahead log into a table, writes a new manifest, takes a lock), so
 * readers open a snapshot instead of the journal itself: the journal's bytes never change, any
 * number of readers can open it at once, and a journal still being written can be read.
 *
 * Files are hard-linked where possible (LevelDB never rewrites an existing file in place: it
 * writes new ones and unlinks old ones, which removes only the snapshot's link), copied across
 * file systems, and the lock file is always a fresh one (a lock is held per inode).
 */
export interface Snapshot {
  /** The snapshot's directory, to open with LevelDB. */
  readonly path: string;
  dispose(): void;
}

export function snapshotJournal(dir: string): Snapshot {
  const root = mkdtempSync(join(tmpdir(), 'toolbench-read-'));
  const path = join(root, 'journal');
  const dispose = () => rmSync(root, { recursive: true, force: true });
  try {
    copyTree(dir, path);
  } catch (error) {
    dispose();
    throw error;
  }
  return { path, dispose };
}

function copyTree(from: string, to: string): void {
  mkdirSync(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target);
    else if (entry.name === 'LOCK') writeFileSync(target, '');
    else if (entry.isFile()) linkOrCopy(source, target);
  }
}

function linkOrCopy(source: string, target: string): void {
  try {
    linkSync(source, target);
  } catch {
    copyFileSync(source, target);
  }
}
