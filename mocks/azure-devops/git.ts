import { jsonResponse, type ServiceRequest } from '../core/http.js';
import { operation, type Operation } from '../kit/operation.js';
import { identityRef, meOf, optionalProject, projectRef, q, qInt, userOf, type AdoCtx } from './context.js';
import { ado } from './locations.js';
import { adoError, badRequest, guidOf, iso, list, type CommitDoc, type ProjectDoc, type PullRequestDoc, type RepoDoc, type ThreadDoc } from './model.js';
import { witUrl, workItemOf } from './wit.js';

/**
 * Git (`_apis/git`): repositories, refs (list, create), items (tree listings, file text, JSON
 * with content), pull requests (search, create, update, labels, reviewers and votes, threads and
 * comments, iterations and their changes, the pull request query), and Advanced Security alerts.
 */

const GIT_NS = 'Microsoft.TeamFoundation.Git.Server';
const gitError = (status: number, typeKey: string, message: string) => adoError(status, typeKey, message, { namespace: GIT_NS });
const ZERO = '0000000000000000000000000000000000000000';

/** Enums arrive as names or as the SDK's numbers. */
const PR_STATUS = ['notSet', 'active', 'abandoned', 'completed'];
const THREAD_STATUS = ['unknown', 'active', 'fixed', 'wontFix', 'closed', 'byDesign', 'pending'];
const MERGE_STRATEGY = ['', 'noFastForward', 'squash', 'rebase', 'rebaseMerge'];
const enumName = (names: string[], v: unknown, what: string): string => {
  if (typeof v === 'number' && names[v]) return names[v]!;
  const found = typeof v === 'string' ? names.find((n) => n.toLowerCase() === v.toLowerCase()) : undefined;
  if (!found) throw badRequest(`The value '${String(v)}' is not a valid ${what}.`);
  return found;
};

export function repoOf(c: AdoCtx, project: ProjectDoc | null, key: string): RepoDoc {
  const k = decodeURIComponent(key).toLowerCase();
  const found = c.db.repositories.values().find((r) => r.id === k || ((project === null || r.project === project.id) && r.name.toLowerCase() === k));
  if (!found || (project !== null && found.project !== project.id)) {
    throw gitError(404, 'GitRepositoryNotFoundException', `TF401019: The Git repository with name or identifier ${decodeURIComponent(key)} does not exist or you do not have permissions for the operation you are attempting.`);
  }
  return found;
}

export function renderRepo(c: AdoCtx, r: RepoDoc) {
  const p = c.db.projects.get(r.project)!;
  return {
    id: r.id, name: r.name, url: `${c.base}/${p.id}/_apis/git/repositories/${r.id}`, project: projectRef(c, p), defaultBranch: `refs/heads/${r.defaultBranch}`,
    size: c.db.commits.values().filter((x) => x.repo === r.id).reduce((s, x) => s + Object.values(x.files).reduce((a, b) => a + b.length, 0), 0),
    remoteUrl: `https://${c.org.name}@dev.azure.com/${c.org.name}/${encodeURIComponent(p.name)}/_git/${encodeURIComponent(r.name)}`,
    sshUrl: `git@ssh.dev.azure.com:v3/${c.org.name}/${encodeURIComponent(p.name)}/${encodeURIComponent(r.name)}`,
    webUrl: `${c.base}/${encodeURIComponent(p.name)}/_git/${encodeURIComponent(r.name)}`, isDisabled: r.isDisabled, isInMaintenance: false,
  };
}

const refsOf = (c: AdoCtx, r: RepoDoc) => c.db.refs.values().filter((x) => x.repo === r.id).sort((a, b) => a.name.localeCompare(b.name));
export const headOf = (c: AdoCtx, r: RepoDoc, branch: string) => c.db.refs.get(`${r.id}:refs/heads/${branch.replace(/^refs\/heads\//, '')}`);

function commitAt(c: AdoCtx, r: RepoDoc, req: ServiceRequest): CommitDoc {
  const version = q(req, 'versionDescriptor.version') ?? r.defaultBranch;
  const type = (q(req, 'versionDescriptor.versionType') ?? 'branch').toLowerCase();
  let sha: string | undefined;
  if (type === 'commit' || type === '2') sha = version;
  else if (type === 'tag' || type === '1') sha = c.db.refs.get(`${r.id}:refs/tags/${version}`)?.objectId;
  else sha = headOf(c, r, version)?.objectId;
  const commit = sha === undefined ? undefined : c.db.commits.get(`${r.id}:${sha}`);
  if (!commit) throw gitError(404, 'GitUnresolvableToCommitException', `TF401175:The version descriptor <${type === '2' ? 'Commit' : 'Branch'}: ${version}> could not be resolved to a version in the repository ${r.name}`);
  return commit;
}

const blobId = (c: AdoCtx, content: string) => c.ctx.ids.opaque(`blob:${content}`, 0, 40);

function renderRef(c: AdoCtx, r: RepoDoc, ref: { name: string; objectId: string; creator: string }) {
  return { name: ref.name, objectId: ref.objectId, creator: identityRef(c, ref.creator), url: `${c.base}/${r.project}/_apis/git/repositories/${r.id}/refs?filter=${encodeURIComponent(ref.name.slice(5))}` };
}

function prOf(c: AdoCtx, r: RepoDoc | null, id: string): PullRequestDoc {
  const pr = c.db.pull_requests.get(String(Number(id)));
  if (!pr || (r !== null && pr.repo !== r.id)) throw gitError(404, 'GitPullRequestNotFoundException', `TF401180: The requested pull request was not found.`);
  return pr;
}

function renderReviewer(c: AdoCtx, rv: { id: string; vote: number; isRequired: boolean }, pr: PullRequestDoc) {
  const u = c.db.users.get(rv.id);
  const ref = identityRef(c, u?.uniqueName ?? rv.id)!;
  return { reviewerUrl: `${c.base}/_apis/git/repositories/${pr.repo}/pullRequests/${pr.id}/reviewers/${rv.id}`, vote: rv.vote, hasDeclined: false, isRequired: rv.isRequired, isFlagged: false, ...ref };
}

export function renderPr(c: AdoCtx, pr: PullRequestDoc) {
  const r = c.db.repositories.get(pr.repo)!;
  const src = headOf(c, r, pr.source)?.objectId ?? ZERO;
  const tgt = headOf(c, r, pr.target)?.objectId ?? ZERO;
  return {
    repository: { id: r.id, name: r.name, url: `${c.base}/${r.project}/_apis/git/repositories/${r.id}`, project: projectRef(c, c.db.projects.get(r.project)!) },
    pullRequestId: pr.id, codeReviewId: pr.id, status: pr.status, createdBy: identityRef(c, pr.createdBy), creationDate: pr.creationDate,
    ...(pr.closedDate ? { closedDate: pr.closedDate } : {}), title: pr.title, description: pr.description,
    sourceRefName: `refs/heads/${pr.source}`, targetRefName: `refs/heads/${pr.target}`, mergeStatus: pr.mergeStatus, isDraft: pr.isDraft,
    mergeId: guidOf(c.ctx.ids.opaque(`merge:${pr.id}`, 0, 32)),
    lastMergeSourceCommit: { commitId: src, url: `${c.base}/${r.project}/_apis/git/repositories/${r.id}/commits/${src}` },
    lastMergeTargetCommit: { commitId: tgt, url: `${c.base}/${r.project}/_apis/git/repositories/${r.id}/commits/${tgt}` },
    reviewers: pr.reviewers.map((rv) => renderReviewer(c, rv, pr)),
    labels: pr.labels.map((name) => ({ id: guidOf(c.ctx.ids.opaque(`label:${name.toLowerCase()}`, 0, 32)), name, active: true })),
    ...(pr.autoCompleteSetBy ? { autoCompleteSetBy: identityRef(c, pr.autoCompleteSetBy), completionOptions: pr.completionOptions } : {}),
    url: `${c.base}/${r.project}/_apis/git/repositories/${r.id}/pullRequests/${pr.id}`, supportsIterations: true,
    ...(pr.workItems.length > 0 ? { workItemRefs: pr.workItems.map((id) => ({ id: String(id), url: witUrl(c, id) })) } : {}),
  };
}

function renderComment(c: AdoCtx, t: ThreadDoc, x: ThreadDoc['comments'][number]) {
  return {
    id: x.id, parentCommentId: x.parentCommentId, author: identityRef(c, x.author), content: x.content, publishedDate: x.publishedDate,
    lastUpdatedDate: x.lastUpdatedDate, lastContentUpdatedDate: x.lastUpdatedDate, commentType: x.commentType, usersLiked: [],
    _links: { self: { href: `${c.base}/_apis/git/repositories/pullRequests/${t.pr}/threads/${t.id}/comments/${x.id}` } },
  };
}

function renderThread(c: AdoCtx, t: ThreadDoc) {
  return {
    pullRequestThreadContext: null, id: t.id, publishedDate: t.publishedDate, lastUpdatedDate: t.lastUpdatedDate,
    comments: t.comments.map((x) => renderComment(c, t, x)), status: t.status,
    threadContext: t.filePath ? { filePath: t.filePath, rightFileStart: { line: t.line ?? 1, offset: 1 }, rightFileEnd: { line: t.line ?? 1, offset: 1 } } : null,
    properties: {}, identities: null, isDeleted: false,
  };
}

function threadOf(c: AdoCtx, pr: PullRequestDoc, id: string): ThreadDoc {
  const t = c.db.threads.get(`${pr.id}:${Number(id)}`);
  if (!t) throw gitError(404, 'GitPullRequestCommentThreadNotFoundException', `TF401181: The pull request comment thread ${id} was not found.`);
  return t;
}

function prsMatching(c: AdoCtx, req: ServiceRequest, scope: (pr: PullRequestDoc) => boolean) {
  const status = (q(req, 'searchCriteria.status') ?? 'active').toLowerCase();
  const source = q(req, 'searchCriteria.sourceRefName')?.replace(/^refs\/heads\//, '');
  const target = q(req, 'searchCriteria.targetRefName')?.replace(/^refs\/heads\//, '');
  const creator = q(req, 'searchCriteria.creatorId')?.toLowerCase();
  const reviewer = q(req, 'searchCriteria.reviewerId')?.toLowerCase();
  const repo = q(req, 'searchCriteria.repositoryId')?.toLowerCase();
  const wanted = /^\d+$/.test(status) ? PR_STATUS[Number(status)]!.toLowerCase() : status;
  const top = qInt(req, '$top') ?? 101;
  const skip = qInt(req, '$skip') ?? 0;
  const all = c.db.pull_requests.values().filter((pr) => scope(pr) && (wanted === 'all' || pr.status.toLowerCase() === wanted)
    && (source === undefined || pr.source === source) && (target === undefined || pr.target === target)
    && (creator === undefined || userOf(c, pr.createdBy)?.id === creator) && (reviewer === undefined || pr.reviewers.some((r) => r.id === reviewer))
    && (repo === undefined || pr.repo === repo)).sort((a, b) => b.id - a.id);
  return all.slice(skip, skip + top);
}

function createPr(c: AdoCtx, r: RepoDoc, body: Record<string, unknown>): PullRequestDoc {
  const source = String(body.sourceRefName ?? '').replace(/^refs\/heads\//, '');
  const target = String(body.targetRefName ?? '').replace(/^refs\/heads\//, '');
  if (!source || !target) throw badRequest('sourceRefName and targetRefName are required.');
  if (typeof body.title !== 'string' || body.title.trim() === '') throw badRequest('The pull request title is required.');
  for (const b of [source, target]) if (!headOf(c, r, b)) throw gitError(404, 'GitRefNotFoundException', `TF401398: The pull request cannot be activated because the source and/or the target branch no longer exists, or the requested refs are not branches`);
  if (source === target) throw gitError(400, 'GitPullRequestSameSourceAndTargetException', 'TF401178: The source and target branch cannot be the same.');
  const dup = c.db.pull_requests.values().find((p) => p.repo === r.id && p.source === source && p.target === target && p.status === 'active');
  if (dup) throw gitError(409, 'GitPullRequestExistsException', `TF401179: An active pull request for the source and target branch already exists.`);
  const workItems = ((body.workItemRefs as { id: string }[] | undefined) ?? []).map((w) => workItemOf(c, w.id).id);
  const reviewers = ((body.reviewers as { id: string }[] | undefined) ?? []).map((rv) => ({ id: rv.id, vote: 0, isRequired: false }));
  const id = c.ctx.ids.next('pullrequest');
  const srcCommit = c.db.commits.get(`${r.id}:${headOf(c, r, source)!.objectId}`);
  const tgtCommit = c.db.commits.get(`${r.id}:${headOf(c, r, target)!.objectId}`);
  const changes = srcCommit && tgtCommit
    ? Object.keys({ ...srcCommit.files, ...tgtCommit.files }).filter((p) => srcCommit.files[p] !== tgtCommit.files[p]).sort()
      .map((path) => ({ path, changeType: tgtCommit.files[path] === undefined ? 'add' : srcCommit.files[path] === undefined ? 'delete' : 'edit' }))
    : [];
  return c.db.pull_requests.put(String(id), {
    id, repo: r.id, project: r.project, title: body.title.trim(), description: String(body.description ?? ''), source, target, status: 'active',
    isDraft: body.isDraft === true, createdBy: meOf(c).uniqueName, creationDate: iso(c.ctx.nowMs), closedDate: null, reviewers,
    labels: ((body.labels as { name: string }[] | undefined) ?? []).map((l) => l.name), workItems, changes, mergeStatus: 'succeeded', completionOptions: null, autoCompleteSetBy: null,
  });
}

function updatePr(c: AdoCtx, pr: PullRequestDoc, body: Record<string, unknown>): PullRequestDoc {
  let next = { ...pr };
  if (body.title !== undefined) next.title = String(body.title);
  if (body.description !== undefined) next.description = String(body.description);
  if (body.isDraft !== undefined) next.isDraft = body.isDraft === true;
  if (body.targetRefName !== undefined) {
    const t = String(body.targetRefName).replace(/^refs\/heads\//, '');
    if (!headOf(c, c.db.repositories.get(pr.repo)!, t)) throw gitError(404, 'GitRefNotFoundException', `TF401398: The target branch ${t} does not exist.`);
    next.target = t;
  }
  if (body.status !== undefined) {
    const status = enumName(PR_STATUS, body.status, 'pull request status');
    if (pr.status !== 'active' && status !== 'active') throw gitError(409, 'GitPullRequestCannotBeActivated', `TF401181: The pull request ${pr.id} is ${pr.status} and cannot be changed to ${status}.`);
    if (status === 'completed') {
      const commit = (body.lastMergeSourceCommit as { commitId?: string } | undefined)?.commitId;
      const head = headOf(c, c.db.repositories.get(pr.repo)!, pr.source)?.objectId;
      if (!commit) throw badRequest('The lastMergeSourceCommit is required to complete a pull request.');
      if (commit !== head) throw gitError(409, 'GitPullRequestStaleException', 'TF401192: The pull request source commit has changed since it was last read.');
    }
    next = { ...next, status, closedDate: status === 'active' ? null : iso(c.ctx.nowMs) };
  }
  if ('autoCompleteSetBy' in body) {
    const by = body.autoCompleteSetBy as { id?: string } | null;
    const options = body.completionOptions as Record<string, unknown> | null | undefined;
    next.autoCompleteSetBy = by?.id ? (c.db.users.get(by.id)?.uniqueName ?? meOf(c).uniqueName) : null;
    next.completionOptions = by?.id && options ? { ...options, ...(options.mergeStrategy !== undefined ? { mergeStrategy: enumName(MERGE_STRATEGY, options.mergeStrategy, 'merge strategy') } : {}) } : null;
  }
  return c.db.pull_requests.put(String(pr.id), next);
}

function listItems(c: AdoCtx, r: RepoDoc, commit: CommitDoc, scope: string, recursion: string) {
  const root = scope === '' || scope === '/' ? '/' : `/${scope.replace(/^\/+|\/+$/g, '')}`;
  const paths = Object.keys(commit.files).sort();
  if (paths.includes(root.slice(1)) || paths.includes(root)) {
    const path = root;
    return [{ objectId: blobId(c, commit.files[path.replace(/^\//, '')] ?? commit.files[path]!), gitObjectType: 'blob', commitId: commit.commitId, path, url: itemUrl(c, r, path) }];
  }
  const prefix = root === '/' ? '' : `${root.slice(1)}/`;
  const under = paths.filter((p) => p.startsWith(prefix));
  if (under.length === 0) throw gitError(404, 'GitItemNotFoundException', `TF401174: The item '${root}' could not be found in the repository '${r.name}' at the version specified by '<Branch: ${commit.branch} >' (resolved to commit '${commit.commitId}').`);
  const entries = new Map<string, boolean>();
  const level = recursion.toLowerCase();
  for (const p of under) {
    const rest = p.slice(prefix.length).split('/');
    if (level === 'full') {
      for (let i = 1; i < rest.length; i++) entries.set(`/${prefix}${rest.slice(0, i).join('/')}`, true);
      entries.set(`/${p}`, false);
    } else if (level === 'onelevel' || level === 'onelevelpluscontents') {
      entries.set(`/${prefix}${rest[0]}`, rest.length > 1);
    }
  }
  const items = [{ objectId: c.ctx.ids.opaque(`tree:${commit.commitId}:${root}`, 0, 40), gitObjectType: 'tree', commitId: commit.commitId, path: root, isFolder: true, url: itemUrl(c, r, root) }];
  for (const [path, folder] of [...entries].sort((a, b) => a[0].localeCompare(b[0]))) {
    items.push(folder
      ? { objectId: c.ctx.ids.opaque(`tree:${commit.commitId}:${path}`, 0, 40), gitObjectType: 'tree', commitId: commit.commitId, path, isFolder: true, url: itemUrl(c, r, path) }
      : { objectId: blobId(c, commit.files[path.slice(1)]!), gitObjectType: 'blob', commitId: commit.commitId, path, isFolder: undefined as unknown as boolean, url: itemUrl(c, r, path) });
  }
  return items.map((i) => (i.isFolder ? i : { objectId: i.objectId, gitObjectType: i.gitObjectType, commitId: i.commitId, path: i.path, url: i.url }));
}

const itemUrl = (c: AdoCtx, r: RepoDoc, path: string) => `${c.base}/${r.project}/_apis/git/repositories/${r.id}/items?path=${encodeURIComponent(path)}&versionType=Branch&versionOptions=None`;

function project(c: AdoCtx, key: string) {
  return optionalProject(c, key);
}

export const gitOperations: Operation<AdoCtx>[] = [
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories'>('git.getRepositories', ado('GET', '/git/repositories'), (call, c) => {
    const p = project(c, call.params.project);
    const repos = c.db.repositories.values().filter((r) => p === null || r.project === p.id).sort((a, b) => a.name.localeCompare(b.name));
    return list(repos.map((r) => renderRepo(c, r)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId'>('git.getRepository', ado('GET', '/git/repositories/:repositoryId'), (call, c) =>
    jsonResponse(200, renderRepo(c, repoOf(c, project(c, call.params.project), call.params.repositoryId)))),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/refs'>('git.getRefs', ado('GET', '/git/repositories/:repositoryId/refs'), (call, c) => {
    const r = repoOf(c, project(c, call.params.project), call.params.repositoryId);
    const filter = q(call.req, 'filter');
    const contains = q(call.req, 'filterContains')?.toLowerCase();
    const mine = q(call.req, 'includeMyBranches') === 'true';
    const refs = refsOf(c, r).filter((x) => (filter === undefined || x.name.startsWith(`refs/${filter}`)) && (contains === undefined || x.name.toLowerCase().includes(contains))
      && (!mine || x.creator === meOf(c).uniqueName));
    const top = qInt(call.req, '$top');
    return list((top === undefined ? refs : refs.slice(0, top)).map((x) => renderRef(c, r, x)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/refs'>('git.updateRefs', ado('POST', '/git/repositories/:repositoryId/refs'), (call, c) => {
    const r = repoOf(c, project(c, call.params.project), call.params.repositoryId);
    const updates = call.req.json();
    if (!Array.isArray(updates) || updates.length === 0) throw badRequest('The ref updates are required.');
    const value = updates.map((u: { name?: string; oldObjectId?: string; newObjectId?: string }) => {
      const name = String(u.name ?? '');
      const existing = c.db.refs.get(`${r.id}:${name}`);
      // Object.assign on the fresh result, not `{ ...base, … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
      const base = { repositoryId: r.id, name, oldObjectId: u.oldObjectId ?? ZERO, newObjectId: u.newObjectId ?? ZERO, isLocked: false, rejectedBy: null };
      if (!/^refs\/(heads|tags)\/[^\s~^:?*[\\]+$/.test(name) || name.endsWith('/') || name.includes('..')) return Object.assign(base, { success: false, updateStatus: 'invalidRefName', customMessage: `The ref name '${name}' is not valid.` });
      if ((existing?.objectId ?? ZERO) !== (u.oldObjectId ?? ZERO)) return Object.assign(base, { success: false, updateStatus: 'staleOldObjectId', customMessage: existing ? `The branch ${name} already exists.` : `The ref ${name} does not exist.` });
      if (u.newObjectId === ZERO) { if (existing) c.db.refs.delete(`${r.id}:${name}`); return Object.assign(base, { success: true, updateStatus: 'succeeded', customMessage: null }); }
      if (!c.db.commits.has(`${r.id}:${u.newObjectId}`)) return Object.assign(base, { success: false, updateStatus: 'unresolvableToCommit', customMessage: `The object ${u.newObjectId} could not be resolved to a commit.` });
      c.db.refs.put(`${r.id}:${name}`, { repo: r.id, name, objectId: u.newObjectId!, creator: meOf(c).uniqueName });
      return Object.assign(base, { success: true, updateStatus: 'succeeded', customMessage: null });
    });
    return list(value);
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/items'>('git.getItems', ado('GET', '/git/repositories/:repositoryId/items'), (call, c) => {
    const r = repoOf(c, project(c, call.params.project), call.params.repositoryId);
    const commit = commitAt(c, r, call.req);
    const path = q(call.req, 'path');
    const accept = (call.req.header('accept') ?? '').toLowerCase();
    if (path !== undefined && path !== '' && (accept.includes('text/plain') || accept.includes('application/octet-stream') || (q(call.req, 'includeContent') === 'true' && !accept.includes('json')))) {
      const content = commit.files[path.replace(/^\/+/, '')];
      if (content === undefined) throw gitError(404, 'GitItemNotFoundException', `TF401174: The item '${path}' could not be found in the repository '${r.name}' at the version specified by '<Branch: ${commit.branch} >' (resolved to commit '${commit.commitId}').`);
      return { status: 200, headers: [['Content-Type', 'text/plain; charset=utf-8']], body: new TextEncoder().encode(content) };
    }
    if (path !== undefined && path !== '') {
      const key = path.replace(/^\/+/, '');
      const content = commit.files[key];
      if (content === undefined) return list(listItems(c, r, commit, path, q(call.req, 'recursionLevel') ?? 'none'));
      return jsonResponse(200, { objectId: blobId(c, content), gitObjectType: 'blob', commitId: commit.commitId, path: `/${key}`,
        ...(q(call.req, 'includeContentMetadata') === 'true' ? { contentMetadata: { encoding: 65001, contentType: 'text/plain', fileName: key.split('/').pop(), extension: key.includes('.') ? key.split('.').pop() : '' } } : {}),
        ...(q(call.req, 'includeContent') === 'true' ? { content } : {}), url: itemUrl(c, r, `/${key}`) });
    }
    return list(listItems(c, r, commit, q(call.req, 'scopePath') ?? '/', q(call.req, 'recursionLevel') ?? 'oneLevel'));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests'>('git.getPullRequests', ado('GET', '/git/repositories/:repositoryId/pullRequests'), (call, c) => {
    const r = repoOf(c, project(c, call.params.project), call.params.repositoryId);
    return list(prsMatching(c, call.req, (pr) => pr.repo === r.id).map((pr) => renderPr(c, pr)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/pullRequests'>('git.getPullRequestsByProject', ado('GET', '/git/pullRequests'), (call, c) => {
    const p = project(c, call.params.project);
    return list(prsMatching(c, call.req, (pr) => p === null || pr.project === p.id).map((pr) => renderPr(c, pr)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/pullRequests/:pullRequestId'>('git.getPullRequestById', ado('GET', '/git/pullRequests/:pullRequestId'), (call, c) =>
    jsonResponse(200, renderPr(c, prOf(c, null, call.params.pullRequestId)))),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests'>('git.createPullRequest', ado('POST', '/git/repositories/:repositoryId/pullRequests'), (call, c) => {
    const r = repoOf(c, project(c, call.params.project), call.params.repositoryId);
    return jsonResponse(201, renderPr(c, createPr(c, r, (call.req.json() ?? {}) as Record<string, unknown>)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId'>('git.getPullRequest', ado('GET', '/git/repositories/:repositoryId/pullRequests/:pullRequestId'), (call, c) => {
    const r = repoOf(c, project(c, call.params.project), call.params.repositoryId);
    return jsonResponse(200, renderPr(c, prOf(c, r, call.params.pullRequestId)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId'>('git.updatePullRequest', ado('PATCH', '/git/repositories/:repositoryId/pullRequests/:pullRequestId'), (call, c) => {
    const r = repoOf(c, project(c, call.params.project), call.params.repositoryId);
    return jsonResponse(200, renderPr(c, updatePr(c, prOf(c, r, call.params.pullRequestId), (call.req.json() ?? {}) as Record<string, unknown>)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/labels'>('git.getPullRequestLabels', ado('GET', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/labels'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    return list(renderPr(c, pr).labels);
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/labels'>('git.createPullRequestLabel', ado('POST', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/labels'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    const name = String(((call.req.json() ?? {}) as { name?: string }).name ?? '').trim();
    if (name === '') throw badRequest('The label name is required.');
    const next = pr.labels.some((l) => l.toLowerCase() === name.toLowerCase()) ? pr : c.db.pull_requests.put(String(pr.id), { ...pr, labels: [...pr.labels, name] });
    return jsonResponse(200, renderPr(c, next).labels.find((l) => l.name.toLowerCase() === name.toLowerCase()));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/labels/:label'>('git.deletePullRequestLabels', ado('DELETE', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/labels/:label'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    const key = decodeURIComponent(call.params.label).toLowerCase();
    const rendered = renderPr(c, pr).labels;
    const hit = rendered.find((l) => l.id === key || l.name.toLowerCase() === key);
    if (!hit) throw gitError(404, 'WebApiTagNotFoundException', `The label ${decodeURIComponent(call.params.label)} was not found on pull request ${pr.id}.`);
    c.db.pull_requests.put(String(pr.id), { ...pr, labels: pr.labels.filter((l) => l !== hit.name) });
    return { status: 204, headers: [], body: new Uint8Array(0) };
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/reviewers'>('git.createPullRequestReviewers', ado('POST', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/reviewers'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    const body = call.req.json();
    if (!Array.isArray(body)) throw badRequest('The reviewers list is required.');
    const reviewers = [...pr.reviewers];
    for (const rv of body as { id?: string; isRequired?: boolean }[]) {
      const u = rv.id ? c.db.users.get(rv.id.toLowerCase()) : undefined;
      if (!u) throw adoError(400, 'IdentityNotFoundException', `The identity ${rv.id} could not be found.`, { namespace: 'Microsoft.VisualStudio.Services.Identity' });
      if (!reviewers.some((x) => x.id === u.id)) reviewers.push({ id: u.id, vote: 0, isRequired: rv.isRequired === true });
    }
    const next = c.db.pull_requests.put(String(pr.id), { ...pr, reviewers });
    return list(next.reviewers.filter((x) => (body as { id?: string }[]).some((b) => b.id?.toLowerCase() === x.id)).map((x) => renderReviewer(c, x, next)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/reviewers/:reviewerId'>('git.getPullRequestReviewer', ado('GET', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/reviewers/:reviewerId'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    const rv = pr.reviewers.find((x) => x.id === call.params.reviewerId.toLowerCase());
    if (!rv) throw gitError(404, 'GitPullRequestReviewerNotFoundException', `TF401182: The reviewer ${call.params.reviewerId} was not found on pull request ${pr.id}.`);
    return jsonResponse(200, renderReviewer(c, rv, pr));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/reviewers/:reviewerId'>('git.createPullRequestReviewer', ado('PUT', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/reviewers/:reviewerId'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    const u = c.db.users.get(call.params.reviewerId.toLowerCase());
    if (!u) throw adoError(400, 'IdentityNotFoundException', `The identity ${call.params.reviewerId} could not be found.`, { namespace: 'Microsoft.VisualStudio.Services.Identity' });
    const body = (call.req.json() ?? {}) as { vote?: number; isRequired?: boolean };
    const vote = Number(body.vote ?? 0);
    if (![-10, -5, 0, 5, 10].includes(vote)) throw badRequest(`The vote ${body.vote} is not valid; use 10, 5, 0, -5 or -10.`);
    if (pr.status !== 'active') throw gitError(409, 'GitPullRequestNotEditableException', `TF401181: The pull request ${pr.id} is ${pr.status}; reviewers cannot vote.`);
    const existing = pr.reviewers.find((x) => x.id === u.id);
    const reviewer = { id: u.id, vote, isRequired: body.isRequired ?? existing?.isRequired ?? false };
    const next = c.db.pull_requests.put(String(pr.id), { ...pr, reviewers: existing ? pr.reviewers.map((x) => (x.id === u.id ? reviewer : x)) : [...pr.reviewers, reviewer] });
    return jsonResponse(200, renderReviewer(c, reviewer, next));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/reviewers/:reviewerId'>('git.deletePullRequestReviewer', ado('DELETE', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/reviewers/:reviewerId'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    if (!pr.reviewers.some((x) => x.id === call.params.reviewerId.toLowerCase())) throw gitError(404, 'GitPullRequestReviewerNotFoundException', `TF401182: The reviewer ${call.params.reviewerId} was not found on pull request ${pr.id}.`);
    c.db.pull_requests.put(String(pr.id), { ...pr, reviewers: pr.reviewers.filter((x) => x.id !== call.params.reviewerId.toLowerCase()) });
    return { status: 204, headers: [], body: new Uint8Array(0) };
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/threads'>('git.getThreads', ado('GET', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/threads'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    return list(c.db.threads.values().filter((t) => t.pr === pr.id).sort((a, b) => a.id - b.id).map((t) => renderThread(c, t)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/threads'>('git.createThread', ado('POST', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/threads'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    const body = (call.req.json() ?? {}) as { comments?: { content?: string; parentCommentId?: number }[]; status?: unknown; threadContext?: { filePath?: string; rightFileStart?: { line?: number } } | null };
    const first = body.comments?.[0];
    if (!first || typeof first.content !== 'string' || first.content.trim() === '') throw badRequest('A thread needs at least one comment with content.');
    const now = iso(c.ctx.nowMs);
    const threadId = c.db.threads.values().filter((t) => t.pr === pr.id).reduce((m, t) => Math.max(m, t.id), 0) + 1;
    const t = c.db.threads.put(`${pr.id}:${threadId}`, {
      pr: pr.id, id: threadId, status: body.status === undefined ? 'active' : enumName(THREAD_STATUS, body.status, 'thread status'),
      filePath: body.threadContext?.filePath ?? null, line: body.threadContext?.rightFileStart?.line ?? null, publishedDate: now, lastUpdatedDate: now,
      comments: body.comments!.map((x, i) => ({ id: i + 1, parentCommentId: x.parentCommentId ?? 0, author: meOf(c).uniqueName, content: String(x.content ?? ''), publishedDate: now, lastUpdatedDate: now, commentType: 'text' })),
    });
    return jsonResponse(200, renderThread(c, t));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/threads/:threadId'>('git.updateThread', ado('PATCH', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/threads/:threadId'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    const t = threadOf(c, pr, call.params.threadId);
    const body = (call.req.json() ?? {}) as { status?: unknown };
    const next = c.db.threads.put(`${pr.id}:${t.id}`, { ...t, status: body.status === undefined ? t.status : enumName(THREAD_STATUS, body.status, 'thread status'), lastUpdatedDate: iso(c.ctx.nowMs) });
    return jsonResponse(200, renderThread(c, next));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/threads/:threadId/comments'>('git.getComments', ado('GET', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/threads/:threadId/comments'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    const t = threadOf(c, pr, call.params.threadId);
    return list(t.comments.map((x) => renderComment(c, t, x)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/threads/:threadId/comments'>('git.createComment', ado('POST', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/threads/:threadId/comments'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    const t = threadOf(c, pr, call.params.threadId);
    const body = (call.req.json() ?? {}) as { content?: string; parentCommentId?: number };
    if (typeof body.content !== 'string' || body.content.trim() === '') throw badRequest('The comment content is required.');
    const now = iso(c.ctx.nowMs);
    const comment = { id: t.comments.length + 1, parentCommentId: body.parentCommentId ?? 1, author: meOf(c).uniqueName, content: body.content, publishedDate: now, lastUpdatedDate: now, commentType: 'text' };
    const next = c.db.threads.put(`${pr.id}:${t.id}`, { ...t, comments: [...t.comments, comment], lastUpdatedDate: now });
    return jsonResponse(200, renderComment(c, next, comment));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/iterations'>('git.getPullRequestIterations', ado('GET', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/iterations'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    const r = renderPr(c, pr);
    return list([{ id: 1, description: pr.title, author: identityRef(c, pr.createdBy), createdDate: pr.creationDate, updatedDate: pr.creationDate,
      sourceRefCommit: { commitId: r.lastMergeSourceCommit.commitId }, targetRefCommit: { commitId: r.lastMergeTargetCommit.commitId }, commonRefCommit: { commitId: r.lastMergeTargetCommit.commitId },
      hasMoreCommits: false, reason: 'create' }]);
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequests/:pullRequestId/iterations/:iterationId/changes'>('git.getPullRequestIterationChanges', ado('GET', '/git/repositories/:repositoryId/pullRequests/:pullRequestId/iterations/:iterationId/changes'), (call, c) => {
    const pr = prOf(c, repoOf(c, project(c, call.params.project), call.params.repositoryId), call.params.pullRequestId);
    if (call.params.iterationId !== '1') throw gitError(404, 'GitPullRequestIterationNotFoundException', `TF401183: The pull request iteration ${call.params.iterationId} was not found.`);
    return jsonResponse(200, { changeEntries: pr.changes.map((ch, i) => ({ changeTrackingId: i + 1, changeId: i + 1, item: { path: ch.path.startsWith('/') ? ch.path : `/${ch.path}` }, changeType: ch.changeType })) });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/git/repositories/:repositoryId/pullRequestQuery'>('git.getPullRequestQuery', ado('POST', '/git/repositories/:repositoryId/pullRequestQuery'), (call, c) => {
    const r = repoOf(c, project(c, call.params.project), call.params.repositoryId);
    const body = (call.req.json() ?? {}) as { queries?: { type?: unknown; items?: string[] }[] };
    const results = (body.queries ?? []).map((query) => {
      const out: Record<string, unknown[]> = {};
      for (const commit of query.items ?? []) {
        out[commit] = c.db.pull_requests.values().filter((pr) => pr.repo === r.id && (headOf(c, r, pr.source)?.objectId === commit)).map((pr) => renderPr(c, pr));
      }
      return out;
    });
    return jsonResponse(200, { queries: body.queries ?? [], results });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/alert/repositories/:repository/alerts'>('Alert.getAlerts', ado('GET', '/alert/repositories/:repository/alerts'), (call, c) => {
    const r = repoOf(c, project(c, call.params.project), call.params.repository);
    const type = q(call.req, 'criteria.alertType')?.toLowerCase();
    const states = q(call.req, 'criteria.states')?.toLowerCase().split(',');
    const severities = q(call.req, 'criteria.severities')?.toLowerCase().split(',');
    const alerts = c.db.alerts.values().filter((a) => a.repo === r.id && (type === undefined || a.alertType === type) && (states === undefined || states.includes(a.state)) && (severities === undefined || severities.includes(a.severity)));
    return list(alerts.map((a) => renderAlert(c, a)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/alert/repositories/:repository/alerts/:alertId'>('Alert.getAlert', ado('GET', '/alert/repositories/:repository/alerts/:alertId'), (call, c) => {
    const r = repoOf(c, project(c, call.params.project), call.params.repository);
    const a = c.db.alerts.get(`${r.id}:${Number(call.params.alertId)}`);
    if (!a) throw adoError(404, 'AlertNotFoundException', `Alert ${call.params.alertId} was not found in repository ${r.name}.`, { namespace: 'Microsoft.VisualStudio.Services.AdvancedSecurity' });
    return jsonResponse(200, renderAlert(c, a));
  }),
];

function renderAlert(c: AdoCtx, a: { id: number; repo: string; alertType: string; severity: string; state: string; title: string; ruleName: string; filePath: string; line: number; firstSeenDate: string }) {
  return {
    alertId: a.id, severity: a.severity, title: a.title, alertType: a.alertType, state: a.state, firstSeenDate: a.firstSeenDate, lastSeenDate: a.firstSeenDate,
    tools: [{ name: a.alertType === 'secret' ? 'AdvancedSecurity-Secret-Scanning' : a.alertType === 'code' ? 'CodeQL' : 'AdvancedSecurity-Dependency-Scanning', rules: [{ opaqueId: a.ruleName, friendlyName: a.ruleName }] }],
    physicalLocations: [{ filePath: a.filePath, region: { lineStart: a.line, lineEnd: a.line, columnStart: 1, columnEnd: 1 } }],
    repositoryUrl: `${c.base}/_git/${c.db.repositories.get(a.repo)!.name}`,
  };
}
