import { createHash } from 'node:crypto';
import type { Collection } from '../../core/store.js';

/**
 * Git objects with real object IDs: sha1 of `<type> <size>\0<payload>`, exactly as git computes
 * them, so a blob's SHA matches `git hash-object` and content addressing is real. Objects live in
 * one collection keyed by SHA (every repository shares it, as a fork network does).
 */
export type Mode = '100644' | '100755' | '040000' | '160000' | '120000';
export type EntryType = 'blob' | 'tree' | 'commit';

export interface TreeEntry {
  mode: Mode;
  type: EntryType;
  name: string;
  sha: string;
}

export interface BlobObject {
  type: 'blob';
  sha: string;
  size: number;
  /** The bytes, base64. */
  content: string;
}

export interface TreeObject {
  type: 'tree';
  sha: string;
  entries: TreeEntry[];
}

export interface Person {
  name: string;
  email: string;
  /** ISO seconds, UTC. */
  date: string;
}

export interface CommitObject {
  type: 'commit';
  sha: string;
  tree: string;
  parents: string[];
  author: Person;
  committer: Person;
  message: string;
}

export type GitObject = BlobObject | TreeObject | CommitObject;
export type Objects = Collection<GitObject>;

export const EMPTY_TREE_SHA = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const encoder = new TextEncoder();

function hashObject(type: string, payload: Uint8Array): string {
  return createHash('sha1').update(`${type} ${payload.length}\0`).update(payload).digest('hex');
}

export function putBlob(objects: Objects, bytes: Uint8Array): BlobObject {
  const sha = hashObject('blob', bytes);
  const found = objects.get(sha);
  if (found?.type === 'blob') return found;
  return objects.put(sha, { type: 'blob', sha, size: bytes.length, content: Buffer.from(bytes).toString('base64') }) as BlobObject;
}

export function putTextBlob(objects: Objects, text: string): BlobObject {
  return putBlob(objects, encoder.encode(text));
}

/** Git's tree order: by name bytes, a tree's name compared as if it ended in `/`. */
function sortKey(entry: TreeEntry): string {
  return entry.type === 'tree' ? `${entry.name}/` : entry.name;
}

export function sortEntries(entries: TreeEntry[]): TreeEntry[] {
  return [...entries].sort((a, b) => {
    const x = Buffer.from(sortKey(a));
    const y = Buffer.from(sortKey(b));
    return Buffer.compare(x, y);
  });
}

export function putTree(objects: Objects, entries: TreeEntry[]): TreeObject {
  const sorted = sortEntries(entries);
  const parts: Buffer[] = [];
  for (const entry of sorted) {
    const mode = entry.mode === '040000' ? '40000' : entry.mode;
    parts.push(Buffer.from(`${mode} ${entry.name}\0`), Buffer.from(entry.sha, 'hex'));
  }
  const sha = hashObject('tree', Buffer.concat(parts));
  const found = objects.get(sha);
  if (found?.type === 'tree') return found;
  return objects.put(sha, { type: 'tree', sha, entries: sorted }) as TreeObject;
}

function personLine(person: Person): string {
  return `${person.name} <${person.email}> ${Math.floor(Date.parse(person.date) / 1000)} +0000`;
}

export function putCommit(objects: Objects, fields: Omit<CommitObject, 'type' | 'sha'>): CommitObject {
  const lines = [`tree ${fields.tree}`, ...fields.parents.map((p) => `parent ${p}`),
    `author ${personLine(fields.author)}`, `committer ${personLine(fields.committer)}`, '', fields.message];
  const sha = hashObject('commit', encoder.encode(lines.join('\n')));
  const found = objects.get(sha);
  if (found?.type === 'commit') return found;
  return objects.put(sha, { type: 'commit', sha, ...fields }) as CommitObject;
}

export function getBlob(objects: Objects, sha: string): BlobObject | undefined {
  const found = objects.get(sha);
  return found?.type === 'blob' ? found : undefined;
}

export function getTree(objects: Objects, sha: string): TreeObject | undefined {
  if (sha === EMPTY_TREE_SHA && !objects.has(sha)) return { type: 'tree', sha, entries: [] };
  const found = objects.get(sha);
  return found?.type === 'tree' ? found : undefined;
}

export function getCommit(objects: Objects, sha: string): CommitObject | undefined {
  const found = objects.get(sha);
  return found?.type === 'commit' ? found : undefined;
}

export function blobBytes(blob: BlobObject): Buffer {
  return Buffer.from(blob.content, 'base64');
}

/** What a path names in a tree: the root (`''`) is the tree itself. */
export interface PathEntry {
  mode: Mode;
  type: EntryType;
  sha: string;
  path: string;
}

export function lookupPath(objects: Objects, treeSha: string, path: string): PathEntry | undefined {
  const parts = path.split('/').filter((part) => part !== '');
  if (parts.length === 0) return { mode: '040000', type: 'tree', sha: treeSha, path: '' };
  let tree = getTree(objects, treeSha);
  for (let i = 0; i < parts.length; i++) {
    const entry = tree?.entries.find((e) => e.name === parts[i]);
    if (!entry) return undefined;
    if (i === parts.length - 1) return { mode: entry.mode, type: entry.type, sha: entry.sha, path: parts.join('/') };
    if (entry.type !== 'tree') return undefined;
    tree = getTree(objects, entry.sha);
  }
  return undefined;
}

/** Every blob (and submodule) under a tree, by full path, in tree order. */
export function flattenTree(objects: Objects, treeSha: string, prefix = ''): Map<string, { mode: Mode; type: EntryType; sha: string }> {
  const out = new Map<string, { mode: Mode; type: EntryType; sha: string }>();
  const walk = (sha: string, base: string) => {
    for (const entry of getTree(objects, sha)?.entries ?? []) {
      const path = base + entry.name;
      if (entry.type === 'tree') walk(entry.sha, `${path}/`);
      else out.set(path, { mode: entry.mode, type: entry.type, sha: entry.sha });
    }
  };
  walk(treeSha, prefix);
  return out;
}

/** A change to one path: a new entry, or null to delete whatever is there. */
export type PathChange = { mode: Mode; type: EntryType; sha: string } | null;

/**
 * Applies changes (full paths) to a tree and writes the new trees; returns the new root's SHA.
 * Directories left empty disappear, as in git.
 */
export function applyChanges(objects: Objects, baseTree: string | null, changes: Map<string, PathChange>): string {
  const build = (treeSha: string | null, local: Map<string, PathChange>): string | null => {
    const entries = new Map<string, TreeEntry>();
    for (const entry of treeSha ? getTree(objects, treeSha)?.entries ?? [] : []) entries.set(entry.name, entry);
    const nested = new Map<string, Map<string, PathChange>>();
    for (const [path, change] of local) {
      const slash = path.indexOf('/');
      if (slash === -1) {
        if (change === null) entries.delete(path);
        else entries.set(path, { mode: change.mode, type: change.type, name: path, sha: change.sha });
      } else {
        const dir = path.slice(0, slash);
        if (!nested.has(dir)) nested.set(dir, new Map());
        nested.get(dir)!.set(path.slice(slash + 1), change);
      }
    }
    for (const [dir, inner] of nested) {
      const existing = entries.get(dir);
      const sub = build(existing?.type === 'tree' ? existing.sha : null, inner);
      if (sub === null) entries.delete(dir);
      else entries.set(dir, { mode: '040000', type: 'tree', name: dir, sha: sub });
    }
    if (entries.size === 0) return null;
    return putTree(objects, [...entries.values()]).sha;
  };
  return build(baseTree, changes) ?? putTree(objects, []).sha;
}
