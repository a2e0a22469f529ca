import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadCatalog, type LoadedCatalog } from '../catalog/load.js';
import { prepareWorld, type PreparedWorld } from '../scenarios/world.js';
import { ToolbenchError } from '../mocks/core/errors.js';
import type { JournalEntry, JournalHeader, McpRecord } from '../mocks/core/journal-format.js';
import type { Journal } from '../mocks/core/journal.js';
import type { NoiseAnswer } from '../mocks/core/noise.js';
import { World, type HostedService, type WorldRequest } from '../mocks/core/world.js';
import { TOOLBENCH_VERSION } from '../mocks/version.js';
import { checkCompatibility, compatibilityChecks, enforce, headerChecks, JournalUse, needsUse, type CompatCheck, type CurrentSetup } from './compat.js';
import type { JournalSource } from './source.js';

/**
 * A replay's world writes nowhere: the journal being replayed is the record, and replay never
 * writes a journal (DESIGN.md: replay/ must not mutate a journal).
 */
export class NullJournal implements Journal {
  constructor(readonly header: JournalHeader) {}
  async append(_entry: JournalEntry): Promise<void> {}
  async appendMcp(_record: McpRecord): Promise<void> {}
  async *entries(): AsyncIterable<JournalEntry> {}
  async *mcpRecords(): AsyncIterable<McpRecord> {}
  async flush(): Promise<void> {}
  async close(): Promise<void> {}
}

/** Handler failures seen while replaying (bugs in a mock), kept for the report rather than printed. */
export interface HandlerErrors {
  count: number;
  first: string | null;
}

/**
 * A fresh world for `header` from these hosted services: the journal's seed, epoch, tick and fault
 * plan. Its listeners never wait: latency and timeouts are answered at once (docs/faults.md).
 */
export function freshWorld(header: JournalHeader, services: readonly HostedService[], errors: HandlerErrors = { count: 0, first: null },
  noise: readonly NoiseAnswer[] = []): World {
  return new World({
    seed: header.seed,
    epochMs: Date.parse(header.epoch),
    tickMs: header.tickMs,
    services,
    noise,
    journal: new NullJournal(header),
    faults: header.faults,
    latency: 'skip',
    onAddonError(error: unknown, addon: string) {
      errors.count += 1;
      errors.first ??= `addon ${addon} failed: ${(error as Error)?.message ?? error}`;
    },
    onHandlerError(error: unknown, service: string, request: WorldRequest) {
      errors.count += 1;
      errors.first ??= `${service} handler failed on ${request.method} ${request.target}: ${(error as Error)?.message ?? error}`;
    },
  });
}

export interface RebuildOptions {
  /** Where the scenario is now; default: the directory recorded in the journal's header. */
  scenarioDir?: string;
  catalog?: LoadedCatalog;
  /** The shared baseline datasets; default `scenarios/baseline/dataset/`. */
  baselineDir?: string;
  /** Replay even when the dataset, catalog or toolbench version no longer match. */
  allowMismatch?: boolean;
  /** What the journals of one batch share, read once (`replay --verify DIR…`). */
  batch?: BatchInputs;
}

/**
 * What the journals of one `replay --verify DIR…` share, read once for the batch rather than once
 * per journal: the catalog and the sha256 of each baseline dataset file (together 4–5 ms of the
 * ~20 ms a small journal takes). A new batch, a new command, reads them again.
 */
export class BatchInputs {
  #catalog: LoadedCatalog | undefined;
  readonly fileHashes = new Map<string, string>();

  /** The default catalog, loaded on first use; a failure is not kept, so each journal reports it. */
  catalog(): LoadedCatalog {
    return (this.#catalog ??= loadCatalog());
  }
}

export interface Rebuilt {
  world: World;
  checks: CompatCheck[];
  handlerErrors: HandlerErrors;
}

/**
 * Rebuilds the world a journal was recorded in, from the scenario on disk, after checking that
 * the scenario, dataset, catalog and toolbench still match the journal's header.
 */
export async function rebuildWorld(journal: JournalSource, options: RebuildOptions = {}): Promise<Rebuilt> {
  const now = await currentSetup(journal.header, options);
  const checks = enforce(await checkCompatibility(journal, now), options.allowMismatch ?? false);
  return { ...worldFor(journal.header, now), checks };
}

export interface RebuiltForReplay extends Omit<Rebuilt, 'checks'> {
  /** Fed each entry the replay reads (null: no check needs the entries). */
  use: JournalUse | null;
  /** Every check, enforced as `rebuildWorld` enforces them (a refused one throws); call it after the replay. */
  finish(): CompatCheck[];
}

/**
 * `rebuildWorld` for a replay, which reads every entry anyway: the checks that need the entries
 * (the services touched, each host's first use) are fed by the replay's own pass and enforced
 * after it, so that the journal is read once rather than twice (the pass before was 8 % of
 * verifying a 10,000-entry journal). The header's checks still refuse before any entry is read;
 * a journal refused after its replay throws the same error, and its replay is discarded.
 */
export async function rebuildForReplay(journal: JournalSource, options: RebuildOptions = {}): Promise<RebuiltForReplay> {
  const header = journal.header;
  const now = await currentSetup(header, options);
  const allow = options.allowMismatch ?? false;
  enforce(headerChecks(header, now), allow);
  const use = needsUse(header, now) ? new JournalUse() : null;
  return { ...worldFor(header, now), use, finish: () => enforce(compatibilityChecks(header, now, use ?? new JournalUse()), allow) };
}

/** The scenario, catalog and mocks on disk now, as the checks compare them with the header. */
async function currentSetup(header: JournalHeader, options: RebuildOptions): Promise<CurrentSetup & { prepared: PreparedWorld }> {
  const scenarioDir = resolve(options.scenarioDir ?? header.scenarioDir);
  if (!existsSync(scenarioDir)) {
    throw new ToolbenchError('TB_ERR_SCENARIO', `scenario ${header.scenario} is not at ${scenarioDir}` +
      (options.scenarioDir ? '' : ' (the directory recorded in the journal); pass --scenario DIR to say where it is now'));
  }
  const prepared = await prepareWorld({
    scenarioDir, seed: header.seed, catalog: options.catalog ?? options.batch?.catalog(), baselineDir: options.baselineDir, fileHashes: options.batch?.fileHashes,
  });
  return {
    prepared,
    scenarioDir,
    manifest: prepared.manifest,
    datasetHash: prepared.header.datasetHash,
    catalog: prepared.catalog,
    toolbench: TOOLBENCH_VERSION,
    mocks: prepared.header.mocks ?? {},
    baselines: prepared.header.baselines ?? {},
  };
}

function worldFor(header: JournalHeader, now: { prepared: PreparedWorld }): Omit<Rebuilt, 'checks'> {
  const handlerErrors: HandlerErrors = { count: 0, first: null };
  // Its mocks are imported as replay reaches them (replay/reissue.ts), as a recording world's are.
  const world = freshWorld(header, now.prepared.services, handlerErrors, now.prepared.noise);
  return { world, handlerErrors };
}
