import { bytes, emptyResponse, jsonResponse, type ServiceResponse } from '../core/http.js';
import { numericId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import { groupOf, me, visibleProject, writableProject, type GlCtx } from './context.js';
import { resolveRef } from './git.js';
import { glError, iso, notFound, paged, seededSha, shaOf } from './model.js';
import { argsOf, need, str, V4 } from './params.js';
import { renderPipelineBrief, renderUser } from './render.js';

/**
 * Actions on the long-tail resources (tail.ts) and small endpoints: CI lint, schedule play and
 * ownership, environment stop, release evidence and asset downloads, uploads, todos, the
 * dependency proxy cache, `/version`, and the Orbit (knowledge graph) API, which this instance
 * does not have enabled (GitLab's 404).
 */

const json = (value: unknown, status = 200): ServiceResponse => jsonResponse(status, value);
type Doc = Record<string, unknown>;
const P = `${V4}/projects/:id` as const;

const RESERVED = new Set(['stages', 'variables', 'default', 'include', 'workflow', 'image', 'services', 'before_script', 'after_script', 'cache', 'spec']);

/** GitLab's CI lint, for the checks that need no YAML engine: every job has `script`, `trigger` or `extends`. */
export function lintCi(content: string): { valid: boolean; errors: string[]; warnings: string[] } {
  if (content.trim() === '') return { valid: false, errors: ['Please provide content of .gitlab-ci.yml'], warnings: [] };
  const errors: string[] = [];
  const lines = content.split('\n');
  lines.forEach((line, i) => {
    const top = /^([A-Za-z0-9_.\-/ ]+):\s*(.*)$/.exec(line);
    if (!top || line.startsWith(' ') || line.startsWith('#')) return;
    const name = top[1]!.trim();
    if (RESERVED.has(name) || name.startsWith('.')) return;
    let j = i + 1;
    let ok = /\b(script|trigger|extends)\b/.test(top[2]!);
    while (j < lines.length && (lines[j]!.startsWith(' ') || lines[j]!.trim() === '')) {
      if (/^\s+(script|trigger|extends|run)\s*:/.test(lines[j]!)) ok = true;
      j++;
    }
    if (!ok) errors.push(`jobs:${name} config should implement the script:, run:, or trigger: keyword`);
  });
  if (!lines.some((l) => /^[A-Za-z0-9_.\-/ ]+:/.test(l) && !RESERVED.has(l.split(':')[0]!.trim()) && !l.startsWith('.'))) errors.push('jobs config should contain at least one visible job');
  return { valid: errors.length === 0, errors, warnings: [] };
}

const store = (c: GlCtx, name: string) => c.ctx.store.collection<Doc>(name);

export const ciExtraOperations: Operation<GlCtx>[] = [
  operation<GlCtx, `${typeof P}/ci/lint`>('ciLint.project', rest('POST', `${P}/ci/lint`), (call, c) => {
    visibleProject(c, call.params.id);
    const result = lintCi(need(argsOf(call), 'content'));
    // Object.assign on the fresh lint result, not `{ ...result, … }`: Node 20's V8 adds each field after a leading spread through a slow path (docs/benchmarks.md, issue 14's eighth pass).
    return json(Object.assign(result, { merged_yaml: result.valid ? need(argsOf(call), 'content') : null, includes: [] }));
  }),
  operation<GlCtx, `${typeof P}/ci/lint`>('ciLint.projectConfig', rest('GET', `${P}/ci/lint`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const commit = resolveRef(c, project, call.req.query.get('content_ref') ?? call.req.query.get('sha') ?? null);
    const content = commit?.tree['.gitlab-ci.yml'];
    if (content === undefined) return json({ valid: false, errors: ['Please provide content of .gitlab-ci.yml'], warnings: [], merged_yaml: null, includes: [] });
    const result = lintCi(content);
    return json(Object.assign(result, { merged_yaml: result.valid ? content : null, includes: [] }));
  }),
  operation<GlCtx, `${typeof P}/pipeline_schedules/:schedule/play`>('pipelineSchedules.play', rest('POST', `${P}/pipeline_schedules/:schedule/play`), (call, c) => {
    const project = writableProject(c, call.params.id);
    if (!store(c, 'pipeline_schedules').has(`${project.id}:${call.params.schedule}`)) throw notFound('Pipeline Schedule');
    return json({ message: '201 Created' }, 201);
  }),
  operation<GlCtx, `${typeof P}/pipeline_schedules/:schedule/take_ownership`>('pipelineSchedules.takeOwnership', rest('POST', `${P}/pipeline_schedules/:schedule/take_ownership`), (call, c) => {
    const project = writableProject(c, call.params.id, 40);
    const k = `${project.id}:${call.params.schedule}`;
    const schedule = store(c, 'pipeline_schedules').get(k);
    if (!schedule) throw notFound('Pipeline Schedule');
    return json(store(c, 'pipeline_schedules').put(k, { ...schedule, owner: renderUser(me(c)), updated_at: iso(c.ctx.nowMs) }), 201);
  }),
  operation<GlCtx, `${typeof P}/pipeline_schedules/:schedule/pipelines`>('pipelineSchedules.pipelines', rest('GET', `${P}/pipeline_schedules/:schedule/pipelines`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const schedule = store(c, 'pipeline_schedules').get(`${project.id}:${call.params.schedule}`);
    if (!schedule) throw notFound('Pipeline Schedule');
    return paged(c.db.pipelines.filter((p) => p.project_id === project.id && p.source === 'schedule' && p.ref === schedule.ref).sort((a, b) => a.id - b.id), call.req, (p) => renderPipelineBrief(c, p));
  }),
  operation<GlCtx, `${typeof P}/environments/stop_stale`>('environments.stopStale', rest('POST', `${P}/environments/stop_stale`), (call, c) => {
    writableProject(c, call.params.id, 40);
    need(argsOf(call), 'before');
    return json({ message: 'Successfully requested stop for all stale environments' });
  }),
  operation<GlCtx, `${typeof P}/environments/:environment/stop`>('environments.stop', rest('POST', `${P}/environments/:environment/stop`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const k = `${project.id}:${call.params.environment}`;
    const env = store(c, 'environments').get(k);
    if (!env) throw notFound('Environment');
    return json(store(c, 'environments').put(k, { ...env, state: 'stopped', updated_at: iso(c.ctx.nowMs) }));
  }),
  operation<GlCtx, `${typeof P}/environments/review_apps`>('environments.deleteReviewApps', rest('DELETE', `${P}/environments/review_apps`), (call, c) => {
    const project = writableProject(c, call.params.id, 40);
    const dry = call.req.query.get('dry_run') !== 'false';
    const review = store(c, 'environments').entries().filter(([k, e]) => k.startsWith(`${project.id}:`) && String(e.name).startsWith('review/') && e.state === 'stopped');
    if (!dry) for (const [k] of review) store(c, 'environments').delete(k);
    return json({ scheduled_entries: review.map(([, e]) => ({ id: e.id, name: e.name, slug: e.slug, external_url: e.external_url ?? null })), unprocessable_entries: [] }, dry ? 200 : 202);
  }),
  operation<GlCtx, `${typeof P}/statuses/:sha`>('commitStatuses.create', rest('POST', `${P}/statuses/:sha`), (call, c) => {
    const project = writableProject(c, call.params.id);
    const commit = resolveRef(c, project, call.params.sha);
    if (!commit) throw notFound('Commit');
    const args = argsOf(call);
    const state = need(args, 'state');
    if (!['pending', 'running', 'success', 'failed', 'canceled', 'skipped'].includes(state)) throw glError(400, 'state does not have a valid value');
    const id = numericId(c.ctx, 'commit_statuses');
    const now = iso(c.ctx.nowMs);
    const status = {
      id, sha: commit.id, ref: str(args, 'ref') ?? null, status: state, name: str(args, 'name') ?? str(args, 'context') ?? 'default', target_url: str(args, 'target_url') ?? null,
      description: str(args, 'description') ?? null, created_at: now, started_at: state === 'pending' ? null : now, finished_at: ['success', 'failed', 'canceled', 'skipped'].includes(state) ? now : null,
      allow_failure: false, coverage: null, pipeline_id: null, author: renderUser(me(c)),
    };
    return json(store(c, 'commit_statuses').put(`${project.id}:${commit.id}:${id}`, status), 201);
  }),
  operation<GlCtx, `${typeof P}/deployments/:deployment/merge_requests`>('deployments.mergeRequests', rest('GET', `${P}/deployments/:deployment/merge_requests`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    if (!store(c, 'deployments').has(`${project.id}:${call.params.deployment}`)) throw notFound('Deployment');
    return paged([], call.req);
  }),
  operation<GlCtx, `${typeof P}/deployments/:deployment/approval`>('deployments.approve', rest('POST', `${P}/deployments/:deployment/approval`), (call, c) => {
    const project = writableProject(c, call.params.id);
    if (!store(c, 'deployments').has(`${project.id}:${call.params.deployment}`)) throw notFound('Deployment');
    const status = need(argsOf(call), 'status');
    return json({ user: renderUser(me(c)), status, created_at: iso(c.ctx.nowMs), comment: str(argsOf(call), 'comment') ?? null }, 201);
  }),
  operation<GlCtx, `${typeof P}/releases/:tag/evidence`>('releases.evidence', rest('POST', `${P}/releases/:tag/evidence`), (call, c) => {
    const project = writableProject(c, call.params.id, 40);
    const k = `${project.id}:${call.params.tag}`;
    const release = store(c, 'releases').get(k);
    if (!release) throw notFound('Release');
    const evidences = [...((release.evidences as Doc[] | undefined) ?? []), { sha: shaOf('evidence', k, c.ctx.seq), filepath: `https://gitlab.com/-/releases/${call.params.tag}/evidence.json`, collected_at: iso(c.ctx.nowMs) }];
    store(c, 'releases').put(k, { ...release, evidences });
    return json(201, 201);
  }),
  operation<GlCtx, `${typeof P}/releases/:tag/downloads/*path`>('releases.download', rest('GET', `${P}/releases/:tag/downloads/*path`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const release = store(c, 'releases').get(`${project.id}:${call.params.tag}`);
    if (!release) throw notFound('Release');
    const links = (((release.assets as Doc | undefined)?.links as Doc[] | undefined) ?? []);
    const link = links.find((l) => String(l.direct_asset_path ?? '').replace(/^\//, '') === call.params.path);
    if (!link) throw notFound('');
    return emptyResponse(302, [['Location', String(link.url)]]);
  }),
  operation<GlCtx, `${typeof P}/uploads`>('uploads.create', rest('POST', `${P}/uploads`), (call, c) => {
    const project = writableProject(c, call.params.id, 10);
    const parts = call.decoded.kind === 'multipart' ? call.decoded.value : {};
    const file = Array.isArray(parts.file) ? parts.file[0] : parts.file;
    if (!file) throw glError(400, 'file is missing');
    const filename = file.filename ?? 'upload';
    const secret = seededSha(c.ctx, 'upload').slice(0, 32);
    const id = numericId(c.ctx, 'uploads');
    const content = file.bytes;
    store(c, 'uploads').put(`${project.id}:${secret}/${filename}`, { id, filename, size: content.length, content: Buffer.from(content).toString('base64') });
    const url = `/uploads/${secret}/${filename}`;
    return json({ id, alt: filename.replace(/\.[^.]*$/, ''), url, full_path: `/-/project/${project.id}${url}`, markdown: `[${filename}](${url})` }, 201);
  }),
  operation<GlCtx, `${typeof P}/uploads/:secret/:filename`>('uploads.get', rest('GET', `${P}/uploads/:secret/:filename`), (call, c) => {
    const project = visibleProject(c, call.params.id);
    const upload = store(c, 'uploads').get(`${project.id}:${call.params.secret}/${call.params.filename}`);
    if (!upload) throw notFound('');
    return { status: 200, headers: [['Content-Type', 'application/octet-stream'], ['Content-Disposition', `attachment; filename="${call.params.filename}"`]], body: new Uint8Array(Buffer.from(String(upload.content), 'base64')) };
  }),
  operation<GlCtx, '/api/v4/todos/mark_as_done'>('todos.markAllDone', rest('POST', `${V4}/todos/mark_as_done`), (_call, c) => {
    for (const [k, todo] of store(c, 'todos').entries()) store(c, 'todos').put(k, { ...todo, state: 'done' });
    return emptyResponse(204);
  }),
  operation<GlCtx, '/api/v4/todos/:todo/mark_as_done'>('todos.markDone', rest('POST', `${V4}/todos/:todo/mark_as_done`), (call, c) => {
    const todo = store(c, 'todos').get(`:${call.params.todo}`);
    if (!todo) throw notFound('Todo');
    return json(store(c, 'todos').put(`:${call.params.todo}`, { ...todo, state: 'done' }), 201);
  }),
  operation<GlCtx, '/api/v4/groups/:id/dependency_proxy/cache'>('dependencyProxy.purge', rest('DELETE', `${V4}/groups/:id/dependency_proxy/cache`), (call, c) => {
    groupOf(c, call.params.id);
    return { status: 202, headers: [['Content-Type', 'application/json']], body: bytes('202') };
  }),
  operation<GlCtx, '/api/v4/version'>('version.get', rest('GET', `${V4}/version`), () => json({ version: '18.6.0-pre', revision: 'a1b2c3d4e5f', kas: { enabled: true, externalUrl: 'wss://kas.gitlab.com', externalK8sProxyUrl: 'https://kas.gitlab.com/k8s-proxy', version: '18.6.0' }, enterprise: true })),
  ...['query', 'schema', 'status', 'tools'].map((part) => operation<GlCtx, string>(`orbit.${part}`, rest(part === 'query' ? 'POST' : 'GET', `${V4}/orbit/${part}`), () => { throw glError(404, '404 Not Found'); })),
];
