import type { LoadedCatalog } from '../catalog/load.js';
import { HostTable } from '../mocks/core/hosts.js';
import { ToolbenchError, type ToolbenchErrorCode } from '../mocks/core/errors.js';
import type { JournalHeader } from '../mocks/core/journal-format.js';
import type { EntryHead } from '../mocks/core/journal-head.js';
import type { ScenarioManifest } from '../scenarios/manifest.js';
import type { JournalSource } from './source.js';

/**
 * Whether a journal can be replayed against what is on disk now. Each check says `ok`, `note`
 * (worth knowing, harmless), `refused` (replay would not mean anything), or `allowed` (refused,
 * but the user passed --allow-mismatch).
 */
export type CheckName = 'scenario' | 'dataset' | 'baseline' | 'catalog' | 'toolbench' | 'mocks' | 'seed' | 'journal';
export type CheckStatus = 'ok' | 'note' | 'refused' | 'allowed';

export interface CompatCheck {
  name: CheckName;
  status: CheckStatus;
  message: string;
}

const REFUSAL_CODES: Record<CheckName, ToolbenchErrorCode> = {
  scenario: 'TB_ERR_SCENARIO',
  dataset: 'TB_ERR_DATASET',
  baseline: 'TB_ERR_DATASET',
  catalog: 'TB_ERR_CATALOG',
  toolbench: 'TB_ERR_JOURNAL_VERSION',
  mocks: 'TB_ERR_JOURNAL_VERSION',
  seed: 'TB_ERR_USAGE',
  journal: 'TB_ERR_JOURNAL_CORRUPT',
};

/** What the scenario, catalog and toolbench look like now. */
export interface CurrentSetup {
  scenarioDir: string;
  manifest: ScenarioManifest;
  datasetHash: string;
  catalog: LoadedCatalog;
  toolbench: string;
  /** Each service's mock version now (`ServiceDefinition.version`). */
  mocks: Readonly<Record<string, string>>;
  /** sha256 of each baseline dataset the rebuilt world loaded, by service. */
  baselines: Readonly<Record<string, string>>;
}

/** Every check, after a pass over the entries' heads when one needs them (`rebuildWorld`'s way). */
export async function checkCompatibility(journal: JournalSource, now: CurrentSetup): Promise<CompatCheck[]> {
  const use = new JournalUse();
  if (needsUse(journal.header, now)) for await (const head of journal.heads()) use.note(head);
  return compatibilityChecks(journal.header, now, use);
}

/**
 * Whether the checks depend on the entries (the services touched, each host's first use), or
 * only on the header: a journal of format 1 with an unchanged catalog needs no pass over them.
 */
export function needsUse(header: JournalHeader, now: CurrentSetup): boolean {
  return Boolean(header.mocks || header.baselines || now.catalog.hash !== header.catalogHash);
}

/** Every check, in the order reported, from the header and what the entries used. */
export function compatibilityChecks(header: JournalHeader, now: CurrentSetup, used: JournalUse): CompatCheck[] {
  return [
    scenarioCheck(header, now),
    datasetCheck(header, now),
    ...(header.baselines ? [baselineCheck(used.touched, header.baselines, now.baselines)] : []),
    catalogCheck(header, used.hosts, now.catalog),
    // Format 2 records each mock's version: only the services the journal touched matter, and
    // toolbench's own version is then just worth a note. Format 1 had one global version.
    header.mocks ? mocksCheck(used.touched, header.mocks, now.mocks) : versionCheck(header.toolbench, now.toolbench),
    seedCheck(header, now.manifest),
  ];
}

/** The checks that read the header alone, which can refuse a journal before any entry is read. */
export function headerChecks(header: JournalHeader, now: CurrentSetup): CompatCheck[] {
  return [scenarioCheck(header, now), datasetCheck(header, now), ...(header.mocks ? [] : [versionCheck(header.toolbench, now.toolbench)])];
}

/** What the compatibility checks need of the entries, noted one head at a time: the services touched, and each host's first use. */
export class JournalUse {
  readonly touched = new Set<string>();
  readonly hosts = new Map<string, { seq: number; was: string | null }>();

  note(entry: EntryHead): void {
    if (entry.service !== null) this.touched.add(entry.service);
    if (entry.kind !== 'reset' && !this.hosts.has(entry.host)) this.hosts.set(entry.host, { seq: entry.seq, was: entry.kind === 'noise' ? NOISE : entry.service });
  }
}

/** A shared baseline dataset that changed matters only for a service the journal touched. */
function baselineCheck(touched: ReadonlySet<string>, recorded: Readonly<Record<string, string>>, now: Readonly<Record<string, string>>): CompatCheck {
  const changed = [...touched].sort().filter((id) => recorded[id] !== now[id]);
  if (changed.length === 0) return { name: 'baseline', status: 'ok', message: 'baseline datasets of the services used unchanged' };
  return {
    name: 'baseline', status: 'refused',
    message: `baseline datasets the journal used changed since recording: ${changed.map((id) => `${id} (${recorded[id] ? short(recorded[id]!) : 'none'} → ${now[id] ? short(now[id]!) : 'none'})`).join(', ')}`,
  };
}

/** Throws for the refused checks (unless allowed, when they become `allowed`). */
export function enforce(checks: CompatCheck[], allowMismatch: boolean): CompatCheck[] {
  const refused = checks.filter((check) => check.status === 'refused');
  if (refused.length === 0) return checks;
  if (allowMismatch) return checks.map((check) => (check.status === 'refused' ? { ...check, status: 'allowed' } : check));
  const hint = 'restore what changed, or pass --allow-mismatch to replay anyway and see where the responses differ';
  throw new ToolbenchError(REFUSAL_CODES[refused[0]!.name],
    `cannot replay: ${refused.map((check) => check.message).join('; ')} (${hint})`);
}

function scenarioCheck(header: JournalHeader, now: CurrentSetup): CompatCheck {
  if (now.manifest.id === header.scenario) return { name: 'scenario', status: 'ok', message: `scenario ${header.scenario} at ${now.scenarioDir}` };
  return {
    name: 'scenario', status: 'refused',
    message: `the journal was recorded in scenario ${header.scenario}, but ${now.scenarioDir} holds scenario ${now.manifest.id}`,
  };
}

function datasetCheck(header: JournalHeader, now: CurrentSetup): CompatCheck {
  if (now.datasetHash === header.datasetHash) return { name: 'dataset', status: 'ok', message: `dataset unchanged (sha256 ${short(header.datasetHash)})` };
  return {
    name: 'dataset', status: 'refused',
    message: `the scenario's dataset changed since recording: ${now.scenarioDir}/dataset hashes to ${short(now.datasetHash)}, the journal was recorded with ${short(header.datasetHash)}`,
  };
}

/**
 * A catalog change matters only if a host the journal used is now served by another service
 * (or none); new services, ports or MCP endpoints do not change a response byte.
 */
const NOISE = '\0noise';

function catalogCheck(header: JournalHeader, used: ReadonlyMap<string, { seq: number; was: string | null }>, catalog: LoadedCatalog): CompatCheck {
  if (catalog.hash === header.catalogHash) return { name: 'catalog', status: 'ok', message: 'catalog unchanged' };
  // Resolved as the world resolves them (host patterns included); noise hosts answer as `noise`.
  const hosts = new HostTable<string>([
    ...catalog.catalog.services.flatMap((service) => service.hostnames.map((host) => ({ host, value: service.id }))),
    ...catalog.catalog.noise.flatMap((noise) => noise.hostnames.map((host) => ({ host, value: NOISE }))),
  ]);
  const moved: string[] = [];
  const says = (who: string | null) => who === NOISE ? 'answered as noise' : who ? `served by ${who}` : 'outside the catalog';
  for (const [host, { seq, was }] of used) {
    const now = hosts.resolve(host)?.value ?? null;
    if (now !== was) moved.push(`${host} (seq ${seq}) was ${says(was)}, now ${says(now).replace('served ', '')}`);
  }
  if (moved.length === 0) {
    return { name: 'catalog', status: 'note', message: `catalog changed since recording (${short(header.catalogHash)} → ${short(catalog.hash)}), but every host the journal used is served by the same service` };
  }
  return { name: 'catalog', status: 'refused', message: `the catalog changed in a way that matters: ${moved.join(', ')}` };
}

/** Same major version (same minor below 1.0) must give the same bytes; anything else is refused. */
export function versionCheck(recorded: string, current: string): CompatCheck {
  if (recorded === current) return { name: 'toolbench', status: 'ok', message: `toolbench ${current}` };
  const a = parseVersion(recorded);
  const b = parseVersion(current);
  const compatible = a !== null && b !== null && a[0] === b[0] && (a[0] > 0 || a[1] === b[1]);
  if (compatible) return { name: 'toolbench', status: 'note', message: `recorded with toolbench ${recorded}, replaying with ${current} (compatible versions)` };
  return { name: 'toolbench', status: 'refused', message: `the journal was recorded with toolbench ${recorded}, this is ${current}: the mocks may answer differently across these versions` };
}

/** A mock whose version moved since recording answers differently; only services the journal touched count. */
function mocksCheck(touched: ReadonlySet<string>, recorded: Readonly<Record<string, string>>, now: Readonly<Record<string, string>>): CompatCheck {
  const changed = [...touched].sort().filter((id) => recorded[id] !== now[id])
    .map((id) => `${id} mock ${recorded[id] ?? '(none)'} → ${now[id] ?? '(none)'}`);
  if (changed.length > 0) {
    return { name: 'mocks', status: 'refused', message: `mocks the journal used changed version since recording: ${changed.join(', ')}` };
  }
  const used = [...touched].sort().map((id) => `${id} ${now[id]}`).join(', ');
  return { name: 'mocks', status: 'ok', message: `mock versions unchanged (${used || 'no service touched'})` };
}

function seedCheck(header: JournalHeader, manifest: ScenarioManifest): CompatCheck {
  if (header.seed === manifest.seed) return { name: 'seed', status: 'ok', message: `seed ${header.seed}` };
  return { name: 'seed', status: 'note', message: `the journal's seed ${header.seed} is not the scenario's ${manifest.seed} (recorded with --seed?); replaying with ${header.seed}` };
}

function parseVersion(text: string): [number, number, number] | null {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

const short = (hash: string) => hash.slice(0, 12);
