import { ToolbenchError } from '../mocks/core/errors.js';
import { resolveJournalPath } from '../replay/journal-path.js';
import { openJournal, type JournalSource } from '../replay/source.js';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';

/** The scenario used when none is named: the example shipped with toolbench. */
export const DEFAULT_SCENARIO = relative(process.cwd(), fileURLToPath(new URL(
  import.meta.url.includes('/dist/') ? '../../scenarios/example/github/basic' : '../scenarios/example/github/basic', import.meta.url))) || '.';

export const seedOption = { type: 'number', describe: 'Seed for IDs (default: the scenario\'s)' } as const;

/** Resolves after SIGINT or SIGTERM, once `stop` has run; a second signal exits at once. */
export function onShutdown(stop: () => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    let stopping = false;
    const handler = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
      stopping = true;
      stop().then(resolve, reject);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}

/**
 * Opens a journal for reading (a run folder stands for its journal/, replay/journal-path.ts) and
 * says on stderr what the reader noticed (a world killed before it closed its journal).
 */
export async function openJournalWithNotes(path: string): Promise<JournalSource> {
  const journal = await openJournal(resolveJournalPath(path));
  for (const warning of journal.warnings) process.stderr.write(`toolbench: note: ${warning}\n`);
  return journal;
}

/** `--endpoints`: which MCP endpoints a trial or world attaches (catalog/endpoint-selection.ts). */
export const endpointsOption = {
  type: 'string',
  default: 'all',
  describe: 'MCP endpoints to attach: all (every catalog endpoint; services the scenario does not name answer from the baseline dataset), '
    + 'scenario (only its own services\'), or endpoint ids separated by commas',
} as const;

/** `--ready-timeout`: seconds each endpoint's server may take to list its tools. */
export const readyTimeoutOption = {
  type: 'number',
  default: 120,
  describe: 'Seconds each MCP server may take to start and list its tools; past it the trial fails, naming the server and quoting its stderr',
} as const;

/** `--ready-timeout` in ms, refused unless positive. */
export function readyTimeoutMs(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0) throw new ToolbenchError('TB_ERR_USAGE', `--ready-timeout ${seconds}: give a positive number of seconds`);
  return seconds * 1000;
}
