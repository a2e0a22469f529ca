import { fullPath, type GlCtx } from './context.js';
import type { BranchDoc, CommitDoc, IssueDoc, JobDoc, LabelDoc, MergeRequestDoc, MilestoneDoc, NoteDoc, PipelineDoc, ProjectDoc, UserDoc } from './model.js';
import { key } from './model.js';

/** GitLab's JSON shapes (API::Entities), field order as GitLab sends them. */

const WEB = 'https://gitlab.com';

export function renderUser(user: UserDoc | undefined): Record<string, unknown> | null {
  if (!user) return null;
  return {
    id: user.id, username: user.username, name: user.name, state: user.state, locked: false,
    avatar_url: `https://secure.gravatar.com/avatar/${user.id}?s=80&d=identicon`, web_url: `${WEB}/${user.username}`,
  };
}

export function renderUserFull(user: UserDoc, self = false): Record<string, unknown> {
  // Object.assign on the fresh render, not `{ ...renderUser(), … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
  return Object.assign(renderUser(user)!, {
    created_at: user.created_at, bio: '', location: '', public_email: null, linkedin: '', twitter: '',
    website_url: '', organization: '', job_title: '', pronouns: null, bot: user.bot, work_information: null, followers: 0, following: 0,
    local_time: null, last_activity_on: null,
  }, self ? { last_sign_in_at: user.created_at, confirmed_at: user.created_at, email: user.email, commit_email: user.email, two_factor_enabled: true, is_admin: false } : {});
}

const user = (c: GlCtx, id: number | null) => (id === null ? null : renderUser(c.db.users.get(id)));

export function renderNamespace(c: GlCtx, project: ProjectDoc): Record<string, unknown> {
  if (project.namespace_kind === 'group') {
    const group = c.db.groups.get(project.namespace_id)!;
    return { id: group.id, name: group.name, path: group.path, kind: 'group', full_path: group.full_path, parent_id: group.parent_id, avatar_url: null, web_url: `${WEB}/groups/${group.full_path}` };
  }
  const owner = c.db.users.get(project.namespace_id)!;
  return { id: owner.id, name: owner.name, path: owner.username, kind: 'user', full_path: owner.username, parent_id: null, avatar_url: null, web_url: `${WEB}/${owner.username}` };
}

export function renderProject(c: GlCtx, project: ProjectDoc): Record<string, unknown> {
  const path = fullPath(project);
  const ns = renderNamespace(c, project);
  return {
    id: project.id, description: project.description, name: project.name, name_with_namespace: `${ns.name} / ${project.name}`,
    path: project.path, path_with_namespace: path, created_at: project.created_at, default_branch: project.default_branch,
    tag_list: project.topics, topics: project.topics, ssh_url_to_repo: `git@gitlab.com:${path}.git`, http_url_to_repo: `${WEB}/${path}.git`,
    web_url: `${WEB}/${path}`, readme_url: `${WEB}/${path}/-/blob/${project.default_branch}/README.md`, forks_count: 0, avatar_url: null,
    star_count: 0, last_activity_at: project.last_activity_at, namespace: ns, visibility: project.visibility, archived: project.archived,
    issues_enabled: true, merge_requests_enabled: true, wiki_enabled: true, jobs_enabled: true, snippets_enabled: true,
    empty_repo: c.db.branches.filter((b) => b.project_id === project.id).length === 0,
    creator_id: project.creator_id, ...(project.forked_from === null ? {} : { forked_from_project: { id: project.forked_from } }),
    open_issues_count: c.db.issues.filter((i) => i.project_id === project.id && i.state === 'opened').length,
    only_allow_merge_if_pipeline_succeeds: project.only_allow_merge_if_pipeline_succeeds,
    only_allow_merge_if_all_discussions_are_resolved: false, merge_method: 'merge', squash_option: 'default_off',
    remove_source_branch_after_merge: true, ci_config_path: '', shared_runners_enabled: true,
    _links: { self: `${WEB}/api/v4/projects/${project.id}`, issues: `${WEB}/api/v4/projects/${project.id}/issues`, merge_requests: `${WEB}/api/v4/projects/${project.id}/merge_requests`, repo_branches: `${WEB}/api/v4/projects/${project.id}/repository/branches`, labels: `${WEB}/api/v4/projects/${project.id}/labels`, events: `${WEB}/api/v4/projects/${project.id}/events`, members: `${WEB}/api/v4/projects/${project.id}/members` },
  };
}

function milestoneBrief(c: GlCtx, id: number | null): Record<string, unknown> | null {
  if (id === null) return null;
  const m = c.db.milestones.get(id);
  return m ? renderMilestone(m) : null;
}

export function renderMilestone(m: MilestoneDoc): Record<string, unknown> {
  return {
    id: m.id, iid: m.iid, ...(m.project_id !== null ? { project_id: m.project_id } : { group_id: m.group_id }), title: m.title,
    description: m.description, state: m.state, created_at: m.created_at, updated_at: m.updated_at, due_date: m.due_date,
    start_date: m.start_date, expired: false, web_url: `${WEB}/${m.project_id ?? m.group_id}/-/milestones/${m.iid}`,
  };
}

export function renderIssue(c: GlCtx, issue: IssueDoc): Record<string, unknown> {
  const project = c.db.projects.get(issue.project_id)!;
  const assignees = issue.assignee_ids.map((id) => renderUser(c.db.users.get(id)));
  const notes = c.db.notes.filter((n) => n.noteable_type === 'Issue' && n.noteable_id === issue.id && !n.system).length;
  return {
    id: issue.id, iid: issue.iid, project_id: issue.project_id, title: issue.title, description: issue.description, state: issue.state,
    created_at: issue.created_at, updated_at: issue.updated_at, closed_at: issue.closed_at, closed_by: user(c, issue.closed_by_id),
    labels: issue.labels, milestone: milestoneBrief(c, issue.milestone_id), assignees, author: user(c, issue.author_id), type: issue.issue_type.toUpperCase(),
    assignee: assignees[0] ?? null, user_notes_count: notes, merge_requests_count: 0, upvotes: 0, downvotes: 0, due_date: issue.due_date,
    confidential: issue.confidential, discussion_locked: null, issue_type: issue.issue_type, web_url: `${WEB}/${fullPath(project)}/-/issues/${issue.iid}`,
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    task_completion_status: { count: 0, completed_count: 0 }, weight: issue.weight, has_tasks: false,
    _links: { self: `${WEB}/api/v4/projects/${issue.project_id}/issues/${issue.iid}`, notes: `${WEB}/api/v4/projects/${issue.project_id}/issues/${issue.iid}/notes`, award_emoji: `${WEB}/api/v4/projects/${issue.project_id}/issues/${issue.iid}/award_emoji`, project: `${WEB}/api/v4/projects/${issue.project_id}` },
    references: { short: `#${issue.iid}`, relative: `#${issue.iid}`, full: `${fullPath(project)}#${issue.iid}` },
    severity: 'UNKNOWN', moved_to_id: null, service_desk_reply_to: null,
  };
}

export function renderMergeRequest(c: GlCtx, mr: MergeRequestDoc, status: { sha: string; detailed: string; pipeline: PipelineDoc | null; diffRefs: Record<string, string> | null }, full = false): Record<string, unknown> {
  const project = c.db.projects.get(mr.project_id)!;
  const assignees = mr.assignee_ids.map((id) => renderUser(c.db.users.get(id)));
  const notes = c.db.notes.filter((n) => n.noteable_type === 'MergeRequest' && n.noteable_id === mr.id && !n.system).length;
  const out: Record<string, unknown> = {
    id: mr.id, iid: mr.iid, project_id: mr.project_id, title: mr.title, description: mr.description, state: mr.state,
    created_at: mr.created_at, updated_at: mr.updated_at, merged_by: user(c, mr.merged_by_id), merge_user: user(c, mr.merged_by_id),
    merged_at: mr.merged_at, closed_by: user(c, mr.closed_by_id), closed_at: mr.closed_at, target_branch: mr.target_branch,
    source_branch: mr.source_branch, user_notes_count: notes, upvotes: 0, downvotes: 0, author: user(c, mr.author_id), assignees,
    assignee: assignees[0] ?? null, reviewers: mr.reviewer_ids.map((id) => renderUser(c.db.users.get(id))), source_project_id: mr.source_project_id,
    target_project_id: mr.project_id, labels: mr.labels, draft: mr.draft, work_in_progress: mr.draft, milestone: milestoneBrief(c, mr.milestone_id),
    merge_when_pipeline_succeeds: false, merge_status: status.detailed === 'mergeable' ? 'can_be_merged' : status.detailed === 'broken_status' ? 'cannot_be_merged' : 'can_be_merged',
    detailed_merge_status: status.detailed, sha: status.sha, merge_commit_sha: mr.merge_commit_sha, squash_commit_sha: mr.squash_commit_sha,
    discussion_locked: null, should_remove_source_branch: mr.should_remove_source_branch, force_remove_source_branch: true,
    prepared_at: mr.created_at, reference: `!${mr.iid}`, references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${fullPath(project)}!${mr.iid}` },
    web_url: `${WEB}/${fullPath(project)}/-/merge_requests/${mr.iid}`,
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    squash: mr.squash, squash_on_merge: mr.squash, task_completion_status: { count: 0, completed_count: 0 }, has_conflicts: status.detailed === 'conflict',
    blocking_discussions_resolved: true, approvals_before_merge: null,
  };
  if (full) {
    Object.assign(out, {
      subscribed: false, changes_count: null, latest_build_started_at: status.pipeline?.started_at ?? null,
      latest_build_finished_at: status.pipeline?.finished_at ?? null, first_deployed_to_production_at: null,
      pipeline: status.pipeline ? renderPipelineBrief(c, status.pipeline) : null, head_pipeline: status.pipeline ? renderPipeline(c, status.pipeline) : null,
      diff_refs: status.diffRefs, merge_error: null, first_contribution: false, user: { can_merge: true },
    });
  }
  return out;
}

export function renderNote(c: GlCtx, note: NoteDoc): Record<string, unknown> {
  return {
    id: note.id, type: note.type, body: note.body, attachment: null, author: user(c, note.author_id), created_at: note.created_at,
    updated_at: note.updated_at, system: note.system, noteable_id: note.noteable_id, noteable_type: note.noteable_type, project_id: note.project_id,
    ...(note.position ? { commit_id: note.position.head_sha, position: { ...note.position, line_range: null } } : {}),
    resolvable: note.resolvable, ...(note.resolvable ? { resolved: note.resolved, resolved_by: user(c, note.resolved_by_id), resolved_at: note.resolved ? note.updated_at : null } : {}),
    confidential: note.internal, internal: note.internal, imported: false, imported_from: 'none', noteable_iid: note.noteable_iid, commands_changes: {},
  };
}

export function renderDiscussion(c: GlCtx, notes: NoteDoc[]): Record<string, unknown> {
  return { id: notes[0]!.discussion_id, individual_note: notes[0]!.individual, notes: notes.map((n) => renderNote(c, n)) };
}

export function renderPipelineBrief(c: GlCtx, p: PipelineDoc): Record<string, unknown> {
  const project = c.db.projects.get(p.project_id)!;
  return {
    id: p.id, iid: p.iid, project_id: p.project_id, sha: p.sha, ref: p.ref, status: p.status, source: p.source, created_at: p.created_at,
    updated_at: p.updated_at, web_url: `${WEB}/${fullPath(project)}/-/pipelines/${p.id}`,
  };
}

export function renderPipeline(c: GlCtx, p: PipelineDoc): Record<string, unknown> {
  const jobs = c.db.jobs.filter((j) => j.pipeline_id === p.id);
  return Object.assign(renderPipelineBrief(c, p), {
    name: p.name, before_sha: '0000000000000000000000000000000000000000', tag: false, yaml_errors: null,
    user: user(c, p.user_id), started_at: p.started_at, finished_at: p.finished_at, committed_at: null, duration: p.duration,
    queued_duration: p.started_at ? 1 : null, coverage: null,
    detailed_status: { icon: `status_${p.status}`, text: p.status, label: p.status === 'success' ? 'passed' : p.status, group: p.status, tooltip: p.status === 'success' ? 'passed' : p.status, has_details: true, details_path: `/${fullPath(c.db.projects.get(p.project_id)!)}/-/pipelines/${p.id}`, illustration: null, favicon: `/assets/ci_favicons/favicon_status_${p.status}.png` },
    archived: false, jobs_count: jobs.length,
  });
}

export function renderJob(c: GlCtx, job: JobDoc): Record<string, unknown> {
  const project = c.db.projects.get(job.project_id)!;
  const pipeline = c.db.pipelines.get(job.pipeline_id)!;
  const commit = c.db.commits.get(key(job.project_id, job.sha));
  return {
    id: job.id, status: job.status, stage: job.stage, name: job.name, ref: job.ref, tag: false, coverage: null, allow_failure: job.allow_failure,
    created_at: job.created_at, started_at: job.started_at, finished_at: job.finished_at, erased_at: job.erased ? job.finished_at : null,
    duration: job.duration, queued_duration: job.started_at ? 1 : null, user: user(c, job.user_id),
    commit: commit ? renderCommit(c, commit) : null, pipeline: renderPipelineBrief(c, pipeline), failure_reason: job.failure_reason ?? undefined,
    web_url: `${WEB}/${fullPath(project)}/-/jobs/${job.id}`, project: { ci_job_token_scope_enabled: false },
    artifacts: [], runner: null, runner_manager: null, artifacts_expire_at: null, archived: false, tag_list: [], when: job.when,
  };
}

export function renderCommit(c: GlCtx, commit: CommitDoc, extra = false): Record<string, unknown> {
  const author = c.db.users.get(commit.author_id);
  const project = c.db.projects.get(commit.project_id)!;
  return {
    id: commit.id, short_id: commit.id.slice(0, 8), created_at: commit.authored_date, parent_ids: commit.parent_ids, title: commit.title,
    message: commit.message, author_name: author?.name ?? 'unknown', author_email: author?.email ?? 'unknown@example.com',
    authored_date: commit.authored_date, committer_name: author?.name ?? 'unknown', committer_email: author?.email ?? 'unknown@example.com',
    committed_date: commit.authored_date, trailers: {}, extended_trailers: {}, web_url: `${WEB}/${fullPath(project)}/-/commit/${commit.id}`,
    ...(extra ? { stats: commitStats(c, commit), status: null, project_id: commit.project_id, last_pipeline: null } : {}),
  };
}

function commitStats(c: GlCtx, commit: CommitDoc): { additions: number; deletions: number; total: number } {
  const parent = commit.parent_ids[0] ? c.db.commits.get(key(commit.project_id, commit.parent_ids[0])) : undefined;
  let additions = 0;
  let deletions = 0;
  for (const path of new Set([...Object.keys(commit.tree), ...Object.keys(parent?.tree ?? {})])) {
    const a = (parent?.tree[path] ?? '').split('\n');
    const b = (commit.tree[path] ?? '').split('\n');
    if (parent?.tree[path] === commit.tree[path]) continue;
    const common = a.filter((line) => b.includes(line)).length;
    additions += b.length - common;
    deletions += a.length - common;
  }
  return { additions, deletions, total: additions + deletions };
}

export function renderBranch(c: GlCtx, branch: BranchDoc): Record<string, unknown> {
  const project = c.db.projects.get(branch.project_id)!;
  const commit = c.db.commits.get(key(branch.project_id, branch.commit))!;
  return {
    name: branch.name, commit: renderCommit(c, commit), merged: false, protected: branch.protected, developers_can_push: !branch.protected,
    developers_can_merge: !branch.protected, can_push: true, default: project.default_branch === branch.name,
    web_url: `${WEB}/${fullPath(project)}/-/tree/${branch.name}`,
  };
}

export function renderLabel(c: GlCtx, label: LabelDoc): Record<string, unknown> {
  const open = (type: 'issues' | 'mrs') => (type === 'issues' ? c.db.issues : c.db.merge_requests).filter((x) => x.project_id === label.project_id && x.state === 'opened' && x.labels.includes(label.name)).length;
  return {
    id: label.id, name: label.name, description: label.description, description_html: label.description ?? '', text_color: '#FFFFFF',
    color: label.color, subscribed: false, priority: label.priority, is_project_label: true, archived: false,
    open_issues_count: open('issues'), closed_issues_count: 0, open_merge_requests_count: open('mrs'),
  };
}
