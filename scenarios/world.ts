/**
 * The composition root of a world: catalog + scenario + datasets (the scenario's own and the
 * shared baselines) + journal → a World. It lives here, above mocks/, so the world core and the
 * mocks import neither the catalog nor the scenarios (docs/design.md).
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadCatalog, type LoadedCatalog } from '../catalog/load.js';
import { TOOLBENCH_ROOT } from '../catalog/paths.js';
import type { NoiseEntry } from '../catalog/schema.js';
import { datasetHash, datasetSource, fileHash, loadDatasetFile } from '../mocks/core/dataset.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import { resolveFaultPlan, type ChaosLevel } from '../mocks/core/fault-plan.js';
import { LevelJournal, MemoryJournal, type Journal } from '../mocks/core/journal.js';
import { JOURNAL_FORMAT, type JournalHeader } from '../mocks/core/journal-format.js';
import type { NoiseAnswer } from '../mocks/core/noise.js';
import { World, type HostedService } from '../mocks/core/world.js';
import { serviceModules, type ServiceModule } from '../mocks/registry.js';
import type { ServiceDefinition } from '../mocks/core/service.js';
import { TOOLBENCH_VERSION } from '../mocks/version.js';
import { loadScenarioManifest, type ScenarioManifest } from './manifest.js';

export interface OpenWorldOptions {
  scenarioDir: string;
  /** Overrides the scenario's seed. */
  seed?: number;
  catalog?: LoadedCatalog;
  /** A new LevelDB journal here; without it the journal is kept in memory. */
  journalDir?: string;
  /** A `--chaos` preset added after the scenario's own `[[faults]]` (docs/faults.md); default none. */
  chaos?: ChaosLevel;
  /** The shared background datasets; default `scenarios/baseline/dataset/`. */
  baselineDir?: string;
  /**
   * sha256 of dataset files read already by the caller's batch, by path (`replay --verify` of many
   * journals hashes each baseline once, not once per journal); filled as files are hashed.
   */
  fileHashes?: Map<string, string>;
}

/** The shared background world every scenario gets for the services it does not name. */
export const BASELINE_DIR = join(TOOLBENCH_ROOT, 'scenarios', 'baseline', 'dataset');

export interface OpenedWorld {
  world: World;
  header: JournalHeader;
  catalog: LoadedCatalog;
  manifest: ScenarioManifest;
}

export interface PreparedWorld {
  header: JournalHeader;
  services: HostedService[];
  noise: NoiseAnswer[];
  catalog: LoadedCatalog;
  manifest: ScenarioManifest;
}

/**
 * Everything a world needs, read and validated before the first request: catalog, scenario,
 * datasets. The mocks of the scenario's services (and of any service with a dataset from
 * elsewhere) are imported now; the others, with their committed baselines, when first used.
 */
export async function prepareWorld(options: OpenWorldOptions): Promise<PreparedWorld> {
  const plan = planWorld(options);
  return plan.build(new Map(await Promise.all(plan.eager.map(async (id) => [id, await serviceModules.get(id)!.load()] as const))));
}

/**
 * {@link prepareWorld} with every mock given (`mocks/index.ts`'s map), synchronously: for code
 * that has imported them all already (tests, tools that read every service).
 */
export function prepareWorldWith(definitions: ReadonlyMap<string, ServiceDefinition>, options: OpenWorldOptions): PreparedWorld {
  return planWorld(options).build(definitions);
}

/** What `prepareWorld` decides before importing anything: which mocks it needs now, then how to build. */
function planWorld(options: OpenWorldOptions) {
  const catalog = options.catalog ?? loadCatalog();
  const scenarioDir = resolve(options.scenarioDir);
  const manifest = loadScenarioManifest(scenarioDir);
  const known = new Set(catalog.catalog.services.map((service) => service.id));
  for (const id of manifest.services) {
    if (!known.has(id)) {
      throw new ToolbenchError('TB_ERR_SCENARIO', `${scenarioDir}/scenario.toml: field services names "${id}", which is not in the catalog (${catalog.path})`);
    }
  }
  const entries = catalog.catalog.services.map((entry) => {
    const module = serviceModules.get(entry.id);
    if (!module) throw new ToolbenchError('TB_ERR_CATALOG', `catalog ${catalog.path}: service "${entry.id}" has no mock (mocks/registry.ts)`);
    const source = datasetSource(scenarioDir, options.baselineDir ?? BASELINE_DIR, entry.id, manifest.services.includes(entry.id));
    // The committed baselines (every one loads in test/baseline.test.ts) are read and loaded, and
    // their mocks imported, when their service is first used: most trials touch one or two of the
    // catalog's services. A scenario's own datasets, and baselines from elsewhere, are checked
    // here, before anything starts.
    const lazy = source?.baseline === true && options.baselineDir === undefined;
    return { entry, module, source, lazy };
  });
  // `definitions` holds at least every eager service's mock; a lazy one found there is imported already.
  const build = (definitions: ReadonlyMap<string, ServiceDefinition>): PreparedWorld => {
    const baselines: Record<string, string> = {};
    const services = entries.map(({ entry, module, source, lazy }): HostedService => {
      if (source?.baseline) baselines[entry.id] = hashOf(source.file, options.fileHashes);
      if (lazy) return lazyBaseline(entry.id, entry.hostnames, module, source!.file, definitions.get(entry.id));
      const definition = definitions.get(entry.id);
      if (!definition) throw new ToolbenchError('TB_ERR_CATALOG', `service "${entry.id}" has no mock among the definitions given`);
      return { id: entry.id, hostnames: entry.hostnames, definition, data: loadDatasetFile(source?.file ?? null, definition) };
    });
    return finishWorld(options, { catalog, scenarioDir, manifest, known, services, baselines });
  };
  return { eager: entries.filter((e) => !e.lazy).map((e) => e.entry.id), build };
}

function hashOf(file: string, known: Map<string, string> | undefined): string {
  let hash = known?.get(file);
  if (hash === undefined) {
    hash = fileHash(file);
    known?.set(file, hash);
  }
  return hash;
}

function finishWorld(options: OpenWorldOptions, { catalog, scenarioDir, manifest, known, services, baselines }: {
  catalog: LoadedCatalog; scenarioDir: string; manifest: ScenarioManifest; known: ReadonlySet<string>; services: HostedService[]; baselines: Record<string, string>;
}): PreparedWorld {
  manifest.faults.forEach((rule, i) => {
    if (rule.service !== undefined && !known.has(rule.service)) {
      throw new ToolbenchError('TB_ERR_SCENARIO', `${scenarioDir}/scenario.toml: faults[${i}].service names "${rule.service}", which is not in the catalog (${catalog.path})`);
    }
  });
  const header: JournalHeader = {
    format: JOURNAL_FORMAT,
    toolbench: TOOLBENCH_VERSION,
    mocks: Object.fromEntries(services.map((service) => [service.id, serviceModules.get(service.id)!.version])),
    scenario: manifest.id,
    datasetHash: datasetHash(scenarioDir),
    baselines,
    seed: options.seed ?? manifest.seed,
    catalogHash: catalog.hash,
    epoch: new Date(manifest.epoch).toISOString(),
    tickMs: manifest.tick_ms,
    scenarioDir,
    faults: resolveFaultPlan(manifest.faults, options.chaos),
  };
  return { header, services, noise: noiseAnswers(catalog.catalog.noise), catalog, manifest };
}

/**
 * A hosted service whose mock is imported when it is first asked for, and whose baseline dataset
 * is read and validated once, when the world first loads it (after the import).
 */
function lazyBaseline(id: string, hostnames: readonly string[], module: ServiceModule, file: string, imported?: ServiceDefinition): HostedService {
  let definition: ServiceDefinition | undefined = imported;
  let importing: Promise<ServiceDefinition> | undefined;
  let data: { value: unknown } | undefined;
  return {
    id, hostnames, lazy: true,
    get definition() {
      return definition;
    },
    importDefinition: () => importing ??= module.load().then((loaded) => (definition = loaded)),
    get data() {
      if (!definition) throw new Error(`toolbench: the ${id} mock is read before it was imported`);
      data ??= { value: loadDatasetFile(file, definition) };
      return data.value;
    },
  };
}

/** The catalog's `[[noise]]` entries as the world takes them. */
export function noiseAnswers(entries: readonly NoiseEntry[]): NoiseAnswer[] {
  return entries.map((entry) => ({ id: entry.id, hostnames: entry.hostnames, status: entry.status, contentType: entry.content_type, body: entry.body }));
}

/** Builds a world from a scenario directory, with its journal open. */
export async function openWorld(options: OpenWorldOptions): Promise<OpenedWorld> {
  const { header, services, noise, catalog, manifest } = await prepareWorld(options);
  const journal: Journal = options.journalDir
    ? await LevelJournal.create(options.journalDir, header)
    : new MemoryJournal(header);
  try {
    const world = new World({ seed: header.seed, epochMs: Date.parse(header.epoch), tickMs: header.tickMs, services, noise, journal, faults: header.faults });
    return { world, header, catalog, manifest };
  } catch (error) {
    await journal.close();
    // The directory is ours: create() refused anything that was there before.
    if (options.journalDir) rmSync(options.journalDir, { recursive: true, force: true });
    throw error;
  }
}
