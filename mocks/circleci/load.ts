import type { LoadContext } from '../core/service.js';
import { uuidId } from '../kit/ids.js';
import type { CircleciDataset } from './dataset.js';
import { dbOf, jobKey } from './model.js';

const VCS_PREFIX: Record<string, string> = { github: 'gh', bitbucket: 'bb', circleci: 'circleci' };

/** Fills the store from the dataset; IDs the dataset does not give are seeded UUIDs. */
export function loadCircleci(data: CircleciDataset, ctx: LoadContext): void {
  const db = dbOf(ctx.store);
  const org = data.organization;
  const orgDoc = { id: uuidId(ctx, 'org'), name: org.name, slug: `${VCS_PREFIX[org.vcs_type]}/${org.name}`, vcs_type: org.vcs_type };
  db.org.put('org', orgDoc);
  for (const token of data.tokens) db.tokens.put(token.token, token);
  for (const project of data.projects) {
    const slug = `${orgDoc.slug}/${project.name}`;
    db.projects.put(slug, {
      slug, name: project.name, id: uuidId(ctx, 'project'), default_branch: project.default_branch, followed: project.followed,
      definitions: project.pipeline_definitions.map((name) => ({ id: uuidId(ctx, 'definition'), name })), rollback_pipeline: project.rollback_pipeline,
    });
  }
  let order = 0;
  const maxJob = new Map<string, number>();
  for (const pipeline of data.pipelines) {
    const project = `${orgDoc.slug}/${pipeline.project}`;
    const id = uuidId(ctx, 'pipeline');
    db.pipelines.put(id, {
      id, project, number: pipeline.number, branch: pipeline.branch, revision: pipeline.revision, commit_subject: pipeline.commit_subject,
      actor: pipeline.actor, created_at: pipeline.created_at, trigger: 'webhook',
      definition_id: db.projects.get(project)?.definitions[0]?.id ?? null, definition_name: db.projects.get(project)?.definitions[0]?.name ?? null,
    });
    for (const workflow of pipeline.workflows) {
      const workflowId = uuidId(ctx, 'workflow');
      db.workflows.put(workflowId, {
        id: workflowId, pipeline_id: id, project, pipeline_number: pipeline.number, name: workflow.name, status: workflow.status,
        created_at: workflow.created_at, stopped_at: workflow.stopped_at, started_by: uuidId(ctx, 'user'), rerun_of: null, order: order++,
      });
      for (const job of workflow.jobs) {
        db.jobs.put(jobKey(project, job.number), {
          id: uuidId(ctx, 'job'), number: job.number, project, workflow_id: workflowId, name: job.name, status: job.status,
          started_at: job.started_at, stopped_at: job.stopped_at, resource_class: job.resource_class, parallelism: job.parallelism,
          steps: job.steps.map((s) => ({ name: s.name, status: s.status, output: s.output, error: s.error, exit_code: s.exit_code ?? (s.status === 'failed' ? 1 : s.status === 'success' ? 0 : null) })),
          tests: job.tests, artifacts: job.artifacts, order: order++,
        });
        maxJob.set(project, Math.max(maxJob.get(project) ?? 0, job.number));
      }
    }
    ctx.ids.reserve(`pipeline-number:${project}`, Math.max(pipeline.number, 0));
  }
  for (const [project, max] of maxJob) ctx.ids.reserve(`job-number:${project}`, max);
  data.flaky_tests.forEach((flaky, i) => db.flaky_tests.put(i, { ...flaky, project: `${orgDoc.slug}/${flaky.project}` }));
  const envIds = new Map<string, string>();
  for (const env of data.environments) {
    const id = uuidId(ctx, 'environment');
    envIds.set(env.name, id);
    db.environments.put(id, { id, name: env.name, description: env.description, created_at: new Date(ctx.epochMs - 90 * 86_400_000).toISOString() });
  }
  for (const component of data.components) {
    const id = uuidId(ctx, 'component');
    const project = db.projects.get(`${orgDoc.slug}/${component.project}`);
    db.components.put(id, {
      id, name: component.name, project_id: project?.id ?? '', created_at: new Date(ctx.epochMs - 60 * 86_400_000).toISOString(),
      versions: component.versions.map((v) => ({ name: v.name, environment_id: envIds.get(v.environment) ?? v.environment, is_live: v.is_live, job_number: v.job_number, deployed_at: v.deployed_at })),
    });
  }
  data.usage.forEach((row, i) => db.usage_rows.put(i, row));
}
