import type { Db, JobDoc, OrgDoc, PipelineDoc, ProjectDoc, WorkflowDoc } from './model.js';

/** CircleCI API v2 and v1.1 representations of the store's documents. */

export const APP = 'https://app.circleci.com';

export function renderProject(org: OrgDoc, p: ProjectDoc) {
  return {
    slug: p.slug, name: p.name, id: p.id, organization_name: org.name, organization_slug: org.slug, organization_id: org.id,
    vcs_info: { vcs_url: `https://github.com/${org.name}/${p.name}`, provider: 'GitHub', default_branch: p.default_branch },
  };
}

export function renderPipeline(org: OrgDoc, p: PipelineDoc) {
  const repo = `https://github.com/${org.name}/${p.project.split('/')[2]}`;
  return {
    id: p.id, errors: [], project_slug: p.project, updated_at: p.created_at, number: p.number, state: 'created', created_at: p.created_at,
    trigger: { type: p.trigger, received_at: p.created_at, actor: { login: p.actor, avatar_url: `https://avatars.githubusercontent.com/${p.actor}` } },
    vcs: { provider_name: 'GitHub', origin_repository_url: repo, target_repository_url: repo, revision: p.revision, branch: p.branch, commit: { subject: p.commit_subject, body: '' } },
  };
}

export function renderWorkflow(w: WorkflowDoc) {
  return {
    pipeline_id: w.pipeline_id, id: w.id, name: w.name, project_slug: w.project, status: w.status, started_by: w.started_by,
    pipeline_number: w.pipeline_number, created_at: w.created_at, stopped_at: w.stopped_at,
    ...(w.rerun_of ? { tag: 'rerun' } : {}),
  };
}

export function renderWorkflowJob(j: JobDoc) {
  return {
    dependencies: [], job_number: j.number, id: j.id, started_at: j.started_at, name: j.name, project_slug: j.project,
    status: j.status, type: 'build', stopped_at: j.stopped_at,
  };
}

function durationMs(j: JobDoc): number | null {
  return j.started_at && j.stopped_at ? Date.parse(j.stopped_at) - Date.parse(j.started_at) : null;
}

export function renderJobV2(db: Db, org: OrgDoc, j: JobDoc) {
  const workflow = db.workflows.get(j.workflow_id)!;
  const project = db.projects.get(j.project);
  return {
    web_url: `${APP}/pipelines/${j.project}/${workflow.pipeline_number}/workflows/${workflow.id}/jobs/${j.number}`,
    project: { external_url: `https://github.com/${org.name}/${project?.name ?? ''}`, slug: j.project, name: project?.name ?? '', id: project?.id ?? '' },
    parallel_runs: Array.from({ length: j.parallelism }, (_, index) => ({ index, status: j.status })),
    started_at: j.started_at, latest_workflow: { name: workflow.name, id: workflow.id }, name: j.name,
    executor: { resource_class: j.resource_class, type: 'docker' }, parallelism: j.parallelism, status: j.status, number: j.number,
    pipeline: { id: workflow.pipeline_id }, duration: durationMs(j), created_at: j.started_at ?? workflow.created_at, messages: [], contexts: [],
    organization: { name: org.name }, queued_at: j.started_at ?? workflow.created_at, stopped_at: j.stopped_at,
  };
}

/** The v1.1 job (build) details: what the failure-log tools read (`steps[].actions[]`, `workflows.job_name`). */
export function renderJobV1(db: Db, org: OrgDoc, j: JobDoc) {
  const workflow = db.workflows.get(j.workflow_id)!;
  const pipeline = db.pipelines.get(workflow.pipeline_id)!;
  const [vcs, , repo] = j.project.split('/');
  return {
    build_num: j.number, build_url: `https://circleci.com/${j.project}/${j.number}`, username: org.name, reponame: repo,
    vcs_type: vcs === 'gh' ? 'github' : vcs, branch: pipeline.branch, vcs_revision: pipeline.revision, subject: pipeline.commit_subject,
    status: j.status === 'failed' ? 'failed' : j.status, outcome: j.status === 'failed' ? 'failed' : j.status === 'success' ? 'success' : null,
    lifecycle: j.stopped_at ? 'finished' : 'running', start_time: j.started_at, stop_time: j.stopped_at, build_time_millis: durationMs(j), parallel: j.parallelism,
    workflows: { job_name: j.name, job_id: j.id, workflow_id: workflow.id, workflow_name: workflow.name, workspace_id: workflow.id, upstream_job_ids: [], upstream_concurrency_map: {} },
    steps: j.steps.map((step, i) => ({
      name: step.name,
      actions: [{
        index: 0, step: (i + 1) * 100 + 1, name: step.name, type: 'test', status: step.status, failed: step.status === 'failed' ? true : null,
        exit_code: step.exit_code, has_output: step.output !== '' || step.error !== '', start_time: j.started_at, end_time: j.stopped_at,
        output_url: `https://circle-production-action-output.s3.amazonaws.com/${j.id}-${i}`, background: false, parallel: false,
      }],
    })),
  };
}
