import { ToolbenchError } from '../mocks/core/errors.js';
import type { Progress } from './progress.js';
import { rebuildForReplay, type RebuildOptions } from './rebuild.js';
import { buildReport, type ReplayReport } from './report.js';
import { replayJournal, type FirstResponses } from './run.js';
import { lastSeq, openJournal } from './source.js';

export interface VerifyOptions extends RebuildOptions {
  via?: 'process' | 'http';
  progress?: Progress;
  /**
   * Refuse a journal without its end marker (`replay --verify` unless --allow-unclosed): a log cut
   * short reads as a shorter journal that replays identically, and only the marker tells.
   */
  requireEnd?: boolean;
}

/**
 * `toolbench replay`, as a library call: open the journal, rebuild its world from the scenario
 * on disk (refusing a changed dataset, catalog or toolbench), replay every entry and report.
 * Throws a ToolbenchError for unusable input; a divergence is a report, not an error.
 */
export async function verifyJournal(dir: string, options: VerifyOptions = {}): Promise<ReplayReport> {
  return (await verifyJournalWithResponses(dir, options)).report;
}

/** `verifyJournal`, plus the first divergent entry's two responses in full (`replay --report`). */
export async function verifyJournalWithResponses(dir: string, options: VerifyOptions = {}): Promise<{ report: ReplayReport; first: FirstResponses | null }> {
  const journal = await openJournal(dir);
  try {
    if (options.requireEnd && journal.end === null) {
      throw new ToolbenchError('TB_ERR_JOURNAL_CORRUPT', `journal ${dir} has no end marker: it was cut short (truncated or damaged), or its world was killed or still runs, `
        + 'so an identical replay would prove nothing about what is missing; pass --allow-unclosed to replay what it holds (a crashed trial)');
    }
    // The checks that need the entries see them as the replay reads them, and refuse after it.
    const { world, handlerErrors, use, finish } = await rebuildForReplay(journal, options);
    const progress = options.progress;
    progress?.start(await lastSeq(journal));
    try {
      const outcome = await replayJournal(journal, world, { via: options.via, onProgress: progress?.update, onEntry: use ? (entry) => use.note(entry) : undefined });
      // A journal without its end marker is usable (a killed world is legitimate), and worth a note.
      const checks = [...finish(), ...journal.warnings.map((message) => ({ name: 'journal' as const, status: 'note' as const, message }))];
      return { report: buildReport(dir, journal.header, checks, outcome, handlerErrors), first: outcome.firstResponses };
    } finally {
      progress?.stop();
    }
  } finally {
    await journal.close();
  }
}
