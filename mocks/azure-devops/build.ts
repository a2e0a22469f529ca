import { jsonResponse } from '../core/http.js';
import { operation, type Operation } from '../kit/operation.js';
import { identityRef, meOf, projectOf, projectRef, q, qInt, type AdoCtx } from './context.js';
import { headOf, repoOf } from './git.js';
import { ado } from './locations.js';
import { adoError, badRequest, guidOf, iso, list, type BuildDoc, type DefinitionDoc, type ProjectDoc } from './model.js';

/**
 * Build and Pipelines (`_apis/build`, `_apis/pipelines`): definitions and their revisions,
 * builds (search, report, changes, logs and log lines, artifacts, stage retries), pipelines
 * and runs (a run is a build of the pipeline's definition; running one queues a build).
 */

const BUILD_NS = 'Microsoft.TeamFoundation.Build.WebServer';
const buildNotFound = (id: string) => adoError(404, 'BuildNotFoundException', `The requested build ${id} could not be found.`, { namespace: BUILD_NS });
const definitionNotFound = (id: string) => adoError(404, 'DefinitionNotFoundException', `The requested build definition ${id} could not be found.`, { namespace: BUILD_NS });

function buildOf(c: AdoCtx, p: ProjectDoc, id: string): BuildDoc {
  const b = c.db.builds.get(String(Number(id)));
  if (!b || b.project !== p.id) throw buildNotFound(id);
  return b;
}

function definitionOf(c: AdoCtx, p: ProjectDoc, id: string): DefinitionDoc {
  const d = c.db.definitions.get(String(Number(id)));
  if (!d || d.project !== p.id) throw definitionNotFound(id);
  return d;
}

function definitionRef(c: AdoCtx, d: DefinitionDoc) {
  const p = c.db.projects.get(d.project)!;
  return { drafts: [], id: d.id, name: d.name, url: `${c.base}/${p.id}/_apis/build/Definitions/${d.id}?revision=${d.revision}`, uri: `vstfs:///Build/Definition/${d.id}`, path: d.path, type: 'build', queueStatus: 'enabled', revision: d.revision, project: projectRef(c, p) };
}

export function renderBuild(c: AdoCtx, b: BuildDoc) {
  const p = c.db.projects.get(b.project)!;
  const d = c.db.definitions.get(String(b.definition))!;
  const repo = c.db.repositories.get(d.repo)!;
  return {
    _links: { self: { href: `${c.base}/${p.id}/_apis/build/Builds/${b.id}` }, web: { href: `${c.base}/${encodeURIComponent(p.name)}/_build/results?buildId=${b.id}` },
      sourceVersionDisplayUri: { href: `${c.base}/${p.id}/_apis/build/builds/${b.id}/sources` }, timeline: { href: `${c.base}/${p.id}/_apis/build/builds/${b.id}/Timeline` } },
    properties: {}, tags: b.tags, validationResults: [], plans: [{ planId: guidOf(c.ctx.ids.opaque(`plan:${b.id}`, 0, 32)) }],
    templateParameters: b.templateParameters, id: b.id, buildNumber: b.buildNumber, status: b.status, ...(b.result ? { result: b.result } : {}),
    queueTime: b.queueTime, ...(b.startTime ? { startTime: b.startTime } : {}), ...(b.finishTime ? { finishTime: b.finishTime } : {}),
    url: `${c.base}/${p.id}/_apis/build/Builds/${b.id}`, definition: definitionRef(c, d), buildNumberRevision: 1, project: projectRef(c, p), uri: `vstfs:///Build/Build/${b.id}`,
    sourceBranch: b.sourceBranch, sourceVersion: b.sourceVersion, queue: { id: 9, name: 'Azure Pipelines', pool: { id: 9, name: 'Azure Pipelines', isHosted: true } },
    priority: 'normal', reason: b.reason, requestedFor: identityRef(c, b.requestedFor), requestedBy: identityRef(c, b.requestedFor), lastChangedDate: b.finishTime ?? b.startTime ?? b.queueTime,
    lastChangedBy: identityRef(c, b.requestedFor), orchestrationPlan: { planId: guidOf(c.ctx.ids.opaque(`plan:${b.id}`, 0, 32)) },
    logs: { id: 0, type: 'Container', url: `${c.base}/${p.id}/_apis/build/builds/${b.id}/logs` },
    repository: { id: repo.id, type: 'TfsGit', name: repo.name, url: `${c.base}/${encodeURIComponent(p.name)}/_git/${encodeURIComponent(repo.name)}`, clean: null, checkoutSubmodules: false },
    retainedByRelease: false, triggeredByBuild: null, appendCommitMessageToRunName: true,
  };
}

function renderRun(c: AdoCtx, b: BuildDoc) {
  const p = c.db.projects.get(b.project)!;
  const d = c.db.definitions.get(String(b.definition))!;
  const state = b.status === 'completed' ? 'completed' : b.status === 'cancelling' ? 'canceling' : b.status === 'notStarted' ? 'unknown' : 'inProgress';
  return {
    _links: { self: { href: `${c.base}/${p.id}/_apis/pipelines/${d.id}/runs/${b.id}` }, web: { href: `${c.base}/${encodeURIComponent(p.name)}/_build/results?buildId=${b.id}` },
      'pipeline.web': { href: `${c.base}/${encodeURIComponent(p.name)}/_build/definition?definitionId=${d.id}` }, pipeline: { href: `${c.base}/${p.id}/_apis/pipelines/${d.id}?revision=${d.revision}` } },
    templateParameters: b.templateParameters, pipeline: { url: `${c.base}/${p.id}/_apis/pipelines/${d.id}?revision=${d.revision}`, id: d.id, revision: d.revision, name: d.name, folder: d.path },
    state, ...(b.result ? { result: b.result } : {}), createdDate: b.queueTime, ...(b.finishTime ? { finishedDate: b.finishTime } : {}),
    url: `${c.base}/${p.id}/_apis/pipelines/${d.id}/runs/${b.id}`,
    resources: { repositories: { self: { repository: { id: d.repo, type: 'azureReposGit' }, refName: b.sourceBranch, version: b.sourceVersion } } },
    id: b.id, name: b.buildNumber,
  };
}

function renderPipeline(c: AdoCtx, d: DefinitionDoc) {
  const p = c.db.projects.get(d.project)!;
  return {
    _links: { self: { href: `${c.base}/${p.id}/_apis/pipelines/${d.id}?revision=${d.revision}` }, web: { href: `${c.base}/${encodeURIComponent(p.name)}/_build/definition?definitionId=${d.id}` } },
    configuration: { path: d.yamlPath, repository: { id: d.repo, type: 'azureReposGit' }, type: 'yaml' },
    url: `${c.base}/${p.id}/_apis/pipelines/${d.id}?revision=${d.revision}`, id: d.id, revision: d.revision, name: d.name, folder: d.path,
  };
}

/** Queues a build of a definition (what run_pipeline does): the branch's head, the caller, `notStarted`. */
function queueBuild(c: AdoCtx, d: DefinitionDoc, branch: string, templateParameters: Record<string, string>): BuildDoc {
  const repo = c.db.repositories.get(d.repo)!;
  const name = branch.replace(/^refs\/heads\//, '');
  const head = headOf(c, repo, name);
  if (!head) throw adoError(400, 'PipelineValidationException', `Could not find a branch named '${name}' in repository ${repo.name}.`, { namespace: 'Microsoft.Azure.Pipelines.WebApi' });
  const id = c.ctx.ids.next('build');
  const day = new Date(c.ctx.nowMs).toISOString().slice(0, 10).replace(/-/g, '');
  const sameDay = c.db.builds.values().filter((b) => b.definition === d.id && b.buildNumber.startsWith(`${day}.`)).length;
  return c.db.builds.put(String(id), {
    id, project: d.project, definition: d.id, buildNumber: `${day}.${sameDay + 1}`, status: 'notStarted', result: null, sourceBranch: `refs/heads/${name}`,
    sourceVersion: head.objectId, reason: 'manual', requestedFor: meOf(c).uniqueName, queueTime: iso(c.ctx.nowMs), startTime: null, finishTime: null,
    tags: [], templateParameters, changes: [], artifacts: [], stages: [],
  });
}

export const buildOperations: Operation<AdoCtx>[] = [
  operation<AdoCtx, '/:org/:project/:team/_apis/build/builds'>('build.getBuilds', ado('GET', '/build/builds'), (call, c) => {
    const p = projectOf(c, call.params.project);
    const defs = q(call.req, 'definitions')?.split(',').map(Number);
    const branch = q(call.req, 'branchName');
    const status = q(call.req, 'statusFilter')?.toLowerCase();
    const result = q(call.req, 'resultFilter')?.toLowerCase();
    const number = q(call.req, 'buildNumber');
    const reason = q(call.req, 'reasonFilter')?.toLowerCase();
    const requestedFor = q(call.req, 'requestedFor')?.toLowerCase();
    const ids = q(call.req, 'buildIds')?.split(',').map(Number);
    const tags = q(call.req, 'tagFilters')?.split(',');
    const order = (q(call.req, 'queryOrder') ?? 'queueTimeDescending').toLowerCase();
    const top = qInt(call.req, '$top') ?? 1000;
    const builds = c.db.builds.values().filter((b) => b.project === p.id && (defs === undefined || defs.includes(b.definition)) && (branch === undefined || b.sourceBranch === branch)
      && (status === undefined || status === 'all' || b.status.toLowerCase() === status) && (result === undefined || (b.result ?? '').toLowerCase() === result)
      && (number === undefined || new RegExp(`^${number.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(b.buildNumber))
      && (reason === undefined || reason === 'all' || b.reason.toLowerCase() === reason) && (requestedFor === undefined || b.requestedFor.toLowerCase() === requestedFor)
      && (ids === undefined || ids.includes(b.id)) && (tags === undefined || tags.every((t) => b.tags.includes(t))));
    const key = order.startsWith('finishtime') ? 'finishTime' : order.startsWith('starttime') ? 'startTime' : 'queueTime';
    builds.sort((a, b) => String(a[key] ?? '').localeCompare(String(b[key] ?? '')) || a.id - b.id);
    if (order.endsWith('descending')) builds.reverse();
    return list(builds.slice(0, top).map((b) => renderBuild(c, b)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/build/builds/:buildId'>('build.getBuild', ado('GET', '/build/builds/:buildId'), (call, c) =>
    jsonResponse(200, renderBuild(c, buildOf(c, projectOf(c, call.params.project), call.params.buildId)))),
  operation<AdoCtx, '/:org/:project/:team/_apis/build/builds/:buildId/report'>('build.getBuildReport', ado('GET', '/build/builds/:buildId/report'), (call, c) => {
    const b = buildOf(c, projectOf(c, call.params.project), call.params.buildId);
    const failed = c.db.test_results.values().filter((r) => r.build === b.id && r.outcome === 'Failed');
    const content = [`Build ${b.buildNumber}: ${b.result ?? b.status}`, `Branch: ${b.sourceBranch}`, ...failed.map((r) => `Failed test: ${r.name}`)].join('\n');
    return jsonResponse(200, { buildId: b.id, type: 'text/plain', content });
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/build/builds/:buildId/changes'>('build.getBuildChanges', ado('GET', '/build/builds/:buildId/changes'), (call, c) => {
    const b = buildOf(c, projectOf(c, call.params.project), call.params.buildId);
    const top = qInt(call.req, '$top') ?? 50;
    return list(b.changes.slice(0, top).map((ch) => ({ id: ch.id, message: ch.message, type: 'TfsGit', author: identityRef(c, ch.author), timestamp: b.queueTime, location: `${c.base}/_apis/git/repositories/${c.db.definitions.get(String(b.definition))!.repo}/commits/${ch.id}`, messageTruncated: false })));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/build/builds/:buildId/logs'>('build.getBuildLogs', ado('GET', '/build/builds/:buildId/logs'), (call, c) => {
    const b = buildOf(c, projectOf(c, call.params.project), call.params.buildId);
    const logs = c.db.logs.values().filter((l) => l.build === b.id).sort((x, y) => x.id - y.id);
    return list(logs.map((l) => ({ lineCount: l.lines.length, createdOn: l.createdOn, lastChangedOn: l.createdOn, id: l.id, type: 'Container', url: `${c.base}/${b.project}/_apis/build/builds/${b.id}/logs/${l.id}` })));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/build/builds/:buildId/logs/:logId'>('build.getBuildLog', ado('GET', '/build/builds/:buildId/logs/:logId'), (call, c) => {
    const b = buildOf(c, projectOf(c, call.params.project), call.params.buildId);
    const log = c.db.logs.get(`${b.id}:${Number(call.params.logId)}`);
    if (!log) throw adoError(404, 'BuildLogNotFoundException', `Build log with id ${call.params.logId} could not be found for build ${b.id}.`, { namespace: BUILD_NS });
    const start = Math.max(1, qInt(call.req, 'startLine') ?? 1);
    const end = Math.min(log.lines.length, qInt(call.req, 'endLine') ?? log.lines.length);
    const lines = log.lines.slice(start - 1, end);
    if ((call.req.header('accept') ?? '').includes('application/json')) return list(lines);
    return { status: 200, headers: [['Content-Type', 'text/plain; charset=utf-8']], body: new TextEncoder().encode(lines.join('\r\n')) };
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/build/builds/:buildId/artifacts'>('build.getArtifacts', ado('GET', '/build/builds/:buildId/artifacts'), (call, c) => {
    const b = buildOf(c, projectOf(c, call.params.project), call.params.buildId);
    const render = (a: { name: string; files: Record<string, string> }, k: number) => ({
      id: k + 1, name: a.name, source: c.ctx.ids.opaque(`artifact:${b.id}:${a.name}`, 0, 32),
      resource: { type: 'Container', data: `#/${b.id}/${a.name}`, properties: { localpath: '', artifactsize: String(Object.values(a.files).reduce((s, f) => s + f.length, 0)) },
        url: `${c.base}/${b.project}/_apis/build/builds/${b.id}/artifacts?artifactName=${encodeURIComponent(a.name)}&api-version=7.2-preview.5`,
        downloadUrl: `${c.base}/${b.project}/_apis/build/builds/${b.id}/artifacts?artifactName=${encodeURIComponent(a.name)}&api-version=7.2-preview.5&%24format=zip` },
    });
    const name = q(call.req, 'artifactName');
    if (name === undefined) return list(b.artifacts.map(render));
    const k = b.artifacts.findIndex((a) => a.name === name);
    if (k < 0) throw adoError(404, 'ArtifactNotFoundException', `Artifact ${name} was not found for build ${b.id}.`, { namespace: BUILD_NS });
    if ((q(call.req, '$format') ?? '').toLowerCase() === 'zip') return { status: 200, headers: [['Content-Type', 'application/zip']], body: zipOf(b.artifacts[k]!.files) };
    return jsonResponse(200, render(b.artifacts[k]!, k));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/build/builds/:buildId/stages/:stageName'>('build.updateStage', ado('PATCH', '/build/builds/:buildId/stages/:stageName'), (call, c) => {
    const b = buildOf(c, projectOf(c, call.params.project), call.params.buildId);
    const name = decodeURIComponent(call.params.stageName);
    const stage = b.stages.find((s) => s.name === name);
    if (!stage) throw adoError(404, 'StageNotFoundException', `Stage ${name} was not found in build ${b.id}.`, { namespace: BUILD_NS });
    const body = (call.req.json() ?? {}) as { state?: unknown };
    const retry = body.state === 1 || String(body.state).toLowerCase() === 'retry';
    const cancel = body.state === 2 || String(body.state).toLowerCase() === 'cancel';
    if (!retry && !cancel) throw badRequest('The stage update state must be retry or cancel.');
    if (retry && stage.result === 'succeeded') throw adoError(400, 'InvalidStageStateException', `Stage ${name} cannot be retried because it succeeded.`, { namespace: BUILD_NS });
    c.db.builds.put(String(b.id), { ...b, status: retry ? 'inProgress' : 'cancelling', result: null, finishTime: null, stages: b.stages.map((s) => (s.name === name ? { ...s, result: retry ? 'pending' : 'canceled' } : s)) });
    return { status: 204, headers: [], body: new Uint8Array(0) };
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/build/definitions'>('build.getDefinitions', ado('GET', '/build/definitions'), (call, c) => {
    const p = projectOf(c, call.params.project);
    const name = q(call.req, 'name');
    const repositoryId = q(call.req, 'repositoryId')?.toLowerCase();
    const path = q(call.req, 'path');
    const top = qInt(call.req, '$top') ?? 1000;
    const pattern = name === undefined ? null : new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
    const defs = c.db.definitions.values().filter((d) => d.project === p.id && (pattern === null || pattern.test(d.name)) && (repositoryId === undefined || d.repo === repositoryId) && (path === undefined || d.path === path))
      .sort((a, b) => a.name.localeCompare(b.name));
    return list(defs.slice(0, top).map((d) => definitionRef(c, d)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/build/definitions/:definitionId/revisions'>('build.getDefinitionRevisions', ado('GET', '/build/definitions/:definitionId/revisions'), (call, c) => {
    const d = definitionOf(c, projectOf(c, call.params.project), call.params.definitionId);
    return list(Array.from({ length: d.revision }, (_, k) => ({ revision: k + 1, name: d.name, changedBy: identityRef(c, c.db.users.values()[0]?.uniqueName), changedDate: d.createdDate, changeType: k === 0 ? 'add' : 'update', comment: k === 0 ? '' : 'Updated YAML path', definitionUrl: `${c.base}/${d.project}/_apis/build/Definitions/${d.id}?revision=${k + 1}` })));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/pipelines'>('pipelines.list', ado('GET', '/pipelines'), (call, c) => {
    const p = projectOf(c, call.params.project);
    return list(c.db.definitions.values().filter((d) => d.project === p.id).map((d) => renderPipeline(c, d)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/pipelines'>('pipelines.createPipeline', ado('POST', '/pipelines'), (call, c) => {
    const p = projectOf(c, call.params.project);
    const body = (call.req.json() ?? {}) as { name?: string; folder?: string; configuration?: { type?: unknown; path?: string; repository?: { id?: string; name?: string; type?: unknown } } };
    if (!body.name || !body.configuration?.path) throw badRequest('The pipeline name and configuration path are required.');
    const repo = repoOf(c, p, body.configuration.repository?.id ?? body.configuration.repository?.name ?? '');
    if (c.db.definitions.values().some((d) => d.project === p.id && d.name.toLowerCase() === body.name!.toLowerCase() && d.path === (body.folder ?? '\\'))) {
      throw adoError(409, 'DefinitionExistsException', `The pipeline name ${body.name} is already in use in folder ${body.folder ?? '\\'}.`, { namespace: BUILD_NS });
    }
    const id = c.ctx.ids.next('definition');
    const d = c.db.definitions.put(String(id), { id, project: p.id, name: body.name, path: body.folder ?? '\\', repo: repo.id, yamlPath: body.configuration.path, revision: 1, createdDate: iso(c.ctx.nowMs) });
    return jsonResponse(200, renderPipeline(c, d));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/pipelines/:pipelineId'>('pipelines.getPipeline', ado('GET', '/pipelines/:pipelineId'), (call, c) =>
    jsonResponse(200, renderPipeline(c, definitionOf(c, projectOf(c, call.params.project), call.params.pipelineId)))),
  operation<AdoCtx, '/:org/:project/:team/_apis/pipelines/:pipelineId/runs'>('pipelines.listRuns', ado('GET', '/pipelines/:pipelineId/runs'), (call, c) => {
    const d = definitionOf(c, projectOf(c, call.params.project), call.params.pipelineId);
    return list(c.db.builds.values().filter((b) => b.definition === d.id).sort((a, b) => b.id - a.id).slice(0, 10000).map((b) => renderRun(c, b)));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/pipelines/:pipelineId/runs/:runId'>('pipelines.getRun', ado('GET', '/pipelines/:pipelineId/runs/:runId'), (call, c) => {
    const p = projectOf(c, call.params.project);
    const d = definitionOf(c, p, call.params.pipelineId);
    const b = buildOf(c, p, call.params.runId);
    if (b.definition !== d.id) throw buildNotFound(call.params.runId);
    return jsonResponse(200, renderRun(c, b));
  }),
  operation<AdoCtx, '/:org/:project/:team/_apis/pipelines/:pipelineId/runs'>('pipelines.runPipeline', ado('POST', '/pipelines/:pipelineId/runs'), (call, c) => {
    const d = definitionOf(c, projectOf(c, call.params.project), call.params.pipelineId);
    const body = (call.req.json() ?? {}) as { previewRun?: boolean; resources?: { repositories?: { self?: { refName?: string } } }; templateParameters?: Record<string, unknown> };
    const repo = c.db.repositories.get(d.repo)!;
    const branch = body.resources?.repositories?.self?.refName ?? `refs/heads/${repo.defaultBranch}`;
    const params = Object.fromEntries(Object.entries(body.templateParameters ?? {}).map(([k, v]) => [k, String(v)]));
    if (body.previewRun) return jsonResponse(200, { pipeline: renderPipeline(c, d), finalYaml: `# ${d.yamlPath} at ${branch}\n`, id: -1, name: 'preview', state: 'unknown' });
    return jsonResponse(200, renderRun(c, queueBuild(c, d, branch, params)));
  }),
];

/** A stored (uncompressed) zip of an artifact's files, CRC-32 included, as a download would be. */
function zipOf(files: Record<string, string>): Uint8Array {
  const enc = new TextEncoder();
  const locals: Uint8Array[] = []; const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files).sort()) {
    const data = enc.encode(text); const n = enc.encode(name); const crc = crc32(data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true); local.setUint16(4, 20, true); local.setUint32(14, crc, true); local.setUint32(18, data.length, true); local.setUint32(22, data.length, true); local.setUint16(26, n.length, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true); central.setUint16(4, 20, true); central.setUint16(6, 20, true); central.setUint32(16, crc, true); central.setUint32(20, data.length, true); central.setUint32(24, data.length, true); central.setUint16(28, n.length, true); central.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), n, data); centrals.push(new Uint8Array(central.buffer), n);
    offset += 30 + n.length + data.length;
  }
  const size = centrals.reduce((s, x) => s + x.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true); end.setUint16(8, centrals.length / 2, true); end.setUint16(10, centrals.length / 2, true); end.setUint32(12, size, true); end.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, new Uint8Array(end.buffer)];
  const out = new Uint8Array(parts.reduce((s, x) => s + x.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
