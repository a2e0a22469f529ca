import type { ServiceRequest } from '../core/http.js';
import { readableRepo, requireViewer, writableRepo, type Gh } from './context.js';
import { GitHubError, conflict, notFound, notSupplied, unprocessable } from './errors.js';
import { blobBytes, getBlob, getTree, lookupPath, putBlob, type PathEntry } from './git/objects.js';
import type { RepoDoc } from './model.js';
import { op } from './operation.js';
import { bodyParam, githubBody, optString, reqString } from './params.js';
import { contentFile, contentItem } from './render/contents.js';
import { fileCommit } from './render/git.js';
import { branchSha, commitForRef, commitOnBranch, isEmpty, personFrom, treeOf, viewerPerson } from './repo-git.js';
import { created, ok } from './respond.js';

/**
 * The contents API: read a file or a directory at a ref, create or update a file (the `sha` of
 * the file being replaced is required, a stale one is 409), delete a file, and the README.
 */
function wantsRaw(req: ServiceRequest): boolean {
  return /application\/vnd\.github(\.v3)?\.raw/i.test(req.header('accept') ?? '');
}

function read(gh: Gh, req: ServiceRequest, repo: RepoDoc, ref: string, entry: PathEntry) {
  if (entry.type === 'tree') {
    const tree = getTree(gh.db.objects, entry.sha)!;
    const prefix = entry.path === '' ? '' : `${entry.path}/`;
    return ok(tree.entries.map((e) => contentItem(gh, repo, ref, { mode: e.mode, type: e.type, sha: e.sha, path: prefix + e.name })));
  }
  if (wantsRaw(req) && entry.type === 'blob') {
    const blob = getBlob(gh.db.objects, entry.sha);
    return {
      status: 200,
      headers: [['Content-Type', 'text/plain; charset=utf-8'], ['X-GitHub-Media-Type', 'github.v3; param=raw']] as [string, string][],
      body: new Uint8Array(blob ? blobBytes(blob) : Buffer.alloc(0)),
    };
  }
  return ok(contentFile(gh, repo, ref, entry));
}

function cleanPath(path: string): string {
  return path.split('/').filter((p) => p !== '').join('/');
}

/** The branch a write goes to and its tip; an empty repository gets its first commit there. */
function targetBranch(gh: Gh, repo: RepoDoc, branch: string | undefined): { branch: string; parent: string | null } {
  const name = branch ?? repo.default_branch;
  if (isEmpty(gh, repo)) return { branch: name, parent: null };
  const parent = branchSha(gh, repo, name);
  if (!parent) throw notFound(`Branch ${name} not found`);
  return { branch: name, parent };
}

function existingEntry(gh: Gh, parent: string | null, path: string): PathEntry | undefined {
  return parent ? lookupPath(gh.db.objects, treeOf(gh, parent), path) : undefined;
}

export const contentRoutes = [
  op('repos.getContent', 'GET', '/repos/:owner/:repo/contents/*path', 'repos/contents#get-repository-content', (req, { owner, repo: name, path }, gh) => {
    const repo = readableRepo(gh, owner, name);
    const { sha, ref } = commitForRef(gh, repo, req.query.get('ref') || null);
    const entry = lookupPath(gh.db.objects, treeOf(gh, sha), cleanPath(path));
    if (!entry) throw notFound();
    return read(gh, req, repo, ref, entry);
  }),

  op('repos.getReadme', 'GET', '/repos/:owner/:repo/readme', 'repos/contents#get-a-repository-readme', (req, { owner, repo: name }, gh) => {
    const repo = readableRepo(gh, owner, name);
    const { sha, ref } = commitForRef(gh, repo, req.query.get('ref') || null);
    const root = getTree(gh.db.objects, treeOf(gh, sha))!;
    const readmes = root.entries.filter((e) => e.type === 'blob' && /^readme(\.[a-z0-9]+)?$/i.test(e.name));
    const found = readmes.find((e) => /^readme\.md$/i.test(e.name)) ?? readmes[0];
    if (!found) throw notFound();
    return read(gh, req, repo, ref, { mode: found.mode, type: found.type, sha: found.sha, path: found.name });
  }),

  op('repos.createOrUpdateFileContents', 'PUT', '/repos/:owner/:repo/contents/*path', 'repos/contents#create-or-update-file-contents', (req, { owner, repo: name, path }, gh, call) => {
    const viewer = requireViewer(gh);
    const repo = writableRepo(gh, owner, name);
    const body = call.body;
    const message = reqString(body, 'message');
    const content = reqString(body, 'content');
    const sha = optString(body, 'sha');
    const file = cleanPath(path);
    if (file === '' || file.split('/').some((p) => p === '.' || p === '..' || p === '.git')) throw unprocessable('path is invalid');
    if (!/^[A-Za-z0-9+/=\r\n]*$/.test(content)) throw unprocessable('content is not valid Base64');
    const { branch, parent } = targetBranch(gh, repo, optString(body, 'branch'));
    const existing = existingEntry(gh, parent, file);
    if (existing && existing.type !== 'blob') throw unprocessable(`${file} is a directory`);
    for (let dir = file.lastIndexOf('/'); dir > 0; dir = file.lastIndexOf('/', dir - 1)) {
      if (existingEntry(gh, parent, file.slice(0, dir))?.type === 'blob') throw unprocessable(`${file.slice(0, dir)} is a file, not a directory`);
    }
    if (existing && sha === undefined) throw notSupplied('sha');
    if (existing && sha !== existing.sha) throw conflict(`${file} does not match ${sha}`);
    const committer = personFrom(body.committer, viewerPerson(gh, viewer), gh.now);
    const author = personFrom(body.author, committer, gh.now);
    const blob = putBlob(gh.db.objects, Buffer.from(content, 'base64'));
    const mode = existing?.mode ?? '100644';
    const commit = commitOnBranch(gh, repo, {
      branch, parent, changes: new Map([[file, { mode, type: 'blob', sha: blob.sha }]]), message, author, committer,
    });
    const entry = lookupPath(gh.db.objects, commit.tree, file)!;
    const result = { content: contentItem(gh, repo, branch, entry), commit: fileCommit(gh, repo, commit.sha) };
    return existing ? ok(result) : created(result);
  }, { body: githubBody({ message: bodyParam.string({ required: true }), content: bodyParam.string({ required: true }), sha: bodyParam.string() }) }),

  op('repos.deleteFile', 'DELETE', '/repos/:owner/:repo/contents/*path', 'repos/contents#delete-a-file', (req, { owner, repo: name, path }, gh, call) => {
    const viewer = requireViewer(gh);
    const repo = writableRepo(gh, owner, name);
    const body = call.body;
    const message = reqString(body, 'message');
    const sha = reqString(body, 'sha');
    const file = cleanPath(path);
    if (isEmpty(gh, repo)) throw notFound();
    const { branch, parent } = targetBranch(gh, repo, optString(body, 'branch'));
    const existing = existingEntry(gh, parent, file);
    if (!existing) throw notFound();
    if (existing.type !== 'blob') throw new GitHubError(422, `${file} is a directory`);
    if (sha !== existing.sha) throw conflict(`${file} does not match ${sha}`);
    const committer = personFrom(body.committer, viewerPerson(gh, viewer), gh.now);
    const author = personFrom(body.author, committer, gh.now);
    const commit = commitOnBranch(gh, repo, { branch, parent, changes: new Map([[file, null]]), message, author, committer });
    return ok({ content: null, commit: fileCommit(gh, repo, commit.sha) });
  }, { body: githubBody({ message: bodyParam.string({ required: true }), sha: bodyParam.string({ required: true }) }) }),
];
