import { bytes, emptyResponse, jsonResponse, type ServiceResponse } from '../core/http.js';
import { numericId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { me, visibleProject, writableProject, type GlCtx } from './context.js';
import { resolveRef } from './git.js';
import { glError, iso, notFound, paged, type JobDoc, type PipelineDoc, type ProjectDoc } from './model.js';
import { argsOf, need, str, V4 } from './params.js';
import { renderJob, renderPipeline, renderPipelineBrief } from './render.js';

/**
 * Pipelines and jobs: lists with GitLab's filters, a pipeline's jobs and bridges, job logs
 * (`/trace`, plain text), retry, cancel, play, erase, and new pipelines (`created`, with the
 * jobs of the ref's latest pipeline, or one `build` job where there is none).
 */

const json = (value: unknown, status = 200): ServiceResponse => jsonResponse(status, value);
const P = `${V4}/projects/:id` as const;

function pipelineOf(c: GlCtx, project: ProjectDoc, id: string): PipelineDoc {
  const pipeline = c.db.pipelines.get(Number(id));
  if (!pipeline || pipeline.project_id !== project.id) throw notFound('');
  return pipeline;
}

function jobOf(c: GlCtx, project: ProjectDoc, id: string): JobDoc {
  const job = c.db.jobs.get(Number(id));
  if (!job || job.project_id !== project.id) throw notFound('');
  return job;
}

/** A pipeline's status from its jobs (GitLab's composite status, allowed failures ignored). */
function settle(c: GlCtx, pipeline: PipelineDoc): PipelineDoc {
  const jobs = c.db.jobs.filter((j) => j.pipeline_id === pipeline.id);
  const counted = jobs.filter((j) => !(j.allow_failure && j.status === 'failed'));
  const any = (s: string) => counted.some((j) => j.status === s);
  const status = jobs.length === 0 ? pipeline.status : any('running') ? 'running' : any('pending') ? 'pending' : any('created') ? 'created'
    : any('failed') ? 'failed' : any('canceled') ? 'canceled' : counted.every((j) => j.status === 'skipped') ? 'skipped' : any('manual') && !any('success') ? 'manual' : 'success';
  return c.db.pipelines.update(pipeline.id, { status, updated_at: iso(c.ctx.nowMs) })!;
}

function filterJobs(jobs: JobDoc[], q: URLSearchParams): JobDoc[] {
  const scopes = [...q.getAll('scope'), ...q.getAll('scope[]')].flatMap((s) => s.split(','));
  return jobs.filter((j) => scopes.length === 0 || scopes.includes(j.status)).sort((a, b) => b.id - a.id);
}

function newPipeline(c: GlCtx, project: ProjectDoc, ref: string, source: string, variables: { key: string; value: string; variable_type: string }[]): PipelineDoc {
  const commit = resolveRef(c, project, ref);
  if (!commit) throw glError(400, { base: ['Reference not found'] });
  const id = numericId(c.ctx, 'pipelines');
  const now = iso(c.ctx.nowMs);
  const pipeline = c.db.pipelines.put(id, {
    id, iid: Math.max(0, ...c.db.pipelines.filter((p) => p.project_id === project.id).map((p) => p.iid)) + 1, project_id: project.id, sha: commit.id, ref,
    status: 'created', source, user_id: me(c).id, created_at: now, updated_at: now, started_at: null, finished_at: null, duration: null, variables, name: null,
  });
  const template = c.db.pipelines.filter((p) => p.project_id === project.id && p.ref === ref && p.id !== id).sort((a, b) => b.id - a.id)[0];
  const jobs = template ? c.db.jobs.filter((j) => j.pipeline_id === template.id).sort((a, b) => a.id - b.id) : [];
  for (const j of jobs.length > 0 ? jobs : [{ name: 'build', stage: 'build', allow_failure: false, when: 'on_success' } as Pick<JobDoc, 'name' | 'stage' | 'allow_failure' | 'when'>]) {
    const jobId = numericId(c.ctx, 'jobs');
    c.db.jobs.put(jobId, {
      id: jobId, project_id: project.id, pipeline_id: id, name: j.name, stage: j.stage, status: j.when === 'manual' ? 'manual' : 'created', log: '',
      failure_reason: null, allow_failure: j.allow_failure, when: j.when, user_id: me(c).id, created_at: now, started_at: null, finished_at: null,
      duration: null, ref, sha: commit.id, erased: false,
    });
  }
  return pipeline;
}

function variablesOf(args: Record<string, unknown>): { key: string; value: string; variable_type: string }[] {
  const raw = args.variables;
  if (Array.isArray(raw)) return raw.map((v: Record<string, unknown>) => ({ key: String(v.key), value: String(v.value ?? ''), variable_type: String(v.variable_type ?? 'env_var') }));
  if (raw && typeof raw === 'object') return Object.entries(raw as Record<string, unknown>).map(([k, v]) => ({ key: k, value: String(v), variable_type: 'env_var' }));
  return [];
}

export const pipelineOperations: Operation<GlCtx>[] = [
  operation<GlCtx, `${typeof P}/pipelines`>('pipelines.list', rest('GET', `${P}/pipelines`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const q = call.req.query;
    const pipelines = c.db.pipelines.filter((p) => p.project_id === project.id && (!q.get('ref') || p.ref === q.get('ref')) && (!q.get('sha') || p.sha === q.get('sha'))
      && (!q.get('status') || p.status === q.get('status')) && (!q.get('source') || p.source === q.get('source'))
      && (!q.get('username') || c.db.users.get(p.user_id)?.username === q.get('username'))
      && (!q.get('updated_after') || p.updated_at >= q.get('updated_after')!) && (!q.get('updated_before') || p.updated_at <= q.get('updated_before')!)
      && (q.get('scope') === null || (q.get('scope') === 'finished' ? ['success', 'failed', 'canceled', 'skipped'].includes(p.status) : q.get('scope') === 'running' ? p.status === 'running' : q.get('scope') === 'pending' ? p.status === 'pending' : true)));
    const desc = (q.get('sort') ?? 'desc') === 'desc';
    pipelines.sort((a, b) => (desc ? b.id - a.id : a.id - b.id));
    return paged(pipelines, call.req, (p) => renderPipelineBrief(c, p));
  }),
  operation<GlCtx, `${typeof P}/pipelines/latest`>('pipelines.latest', rest('GET', `${P}/pipelines/latest`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const ref = call.req.query.get('ref') ?? project.default_branch;
    const latest = c.db.pipelines.filter((p) => p.project_id === project.id && p.ref === ref).sort((a, b) => b.id - a.id)[0];
    if (!latest) throw notFound('');
    return json(renderPipeline(c, latest));
  }),
  operation<GlCtx, `${typeof P}/pipelines/:pipeline`>('pipelines.get', rest('GET', `${P}/pipelines/:pipeline`), (call, c) => json(renderPipeline(c, pipelineOf(c, visibleProject(c, call.params.id), call.params.pipeline)))),
  operation<GlCtx, `${typeof P}/pipelines/:pipeline/jobs`>('pipelines.jobs', rest('GET', `${P}/pipelines/:pipeline/jobs`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const pipeline = pipelineOf(c, project, call.params.pipeline);
    return paged(filterJobs(c.db.jobs.filter((j) => j.pipeline_id === pipeline.id), call.req.query), call.req, (j) => renderJob(c, j));
  }),
  operation<GlCtx, `${typeof P}/pipelines/:pipeline/bridges`>('pipelines.bridges', rest('GET', `${P}/pipelines/:pipeline/bridges`), (call, c) => {
    pipelineOf(c, visibleProject(c, call.params.id), call.params.pipeline);
    return paged([], call.req);
  }),
  operation<GlCtx, `${typeof P}/pipelines/:pipeline/variables`>('pipelines.variables', rest('GET', `${P}/pipelines/:pipeline/variables`), (call, c) => json(pipelineOf(c, visibleProject(c, call.params.id), call.params.pipeline).variables)),
  operation<GlCtx, `${typeof P}/pipelines/:pipeline/test_report`>('pipelines.testReport', rest('GET', `${P}/pipelines/:pipeline/test_report`), (call, c) => {
    const pipeline = pipelineOf(c, visibleProject(c, call.params.id), call.params.pipeline);
    return json(testReport(c, pipeline, false));
  }),
  operation<GlCtx, `${typeof P}/pipelines/:pipeline/test_report_summary`>('pipelines.testReportSummary', rest('GET', `${P}/pipelines/:pipeline/test_report_summary`), (call, c) => {
    const pipeline = pipelineOf(c, visibleProject(c, call.params.id), call.params.pipeline);
    const report = testReport(c, pipeline, true);
    return json({ total: { time: report.total_time, count: report.total_count, success: report.success_count, failed: report.failed_count, skipped: report.skipped_count, error: report.error_count, suite_error: null }, test_suites: report.test_suites });
  }),
  operation<GlCtx, `${typeof P}/pipeline`>('pipelines.create', rest('POST', `${P}/pipeline`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const args = argsOf(call);
    return json(renderPipeline(c, newPipeline(c, project, need(args, 'ref'), 'api', variablesOf(args))), 201);
  }),
  operation<GlCtx, `${typeof P}/trigger/pipeline`>('pipelines.trigger', rest('POST', `${P}/trigger/pipeline`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const args = argsOf(call);
    need(args, 'token');
    return json(renderPipeline(c, newPipeline(c, project, need(args, 'ref'), 'trigger', variablesOf(args))), 201);
  }),
  operation<GlCtx, `${typeof P}/pipelines/:pipeline/retry`>('pipelines.retry', rest('POST', `${P}/pipelines/:pipeline/retry`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const pipeline = pipelineOf(c, project, call.params.pipeline);
    for (const job of c.db.jobs.filter((j) => j.pipeline_id === pipeline.id && (j.status === 'failed' || j.status === 'canceled'))) retryJob(c, job);
    return json(renderPipeline(c, settle(c, pipeline)), 201);
  }),
  operation<GlCtx, `${typeof P}/pipelines/:pipeline/cancel`>('pipelines.cancel', rest('POST', `${P}/pipelines/:pipeline/cancel`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const pipeline = pipelineOf(c, project, call.params.pipeline);
    for (const job of c.db.jobs.filter((j) => j.pipeline_id === pipeline.id && ['created', 'pending', 'running', 'manual'].includes(j.status))) c.db.jobs.update(job.id, { status: 'canceled', finished_at: iso(c.ctx.nowMs) });
    const updated = settle(c, pipeline);
    return json(renderPipeline(c, c.db.jobs.filter((j) => j.pipeline_id === pipeline.id).length === 0 ? c.db.pipelines.update(pipeline.id, { status: 'canceled' })! : updated));
  }),
  operation<GlCtx, `${typeof P}/pipelines/:pipeline/metadata`>('pipelines.updateMetadata', rest('PUT', `${P}/pipelines/:pipeline/metadata`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const pipeline = pipelineOf(c, project, call.params.pipeline);
    return json(renderPipeline(c, c.db.pipelines.update(pipeline.id, { name: need(argsOf(call), 'name') })!));
  }),
  operation<GlCtx, `${typeof P}/pipelines/:pipeline`>('pipelines.delete', rest('DELETE', `${P}/pipelines/:pipeline`), (call, c) => {
    const project = writableProject(c, call.params.id, 50);
    const pipeline = pipelineOf(c, project, call.params.pipeline);
    for (const job of c.db.jobs.filter((j) => j.pipeline_id === pipeline.id)) c.db.jobs.delete(job.id);
    c.db.pipelines.delete(pipeline.id);
    return emptyResponse(204);
  }),

  operation<GlCtx, `${typeof P}/jobs`>('jobs.list', rest('GET', `${P}/jobs`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    return paged(filterJobs(c.db.jobs.filter((j) => j.project_id === project.id), call.req.query), call.req, (j) => renderJob(c, j));
  }),
  operation<GlCtx, `${typeof P}/jobs/:job`>('jobs.get', rest('GET', `${P}/jobs/:job`), (call, c) => json(renderJob(c, jobOf(c, visibleProject(c, call.params.id), call.params.job)))),
  operation<GlCtx, `${typeof P}/jobs/:job/trace`>('jobs.trace', rest('GET', `${P}/jobs/:job/trace`), (call, c) => {
    const job = jobOf(c, visibleProject(c, call.params.id), call.params.job);
    return { status: 200, headers: [['Content-Type', 'text/plain; charset=utf-8']], body: bytes(job.erased ? '' : job.log) };
  }),
  operation<GlCtx, `${typeof P}/jobs/:job/retry`>('jobs.retry', rest('POST', `${P}/jobs/:job/retry`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const job = jobOf(c, project, call.params.job);
    if (!['failed', 'canceled', 'success'].includes(job.status)) throw glError(403, '403 Forbidden - Job is not retryable');
    const retried = retryJob(c, job);
    settle(c, c.db.pipelines.get(job.pipeline_id)!);
    return json(renderJob(c, retried), 201);
  }),
  operation<GlCtx, `${typeof P}/jobs/:job/cancel`>('jobs.cancel', rest('POST', `${P}/jobs/:job/cancel`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const job = jobOf(c, project, call.params.job);
    const updated = ['created', 'pending', 'running', 'manual'].includes(job.status) ? c.db.jobs.update(job.id, { status: 'canceled', finished_at: iso(c.ctx.nowMs) })! : job;
    settle(c, c.db.pipelines.get(job.pipeline_id)!);
    return json(renderJob(c, updated), 201);
  }),
  operation<GlCtx, `${typeof P}/jobs/:job/play`>('jobs.play', rest('POST', `${P}/jobs/:job/play`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const job = jobOf(c, project, call.params.job);
    if (job.status !== 'manual') throw glError(400, 'Unplayable Job');
    const updated = c.db.jobs.update(job.id, { status: 'pending', user_id: me(c).id })!;
    settle(c, c.db.pipelines.get(job.pipeline_id)!);
    return json(renderJob(c, updated), 200);
  }),
  operation<GlCtx, `${typeof P}/jobs/:job/erase`>('jobs.erase', rest('POST', `${P}/jobs/:job/erase`), (call, c) => {
    const project = writableProject(c, call.params.id, 40);
    const job = jobOf(c, project, call.params.job);
    if (['created', 'pending', 'running'].includes(job.status)) throw glError(403, '403 Forbidden - Job is not erasable!');
    return json(renderJob(c, c.db.jobs.update(job.id, { erased: true, log: '' })!), 201);
  }),
  operation<GlCtx, `${typeof P}/jobs/:job/artifacts`>('jobs.artifacts', rest('GET', `${P}/jobs/:job/artifacts`), (call, c) => {
    jobOf(c, visibleProject(c, call.params.id), call.params.job);
    throw notFound('');
  }),
  operation<GlCtx, `${typeof P}/jobs/:job/artifacts/*path`>('jobs.artifactFile', rest('GET', `${P}/jobs/:job/artifacts/*path`), (call, c) => {
    jobOf(c, visibleProject(c, call.params.id), call.params.job);
    throw notFound('');
  }),
  operation<GlCtx, '/api/v4/job'>('jobs.current', rest('GET', `${V4}/job`), () => { throw glError(401, '401 Unauthorized'); }),
];

function retryJob(c: GlCtx, job: JobDoc): JobDoc {
  const id = numericId(c.ctx, 'jobs');
  c.db.jobs.update(job.id, { status: job.status }); // the old job stays, as GitLab keeps it (retried)
  return c.db.jobs.put(id, { ...job, id, status: 'pending', log: '', failure_reason: null, created_at: iso(c.ctx.nowMs), started_at: null, finished_at: null, duration: null, user_id: me(c).id });
}

/** A test report from the jobs' logs: lines `✓ name` / `✗ name` (jest, vitest, rspec-style output). */
function testReport(c: GlCtx, pipeline: PipelineDoc, summary: boolean) {
  const suites = c.db.jobs.filter((j) => j.pipeline_id === pipeline.id).map((j) => {
    const cases = j.log.split('\n').flatMap((line) => {
      const m = /^\s*(✓|✗|✕|PASS|FAIL)\s+(.+?)(?:\s+\((\d+)\s*ms\))?$/.exec(line);
      if (!m) return [];
      const failed = m[1] === '✗' || m[1] === '✕' || m[1] === 'FAIL';
      return [{ status: failed ? 'failed' : 'success', name: m[2]!, classname: j.name, file: null, execution_time: Number(m[3] ?? 0) / 1000, system_output: failed ? j.log.split('\n').filter((l) => /Error|expected|Expected/.test(l)).join('\n') : null, stack_trace: null, recent_failures: null }];
    });
    const failed = cases.filter((x) => x.status === 'failed').length;
    return {
      name: j.name, total_time: cases.reduce((n, x) => n + x.execution_time, 0), total_count: cases.length, success_count: cases.length - failed,
      failed_count: failed, skipped_count: 0, error_count: 0, suite_error: null, ...(summary ? { build_ids: [j.id] } : { test_cases: cases }),
    };
  }).filter((s) => s.total_count > 0);
  const sum = (field: 'total_time' | 'total_count' | 'success_count' | 'failed_count') => suites.reduce((n, s) => n + s[field], 0);
  return { total_time: sum('total_time'), total_count: sum('total_count'), success_count: sum('success_count'), failed_count: sum('failed_count'), skipped_count: 0, error_count: 0, test_suites: suites };
}


