import { emptyResponse, jsonResponse } from '../core/http.js';
import { uuidId } from '../kit/ids.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { DoCtx } from './context.js';
import { doError, iso, notFound, pageOf, unprocessable } from './model.js';

/**
 * GenAI agent simulations (`/v2/gen-ai/scenario_sets`, `/simulation_runs`, `/scenario_library`),
 * which the MCP server calls but DigitalOcean's published description does not yet list: scenario
 * sets and runs kept as state in the API's wrapping (`{"scenario_set": {…}}`, lists with
 * `links`/`meta`), a fixed library of three scenario templates, runs `queued` until cancelled.
 * No run executes: journeys are listed empty and a journey id is a 404.
 */

const BASE = '/v2/gen-ai';

interface Scenario { uuid: string; name: string; description: string; persona: string; goal: string }
interface ScenarioSet { uuid: string; name: string; description: string; scenarios: Scenario[]; created_at: string; updated_at: string }
interface Run { uuid: string; name: string; scenario_set_uuid: string; agent_uuid: string; status: 'queued' | 'running' | 'completed' | 'cancelled'; created_at: string; updated_at: string }

const LIBRARY = [
  { uuid: '5b6f1d7e-1f3c-4e0a-9a51-0c1b2d3e4f01', name: 'Customer support basics', description: 'Refunds, order status and account questions from polite and impatient customers.' },
  { uuid: '5b6f1d7e-1f3c-4e0a-9a51-0c1b2d3e4f02', name: 'Prompt injection probes', description: 'Users who try to make the agent ignore its instructions or reveal them.' },
  { uuid: '5b6f1d7e-1f3c-4e0a-9a51-0c1b2d3e4f03', name: 'Multi-turn troubleshooting', description: 'A user with a broken deployment who needs several clarifying questions.' },
];

const sets = (c: DoCtx) => c.ctx.store.collection<ScenarioSet>('genai_scenario_sets');
const runs = (c: DoCtx) => c.ctx.store.collection<Run>('genai_simulation_runs');

function setOf(c: DoCtx, uuid: string): ScenarioSet {
  const s = sets(c).get(uuid);
  if (!s) throw notFound();
  return s;
}
function runOf(c: DoCtx, uuid: string): Run {
  const r = runs(c).get(uuid);
  if (!r) throw notFound();
  return r;
}

function newSet(c: DoCtx, name: string, description: string, scenarios: readonly Record<string, unknown>[]): ScenarioSet {
  const now = iso(c.ctx.nowMs);
  const set: ScenarioSet = {
    uuid: uuidId(c.ctx, 'scenario_set'), name, description, created_at: now, updated_at: now,
    scenarios: scenarios.map((s, i) => ({ uuid: uuidId(c.ctx, 'scenario'), name: String(s.name ?? `Scenario ${i + 1}`), description: String(s.description ?? ''), persona: String(s.persona ?? ''), goal: String(s.goal ?? '') })),
  };
  sets(c).put(set.uuid, set);
  return set;
}

const body = (call: { body: unknown }) => (call.body && typeof call.body === 'object' ? call.body as Record<string, unknown> : {});

export const simulationOperations: Operation<DoCtx>[] = [
  // A batch file's presigned upload (the URL `POST /v1/batches/files` hands out carries its own signature, no token).
  operation<DoCtx, '/v1/batches/files/:file_id/content'>('presigned.upload_batch_file', rest('PUT', '/v1/batches/files/:file_id/content'), (call, c) => {
    if (!call.query['X-Amz-Signature']) throw doError(403, 'forbidden', 'Request has no signature');
    c.ctx.store.collection<{ file_id: string; bytes: number }>('batch_file_uploads').put(call.params.file_id, { file_id: call.params.file_id, bytes: call.req.body.length });
    return emptyResponse(200);
  }),
  operation<DoCtx, '/v2/gen-ai/scenario_sets'>('genai_list_scenario_sets', rest('GET', `${BASE}/scenario_sets`), (call, c) =>
    jsonResponse(200, pageOf(sets(c).values(), 'scenario_sets', `${BASE}/scenario_sets`, call.query))),
  operation<DoCtx, '/v2/gen-ai/scenario_sets'>('genai_create_scenario_set', rest('POST', `${BASE}/scenario_sets`), (call, c) => {
    const b = body(call);
    if (typeof b.name !== 'string' || b.name === '') throw unprocessable('name is required');
    return jsonResponse(200, { scenario_set: newSet(c, b.name, String(b.description ?? ''), Array.isArray(b.scenarios) ? b.scenarios as Record<string, unknown>[] : []) });
  }),
  operation<DoCtx, '/v2/gen-ai/scenario_sets/generate'>('genai_generate_scenario_set', rest('POST', `${BASE}/scenario_sets/generate`), (call, c) => {
    const b = body(call);
    const count = Math.min(20, Math.max(1, Number(b.num_scenarios ?? b.count ?? 3) || 3));
    const topic = String(b.description ?? b.agent_description ?? b.name ?? 'the agent');
    const scenarios = Array.from({ length: count }, (_, i) => ({ name: `Generated scenario ${i + 1}`, description: `A user asks ${topic} for help (${i + 1}).` }));
    return jsonResponse(200, { scenario_set: newSet(c, String(b.name ?? 'Generated scenarios'), topic, scenarios) });
  }),
  operation<DoCtx, '/v2/gen-ai/scenario_sets/:uuid'>('genai_get_scenario_set', rest('GET', `${BASE}/scenario_sets/:uuid`), (call, c) => jsonResponse(200, { scenario_set: setOf(c, call.params.uuid) })),
  operation<DoCtx, '/v2/gen-ai/scenario_sets/:uuid'>('genai_update_scenario_set', rest('PUT', `${BASE}/scenario_sets/:uuid`), (call, c) => {
    const s = setOf(c, call.params.uuid);
    const b = body(call);
    const updated = { ...s, ...(typeof b.name === 'string' ? { name: b.name } : {}), ...(typeof b.description === 'string' ? { description: b.description } : {}), updated_at: iso(c.ctx.nowMs) };
    sets(c).put(s.uuid, updated);
    return jsonResponse(200, { scenario_set: updated });
  }),
  operation<DoCtx, '/v2/gen-ai/scenario_sets/:uuid'>('genai_delete_scenario_set', rest('DELETE', `${BASE}/scenario_sets/:uuid`), (call, c) => {
    setOf(c, call.params.uuid);
    sets(c).delete(call.params.uuid);
    return emptyResponse(204);
  }),
  operation<DoCtx, '/v2/gen-ai/scenario_sets/:uuid/scenarios'>('genai_list_scenarios', rest('GET', `${BASE}/scenario_sets/:uuid/scenarios`), (call, c) =>
    jsonResponse(200, pageOf(setOf(c, call.params.uuid).scenarios, 'scenarios', `${BASE}/scenario_sets/${call.params.uuid}/scenarios`, call.query))),
  operation<DoCtx, '/v2/gen-ai/scenario_sets/:uuid/download_url'>('genai_get_scenario_set_download_url', rest('GET', `${BASE}/scenario_sets/:uuid/download_url`), (call, c) => {
    const s = setOf(c, call.params.uuid);
    return jsonResponse(200, { download_url: `https://genai-scenario-sets.nyc3.digitaloceanspaces.com/${s.uuid}.jsonl`, expires_at: iso(c.ctx.nowMs + 900_000) });
  }),
  operation<DoCtx, '/v2/gen-ai/scenario_library'>('genai_list_scenario_library', rest('GET', `${BASE}/scenario_library`), (call) =>
    jsonResponse(200, pageOf(LIBRARY, 'library_scenarios', `${BASE}/scenario_library`, call.query))),
  operation<DoCtx, '/v2/gen-ai/scenario_library/:uuid/scenarios'>('genai_list_scenario_library_scenarios', rest('GET', `${BASE}/scenario_library/:uuid/scenarios`), (call) => {
    const entry = LIBRARY.find((l) => l.uuid === call.params.uuid);
    if (!entry) throw notFound();
    return jsonResponse(200, pageOf([1, 2, 3].map((i) => ({ name: `${entry.name} ${i}`, description: entry.description })), 'scenarios', `${BASE}/scenario_library/${entry.uuid}/scenarios`, call.query));
  }),
  operation<DoCtx, '/v2/gen-ai/scenario_library/:uuid/create_scenario_set'>('genai_create_scenario_set_from_library', rest('POST', `${BASE}/scenario_library/:uuid/create_scenario_set`), (call, c) => {
    const entry = LIBRARY.find((l) => l.uuid === call.params.uuid);
    if (!entry) throw notFound();
    const b = body(call);
    return jsonResponse(200, { scenario_set: newSet(c, String(b.name ?? entry.name), entry.description, [1, 2, 3].map((i) => ({ name: `${entry.name} ${i}`, description: entry.description }))) });
  }),
  operation<DoCtx, '/v2/gen-ai/simulation_runs'>('genai_list_simulation_runs', rest('GET', `${BASE}/simulation_runs`), (call, c) =>
    jsonResponse(200, pageOf(runs(c).values(), 'simulation_runs', `${BASE}/simulation_runs`, call.query))),
  operation<DoCtx, '/v2/gen-ai/simulation_runs'>('genai_create_simulation_run', rest('POST', `${BASE}/simulation_runs`), (call, c) => {
    const b = body(call);
    const setUuid = String(b.scenario_set_uuid ?? '');
    setOf(c, setUuid);
    const now = iso(c.ctx.nowMs);
    const run: Run = { uuid: uuidId(c.ctx, 'simulation_run'), name: String(b.name ?? 'Simulation run'), scenario_set_uuid: setUuid, agent_uuid: String(b.agent_uuid ?? b.agent_deployment_name ?? ''), status: 'queued', created_at: now, updated_at: now };
    runs(c).put(run.uuid, run);
    return jsonResponse(200, { simulation_run: run });
  }),
  operation<DoCtx, '/v2/gen-ai/simulation_runs/:uuid'>('genai_get_simulation_run', rest('GET', `${BASE}/simulation_runs/:uuid`), (call, c) => jsonResponse(200, { simulation_run: runOf(c, call.params.uuid) })),
  operation<DoCtx, '/v2/gen-ai/simulation_runs/:uuid'>('genai_update_simulation_run', rest('PUT', `${BASE}/simulation_runs/:uuid`), (call, c) => {
    const r = runOf(c, call.params.uuid);
    const b = body(call);
    const updated = { ...r, ...(typeof b.name === 'string' ? { name: b.name } : {}), updated_at: iso(c.ctx.nowMs) };
    runs(c).put(r.uuid, updated);
    return jsonResponse(200, { simulation_run: updated });
  }),
  operation<DoCtx, '/v2/gen-ai/simulation_runs/:uuid/cancel'>('genai_cancel_simulation_run', rest('PATCH', `${BASE}/simulation_runs/:uuid/cancel`), (call, c) => {
    const r = runOf(c, call.params.uuid);
    const updated = { ...r, status: 'cancelled' as const, updated_at: iso(c.ctx.nowMs) };
    runs(c).put(r.uuid, updated);
    return jsonResponse(200, { simulation_run: updated });
  }),
  operation<DoCtx, '/v2/gen-ai/simulation_runs/:uuid'>('genai_delete_simulation_run', rest('DELETE', `${BASE}/simulation_runs/:uuid`), (call, c) => {
    runOf(c, call.params.uuid);
    runs(c).delete(call.params.uuid);
    return emptyResponse(204);
  }),
  operation<DoCtx, '/v2/gen-ai/simulation_runs/:uuid/journeys'>('genai_list_simulation_journeys', rest('GET', `${BASE}/simulation_runs/:uuid/journeys`), (call, c) => {
    runOf(c, call.params.uuid);
    return jsonResponse(200, pageOf([], 'journeys', `${BASE}/simulation_runs/${call.params.uuid}/journeys`, call.query));
  }),
  ...['', '/trajectory', '/trajectory_url'].map((suffix) => operation<DoCtx, '/v2/gen-ai/simulation_runs/:uuid/journeys/:journey'>(`genai_get_simulation_journey${suffix.replace('/', '_')}`, rest('GET', `${BASE}/simulation_runs/:uuid/journeys/:journey${suffix}` as '/v2/gen-ai/simulation_runs/:uuid/journeys/:journey'), (call, c) => {
    runOf(c, call.params.uuid);
    throw notFound();
  })),
];
