import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { bytes, jsonResponse, type ServiceResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest } from '../kit/operation.js';
import type { CiCtx } from './context.js';
import { ciError, jobKey, pageOf, type JobDoc, type ProjectDoc, type WorkflowDoc } from './model.js';
import { renderJobV1, renderJobV2, renderPipeline, renderProject, renderWorkflow, renderWorkflowJob } from './render.js';
import { validateConfig } from './config.js';

/** CircleCI API v2 (and the v1.1 and private endpoints its MCP server calls), by hand. */

const V2 = '/api/v2';
const SLUG = ':vcs/:org/:repo';
type SlugParams = { vcs: string; org: string; repo: string };

function projectOf(c: CiCtx, p: SlugParams): ProjectDoc {
  const project = c.db.projects.get(`${p.vcs}/${p.org}/${p.repo}`);
  if (!project) throw ciError(404, 'Project not found');
  return project;
}

function jobOf(c: CiCtx, p: SlugParams & { number: string }): JobDoc {
  const project = projectOf(c, p);
  const job = c.db.jobs.get(jobKey(project.slug, Number(p.number)));
  if (!job) throw ciError(404, 'Job not found');
  return job;
}

function workflowOf(c: CiCtx, id: string): WorkflowDoc {
  const workflow = c.db.workflows.get(id);
  if (!workflow) throw ciError(404, 'Workflow not found');
  return workflow;
}

const json = (value: unknown, status = 200): ServiceResponse => jsonResponse(status, value);
const pageToken = (c: { req: { query: URLSearchParams } }) => c.req.query.get('page-token') ?? undefined;
const iso = (ms: number): string => new Date(ms).toISOString();

const RunBody = z.object({
  definition_id: z.string().optional(),
  config: z.object({ branch: z.string().optional(), content: z.string().optional() }).passthrough().optional(),
  checkout: z.object({ branch: z.string().optional(), tag: z.string().optional() }).passthrough().optional(),
  parameters: z.record(z.unknown()).optional(),
}).passthrough();

const RerunBody = z.object({
  from_failed: z.boolean().optional(), enable_ssh: z.boolean().optional(), jobs: z.array(z.string()).optional(), sparse_tree: z.boolean().optional(),
}).strict();

const RollbackBody = z.object({
  component_name: z.string().min(1), current_version: z.string().min(1), environment_name: z.string().min(1), target_version: z.string().min(1),
  namespace: z.string().optional(), parameters: z.record(z.unknown()).optional(), reason: z.string().optional(),
}).strict();

export const ciOperations = [
  operation<CiCtx, '/api/v2/me'>('getCurrentUser', rest('GET', `${V2}/me`), (_call, c) => json({ id: uuidIdFor(c, c.login), login: c.login, name: c.login })),
  operation<CiCtx, '/api/private/me/followed-projects'>('listFollowedProjects', rest('GET', '/api/private/me/followed-projects'), (call, c) => {
    const org = c.db.org.get('org')!;
    const followed = c.db.projects.values().filter((p) => p.followed).map((p) => ({ name: p.name, slug: p.slug, vcs_type: org.vcs_type, vcs_url: `https://github.com/${org.name}/${p.name}`, default_branch: p.default_branch }));
    return json(pageOf(followed, pageToken(call), 20));
  }),
  operation<CiCtx, `/api/v2/project/${typeof SLUG}`>('getProjectBySlug', rest('GET', `${V2}/project/${SLUG}`), (call, c) => json(renderProject(c.db.org.get('org')!, projectOf(c, call.params)))),
  operation<CiCtx, '/api/v2/project/:id'>('getProjectById', rest('GET', `${V2}/project/:id`), (call, c) => {
    const project = c.db.projects.values().find((p) => p.id === call.params.id);
    if (!project) throw ciError(404, 'Project not found');
    return json(renderProject(c.db.org.get('org')!, project));
  }),
  operation<CiCtx, `/api/v2/project/${typeof SLUG}/pipeline`>('listPipelinesForProject', rest('GET', `${V2}/project/${SLUG}/pipeline`), (call, c) => {
    const project = projectOf(c, call.params);
    const org = c.db.org.get('org')!;
    const branch = call.req.query.get('branch');
    const pipelines = c.db.pipelines.values().filter((p) => p.project === project.slug && (branch === null || p.branch === branch)).sort((a, b) => b.number - a.number);
    const page = pageOf(pipelines, pageToken(call), 20);
    return json({ items: page.items.map((p) => renderPipeline(org, p)), next_page_token: page.next_page_token });
  }),
  operation<CiCtx, `/api/v2/project/${typeof SLUG}/pipeline/:number`>('getPipelineByNumber', rest('GET', `${V2}/project/${SLUG}/pipeline/:number`), (call, c) => {
    const project = projectOf(c, call.params);
    const pipeline = c.db.pipelines.values().find((p) => p.project === project.slug && p.number === Number(call.params.number));
    if (!pipeline) throw ciError(404, 'Pipeline not found');
    return json(renderPipeline(c.db.org.get('org')!, pipeline));
  }),
  operation<CiCtx, `/api/v2/project/${typeof SLUG}/pipeline/run`>('triggerPipelineRun', rest('POST', `${V2}/project/${SLUG}/pipeline/run`), (call, c) => {
    const project = projectOf(c, call.params);
    const body = call.body as z.infer<typeof RunBody>;
    const definition = body.definition_id === undefined ? project.definitions[0] : project.definitions.find((d) => d.id === body.definition_id);
    if (!definition) throw ciError(404, 'Pipeline definition not found');
    const branch = body.checkout?.branch ?? body.config?.branch ?? project.default_branch;
    const number = c.ctx.ids.next(`pipeline-number:${project.slug}`);
    const id = uuidId(c.ctx, 'pipeline');
    const created = iso(c.ctx.nowMs);
    c.db.pipelines.put(id, {
      id, project: project.slug, number, branch, revision: c.ctx.ids.opaque('revision', `${project.slug}/${branch}`), commit_subject: '',
      actor: c.login, created_at: created, trigger: 'api', definition_id: definition.id, definition_name: definition.name,
    });
    return json({ id, state: 'created', number, created_at: created }, 201);
  }, { input: { body: RunBody } }),
  operation<CiCtx, '/api/v2/pipeline/:id/workflow'>('listWorkflowsByPipelineId', rest('GET', `${V2}/pipeline/:id/workflow`), (call, c) => {
    if (!c.db.pipelines.get(call.params.id)) throw ciError(404, 'Pipeline not found');
    const workflows = c.db.workflows.values().filter((w) => w.pipeline_id === call.params.id).sort((a, b) => b.order - a.order);
    const page = pageOf(workflows, pageToken(call), 20);
    return json({ items: page.items.map(renderWorkflow), next_page_token: page.next_page_token });
  }),
  operation<CiCtx, '/api/v2/workflow/:id'>('getWorkflowById', rest('GET', `${V2}/workflow/:id`), (call, c) => json(renderWorkflow(workflowOf(c, call.params.id)))),
  operation<CiCtx, '/api/v2/workflow/:id/job'>('listWorkflowJobs', rest('GET', `${V2}/workflow/:id/job`), (call, c) => {
    workflowOf(c, call.params.id);
    const jobs = c.db.jobs.values().filter((j) => j.workflow_id === call.params.id).sort((a, b) => a.order - b.order);
    const page = pageOf(jobs, pageToken(call), 50);
    return json({ items: page.items.map(renderWorkflowJob), next_page_token: page.next_page_token });
  }),
  operation<CiCtx, '/api/v2/workflow/:id/rerun'>('rerunWorkflow', rest('POST', `${V2}/workflow/:id/rerun`), (call, c) => {
    const workflow = workflowOf(c, call.params.id);
    const body = call.body as z.infer<typeof RerunBody>;
    if (workflow.status === 'running' || workflow.status === 'on_hold') throw ciError(400, 'Workflow is still running.');
    if (body.from_failed === true && workflow.status !== 'failed') throw ciError(400, 'Can only rerun from failed for a failed workflow.');
    const id = uuidId(c.ctx, 'workflow');
    c.db.workflows.put(id, {
      ...workflow, id, status: 'running', created_at: iso(c.ctx.nowMs), stopped_at: null, started_by: uuidIdFor(c, c.login),
      rerun_of: workflow.id, order: c.db.workflows.size + c.db.jobs.size,
    });
    const jobs = c.db.jobs.values().filter((j) => j.workflow_id === workflow.id).sort((a, b) => a.order - b.order);
    const rerun = body.from_failed === true ? jobs.filter((j) => j.status !== 'success') : body.jobs ? jobs.filter((j) => body.jobs!.includes(j.id)) : jobs;
    for (const job of rerun) {
      const number = c.ctx.ids.next(`job-number:${job.project}`);
      c.db.jobs.put(jobKey(job.project, number), {
        ...job, id: uuidId(c.ctx, 'job'), number, workflow_id: id, status: 'queued', started_at: null, stopped_at: null,
        steps: [], tests: [], artifacts: [], order: c.db.workflows.size + c.db.jobs.size,
      });
    }
    return json({ workflow_id: id }, 202);
  }, { input: { body: RerunBody } }),
  operation<CiCtx, `/api/v2/project/${typeof SLUG}/job/:number`>('getJobDetails', rest('GET', `${V2}/project/${SLUG}/job/:number`), (call, c) => json(renderJobV2(c.db, c.db.org.get('org')!, jobOf(c, call.params)))),
  operation<CiCtx, `/api/v2/project/${typeof SLUG}/:number/artifacts`>('getJobArtifacts', rest('GET', `${V2}/project/${SLUG}/:number/artifacts`), (call, c) => {
    const job = jobOf(c, call.params);
    const items = job.artifacts.map((a) => ({ path: a.path, node_index: 0, url: `https://output.circle-artifacts.com/output/job/${job.id}/artifacts/0/${a.path}` }));
    return json(pageOf(items, pageToken(call), 50));
  }),
  operation<CiCtx, `/api/v2/project/${typeof SLUG}/:number/tests`>('getTests', rest('GET', `${V2}/project/${SLUG}/:number/tests`), (call, c) => {
    const job = jobOf(c, call.params);
    const items = job.tests.map((t) => ({ message: t.message, source: 'junit', run_time: t.run_time, ...(t.file === undefined ? {} : { file: t.file }), result: t.result, name: t.name, classname: t.classname }));
    return json(pageOf(items, pageToken(call), 100));
  }),
  operation<CiCtx, `/api/v2/insights/${typeof SLUG}/flaky-tests`>('getFlakyTests', rest('GET', `${V2}/insights/${SLUG}/flaky-tests`), (call, c) => {
    const project = projectOf(c, call.params);
    const flaky = c.db.flaky_tests.values().filter((f) => f.project === project.slug).map((f) => ({
      time_wasted: f.time_wasted, workflow_created_at: iso(c.ctx.epochMs), workflow_id: uuidIdFor(c, `${f.workflow_name}/${f.pipeline_number}`), classname: f.classname,
      pipeline_number: f.pipeline_number, workflow_name: f.workflow_name, test_name: f.test_name, job_name: f.job_name, job_number: f.job_number,
      times_flaked: f.times_flaked, source: 'junit', file: f.file,
    }));
    return json({ flaky_tests: flaky, total_flaky_tests: flaky.length });
  }),
  operation<CiCtx, '/api/v2/projects/:id/pipeline-definitions'>('listPipelineDefinitions', rest('GET', `${V2}/projects/:id/pipeline-definitions`), (call, c) => {
    const project = c.db.projects.values().find((p) => p.id === call.params.id);
    if (!project) throw ciError(404, 'Project not found');
    const org = c.db.org.get('org')!;
    const repo = { full_name: `${org.name}/${project.name}`, external_id: String(100000 + project.name.length) };
    return json({ items: project.definitions.map((d) => ({
      id: d.id, name: d.name, description: '', created_at: iso(c.ctx.epochMs - 30 * 86_400_000),
      config_source: { provider: 'github_app', repo, file_path: '.circleci/config.yml' }, checkout_source: { provider: 'github_app', repo },
    })) });
  }),
  operation<CiCtx, '/api/v2/projects/:id/rollback'>('rollbackProject', rest('POST', `${V2}/projects/:id/rollback`), (call, c) => {
    const project = c.db.projects.values().find((p) => p.id === call.params.id);
    if (!project) throw ciError(404, 'Project not found');
    if (!project.rollback_pipeline) throw ciError(400, 'No rollback pipeline is configured for this project.');
    const body = call.body as z.infer<typeof RollbackBody>;
    const component = c.db.components.values().find((x) => x.name === body.component_name && x.project_id === project.id);
    const environment = c.db.environments.values().find((e) => e.name === body.environment_name);
    if (!component || !environment) throw ciError(404, !component ? 'Component not found' : 'Environment not found');
    const live = component.versions.find((v) => v.environment_id === environment.id && v.is_live);
    if (!live || live.name !== body.current_version) throw ciError(400, `Version ${body.current_version} is not live in ${body.environment_name}.`);
    if (!component.versions.some((v) => v.environment_id === environment.id && v.name === body.target_version)) throw ciError(400, `Version ${body.target_version} was never deployed to ${body.environment_name}.`);
    const number = c.ctx.ids.next(`pipeline-number:${project.slug}`);
    const id = uuidId(c.ctx, 'pipeline');
    c.db.pipelines.put(id, {
      id, project: project.slug, number, branch: project.default_branch, revision: c.ctx.ids.opaque('revision', `rollback/${number}`), commit_subject: `Rollback ${body.component_name} to ${body.target_version}`,
      actor: c.login, created_at: iso(c.ctx.nowMs), trigger: 'api', definition_id: project.definitions.at(-1)?.id ?? null, definition_name: project.definitions.at(-1)?.name ?? null,
    });
    c.db.rollbacks.put(id, { id, project_id: project.id, component_name: body.component_name, environment_name: body.environment_name, current_version: body.current_version, target_version: body.target_version, reason: body.reason ?? null, pipeline_number: number });
    return json({ id, rollback_type: 'PIPELINE' }, 201);
  }, { input: { body: RollbackBody } }),
  operation<CiCtx, '/api/v2/deploy/projects/:id/settings'>('getProjectDeploySettings', rest('GET', `${V2}/deploy/projects/:id/settings`), (call, c) => {
    const project = c.db.projects.values().find((p) => p.id === call.params.id);
    if (!project) throw ciError(404, 'Project not found');
    return json({ create_autogenerated_releases: true, ...(project.rollback_pipeline ? { rollback_pipeline_definition_id: project.definitions.at(-1)!.id } : {}) });
  }),
  operation<CiCtx, '/api/v2/deploy/environments'>('listEnvironments', rest('GET', `${V2}/deploy/environments`), (call, c) => {
    requireOrg(c, call.req.query.get('org-id'));
    return json({ ...pageOf(c.db.environments.values().map((e) => ({ id: e.id, name: e.name, description: e.description, created_at: e.created_at, updated_at: e.created_at, labels: [] })), pageToken(call), 50) });
  }),
  operation<CiCtx, '/api/v2/deploy/components'>('listComponents', rest('GET', `${V2}/deploy/components`), (call, c) => {
    requireOrg(c, call.req.query.get('org-id'));
    const projectId = call.req.query.get('project-id');
    const items = c.db.components.values().filter((x) => projectId === null || x.project_id === projectId).map((x) => ({
      id: x.id, project_id: x.project_id, name: x.name, release_count: x.versions.length, labels: [], created_at: x.created_at, updated_at: x.versions.map((v) => v.deployed_at).sort().at(-1) ?? x.created_at,
    }));
    return json(pageOf(items, pageToken(call), 50));
  }),
  operation<CiCtx, '/api/v2/deploy/components/:id/versions'>('listComponentVersions', rest('GET', `${V2}/deploy/components/:id/versions`), (call, c) => {
    const component = c.db.components.get(call.params.id);
    if (!component) throw ciError(404, 'Component not found');
    const env = call.req.query.get('environment-id');
    const items = component.versions.filter((v) => env === null || v.environment_id === env).map((v) => {
      const job = c.db.jobs.values().find((j) => j.number === v.job_number);
      const workflow = job ? c.db.workflows.get(job.workflow_id) : undefined;
      return {
        name: v.name, namespace: 'default', environment_id: v.environment_id, is_live: v.is_live, pipeline_id: workflow?.pipeline_id ?? uuidIdFor(c, `p/${v.name}`),
        workflow_id: workflow?.id ?? uuidIdFor(c, `w/${v.name}`), job_id: job?.id ?? uuidIdFor(c, `j/${v.name}`), job_number: v.job_number, last_deployed_at: v.deployed_at,
      };
    });
    return json(pageOf(items, pageToken(call), 50));
  }),
  operation<CiCtx, '/api/v2/organizations/:org/usage_export_job'>('createUsageExport', rest('POST', `${V2}/organizations/:org/usage_export_job`), (call, c) => {
    requireOrg(c, call.params.org);
    const body = z.object({ start: z.string(), end: z.string() }).safeParse(call.body);
    if (!body.success) throw ciError(400, 'start and end are required.');
    const id = uuidId(c.ctx, 'usage-export');
    c.db.usage_exports.put(id, { id, org: call.params.org, start: body.data.start, end: body.data.end, created_ms: c.ctx.nowMs });
    return json({ usage_export_job_id: id, state: 'created', start: body.data.start, end: body.data.end, failure_reason: '', download_urls: [] }, 201);
  }),
  operation<CiCtx, '/api/v2/organizations/:org/usage_export_job/:id'>('getUsageExport', rest('GET', `${V2}/organizations/:org/usage_export_job/:id`), (call, c) => {
    const job = c.db.usage_exports.get(call.params.id);
    if (!job || job.org !== call.params.org) throw ciError(404, 'Usage export job not found');
    // An export takes a minute of (logical) time to run.
    const done = c.ctx.nowMs - job.created_ms >= 60_000;
    return json({
      usage_export_job_id: job.id, state: done ? 'completed' : 'processing', start: job.start, end: job.end, failure_reason: '',
      download_urls: done ? [`https://output.circle-artifacts.com/usage-exports/${job.id}/part-0.csv.gz`] : [],
    });
  }),
  operation<CiCtx, '/usage-exports/:id/:part'>('downloadUsageExport', rest('GET', '/usage-exports/:id/:part'), (call, c) => {
    const job = c.db.usage_exports.get(call.params.id);
    if (!job) throw ciError(404, 'Not found');
    const rows = c.db.usage_rows.values();
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const csv = [columns.join(','), ...rows.map((r) => columns.map((col) => csvCell(r[col]))).map((cells) => cells.join(','))].join('\n') + '\n';
    return { status: 200, headers: [['Content-Type', 'application/gzip']], body: new Uint8Array(gzipSync(Buffer.from(csv))) };
  }, { auth: false }),
  operation<CiCtx, '/output/job/:job/artifacts/:node/*path'>('downloadArtifact', rest('GET', '/output/job/:job/artifacts/:node/*path'), (call, c) => {
    const job = c.db.jobs.values().find((j) => j.id === call.params.job);
    const artifact = job?.artifacts.find((a) => a.path === call.params.path);
    if (!artifact) throw ciError(404, 'Not found');
    return { status: 200, headers: [['Content-Type', 'text/plain; charset=utf-8']], body: bytes(artifact.content) };
  }, { auth: false }),
  operation<CiCtx, `/api/v1.1/project/${typeof SLUG}/:number`>('v1.getJob', rest('GET', `/api/v1.1/project/${SLUG}/:number`), (call, c) => json(renderJobV1(c.db, c.db.org.get('org')!, jobOf(c, call.params)))),
  operation<CiCtx, `/api/private/output/raw/${typeof SLUG}/:number/:stream/:task/:step`>('private.getStepOutput', rest('GET', `/api/private/output/raw/${SLUG}/:number/:stream/:task/:step`), (call, c) => {
    const job = jobOf(c, call.params);
    const index = Math.floor(Number(call.params.step) / 100) - 1;
    const step = job.steps[index];
    if (!step || call.params.task !== '0' || !['output', 'error'].includes(call.params.stream)) throw ciError(404, 'Not found');
    return { status: 200, headers: [['Content-Type', 'text/plain; charset=utf-8']], body: bytes(call.params.stream === 'output' ? step.output : step.error) };
  }),
  operation<CiCtx, '/api/v2/compile-config-with-defaults'>('compileConfig', rest('POST', `${V2}/compile-config-with-defaults`), (call) => {
    const body = z.object({ config_yaml: z.string() }).passthrough().safeParse(call.body);
    if (!body.success) throw ciError(400, 'config_yaml is required.');
    return json(validateConfig(body.data.config_yaml));
  }),
];

function requireOrg(c: CiCtx, id: string | null): void {
  const org = c.db.org.get('org')!;
  if (id === null) throw ciError(400, 'org-id is required.');
  if (id !== org.id && id !== org.slug) throw ciError(404, 'Organization not found');
}

/** A stable UUID for something the dataset names but does not store (a user, a flaky test's workflow). */
function uuidIdFor(c: CiCtx, name: string): string {
  const hex = c.ctx.ids.opaque('named-uuid', name, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function csvCell(value: string | number | undefined): string {
  if (value === undefined) return '';
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
