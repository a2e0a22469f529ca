import type { GlCtx } from './context.js';
import { mergeBase, treeDiff, type FileChange } from './git.js';
import { key, type MergeRequestDoc, type PipelineDoc, type ProjectDoc } from './model.js';

/** What a merge request's answers derive from its branches: SHAs, diff, head pipeline, mergeability. */

export interface MrShas { head: string | null; base: string | null; start: string | null }

export function mrShas(c: GlCtx, project: ProjectDoc, mr: MergeRequestDoc): MrShas {
  if (mr.state === 'merged' && mr.head_sha) return { head: mr.head_sha, base: mr.base_sha ?? mr.head_sha, start: mr.base_sha ?? mr.head_sha };
  const head = c.db.branches.get(key(project.id, mr.source_branch))?.commit ?? mr.head_sha ?? null;
  const target = c.db.branches.get(key(project.id, mr.target_branch))?.commit ?? null;
  if (!head || !target) return { head, base: target, start: target };
  return { head, base: mergeBase(c, project.id, head, target) ?? target, start: target };
}

export function mrChanges(c: GlCtx, project: ProjectDoc, mr: MergeRequestDoc): FileChange[] {
  const shas = mrShas(c, project, mr);
  if (!shas.head) return [];
  const head = c.db.commits.get(key(project.id, shas.head));
  const base = shas.base ? c.db.commits.get(key(project.id, shas.base)) : undefined;
  return treeDiff(base?.tree ?? {}, head?.tree ?? {});
}

/** The newest pipeline that ran for the merge request's head commit. */
export function headPipeline(c: GlCtx, project: ProjectDoc, mr: MergeRequestDoc): PipelineDoc | null {
  const { head } = mrShas(c, project, mr);
  if (!head) return null;
  const refs = new Set([mr.source_branch, `refs/merge-requests/${mr.iid}/head`]);
  return c.db.pipelines.filter((p) => p.project_id === project.id && p.sha === head && refs.has(p.ref)).sort((a, b) => b.id - a.id)[0] ?? null;
}

/** Pipelines of the merge request's source branch (and its merge-request refs), newest first. */
export function mrPipelines(c: GlCtx, project: ProjectDoc, mr: MergeRequestDoc): PipelineDoc[] {
  const refs = new Set([mr.source_branch, `refs/merge-requests/${mr.iid}/head`]);
  return c.db.pipelines.filter((p) => p.project_id === project.id && refs.has(p.ref)).sort((a, b) => b.id - a.id);
}

/** Whether the target branch changed a file the merge request changes, since they forked. */
function conflicts(c: GlCtx, project: ProjectDoc, shas: MrShas): boolean {
  if (!shas.head || !shas.base || !shas.start || shas.base === shas.start) return false;
  const tree = (sha: string) => c.db.commits.get(key(project.id, sha))?.tree ?? {};
  const ours = new Set(treeDiff(tree(shas.base), tree(shas.head)).map((d) => d.new_path));
  return treeDiff(tree(shas.base), tree(shas.start)).some((d) => ours.has(d.new_path) && tree(shas.start!)[d.new_path] !== tree(shas.head!)[d.new_path]);
}

/** GitLab's `detailed_merge_status`, checks in GitLab's order. */
export function detailedStatus(c: GlCtx, project: ProjectDoc, mr: MergeRequestDoc): string {
  if (mr.state !== 'opened') return 'not_open';
  if (mr.draft) return 'draft_status';
  const shas = mrShas(c, project, mr);
  if (!shas.head || !c.db.branches.has(key(project.id, mr.source_branch))) return 'broken_status';
  if (conflicts(c, project, shas)) return 'conflict';
  if (project.only_allow_merge_if_pipeline_succeeds) {
    const pipeline = headPipeline(c, project, mr);
    if (!pipeline || pipeline.status === 'failed' || pipeline.status === 'canceled') return 'ci_must_pass';
    if (pipeline.status !== 'success' && pipeline.status !== 'skipped') return 'ci_still_running';
  }
  if (mr.approved_by_ids.length < mr.approvals_required) return 'not_approved';
  return 'mergeable';
}

export function mrStatus(c: GlCtx, project: ProjectDoc, mr: MergeRequestDoc) {
  const shas = mrShas(c, project, mr);
  return {
    sha: shas.head ?? '', detailed: detailedStatus(c, project, mr), pipeline: headPipeline(c, project, mr),
    diffRefs: shas.head ? { base_sha: shas.base ?? shas.head, head_sha: shas.head, start_sha: shas.start ?? shas.head } : null,
  };
}
