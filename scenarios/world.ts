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
import { serviceDefinitions } from '../mocks/index.js';
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
}

/** The shared background world every scenario gets for the services it does not name. */
export const BASELINE_DIR = join(TOOLBENCH_ROOT, 'scenarios', 'baseline', 'dataset');

export interface OpenedWorld {
  world: World;
  header: JournalHeader;
  catalog: LoadedCatalog;
  manifest: ScenarioManifest;
}

/** Everything a world needs, read and validated before the first request: catalog, scenario, datasets. */
export function prepareWorld(options: OpenWorldOptions): { header: JournalHeader; services: HostedService[]; noise: NoiseAnswer[]; catalog: LoadedCatalog; manifest: ScenarioManifest } {
  const catalog = options.catalog ?? loadCatalog();
  const scenarioDir = resolve(options.scenarioDir);
  const manifest = loadScenarioManifest(scenarioDir);
  const known = new Set(catalog.catalog.services.map((service) => service.id));
  for (const id of manifest.services) {
    if (!known.has(id)) {
      throw new ToolbenchError('TB_ERR_SCENARIO', `${scenarioDir}/scenario.toml: field services names "${id}", which is not in the catalog (${catalog.path})`);
    }
  }
  const baselines: Record<string, string> = {};
  const services = catalog.catalog.services.map((entry): HostedService => {
    const definition = serviceDefinitions.get(entry.id);
    if (!definition) throw new ToolbenchError('TB_ERR_CATALOG', `catalog ${catalog.path}: service "${entry.id}" has no mock (mocks/index.ts)`);
    const source = datasetSource(scenarioDir, options.baselineDir ?? BASELINE_DIR, entry.id, manifest.services.includes(entry.id));
    if (source?.baseline) baselines[entry.id] = fileHash(source.file);
    // The committed baselines (every one loads in test/baseline.test.ts) are read and loaded when
    // their service is first used: most trials touch one or two of the catalog's services. A
    // scenario's own datasets, and baselines from elsewhere, are checked here, before anything starts.
    if (source?.baseline && options.baselineDir === undefined) return lazyBaseline(entry.id, entry.hostnames, definition, source.file);
    return { id: entry.id, hostnames: entry.hostnames, definition, data: loadDatasetFile(source?.file ?? null, definition) };
  });
  manifest.faults.forEach((rule, i) => {
    if (rule.service !== undefined && !known.has(rule.service)) {
      throw new ToolbenchError('TB_ERR_SCENARIO', `${scenarioDir}/scenario.toml: faults[${i}].service names "${rule.service}", which is not in the catalog (${catalog.path})`);
    }
  });
  const header: JournalHeader = {
    format: JOURNAL_FORMAT,
    toolbench: TOOLBENCH_VERSION,
    mocks: Object.fromEntries(services.map((service) => [service.id, service.definition.version])),
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

/** A hosted service whose baseline dataset is read and validated once, when the world first loads it. */
function lazyBaseline(id: string, hostnames: readonly string[], definition: ServiceDefinition, file: string): HostedService {
  let data: { value: unknown } | undefined;
  return {
    id, hostnames, definition, lazy: true,
    get data() {
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
  const { header, services, noise, catalog, manifest } = prepareWorld(options);
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
