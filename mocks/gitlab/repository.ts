import { bytes, emptyResponse, jsonResponse, type ServiceResponse } from '../core/http.js';
import { operation, rest, type Call, type Operation } from '../kit/operation.js';
import { visibleProject, writableProject, type GlCtx } from './context.js';
import { blobId, branchOf, commitOn, history, lastCommitFor, mergeBase, resolveRef, treeDiff } from './git.js';
import { glError, iso, key, notFound, paged, type CommitDoc, type ProjectDoc } from './model.js';
import { argsOf, need, str, V4 } from './params.js';
import { renderBranch, renderCommit } from './render.js';

/** Branches, files, trees, commits, compare, tags and protected branches of a repository. */

const json = (value: unknown, status = 200): ServiceResponse => jsonResponse(status, value);

function commitAt(c: GlCtx, project: ProjectDoc, ref: string | undefined): CommitDoc {
  const commit = resolveRef(c, project, ref ?? null);
  if (!commit) throw notFound('Commit');
  return commit;
}

const P = `${V4}/projects/:id/repository`;

function fileAnswer(c: GlCtx, project: ProjectDoc, path: string, ref: string): Record<string, unknown> {
  const commit = resolveRef(c, project, ref);
  const content = commit?.tree[path];
  if (!commit || content === undefined) throw notFound('File');
  const last = lastCommitFor(c, project.id, commit.id, path) ?? commit;
  return {
    file_name: path.split('/').at(-1), file_path: path, size: Buffer.byteLength(content), encoding: 'base64',
    content_sha256: blobId(`sha256:${content}`), ref, blob_id: blobId(content), commit_id: commit.id, last_commit_id: last.id,
    execute_filemode: false, content: Buffer.from(content).toString('base64'),
  };
}

/** What a file write names: the branch (or `start_branch` for a new one), the message, the commit it starts from. */
function fileWrite(call: Call<{ id: string }, unknown, unknown>, c: GlCtx) {
  const project = writableProject(c, call.params.id);
  const args = argsOf(call);
  const branch = need(args, 'branch');
  const message = need(args, 'commit_message');
  const start = str(args, 'start_branch');
  const base = resolveRef(c, project, c.db.branches.has(key(project.id, branch)) ? branch : start ?? null);
  return { project, args, branch, message, start, base };
}

function decodeContent(args: Record<string, unknown>): string {
  const content = str(args, 'content') ?? '';
  return str(args, 'encoding') === 'base64' ? Buffer.from(content, 'base64').toString('utf8') : content;
}

export const repositoryOperations: Operation<GlCtx>[] = [
  operation<GlCtx, `${typeof P}/branches`>('branches.list', rest('GET', `${P}/branches`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const search = call.req.query.get('search')?.toLowerCase();
    const branches = c.db.branches.filter((b) => b.project_id === project.id && (!search || b.name.toLowerCase().includes(search))).sort((a, b) => a.name.localeCompare(b.name));
    return paged(branches, call.req, (b) => renderBranch(c, b));
  }),
  operation<GlCtx, `${typeof P}/branches/:branch`>('branches.get', rest('GET', `${P}/branches/:branch`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return json(renderBranch(c, branchOf(c, project, call.params.branch)));
  }),
  operation<GlCtx, `${typeof P}/branches`>('branches.create', rest('POST', `${P}/branches`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const args = argsOf(call);
    const name = need(args, 'branch');
    const ref = need(args, 'ref');
    if (c.db.branches.has(key(project.id, name))) throw glError(400, 'Branch already exists');
    const commit = resolveRef(c, project, ref);
    if (!commit) throw glError(400, 'Invalid reference name: ' + ref);
    const branch = c.db.branches.put(key(project.id, name), { project_id: project.id, name, commit: commit.id, protected: false });
    return json(renderBranch(c, branch), 201);
  }),
  operation<GlCtx, `${typeof P}/branches/:branch`>('branches.delete', rest('DELETE', `${P}/branches/:branch`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const branch = branchOf(c, project, call.params.branch);
    if (branch.name === project.default_branch) throw glError(405, 'The default branch of a project cannot be deleted.');
    if (branch.protected) throw glError(403, 'Protected branch cannot be deleted');
    c.db.branches.delete(key(project.id, branch.name));
    return emptyResponse(204);
  }),

  operation<GlCtx, `${typeof P}/files/:path/raw`>('files.raw', rest('GET', `${P}/files/:path/raw`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const commit = resolveRef(c, project, call.req.query.get('ref'));
    const content = commit?.tree[call.params.path];
    if (content === undefined) throw notFound('File');
    return { status: 200, headers: [['Content-Type', 'text/plain; charset=utf-8'], ['X-Gitlab-File-Path', call.params.path], ['X-Gitlab-Commit-Id', commit!.id]], body: bytes(content) };
  }),
  operation<GlCtx, `${typeof P}/files/:path/blame`>('files.blame', rest('GET', `${P}/files/:path/blame`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const commit = resolveRef(c, project, call.req.query.get('ref'));
    const content = commit?.tree[call.params.path];
    if (!commit || content === undefined) throw notFound('File');
    // Each line to the oldest commit since which it has stood unchanged at that text.
    const commits = history(c, project.id, commit.id).reverse();
    const lines = content.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const owner = lines.map((line) => commits.find((x) => (x.tree[call.params.path] ?? '').split('\n').includes(line)) ?? commit);
    const out: { commit: Record<string, unknown>; lines: string[] }[] = [];
    lines.forEach((line, i) => {
      const last = out.at(-1);
      if (last && last.commit.id === owner[i]!.id) last.lines.push(line);
      else out.push({ commit: renderCommit(c, owner[i]!), lines: [line] });
    });
    return json(out);
  }),
  operation<GlCtx, `${typeof P}/files/:path`>('files.get', rest('GET', `${P}/files/:path`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const ref = call.req.query.get('ref') ?? project.default_branch;
    return json(fileAnswer(c, project, call.params.path, ref));
  }),
  operation<GlCtx, `${typeof P}/files/:path`>('files.create', rest('POST', `${P}/files/:path`), (call, c) => {
    const { project, args, branch, message, start, base } = fileWrite(call, c);
    if (base?.tree[call.params.path] !== undefined) throw glError(400, 'A file with this name already exists');
    if (!c.db.branches.has(key(project.id, branch)) && start === undefined) throw glError(400, 'You can only create or edit files when you are on a branch');
    commitOn(c, project, branch, message, (tree) => { tree[call.params.path] = decodeContent(args); }, { start: start ?? null });
    return json({ file_path: call.params.path, branch }, 201);
  }),
  operation<GlCtx, `${typeof P}/files/:path`>('files.update', rest('PUT', `${P}/files/:path`), (call, c) => {
    const { project, args, branch, message, start, base } = fileWrite(call, c);
    if (!base) throw glError(400, 'You can only create or edit files when you are on a branch');
    if (base.tree[call.params.path] === undefined) throw glError(400, "A file with this name doesn't exist");
    const lastId = str(args, 'last_commit_id');
    if (lastId !== undefined && lastId !== lastCommitFor(c, project.id, base.id, call.params.path)?.id) {
      throw glError(400, 'You are attempting to update a file that has changed since you started editing it.');
    }
    commitOn(c, project, branch, message, (tree) => { tree[call.params.path] = decodeContent(args); }, { start: start ?? null });
    return json({ file_path: call.params.path, branch });
  }),
  operation<GlCtx, `${typeof P}/files/:path`>('files.delete', rest('DELETE', `${P}/files/:path`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const args = argsOf(call);
    const branch = need(args, 'branch');
    const message = need(args, 'commit_message');
    const base = resolveRef(c, project, branch);
    if (!base || base.tree[call.params.path] === undefined) throw glError(400, "A file with this name doesn't exist");
    commitOn(c, project, branch, message, (tree) => { delete tree[call.params.path]; });
    return emptyResponse(204);
  }),

  operation<GlCtx, `${typeof P}/tree`>('repository.tree', rest('GET', `${P}/tree`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const commit = resolveRef(c, project, call.req.query.get('ref'));
    if (!commit) throw notFound('Tree');
    const prefix = (call.req.query.get('path') ?? '').replace(/^\/+|\/+$/g, '');
    const recursive = call.req.query.get('recursive') === 'true';
    const entries = new Map<string, { id: string; name: string; type: 'tree' | 'blob'; path: string; mode: string }>();
    for (const [path, content] of Object.entries(commit.tree)) {
      if (prefix && !path.startsWith(`${prefix}/`)) continue;
      const rest = prefix ? path.slice(prefix.length + 1) : path;
      const parts = rest.split('/');
      const depth = recursive ? parts.length : 1;
      for (let i = 0; i < depth; i++) {
        const sub = [prefix, ...parts.slice(0, i + 1)].filter(Boolean).join('/');
        const isBlob = i === parts.length - 1;
        if (!entries.has(sub)) entries.set(sub, { id: isBlob ? blobId(content) : blobId(`tree:${sub}:${commit.id}`), name: parts[i]!, type: isBlob ? 'blob' : 'tree', path: sub, mode: isBlob ? '100644' : '040000' });
      }
    }
    if (prefix && entries.size === 0) throw notFound('Tree');
    const list = [...entries.values()].sort((a, b) => (a.type === b.type ? a.path.localeCompare(b.path) : a.type === 'tree' ? -1 : 1));
    return paged(list, call.req);
  }),

  operation<GlCtx, `${typeof P}/commits`>('commits.list', rest('GET', `${P}/commits`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const q = call.req.query;
    const head = resolveRef(c, project, q.get('ref_name'));
    if (!head) return paged([], call.req);
    const path = q.get('path');
    const since = q.get('since');
    const until = q.get('until');
    const commits = (q.get('all') === 'true' ? c.db.commits.filter((x) => x.project_id === project.id).sort((a, b) => b.authored_date.localeCompare(a.authored_date)) : history(c, project.id, head.id)).filter((x) => {
      if (since && x.authored_date < since) return false;
      if (until && x.authored_date > until) return false;
      if (path) {
        const parent = x.parent_ids[0] ? c.db.commits.get(key(project.id, x.parent_ids[0])) : undefined;
        return Object.keys({ ...x.tree, ...(parent?.tree ?? {}) }).some((p) => (p === path || p.startsWith(`${path}/`)) && x.tree[p] !== parent?.tree[p]);
      }
      return true;
    });
    return paged(commits, call.req, (x) => renderCommit(c, x, q.get('with_stats') === 'true'));
  }),
  operation<GlCtx, `${typeof P}/commits`>('commits.create', rest('POST', `${P}/commits`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const args = argsOf(call);
    const branch = need(args, 'branch');
    const message = need(args, 'commit_message');
    const actions = args.actions;
    if (!Array.isArray(actions) || actions.length === 0) throw glError(400, 'actions is missing');
    const start = str(args, 'start_branch') ?? str(args, 'start_sha');
    if (!c.db.branches.has(key(project.id, branch)) && start === undefined) throw glError(400, 'You can only create or edit files when you are on a branch');
    const commit = commitOn(c, project, branch, message, (tree) => {
      for (const raw of actions as Record<string, unknown>[]) {
        const action = String(raw.action);
        const path = String(raw.file_path ?? '');
        const content = raw.encoding === 'base64' ? Buffer.from(String(raw.content ?? ''), 'base64').toString('utf8') : String(raw.content ?? '');
        if (action === 'create') {
          if (tree[path] !== undefined) throw glError(400, `A file with this name already exists`);
          tree[path] = content;
        } else if (action === 'update') {
          if (tree[path] === undefined) throw glError(400, `A file with this name doesn't exist`);
          tree[path] = content;
        } else if (action === 'delete') {
          if (tree[path] === undefined) throw glError(400, `A file with this name doesn't exist`);
          delete tree[path];
        } else if (action === 'move') {
          const from = String(raw.previous_path ?? '');
          if (tree[from] === undefined) throw glError(400, `A file with this name doesn't exist`);
          tree[path] = raw.content === undefined ? tree[from]! : content;
          delete tree[from];
        } else if (action === 'chmod') {
          if (tree[path] === undefined) throw glError(400, `A file with this name doesn't exist`);
        } else throw glError(400, 'actions[0][action] does not have a valid value');
      }
    }, { start: start ?? null });
    return json(renderCommit(c, commit, true), 201);
  }),
  operation<GlCtx, `${typeof P}/commits/:sha/diff`>('commits.diff', rest('GET', `${P}/commits/:sha/diff`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const commit = commitAt(c, project, call.params.sha);
    const parent = commit.parent_ids[0] ? c.db.commits.get(key(project.id, commit.parent_ids[0])) : undefined;
    return paged(treeDiff(parent?.tree ?? {}, commit.tree), call.req);
  }),
  operation<GlCtx, `${typeof P}/commits/:sha`>('commits.get', rest('GET', `${P}/commits/:sha`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return json(renderCommit(c, commitAt(c, project, call.params.sha), call.req.query.get('stats') !== 'false'));
  }),
  operation<GlCtx, `${typeof P}/commits/:sha/refs`>('commits.refs', rest('GET', `${P}/commits/:sha/refs`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const commit = commitAt(c, project, call.params.sha);
    const refs = [
      ...c.db.branches.filter((b) => b.project_id === project.id && history(c, project.id, b.commit).some((x) => x.id === commit.id)).map((b) => ({ type: 'branch', name: b.name })),
      ...c.db.tags.filter((t) => t.project_id === project.id && history(c, project.id, t.commit).some((x) => x.id === commit.id)).map((t) => ({ type: 'tag', name: t.name })),
    ];
    return paged(refs, call.req);
  }),

  operation<GlCtx, `${typeof P}/compare`>('repository.compare', rest('GET', `${P}/compare`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const q = call.req.query;
    const from = resolveRef(c, project, q.get('from') ?? '');
    const to = resolveRef(c, project, q.get('to') ?? '');
    if (!from || !to) throw notFound('Ref');
    const straight = q.get('straight') === 'true';
    const base = straight ? from : c.db.commits.get(key(project.id, mergeBase(c, project.id, from.id, to.id) ?? from.id)) ?? from;
    const baseIds = new Set(history(c, project.id, base.id).map((x) => x.id));
    const commits = history(c, project.id, to.id).filter((x) => !baseIds.has(x.id)).reverse();
    return json({
      commit: commits.length > 0 ? renderCommit(c, to) : null, commits: commits.map((x) => renderCommit(c, x)), diffs: treeDiff(base.tree, to.tree),
      compare_timeout: false, compare_same_ref: from.id === to.id, web_url: `https://gitlab.com/${project.namespace_full_path}/${project.path}/-/compare/${from.id}...${to.id}`,
    });
  }),

  operation<GlCtx, `${typeof P}/tags`>('tags.list', rest('GET', `${P}/tags`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const search = call.req.query.get('search');
    const tags = c.db.tags.filter((t) => t.project_id === project.id && (!search || t.name.includes(search.replace(/^\^|\$$/g, '')))).sort((a, b) => b.created_at.localeCompare(a.created_at) || b.name.localeCompare(a.name));
    return paged(tags, call.req, (t) => renderTag(c, project, t));
  }),
  operation<GlCtx, `${typeof P}/tags/:tag/signature`>('tags.signature', rest('GET', `${P}/tags/:tag/signature`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    if (!c.db.tags.has(key(project.id, call.params.tag))) throw notFound('Tag');
    throw notFound('Signature');
  }),
  operation<GlCtx, `${typeof P}/tags/:tag`>('tags.get', rest('GET', `${P}/tags/:tag`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const tag = c.db.tags.get(key(project.id, call.params.tag));
    if (!tag) throw notFound('Tag');
    return json(renderTag(c, project, tag));
  }),
  operation<GlCtx, `${typeof P}/tags`>('tags.create', rest('POST', `${P}/tags`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const args = argsOf(call);
    const name = need(args, 'tag_name');
    const ref = need(args, 'ref');
    if (c.db.tags.has(key(project.id, name))) throw glError(400, `Tag ${name} already exists`);
    const commit = resolveRef(c, project, ref);
    if (!commit) throw glError(400, 'Target ' + ref + ' is invalid');
    const tag = c.db.tags.put(key(project.id, name), { project_id: project.id, name, commit: commit.id, message: str(args, 'message') ?? '', created_at: iso(c.ctx.nowMs) });
    return json(renderTag(c, project, tag), 201);
  }),
  operation<GlCtx, `${typeof P}/tags/:tag`>('tags.delete', rest('DELETE', `${P}/tags/:tag`), (call, c) => {
    const project = writableProject(c, call.params.id, 40);
    if (!c.db.tags.delete(key(project.id, call.params.tag))) throw notFound('Tag');
    return emptyResponse(204);
  }),

  operation<GlCtx, '/api/v4/projects/:id/protected_branches'>('protectedBranches.list', rest('GET', `${V4}/projects/:id/protected_branches`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return paged(c.db.branches.filter((b) => b.project_id === project.id && b.protected), call.req, (b) => renderProtected(b.name, project.id));
  }),
  operation<GlCtx, '/api/v4/projects/:id/protected_branches/:name'>('protectedBranches.get', rest('GET', `${V4}/projects/:id/protected_branches/:name`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const branch = c.db.branches.get(key(project.id, call.params.name));
    if (!branch?.protected) throw notFound('Protected Branch');
    return json(renderProtected(branch.name, project.id));
  }),
  operation<GlCtx, '/api/v4/projects/:id/protected_branches'>('protectedBranches.create', rest('POST', `${V4}/projects/:id/protected_branches`), (call, c) => {
    const project = writableProject(c, call.params.id, 40);
    const name = need(argsOf(call), 'name');
    const branch = c.db.branches.get(key(project.id, name));
    if (branch?.protected) throw glError(409, 'Protected branch \'' + name + '\' already exists');
    if (branch) c.db.branches.update(key(project.id, name), { protected: true });
    return json(renderProtected(name, project.id), 201);
  }),
  operation<GlCtx, '/api/v4/projects/:id/protected_branches/:name'>('protectedBranches.delete', rest('DELETE', `${V4}/projects/:id/protected_branches/:name`), (call, c) => {
    const project = writableProject(c, call.params.id, 40);
    const branch = c.db.branches.get(key(project.id, call.params.name));
    if (!branch?.protected) throw notFound('Protected Branch');
    c.db.branches.update(key(project.id, branch.name), { protected: false });
    return emptyResponse(204);
  }),
];

function renderProtected(name: string, projectId: number): Record<string, unknown> {
  const level = (access: number, description: string) => [{ id: projectId * 10 + access, access_level: access, access_level_description: description, deploy_key_id: null, user_id: null, group_id: null }];
  return { id: projectId * 1000 + name.length, name, push_access_levels: level(40, 'Maintainers'), merge_access_levels: level(40, 'Maintainers'), allow_force_push: false, unprotect_access_levels: [], code_owner_approval_required: false, inherited: false };
}

function renderTag(c: GlCtx, project: ProjectDoc, tag: { name: string; commit: string; message: string; created_at: string }): Record<string, unknown> {
  const commit = c.db.commits.get(key(project.id, tag.commit))!;
  return { name: tag.name, message: tag.message, target: tag.commit, commit: renderCommit(c, commit), release: null, protected: false, created_at: tag.created_at };
}

