import { emptyResponse, jsonResponse, type ServiceResponse } from '../core/http.js';
import { numericId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { accessLevel, groupOf, me, projectsUnder, userByName, visibleProject, writableProject, type GlCtx } from './context.js';
import { commitOn, history } from './git.js';
import { discussionIdOf, glError, glParamError, iso, key, notFound, paged, shaOf, type MergeRequestDoc, type ProjectDoc } from './model.js';
import { headPipeline, mrChanges, mrPipelines, mrShas, mrStatus } from './mr-state.js';
import { positionOf, systemNote } from './notes.js';
import { argsOf, bool, ids, list, need, num, str, V4 } from './params.js';
import { renderCommit, renderMergeRequest, renderNote, renderPipelineBrief, renderUser } from './render.js';

/**
 * Merge requests: lists, create and edit, their diffs (`/changes`, `/diffs`, versions), commits,
 * pipelines, approvals, conflicts, draft notes, and merging, which GitLab refuses (405) while
 * `detailed_merge_status` is not `mergeable`, e.g. a project that needs a passed pipeline.
 */

const json = (value: unknown, status = 200): ServiceResponse => jsonResponse(status, value);
const M = `${V4}/projects/:id/merge_requests/:iid` as const;

export function mrOf(c: GlCtx, project: ProjectDoc, iid: string | number): MergeRequestDoc {
  const mr = c.db.merge_requests.get(key(project.id, Number(iid)));
  if (!mr) throw notFound('Merge Request');
  return mr;
}

const render = (c: GlCtx, mr: MergeRequestDoc, full = false) => renderMergeRequest(c, mr, mrStatus(c, c.db.projects.get(mr.project_id)!, mr), full);

function filterMrs(c: GlCtx, mrs: MergeRequestDoc[], q: URLSearchParams): MergeRequestDoc[] {
  const state = q.get('state') ?? 'all';
  const labels = (q.get('labels') ?? '').split(',').filter(Boolean);
  const search = q.get('search')?.toLowerCase();
  const author = q.get('author_username');
  const reviewer = q.get('reviewer_username');
  const assignee = q.get('assignee_username');
  const iids = [...q.getAll('iids[]'), ...q.getAll('iids')].map(Number);
  const scope = q.get('scope');
  const out = mrs.filter((m) => (state === 'all' || m.state === state)
    && labels.every((l) => m.labels.includes(l)) && (!search || m.title.toLowerCase().includes(search) || m.description.toLowerCase().includes(search))
    && (!author || c.db.users.get(m.author_id)?.username === author) && (!reviewer || m.reviewer_ids.some((id) => c.db.users.get(id)?.username === reviewer))
    && (!assignee || m.assignee_ids.some((id) => c.db.users.get(id)?.username === assignee)) && (iids.length === 0 || iids.includes(m.iid))
    && (!q.get('source_branch') || m.source_branch === q.get('source_branch')) && (!q.get('target_branch') || m.target_branch === q.get('target_branch'))
    && (scope !== 'created_by_me' || m.author_id === c.user?.id) && (scope !== 'assigned_to_me' || m.assignee_ids.includes(c.user?.id ?? -1))
    && (q.get('draft') === null || String(m.draft) === q.get('draft')) && (q.get('wip') === null || (q.get('wip') === 'yes') === m.draft)
    && (!q.get('created_after') || m.created_at >= q.get('created_after')!) && (!q.get('updated_after') || m.updated_at >= q.get('updated_after')!));
  const orderBy = q.get('order_by') ?? 'created_at';
  const desc = (q.get('sort') ?? 'desc') === 'desc';
  const field = (m: MergeRequestDoc) => (orderBy === 'updated_at' ? m.updated_at : orderBy === 'title' ? m.title : orderBy === 'merged_at' ? m.merged_at ?? '' : m.created_at);
  return out.sort((a, b) => {
    const x = field(a);
    const y = field(b);
    const cmp = x < y ? -1 : x > y ? 1 : a.id - b.id;
    return desc ? -cmp : cmp;
  });
}

function userIds(c: GlCtx, args: Record<string, unknown>, idsName: string, idName: string | null): number[] | undefined {
  const got = ids(args, idsName) ?? (idName && num(args, idName) !== undefined ? [num(args, idName)!].filter((x) => x > 0) : undefined);
  return got?.filter((id) => c.db.users.has(id));
}

function approvalsBody(c: GlCtx, project: ProjectDoc, mr: MergeRequestDoc): Record<string, unknown> {
  const status = mrStatus(c, project, mr);
  return {
    id: mr.id, iid: mr.iid, project_id: project.id, title: mr.title, description: mr.description, state: mr.state, created_at: mr.created_at,
    updated_at: mr.updated_at, merge_status: status.detailed === 'mergeable' ? 'can_be_merged' : 'cannot_be_merged',
    approved: mr.approved_by_ids.length >= mr.approvals_required, approvals_required: mr.approvals_required,
    approvals_left: Math.max(0, mr.approvals_required - mr.approved_by_ids.length),
    require_password_to_approve: false, approved_by: mr.approved_by_ids.map((id) => ({ user: renderUser(c.db.users.get(id)) })),
    suggested_approvers: [], approvers: [], approver_groups: [], user_has_approved: mr.approved_by_ids.includes(c.user?.id ?? -1),
    user_can_approve: !mr.approved_by_ids.includes(c.user?.id ?? -1) && mr.author_id !== c.user?.id, approval_rules_left: [], has_approval_rules: mr.approvals_required > 0,
    merge_request_approvers_available: true, multiple_approval_rules_available: true, invalid_approvers_rules: [],
  };
}

function renderVersion(c: GlCtx, project: ProjectDoc, mr: MergeRequestDoc, v: MergeRequestDoc['versions'][number], withDiffs: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: v.id, head_commit_sha: v.head_sha, base_commit_sha: v.base_sha, start_commit_sha: v.base_sha, created_at: v.created_at,
    merge_request_id: mr.id, state: 'collected', real_size: String(mrChanges(c, project, mr).length), patch_id_sha: shaOf('patch', v.head_sha),
  };
  if (withDiffs) {
    const head = c.db.commits.get(key(project.id, v.head_sha));
    const baseIds = new Set(history(c, project.id, v.base_sha).map((x) => x.id));
    out.commits = head ? history(c, project.id, head.id).filter((x) => !baseIds.has(x.id)).map((x) => renderCommit(c, x)) : [];
    out.diffs = mrChanges(c, project, mr);
  }
  return out;
}

/** The versions a merge request has had: one per head its source branch has pointed at. */
function versionsOf(c: GlCtx, project: ProjectDoc, mr: MergeRequestDoc): MergeRequestDoc['versions'] {
  const shas = mrShas(c, project, mr);
  const versions = [...mr.versions];
  if (shas.head && !versions.some((v) => v.head_sha === shas.head)) versions.push({ id: mr.id * 10 + versions.length + 1, head_sha: shas.head, base_sha: shas.base ?? shas.head, created_at: mr.updated_at });
  return versions.sort((a, b) => b.id - a.id);
}

export const mergeRequestOperations: Operation<GlCtx>[] = [
  operation<GlCtx, '/api/v4/merge_requests'>('mergeRequests.listAll', rest('GET', `${V4}/merge_requests`), (call, c) => {
    const q = new URLSearchParams(call.req.query);
    if (!q.get('scope')) q.set('scope', 'created_by_me');
    const visible = c.db.merge_requests.filter((m) => accessLevel(c, c.db.projects.get(m.project_id)!) > 0 || c.db.projects.get(m.project_id)!.visibility !== 'private');
    return paged(filterMrs(c, visible, q.get('scope') === 'all' ? call.req.query : q), call.req, (m) => render(c, m));
  }),
  operation<GlCtx, '/api/v4/groups/:id/merge_requests'>('mergeRequests.listGroup', rest('GET', `${V4}/groups/:id/merge_requests`), (call, c) => {
    const group = groupOf(c, call.params.id);
    const projects = new Set(projectsUnder(c, group).map((p) => p.id));
    return paged(filterMrs(c, c.db.merge_requests.filter((m) => projects.has(m.project_id)), call.req.query), call.req, (m) => render(c, m));
  }),
  operation<GlCtx, '/api/v4/projects/:id/merge_requests'>('mergeRequests.list', rest('GET', `${V4}/projects/:id/merge_requests`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return paged(filterMrs(c, c.db.merge_requests.filter((m) => m.project_id === project.id), call.req.query), call.req, (m) => render(c, m));
  }),
  operation<GlCtx, typeof M>('mergeRequests.get', rest('GET', M), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return json(render(c, mrOf(c, project, call.params.iid), true));
  }),
  operation<GlCtx, '/api/v4/projects/:id/merge_requests'>('mergeRequests.create', rest('POST', `${V4}/projects/:id/merge_requests`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const args = argsOf(call);
    const source = need(args, 'source_branch');
    const target = need(args, 'target_branch');
    const title = need(args, 'title');
    if (!c.db.branches.has(key(project.id, source))) throw glError(400, { source_branch: ['is invalid'] });
    if (!c.db.branches.has(key(project.id, target))) throw glError(400, { target_branch: ['is invalid'] });
    if (source === target) throw glError(400, { base: ['You must select different branches'] });
    const open = c.db.merge_requests.find((m) => m.project_id === project.id && m.state === 'opened' && m.source_branch === source && m.target_branch === target);
    if (open) throw glError(409, [`Another open merge request already exists for this source branch: !${open.iid}`]);
    const now = iso(c.ctx.nowMs);
    const iid = Math.max(0, ...c.db.merge_requests.filter((m) => m.project_id === project.id).map((m) => m.iid)) + 1;
    const draft = /^(\[draft\]|draft:|\(draft\))/i.test(title);
    const mr = c.db.merge_requests.put(key(project.id, iid), {
      id: numericId(c.ctx, 'merge_requests'), iid, project_id: project.id, title, description: str(args, 'description') ?? '', state: 'opened',
      source_branch: source, target_branch: target, source_project_id: project.id, author_id: me(c).id,
      assignee_ids: userIds(c, args, 'assignee_ids', 'assignee_id') ?? [], reviewer_ids: userIds(c, args, 'reviewer_ids', null) ?? [],
      labels: list(args, 'labels') ?? [], milestone_id: num(args, 'milestone_id') ?? null, draft, approvals_required: num(args, 'approvals_before_merge') ?? 0,
      approved_by_ids: [], created_at: now, updated_at: now, merged_at: null, merged_by_id: null, closed_at: null, closed_by_id: null,
      merge_commit_sha: null, squash_commit_sha: null, head_sha: null, base_sha: null, squash: bool(args, 'squash') ?? false,
      should_remove_source_branch: bool(args, 'remove_source_branch') ?? null, versions: [],
    });
    return json(render(c, mr, true), 201);
  }),
  operation<GlCtx, typeof M>('mergeRequests.update', rest('PUT', M), (call, c) => {
    const project = writableProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    const args = argsOf(call);
    const patch: Partial<MergeRequestDoc> = {};
    for (const field of ['title', 'description', 'target_branch'] as const) if (str(args, field) !== undefined) patch[field] = str(args, field)!;
    if (patch.target_branch !== undefined && !c.db.branches.has(key(project.id, patch.target_branch))) throw glError(400, { target_branch: ['is invalid'] });
    if (patch.title !== undefined) patch.draft = /^(\[draft\]|draft:|\(draft\))/i.test(patch.title);
    if (bool(args, 'draft') !== undefined) patch.draft = bool(args, 'draft')!;
    const assignees = userIds(c, args, 'assignee_ids', 'assignee_id');
    if (assignees) patch.assignee_ids = assignees;
    const reviewers = userIds(c, args, 'reviewer_ids', null);
    if (reviewers) patch.reviewer_ids = reviewers;
    if (list(args, 'labels') || list(args, 'add_labels') || list(args, 'remove_labels')) {
      patch.labels = [...new Set([...(list(args, 'labels') ?? mr.labels), ...(list(args, 'add_labels') ?? [])])].filter((l) => !(list(args, 'remove_labels') ?? []).includes(l));
    }
    if (num(args, 'milestone_id') !== undefined) patch.milestone_id = num(args, 'milestone_id') || null;
    if (bool(args, 'squash') !== undefined) patch.squash = bool(args, 'squash')!;
    if (bool(args, 'remove_source_branch') !== undefined) patch.should_remove_source_branch = bool(args, 'remove_source_branch')!;
    const event = str(args, 'state_event');
    if (event === 'close' && mr.state === 'opened') Object.assign(patch, { state: 'closed', closed_at: iso(c.ctx.nowMs), closed_by_id: me(c).id });
    if (event === 'reopen' && mr.state === 'closed') Object.assign(patch, { state: 'opened', closed_at: null, closed_by_id: null });
    if (Object.keys(patch).length === 0 && event === undefined) throw glParamError('assignee_id, assignee_ids, reviewer_ids, description, labels, add_labels, remove_labels, milestone_id, remove_source_branch, state_event, target_branch, title, discussion_locked, squash are missing, at least one parameter must be provided');
    if (mr.state === 'merged' && (patch.target_branch !== undefined || event !== undefined)) throw glError(405, '405 Method Not Allowed');
    const updated = c.db.merge_requests.update(key(project.id, mr.iid), { ...patch, updated_at: iso(c.ctx.nowMs) })!;
    if (patch.state === 'closed') systemNote(c, project, 'MergeRequest', mr.id, mr.iid, 'closed');
    return json(render(c, updated, true));
  }),
  operation<GlCtx, typeof M>('mergeRequests.delete', rest('DELETE', M), (call, c) => {
    const project = writableProject(c, call.params.id, 50);
    const mr = mrOf(c, project, call.params.iid);
    c.db.merge_requests.delete(key(project.id, mr.iid));
    return emptyResponse(204);
  }),
  operation<GlCtx, `${typeof M}/merge`>('mergeRequests.merge', rest('PUT', `${M}/merge`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    const args = argsOf(call);
    const status = mrStatus(c, project, mr);
    if (mr.state !== 'opened' || ['draft_status', 'not_approved', 'ci_must_pass', 'ci_still_running', 'discussions_not_resolved'].includes(status.detailed)) {
      if (bool(args, 'merge_when_pipeline_succeeds') && status.detailed === 'ci_still_running') {
        return json(render(c, mr, true));
      }
      throw glError(405, '405 Method Not Allowed');
    }
    if (status.detailed === 'conflict' || status.detailed === 'broken_status') throw glError(422, 'Branch cannot be merged');
    const sha = str(args, 'sha');
    if (sha !== undefined && sha !== status.sha) throw glError(409, 'SHA does not match HEAD of source branch: ' + status.sha);
    const shas = mrShas(c, project, mr);
    const source = c.db.commits.get(key(project.id, shas.head!))!;
    const target = c.db.branches.get(key(project.id, mr.target_branch))!;
    const squash = bool(args, 'squash') ?? mr.squash;
    const message = str(args, 'merge_commit_message') ?? `Merge branch '${mr.source_branch}' into '${mr.target_branch}'\n\n${mr.title}\n\nSee merge request ${project.namespace_full_path}/${project.path}!${mr.iid}`;
    // The target gets the merge request's changes (no conflicts: checked above).
    const baseTree = shas.base ? c.db.commits.get(key(project.id, shas.base))?.tree ?? {} : {};
    const merge = commitOn(c, project, mr.target_branch, message, (tree) => {
      for (const path of new Set([...Object.keys(baseTree), ...Object.keys(source.tree)])) {
        if (baseTree[path] === source.tree[path]) continue;
        if (source.tree[path] === undefined) delete tree[path];
        else tree[path] = source.tree[path]!;
      }
    }, { parents: squash ? [target.commit] : [target.commit, source.id] });
    const removeSource = bool(args, 'should_remove_source_branch') ?? mr.should_remove_source_branch ?? false;
    if (removeSource) c.db.branches.delete(key(project.id, mr.source_branch));
    const now = iso(c.ctx.nowMs);
    const merged = c.db.merge_requests.update(key(project.id, mr.iid), {
      state: 'merged', merged_at: now, merged_by_id: me(c).id, merge_commit_sha: merge.id, squash_commit_sha: squash ? merge.id : null,
      head_sha: source.id, base_sha: shas.base, updated_at: now, squash,
    })!;
    return json(render(c, merged, true));
  }),
  operation<GlCtx, `${typeof M}/approve`>('mergeRequests.approve', rest('POST', `${M}/approve`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    const user = me(c);
    if (mr.approved_by_ids.includes(user.id)) throw glError(401, '401 Unauthorized');
    const sha = str(argsOf(call), 'sha');
    if (sha !== undefined && sha !== mrShas(c, project, mr).head) throw glError(409, 'SHA does not match HEAD of source branch');
    const updated = c.db.merge_requests.update(key(project.id, mr.iid), { approved_by_ids: [...mr.approved_by_ids, user.id], updated_at: iso(c.ctx.nowMs) })!;
    systemNote(c, project, 'MergeRequest', mr.id, mr.iid, 'approved this merge request');
    return json(approvalsBody(c, project, updated), 201);
  }),
  operation<GlCtx, `${typeof M}/unapprove`>('mergeRequests.unapprove', rest('POST', `${M}/unapprove`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    const user = me(c);
    if (!mr.approved_by_ids.includes(user.id)) throw notFound('Not');
    const updated = c.db.merge_requests.update(key(project.id, mr.iid), { approved_by_ids: mr.approved_by_ids.filter((id) => id !== user.id), updated_at: iso(c.ctx.nowMs) })!;
    systemNote(c, project, 'MergeRequest', mr.id, mr.iid, 'unapproved this merge request');
    return json(approvalsBody(c, project, updated), 201);
  }),
  operation<GlCtx, `${typeof M}/approvals`>('mergeRequests.approvals', rest('GET', `${M}/approvals`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return json(approvalsBody(c, project, mrOf(c, project, call.params.iid)));
  }),
  operation<GlCtx, `${typeof M}/approval_state`>('mergeRequests.approvalState', rest('GET', `${M}/approval_state`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    const approvedBy = mr.approved_by_ids.map((id) => renderUser(c.db.users.get(id)));
    return json({
      approval_rules_overwritten: false,
      rules: mr.approvals_required === 0 ? [] : [{
        id: mr.id, name: 'All Members', rule_type: 'any_approver', eligible_approvers: [], approvals_required: mr.approvals_required, users: [], groups: [],
        contains_hidden_groups: false, approved_by: approvedBy, source_rule: null, approved: mr.approved_by_ids.length >= mr.approvals_required, overridden: false,
      }],
    });
  }),
  operation<GlCtx, `${typeof M}/changes`>('mergeRequests.changes', rest('GET', `${M}/changes`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    const changes = mrChanges(c, project, mr);
    // Object.assign on the fresh render, not `{ ...render(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
    return json(Object.assign(render(c, mr, true), { changes_count: String(changes.length), changes, overflow: false }));
  }),
  operation<GlCtx, `${typeof M}/diffs`>('mergeRequests.diffs', rest('GET', `${M}/diffs`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return paged(mrChanges(c, project, mrOf(c, project, call.params.iid)), call.req);
  }),
  operation<GlCtx, `${typeof M}/raw_diffs`>('mergeRequests.rawDiffs', rest('GET', `${M}/raw_diffs`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const text = mrChanges(c, project, mrOf(c, project, call.params.iid)).map((d) => `diff --git a/${d.old_path} b/${d.new_path}\n--- a/${d.old_path}\n+++ b/${d.new_path}\n${d.diff}`).join('');
    return { status: 200, headers: [['Content-Type', 'text/plain; charset=utf-8']], body: new TextEncoder().encode(text) };
  }),
  operation<GlCtx, `${typeof M}/commits`>('mergeRequests.commits', rest('GET', `${M}/commits`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const shas = mrShas(c, project, mrOf(c, project, call.params.iid));
    if (!shas.head) return paged([], call.req);
    const baseIds = new Set(shas.base ? history(c, project.id, shas.base).map((x) => x.id) : []);
    return paged(history(c, project.id, shas.head).filter((x) => !baseIds.has(x.id)), call.req, (x) => renderCommit(c, x));
  }),
  operation<GlCtx, `${typeof M}/pipelines`>('mergeRequests.pipelines', rest('GET', `${M}/pipelines`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return paged(mrPipelines(c, project, mrOf(c, project, call.params.iid)), call.req, (p) => renderPipelineBrief(c, p));
  }),
  operation<GlCtx, `${typeof M}/pipelines`>('mergeRequests.createPipeline', rest('POST', `${M}/pipelines`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    const previous = headPipeline(c, project, mr);
    const shas = mrShas(c, project, mr);
    const id = numericId(c.ctx, 'pipelines');
    const now = iso(c.ctx.nowMs);
    const pipeline = c.db.pipelines.put(id, {
      id, iid: Math.max(0, ...c.db.pipelines.filter((p) => p.project_id === project.id).map((p) => p.iid)) + 1, project_id: project.id,
      sha: shas.head ?? '', ref: `refs/merge-requests/${mr.iid}/head`, status: 'created', source: 'merge_request_event', user_id: me(c).id,
      created_at: now, updated_at: now, started_at: null, finished_at: null, duration: null, variables: previous?.variables ?? [], name: null,
    });
    return json(renderPipelineBrief(c, pipeline), 201);
  }),
  operation<GlCtx, `${typeof M}/versions`>('mergeRequests.versions', rest('GET', `${M}/versions`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    return paged(versionsOf(c, project, mr), call.req, (v) => renderVersion(c, project, mr, v, false));
  }),
  operation<GlCtx, `${typeof M}/versions/:version`>('mergeRequests.version', rest('GET', `${M}/versions/:version`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    const version = versionsOf(c, project, mr).find((v) => v.id === Number(call.params.version));
    if (!version) throw notFound('Merge Request Diff');
    return json(renderVersion(c, project, mr, version, true));
  }),
  operation<GlCtx, `${typeof M}/conflicts`>('mergeRequests.conflicts', rest('GET', `${M}/conflicts`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    if (mrStatus(c, project, mr).detailed !== 'conflict') throw glError(404, '404 Conflicts Not Found');
    const shas = mrShas(c, project, mr);
    const ours = c.db.commits.get(key(project.id, shas.head!))!.tree;
    const theirs = c.db.commits.get(key(project.id, shas.start!))!.tree;
    const files = mrChanges(c, project, mr).filter((d) => theirs[d.new_path] !== ours[d.new_path]).map((d) => ({
      old_path: d.old_path, new_path: d.new_path, blob_icon: 'file-text-o', blob_path: `/-/blob/${shas.head}/${d.new_path}`, content_path: `/-/merge_requests/${mr.iid}/conflict_for_path?new_path=${d.new_path}`,
      type: 'text', sections: [{ conflict: true, id: shaOf('section', d.new_path), lines: [{ type: 'old', old_line: 1, new_line: null, text: theirs[d.new_path] ?? '' }, { type: 'new', old_line: null, new_line: 1, text: ours[d.new_path] ?? '' }] }],
    }));
    return json({ target_branch: mr.target_branch, source_branch: mr.source_branch, commit_sha: shas.head, commit_message: `Merge branch '${mr.target_branch}' into '${mr.source_branch}'`, files });
  }),
  operation<GlCtx, `${typeof M}/participants`>('mergeRequests.participants', rest('GET', `${M}/participants`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    const ids = [...new Set([mr.author_id, ...mr.assignee_ids, ...c.db.notes.filter((n) => n.noteable_type === 'MergeRequest' && n.noteable_id === mr.id).map((n) => n.author_id)])];
    return json(ids.map((id) => renderUser(c.db.users.get(id))));
  }),

  // Draft notes: a review's comments, visible to their author until published.
  operation<GlCtx, `${typeof M}/draft_notes`>('draftNotes.list', rest('GET', `${M}/draft_notes`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    return paged(c.db.draft_notes.filter((d) => d.project_id === project.id && d.merge_request_iid === mr.iid && d.author_id === me(c).id), call.req, (d) => renderDraft(c, d));
  }),
  operation<GlCtx, `${typeof M}/draft_notes/bulk_publish`>('draftNotes.bulkPublish', rest('POST', `${M}/draft_notes/bulk_publish`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    for (const d of c.db.draft_notes.filter((x) => x.project_id === project.id && x.merge_request_iid === mr.iid && x.author_id === me(c).id).sort((a, b) => a.id - b.id)) publish(c, project, mr, d);
    return emptyResponse(204);
  }),
  operation<GlCtx, `${typeof M}/draft_notes/:draft`>('draftNotes.get', rest('GET', `${M}/draft_notes/:draft`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return json(renderDraft(c, draftOf(c, project, mrOf(c, project, call.params.iid), call.params.draft)));
  }),
  operation<GlCtx, `${typeof M}/draft_notes`>('draftNotes.create', rest('POST', `${M}/draft_notes`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    const args = argsOf(call);
    const note = need(args, 'note');
    const position = positionOf(c, project, mr.iid, args.position);
    const id = numericId(c.ctx, 'draft_notes');
    const draft = c.db.draft_notes.put(id, {
      id, project_id: project.id, merge_request_iid: mr.iid, author_id: me(c).id, note, discussion_id: str(args, 'in_reply_to_discussion_id') ?? null,
      resolve_discussion: bool(args, 'resolve_discussion') ?? false, position,
    });
    return json(renderDraft(c, draft), 201);
  }),
  operation<GlCtx, `${typeof M}/draft_notes/:draft`>('draftNotes.update', rest('PUT', `${M}/draft_notes/:draft`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    const draft = draftOf(c, project, mr, call.params.draft);
    const args = argsOf(call);
    const position = args.position === undefined ? draft.position : positionOf(c, project, mr.iid, args.position);
    return json(renderDraft(c, c.db.draft_notes.update(draft.id, { note: str(args, 'note') ?? draft.note, position })!));
  }),
  operation<GlCtx, `${typeof M}/draft_notes/:draft`>('draftNotes.delete', rest('DELETE', `${M}/draft_notes/:draft`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const draft = draftOf(c, project, mrOf(c, project, call.params.iid), call.params.draft);
    c.db.draft_notes.delete(draft.id);
    return emptyResponse(204);
  }),
  operation<GlCtx, `${typeof M}/draft_notes/:draft/publish`>('draftNotes.publish', rest('PUT', `${M}/draft_notes/:draft/publish`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const mr = mrOf(c, project, call.params.iid);
    publish(c, project, mr, draftOf(c, project, mr, call.params.draft));
    return emptyResponse(204);
  }),
];

function draftOf(c: GlCtx, project: ProjectDoc, mr: MergeRequestDoc, id: string) {
  const draft = c.db.draft_notes.get(Number(id));
  if (!draft || draft.project_id !== project.id || draft.merge_request_iid !== mr.iid || draft.author_id !== me(c).id) throw notFound('Draft Note');
  return draft;
}

function renderDraft(c: GlCtx, d: ReturnType<typeof draftOf>): Record<string, unknown> {
  return {
    id: d.id, author_id: d.author_id, merge_request_id: c.db.merge_requests.get(key(d.project_id, d.merge_request_iid))?.id, resolve_discussion: d.resolve_discussion,
    discussion_id: d.discussion_id, note: d.note, commit_id: d.position?.head_sha ?? null, line_code: null, position: d.position ?? {},
  };
}

function publish(c: GlCtx, project: ProjectDoc, mr: MergeRequestDoc, d: ReturnType<typeof draftOf>): void {
  const id = numericId(c.ctx, 'notes');
  const now = iso(c.ctx.nowMs);
  const thread = d.position !== null || d.discussion_id !== null;
  c.db.notes.put(id, {
    id, project_id: project.id, noteable_type: 'MergeRequest', noteable_id: mr.id, noteable_iid: mr.iid, discussion_id: d.discussion_id ?? discussionIdOf(c.ctx),
    individual: !thread, type: d.position ? 'DiffNote' : thread ? 'DiscussionNote' : null, body: d.note, author_id: d.author_id, system: false, internal: false,
    created_at: now, updated_at: now, resolvable: thread, resolved: false, resolved_by_id: null, position: d.position,
  });
  c.db.draft_notes.delete(d.id);
}


