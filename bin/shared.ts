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
