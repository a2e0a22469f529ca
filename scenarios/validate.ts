import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { endpointTemplates, placeholderProblems } from '../catalog/env-template.js';
import { loadCatalog, type LoadedCatalog } from '../catalog/load.js';
import { endpointChoiceProblems, scenarioEndpoints } from '../catalog/scenario-endpoints.js';
import { DEFAULT_SNAPSHOT_DIR, readSnapshots } from '../catalog/snapshots.js';
import { prepareWorld } from './world.js';
import { isToolbenchError } from '../mocks/core/errors.js';
import { MemoryJournal } from '../mocks/core/journal.js';
import { World } from '../mocks/core/world.js';
import { compileNameGlob } from '../mocks/core/patterns.js';
import { alternatives, type CallMatcher } from './expectations.js';
import { withIgnores } from './grade/index.js';
import { expectationHolds, volatileProblems, type VolatileFields } from './grade/state.js';
import type { ScenarioManifest } from './manifest.js';

/** Every scenario folder (one holding scenario.toml) under `root`, sorted. */
export function findScenarios(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (existsSync(join(dir, 'scenario.toml'))) out.push(dir);
    for (const name of readdirSync(dir).sort()) {
      const child = join(dir, name);
      if (name !== 'dataset' && name !== 'node_modules' && statSync(child).isDirectory()) walk(child);
    }
  };
  walk(root);
  return out;
}

/**
 * All that is wrong with a scenario, each naming its file and field: the manifest and datasets
 * (through their schemas), the instruction, the oracle's endpoints and tools, and every volatile
 * or ignored field against the scenario's own initial state.
 */
export async function validateScenario(dir: string, catalog: LoadedCatalog = loadCatalog(), snapshotDir = DEFAULT_SNAPSHOT_DIR): Promise<string[]> {
  return (await checkScenario(dir, catalog, snapshotDir)).problems;
}

export interface ScenarioCheck {
  /** What makes the scenario unusable (validate exits 2). */
  problems: string[];
  /** What lets a trial pass that should not (validate says so and exits 0). */
  warnings: string[];
}

/** {@link validateScenario}'s problems, and the warnings of {@link gradingWarnings}. */
export async function checkScenario(dir: string, catalog: LoadedCatalog = loadCatalog(), snapshotDir = DEFAULT_SNAPSHOT_DIR): Promise<ScenarioCheck> {
  const problems: string[] = [];
  const manifestPath = join(resolve(dir), 'scenario.toml');
  let prepared;
  try {
    prepared = await prepareWorld({ scenarioDir: dir, catalog });
  } catch (error) {
    if (isToolbenchError(error)) return { problems: [error.message], warnings: [] };
    throw error;
  }
  const { manifest, header, services } = prepared;
  if (!existsSync(join(resolve(dir), 'instruction.md'))) problems.push(`${join(resolve(dir), 'instruction.md')}: file not found`);
  const tools = snapshotToolNames(snapshotDir);
  manifest.oracle.calls.forEach((call, i) => {
    const endpoint = catalog.catalog.endpoints.find((e) => e.id === call.endpoint);
    if (!endpoint) problems.push(`${manifestPath}: field oracle.calls[${i}].endpoint: no endpoint "${call.endpoint}" in the catalog`);
    else if (!manifest.services.includes(endpoint.service)) problems.push(`${manifestPath}: field oracle.calls[${i}].endpoint: "${call.endpoint}" serves ${endpoint.service}, which the scenario's services do not list`);
    else if (tools.has(call.endpoint) && !tools.get(call.endpoint)!.has(call.tool)) problems.push(`${manifestPath}: field oracle.calls[${i}].tool: ${call.endpoint} has no tool "${call.tool}"`);
  });
  // Each endpoint's templates take the scenario's credential as it is written (string or table).
  for (const problem of endpointChoiceProblems(manifest, catalog.catalog)) problems.push(`${manifestPath}: ${problem}`);
  for (const endpoint of scenarioEndpoints(manifest, catalog.catalog)) {
    for (const problem of placeholderProblems(endpointTemplates(endpoint), 'credential', manifest.credentials[endpoint.service])) {
      problems.push(`${manifestPath}: field credentials.${endpoint.service}: catalog ${problem}`);
    }
  }
  for (const [i, e] of manifest.expect.state.entries()) {
    if (!manifest.services.includes(e.service)) problems.push(`${manifestPath}: field expect.state[${i}].service: "${e.service}" is not one of the scenario's services`);
  }
  // Only the scenario's own services: the others answer from the shared baseline, the same in every
  // scenario (their own scenarios check it), and loading all 29 per scenario was most of the cost.
  const own = services.filter((service) => manifest.services.includes(service.id));
  const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services: own, journal: new MemoryJournal(header) });
  problems.push(...operationProblems(manifest, (service) => world.definition(service)?.operationNames?.() ?? null, catalog, manifestPath));
  const initial = world.gradingState('initial');
  const volatile: VolatileFields = {};
  for (const service of world.serviceIds) {
    const declared = world.definition(service)?.volatile;
    if (declared) volatile[service] = { ...declared };
  }
  const { scenarioOnly } = withIgnores(volatile, manifest.expect.ignore);
  for (const problem of volatileProblems(scenarioOnly, [initial], { strict: true })) problems.push(`${manifestPath}: field expect.ignore: ${problem}`);
  for (const problem of volatileProblems(volatile, [initial], { strict: false })) problems.push(`mock ${problem.split('.')[0]}: volatile field ${problem}`);
  // The state checks that do not hold at the start: the changes a trial must make.
  const changing = problems.length > 0 ? [] : manifest.expect.state.filter((e) => !expectationHolds(e, initial, initial));
  return { problems, warnings: gradingWarnings(manifest, changing.map((e) => e.service), catalog, manifestPath) };
}

/**
 * A call matcher's `operation` that names nothing its service can answer: a required call that can
 * never be met, or a forbidden call that never fires (`getJobTests` for CircleCI's `getJobTestResults`).
 * The service is the matcher's tool endpoint's, else any of the scenario's; a service whose names
 * are open (a name built from the request, as Kubernetes' `pods.list`) is not checked.
 */
export function operationProblems(
  manifest: ScenarioManifest, namesOf: (service: string) => readonly string[] | null, catalog: LoadedCatalog, file: string,
): string[] {
  const problems: string[] = [];
  const check = (m: CallMatcher, field: string) => {
    if (m.operation === undefined) return;
    const endpoint = m.tool?.endpoint === undefined ? undefined : catalog.catalog.endpoints.find((e) => e.id === m.tool!.endpoint);
    const services = endpoint ? [endpoint.service] : manifest.services;
    const known = services.map(namesOf);
    if (known.some((names) => names === null)) return;
    const matches = compileNameGlob(m.operation);
    if (known.some((names) => names!.some(matches))) return;
    problems.push(`${file}: field ${field}.operation: ${services.join(' or ')} has no operation "${m.operation}"${nearest(m.operation, known.flatMap((names) => names!))}`);
  };
  manifest.expect.required_calls.forEach((call, i) => {
    alternatives(call).forEach((m, j) => check(m, `expect.required_calls[${i}]${'any_of' in call ? `.any_of[${j}]` : ''}`));
  });
  manifest.expect.forbidden_calls.forEach((m, i) => check(m, `expect.forbidden_calls[${i}]`));
  return problems;
}

/** `; did you mean "x"?` for the known names sharing the longest prefix with `name` (up to three). */
function nearest(name: string, names: readonly string[]): string {
  const literal = name.split('*')[0]!.toLowerCase();
  const shared = (candidate: string) => {
    const lower = candidate.toLowerCase();
    let n = 0;
    while (n < literal.length && n < lower.length && literal[n] === lower[n]) n++;
    return n;
  };
  const best = Math.max(0, ...names.map(shared));
  if (best < 3) return '';
  const picks = names.filter((candidate) => shared(candidate) === best).slice(0, 3);
  return `; did you mean ${picks.map((p) => `"${p}"`).join(', ')}?`;
}

/** Each endpoint's tool names from the snapshots, read once per folder while its files stay as they were. */
const snapshotCache = new Map<string, { stamp: string; tools: Map<string, Set<string>> }>();
function snapshotToolNames(dir: string): Map<string, Set<string>> {
  if (!existsSync(dir)) return new Map();
  const stamp = readdirSync(dir).sort().map((name) => `${name}:${statSync(join(dir, name)).mtimeMs}`).join('|');
  const cached = snapshotCache.get(dir);
  if (cached?.stamp === stamp) return cached.tools;
  const tools = new Map(readSnapshots(dir).map((snapshot) => [snapshot.endpoint, new Set(snapshot.tools.map((t) => t.name))]));
  snapshotCache.set(dir, { stamp, tools });
  return tools;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Where a bypassed write could pass: a service whose expected state must change while no required
 * call is a write through MCP (a writing method or an operation, and `tool`) on it, and a required write without `tool`
 * (a request made straight through the API would satisfy it).
 */
export function gradingWarnings(manifest: ScenarioManifest, changingServices: readonly string[], catalog: LoadedCatalog, file: string): string[] {
  const warnings: string[] = [];
  const serviceOf = (m: CallMatcher): string | undefined => {
    if (m.tool?.endpoint !== undefined) return catalog.catalog.endpoints.find((e) => e.id === m.tool!.endpoint)?.service;
    return manifest.services.length === 1 ? manifest.services[0] : undefined;
  };
  // A write through MCP: a writing method, or (for RPC-style services, where the method says
  // nothing) a named operation, and a tool.
  const mcpWrite = (m: CallMatcher) => m.tool !== undefined && (m.method !== undefined ? !READS.has(m.method) : m.operation !== undefined);
  manifest.expect.required_calls.forEach((call, i) => {
    alternatives(call).forEach((m, j) => {
      if (m.method !== undefined && !READS.has(m.method) && m.tool === undefined) {
        warnings.push(`${file}: field expect.required_calls[${i}]${'any_of' in call ? `.any_of[${j}]` : ''}: a ${m.method} without tool: a request made straight through the API (bypassing MCP) satisfies it; add tool = { endpoint = "…" }`);
      }
    });
  });
  for (const service of new Set(changingServices)) {
    const covered = manifest.expect.required_calls.some((call) => alternatives(call).every((m) => mcpWrite(m) && serviceOf(m) === service));
    if (!covered) {
      warnings.push(`${file}: the expected ${service} state can change without any required call: a write made straight through the API would pass; `
        + 'add an [[expect.required_calls]] for each state-changing call, with its method and tool = { endpoint = "…" }');
    }
  }
  return warnings;
}
