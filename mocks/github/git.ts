import { readableRepo, requireViewer, writableRepo, type Gh } from './context.js';
import { invalidType, notFound, unprocessable } from './errors.js';
import {
  applyChanges, getBlob, getCommit, getTree, putBlob, putCommit, putTextBlob, type EntryType, type Mode, type PathChange,
} from './git/objects.js';
import { op } from './operation.js';
import { bodyParam, githubBody, optEnum, optString, reqString, type Body } from './params.js';
import { gitBlob, gitCommit, gitTree } from './render/git.js';
import { personFrom, requireNotEmpty, resolveCommitish, viewerPerson } from './repo-git.js';
import { created, ok } from './respond.js';
import { repoApi } from './urls.js';

/** The git database: blobs, trees and commits (objects are shared by every repository). */
const MODES: readonly Mode[] = ['100644', '100755', '040000', '160000', '120000'];
const TYPES: readonly EntryType[] = ['blob', 'tree', 'commit'];

function isSha(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{40}$/i.test(value);
}

/** Reads `tree` entries of POST /git/trees into path changes (writing blobs for `content`). */
function treeChanges(gh: Gh, body: Body): Map<string, PathChange> {
  const entries = body.tree;
  if (entries === undefined || entries === null) throw unprocessable('Invalid request.\n\n"tree" wasn\'t supplied.');
  if (!Array.isArray(entries)) throw invalidType('tree', entries, 'array');
  const changes = new Map<string, PathChange>();
  const pending: { path: string; mode: Mode; type: EntryType; sha: string | null; content: string | undefined }[] = [];
  for (const raw of entries) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalidType('tree/items', raw, 'object');
    const entry = raw as Body;
    const path = reqString(entry, 'path');
    const mode = optEnum(entry, 'mode', MODES) ?? '100644';
    const type = optEnum(entry, 'type', TYPES) ?? (mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob');
    const content = optString(entry, 'content');
    const sha = entry.sha === null ? null : optString(entry, 'sha') ?? null;
    if (content !== undefined && sha !== null) throw unprocessable('Must supply either tree.sha or tree.content, not both');
    if (content === undefined && sha === null && entry.sha !== null) throw unprocessable('Must supply either tree.sha or tree.content');
    if (sha !== null && (!isSha(sha) || (type !== 'commit' && gh.db.objects.get(sha.toLowerCase())?.type !== type))) {
      throw unprocessable('GitRPC::BadObjectState');
    }
    const clean = path.split('/').filter((p) => p !== '').join('/');
    if (clean === '' || clean.split('/').some((p) => p === '.' || p === '..' || p === '.git')) throw unprocessable(`tree.path ${JSON.stringify(path)} is invalid`);
    pending.push({ path: clean, mode, type, sha: sha?.toLowerCase() ?? null, content });
  }
  for (const entry of pending) {
    if (entry.content !== undefined) changes.set(entry.path, { mode: entry.mode, type: 'blob', sha: putTextBlob(gh.db.objects, entry.content).sha });
    else changes.set(entry.path, entry.sha === null ? null : { mode: entry.mode, type: entry.type, sha: entry.sha });
  }
  return changes;
}

/** A tree named by SHA, a commit's SHA or a ref (GET /git/trees accepts all three). */
function treeFor(gh: Gh, repo: Parameters<typeof resolveCommitish>[1], name: string): string | undefined {
  const lower = name.toLowerCase();
  const object = gh.db.objects.get(lower);
  if (object?.type === 'tree') return object.sha;
  if (object?.type === 'commit') return object.tree;
  if (getTree(gh.db.objects, lower)) return lower;
  const sha = resolveCommitish(gh, repo, name);
  return sha ? getCommit(gh.db.objects, sha)?.tree : undefined;
}

export const gitRoutes = [
  op('git.createTree', 'POST', '/repos/:owner/:repo/git/trees', 'git/trees#create-a-tree', (req, { owner, repo: name }, gh, call) => {
    const repo = writableRepo(gh, owner, name);
    requireNotEmpty(gh, repo);
    const body = call.body;
    const baseName = optString(body, 'base_tree');
    let base: string | null = null;
    if (baseName !== undefined) {
      base = treeFor(gh, repo, baseName) ?? null;
      if (base === null) throw unprocessable('base_tree is not a valid tree oid');
    }
    const changes = treeChanges(gh, body);
    const tree = getTree(gh.db.objects, applyChanges(gh.db.objects, base, changes))!;
    const rendered = gitTree(gh, repo, tree, false);
    return created(rendered, [['Location', rendered.url]]);
  }, { body: githubBody({ base_tree: bodyParam.string() }) }),

  op('git.getTree', 'GET', '/repos/:owner/:repo/git/trees/:tree_sha', 'git/trees#get-a-tree', (req, { owner, repo: name, tree_sha }, gh) => {
    const repo = readableRepo(gh, owner, name);
    requireNotEmpty(gh, repo);
    const sha = treeFor(gh, repo, tree_sha);
    const tree = sha ? getTree(gh.db.objects, sha) : undefined;
    if (!tree) throw notFound();
    const recursive = req.query.has('recursive') && !['0', 'false'].includes(req.query.get('recursive')!);
    return ok(gitTree(gh, repo, tree, recursive));
  }),

  op('git.createCommit', 'POST', '/repos/:owner/:repo/git/commits', 'git/commits#create-a-commit', (req, { owner, repo: name }, gh, call) => {
    const viewer = requireViewer(gh);
    const repo = writableRepo(gh, owner, name);
    requireNotEmpty(gh, repo);
    const body = call.body;
    const message = reqString(body, 'message');
    const tree = reqString(body, 'tree').toLowerCase();
    if (!getTree(gh.db.objects, tree)) throw unprocessable('Tree SHA does not exist');
    const parents = body.parents ?? [];
    if (!Array.isArray(parents)) throw invalidType('parents', parents, 'array');
    for (const parent of parents) {
      if (!isSha(parent) || !getCommit(gh.db.objects, parent.toLowerCase())) throw unprocessable('Parent SHA does not exist or is not a commit object');
    }
    const author = personFrom(body.author, viewerPerson(gh, viewer), gh.now);
    const committer = personFrom(body.committer, author, gh.now);
    const commit = putCommit(gh.db.objects, { tree, parents: parents.map((p: string) => p.toLowerCase()), author, committer, message });
    const rendered = gitCommit(gh, repo, commit);
    return created(rendered, [['Location', rendered.url]]);
  }, { body: githubBody({ message: bodyParam.string({ required: true }), tree: bodyParam.string({ required: true }) }) }),

  op('git.getCommit', 'GET', '/repos/:owner/:repo/git/commits/:commit_sha', 'git/commits#get-a-commit-object', (_req, { owner, repo: name, commit_sha }, gh) => {
    const repo = readableRepo(gh, owner, name);
    requireNotEmpty(gh, repo);
    const commit = getCommit(gh.db.objects, commit_sha.toLowerCase());
    if (!commit) throw notFound();
    return ok(gitCommit(gh, repo, commit));
  }),

  op('git.createBlob', 'POST', '/repos/:owner/:repo/git/blobs', 'git/blobs#create-a-blob', (req, { owner, repo: name }, gh, call) => {
    const repo = writableRepo(gh, owner, name);
    requireNotEmpty(gh, repo);
    const body = call.body;
    const content = reqString(body, 'content');
    const encoding = optEnum(body, 'encoding', ['utf-8', 'utf8', 'base64'] as const) ?? 'utf-8';
    if (encoding === 'base64' && !/^[A-Za-z0-9+/=\s]*$/.test(content)) throw unprocessable('content is not valid Base64');
    const blob = encoding === 'base64' ? putBlob(gh.db.objects, Buffer.from(content, 'base64')) : putTextBlob(gh.db.objects, content);
    const url = `${repoApi(repo.full_name)}/git/blobs/${blob.sha}`;
    return created({ url, sha: blob.sha }, [['Location', url]]);
  }, { body: githubBody({ content: bodyParam.string({ required: true }), encoding: bodyParam.enum(['utf-8', 'utf8', 'base64']) }) }),

  op('git.getBlob', 'GET', '/repos/:owner/:repo/git/blobs/:file_sha', 'git/blobs#get-a-blob', (_req, { owner, repo: name, file_sha }, gh) => {
    const repo = readableRepo(gh, owner, name);
    requireNotEmpty(gh, repo);
    const blob = getBlob(gh.db.objects, file_sha.toLowerCase());
    if (!blob) throw notFound();
    return ok(gitBlob(gh, repo, blob));
  }),
];
