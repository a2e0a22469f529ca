import type { LoadContext } from '../core/service.js';
import type { DiscussionData, GitlabDataset, ProjectData } from './dataset.js';
import { dbOf, discussionIdOf, iso, key, shaOf, type Db, type NoteDoc, type Position } from './model.js';
import { seedTail } from './tail.js';

/** Fills the store from the dataset, once, when the world starts; times default to the epoch. */
export function loadGitlab(data: GitlabDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const at = (value: string | undefined) => (value === undefined ? iso(ctx.epochMs) : iso(Date.parse(value)));
  const userId = (username: string) => {
    const user = db.users.find((u) => u.username === username);
    if (!user) throw new Error(`dataset/gitlab.json: no user ${username}`);
    return user.id;
  };
  for (const u of data.users) db.users.put(u.id, { id: u.id, username: u.username, name: u.name, email: u.email ?? `${u.username}@example.com`, state: u.state, bot: u.bot, created_at: iso(ctx.epochMs - 86_400_000 * 400) });
  for (const t of data.tokens) db.tokens.put(t.token, { token: t.token, user_id: userId(t.user), scopes: t.scopes });
  for (const g of [...data.groups].sort((a, b) => a.full_path.split('/').length - b.full_path.split('/').length)) {
    const parentPath = g.full_path.includes('/') ? g.full_path.slice(0, g.full_path.lastIndexOf('/')) : null;
    const parent = parentPath === null ? null : db.groups.find((x) => x.full_path === parentPath);
    if (parentPath !== null && !parent) throw new Error(`dataset/gitlab.json: group ${g.full_path} has no parent ${parentPath}`);
    const path = g.full_path.split('/').at(-1)!;
    db.groups.put(g.id, {
      id: g.id, name: g.name ?? path, path, full_path: g.full_path, parent_id: parent?.id ?? null, description: g.description,
      visibility: g.visibility, created_at: iso(ctx.epochMs - 86_400_000 * 300), members: g.members.map((m) => ({ user_id: userId(m.user), access_level: m.access_level })),
    });
  }
  const ids = { issue: 0, mr: 0, note: 0, pipeline: 0, job: 0, label: 0, milestone: 0 };
  for (const p of data.projects) loadProject(db, p, ctx, at, userId, ids);
  ctx.ids.reserve('projects', Math.max(0, ...data.projects.map((p) => p.id)));
  ctx.ids.reserve('groups', Math.max(0, ...data.groups.map((g) => g.id)));
  ctx.ids.reserve('users', Math.max(0, ...data.users.map((u) => u.id)));
  ctx.ids.reserve('issues', ids.issue);
  ctx.ids.reserve('merge_requests', ids.mr);
  ctx.ids.reserve('notes', ids.note);
  ctx.ids.reserve('pipelines', ids.pipeline);
  ctx.ids.reserve('jobs', ids.job);
  ctx.ids.reserve('labels', ids.label);
  ctx.ids.reserve('milestones', ids.milestone);
  seedTail(ctx, data.records);
}

type Ids = { issue: number; mr: number; note: number; pipeline: number; job: number; label: number; milestone: number };

function loadProject(db: Db, p: ProjectData, ctx: LoadContext, at: (v: string | undefined) => string, userId: (u: string) => number, ids: Ids): void {
  const group = db.groups.find((g) => g.full_path === p.namespace);
  const owner = group ? undefined : db.users.find((u) => u.username === p.namespace);
  if (!group && !owner) throw new Error(`dataset/gitlab.json: project ${p.path}: no namespace ${p.namespace}`);
  const created = iso(ctx.epochMs - 86_400_000 * 200);
  db.projects.put(p.id, {
    id: p.id, name: p.name ?? p.path, path: p.path, namespace_id: group?.id ?? owner!.id, namespace_kind: group ? 'group' : 'user',
    namespace_full_path: p.namespace, description: p.description, default_branch: p.default_branch, visibility: p.visibility,
    archived: p.archived, topics: p.topics, only_allow_merge_if_pipeline_succeeds: p.only_allow_merge_if_pipeline_succeeds,
    created_at: created, last_activity_at: iso(ctx.epochMs), creator_id: owner?.id ?? group?.members[0]?.user_id ?? 1,
    members: p.members.map((m) => ({ user_id: userId(m.user), access_level: m.access_level })), forked_from: null,
  });

  // The repository: each commit's tree is its parent's with the commit's files applied.
  const heads = new Map<string, string>();
  let previous: string | null = null;
  for (const [index, c] of p.commits.entries()) {
    if (c.from !== undefined && !heads.has(c.from)) throw new Error(`dataset/gitlab.json: project ${p.path}: commit ${index} forks from ${c.from}, which has no commit yet`);
    const parent: string | null = c.parent !== undefined ? c.parent : c.from !== undefined ? heads.get(c.from)! : (c.branches[0] !== undefined ? heads.get(c.branches[0]) ?? previous : previous) ?? null;
    const base = parent ? db.commits.get(key(p.id, parent)) : undefined;
    if (parent && !base) throw new Error(`dataset/gitlab.json: project ${p.path}: commit ${index} has an unknown parent ${parent}`);
    const tree: Record<string, string> = { ...(base?.tree ?? {}) };
    for (const [path, content] of Object.entries(c.files)) {
      if (content === null) delete tree[path];
      else tree[path] = content;
    }
    const id: string = c.id ?? shaOf(p.id, index, c.message, parent ?? '');
    db.commits.put(key(p.id, id), {
      project_id: p.id, id, parent_ids: parent ? [parent] : [], title: c.message.split('\n')[0]!, message: c.message,
      author_id: userId(c.author), authored_date: at(c.at ?? iso(ctx.epochMs - 86_400_000 * (p.commits.length - index))), tree,
    });
    for (const branch of c.branches) heads.set(branch, id);
    previous = id;
  }
  for (const [name, commit] of heads) db.branches.put(key(p.id, name), { project_id: p.id, name, commit, protected: p.protected_branches.includes(name) || name === p.default_branch });
  for (const t of p.tags) {
    const commit = t.commit ?? heads.get(t.branch ?? p.default_branch);
    if (!commit) throw new Error(`dataset/gitlab.json: project ${p.path}: tag ${t.name} has no commit`);
    db.tags.put(key(p.id, t.name), { project_id: p.id, name: t.name, commit, message: t.message, created_at: iso(ctx.epochMs - 86_400_000) });
  }

  for (const l of p.labels) {
    const id = l.id ?? 1000 + ids.label + 1;
    ids.label = Math.max(ids.label, id);
    db.labels.put(key(p.id, l.name), { id, project_id: p.id, name: l.name, color: l.color, description: l.description, priority: null });
  }
  for (const m of p.milestones) {
    const id = m.id ?? 500 + ids.milestone + 1;
    ids.milestone = Math.max(ids.milestone, id);
    db.milestones.put(id, { id, iid: m.iid, project_id: p.id, group_id: null, title: m.title, description: m.description, state: m.state, due_date: m.due_date, start_date: m.start_date, created_at: created, updated_at: created });
  }
  const milestoneId = (title: string | undefined) => (title === undefined ? null : db.milestones.find((m) => m.project_id === p.id && m.title === title)?.id ?? null);
  for (const w of p.wiki) db.wiki.put(key(p.id, w.slug), { project_id: p.id, group_id: null, slug: w.slug, title: w.title, content: w.content, format: w.format });

  const addDiscussions = (type: 'Issue' | 'MergeRequest', noteableId: number, iid: number, discussions: DiscussionData[], position: (d: DiscussionData) => Position | null) => {
    for (const d of discussions) {
      const first = ++ids.note + 100_000;
      const discussionId = discussionIdOf(ctx);
      const pos = position(d);
      const notes = [d, ...d.replies];
      notes.forEach((n, i) => {
        const id = i === 0 ? first : ++ids.note + 100_000;
        const doc: NoteDoc = {
          id, project_id: p.id, noteable_type: type, noteable_id: noteableId, noteable_iid: iid, discussion_id: discussionId,
          individual: d.replies.length === 0 && !d.resolvable && !pos, type: pos ? 'DiffNote' : d.replies.length > 0 || d.resolvable ? 'DiscussionNote' : null,
          body: n.body, author_id: userId(n.author), system: n.system, internal: n.internal, created_at: at(n.at), updated_at: at(n.at),
          resolvable: d.resolvable || pos !== null, resolved: d.resolved, resolved_by_id: d.resolved ? userId(n.author) : null, position: pos,
        };
        db.notes.put(id, doc);
      });
    }
    ids.note = Math.max(ids.note, 0);
  };

  for (const i of p.issues) {
    const id = 90_000 + ids.issue + 1;
    ids.issue = id;
    db.issues.put(key(p.id, i.iid), {
      id, iid: i.iid, project_id: p.id, title: i.title, description: i.description, state: i.state, author_id: userId(i.author),
      assignee_ids: i.assignees.map(userId), labels: i.labels, milestone_id: milestoneId(i.milestone), confidential: i.confidential,
      issue_type: i.issue_type, due_date: i.due_date, weight: i.weight, created_at: at(i.at), updated_at: at(i.at),
      closed_at: i.state === 'closed' ? at(i.closed_at ?? i.at) : null, closed_by_id: i.state === 'closed' ? userId(i.author) : null,
    });
    addDiscussions('Issue', id, i.iid, i.discussions, () => null);
  }

  for (const m of p.merge_requests) {
    const id = 70_000 + ids.mr + 1;
    ids.mr = id;
    const head = heads.get(m.source_branch) ?? null;
    const base = heads.get(m.target_branch) ?? null;
    db.merge_requests.put(key(p.id, m.iid), {
      id, iid: m.iid, project_id: p.id, title: m.title, description: m.description, state: m.state, source_branch: m.source_branch,
      target_branch: m.target_branch, source_project_id: p.id, author_id: userId(m.author), assignee_ids: m.assignees.map(userId),
      reviewer_ids: m.reviewers.map(userId), labels: m.labels, milestone_id: milestoneId(m.milestone), draft: m.draft,
      approvals_required: m.approvals_required, approved_by_ids: m.approved_by.map(userId), created_at: at(m.at), updated_at: at(m.at),
      merged_at: m.state === 'merged' ? at(m.merged_at ?? m.at) : null, merged_by_id: m.state === 'merged' ? userId(m.merged_by ?? m.author) : null,
      closed_at: m.state === 'closed' ? at(m.at) : null, closed_by_id: m.state === 'closed' ? userId(m.author) : null,
      merge_commit_sha: m.merge_commit_sha ?? null, squash_commit_sha: null, head_sha: m.state === 'merged' ? head : null,
      base_sha: m.state === 'merged' && m.merge_commit_sha ? db.commits.get(key(p.id, m.merge_commit_sha))?.parent_ids[0] ?? base : null,
      squash: false, should_remove_source_branch: null, versions: [],
    });
    addDiscussions('MergeRequest', id, m.iid, m.discussions, (d) => (d.position && head ? {
      base_sha: base ?? head, start_sha: base ?? head, head_sha: head, position_type: 'text', old_path: d.position.old_path ?? d.position.new_path,
      new_path: d.position.new_path, old_line: d.position.old_line, new_line: d.position.new_line,
    } : null));
  }

  for (const [index, pl] of p.pipelines.entries()) {
    const sha = pl.sha ?? heads.get(pl.ref);
    if (!sha) throw new Error(`dataset/gitlab.json: project ${p.path}: pipeline ${pl.id} has no commit for ${pl.ref}`);
    const created = at(pl.at);
    const done = !['created', 'pending', 'running', 'manual'].includes(pl.status);
    const duration = pl.duration ?? (done ? 120 + 7 * index : null);
    const finished = done ? iso(Date.parse(created) + (duration ?? 0) * 1000) : null;
    ids.pipeline = Math.max(ids.pipeline, pl.id);
    db.pipelines.put(pl.id, {
      id: pl.id, iid: pl.iid ?? index + 1, project_id: p.id, sha, ref: pl.ref, status: pl.status, source: pl.source, user_id: userId(pl.user),
      created_at: created, updated_at: finished ?? created, started_at: pl.status === 'created' || pl.status === 'pending' ? null : created,
      finished_at: finished, duration, variables: pl.variables.map((v) => ({ ...v, variable_type: 'env_var' })), name: null,
    });
    for (const j of pl.jobs) {
      ids.job = Math.max(ids.job, j.id);
      const ran = !['created', 'pending', 'manual', 'skipped'].includes(j.status);
      const jobDone = ran && j.status !== 'running';
      db.jobs.put(j.id, {
        id: j.id, project_id: p.id, pipeline_id: pl.id, name: j.name, stage: j.stage, status: j.status, log: j.log,
        failure_reason: j.failure_reason ?? (j.status === 'failed' ? 'script_failure' : null), allow_failure: j.allow_failure, when: j.when,
        user_id: userId(pl.user), created_at: created, started_at: ran ? created : null,
        finished_at: jobDone ? iso(Date.parse(created) + (j.duration ?? 60) * 1000) : null, duration: jobDone ? j.duration ?? 60 : null,
        ref: pl.ref, sha, erased: false,
      });
    }
  }
  for (const v of p.variables) seedVariable(ctx, p.id, v);
}

function seedVariable(ctx: LoadContext, projectId: number, v: { key: string; value: string; protected: boolean; masked: boolean }): void {
  ctx.store.collection<Record<string, unknown>>('project_variables').put(key(projectId, v.key), {
    project_id: projectId, variable_type: 'env_var', key: v.key, value: v.value, protected: v.protected, masked: v.masked, hidden: false, raw: false, environment_scope: '*', description: null,
  });
}
