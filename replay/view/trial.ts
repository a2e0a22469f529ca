import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ToolbenchError } from '../../mocks/core/errors.js';
import type { JournalEntry, McpRecord } from '../../mocks/core/journal-format.js';
import { TrialResultSchema, type TrialResult } from '../../scenarios/grade/result.js';
import type { RouteResolver } from '../route.js';
import { readReportFile, type ReplayReportFile } from '../report-file.js';
import { openJournal, type JournalSource } from '../source.js';
import { indexCall, indexEntry, type TrialIndex } from './timeline.js';

/** The report `view RUN_DIR` picks up when no --report is given. */
export const DEFAULT_REPORT_NAME = 'replay-report.json';

/** What `toolbench view PATH` shows: a journal, and the run folder's grade and replay report when there are. */
export interface TrialPaths {
  path: string;
  journal: string;
  result: string | null;
  report: string | null;
}

/**
 * PATH is a run folder (holding `journal/`, `result.json`, maybe `replay-report.json`) or a
 * journal directory (its parent's `result.json` is used when it sits in a run folder).
 */
export function trialPaths(path: string, reportPath?: string): TrialPaths {
  const full = resolve(path);
  if (!existsSync(full)) throw new ToolbenchError('TB_ERR_USAGE', `${path}: no such run folder or journal`);
  if (!statSync(full).isDirectory()) throw new ToolbenchError('TB_ERR_USAGE', `${path} is a file; give a run folder (with journal/ and result.json) or a journal directory`);
  const isRun = existsSync(join(full, 'journal')) && statSync(join(full, 'journal')).isDirectory();
  const runDir = isRun ? full : existsSync(join(dirname(full), 'result.json')) ? dirname(full) : null;
  const journal = isRun ? join(full, 'journal') : full;
  // Checked before the reader snapshots the folder: a wrong PATH (a home folder) must not be copied.
  if (!existsSync(join(journal, 'CURRENT'))) {
    throw new ToolbenchError('TB_ERR_USAGE', `${isRun ? join(path, 'journal') : path} is not a journal (no LevelDB CURRENT file); give a run folder (with journal/ and result.json) or a journal directory`);
  }
  const result = runDir && existsSync(join(runDir, 'result.json')) ? join(runDir, 'result.json') : null;
  const report = reportPath !== undefined ? resolve(reportPath)
    : runDir && existsSync(join(runDir, DEFAULT_REPORT_NAME)) ? join(runDir, DEFAULT_REPORT_NAME) : null;
  return { path: full, journal, result, report };
}

/** A trial opened for viewing: the journal stays open for entry details. */
export interface LoadedTrial {
  paths: TrialPaths;
  journal: JournalSource;
  index: TrialIndex;
  calls: McpRecord[];
  result: TrialResult | null;
  report: ReplayReportFile | null;
  /** One entry in full, read from the journal. */
  entry(seq: number): Promise<JournalEntry | null>;
  close(): Promise<void>;
}

export async function loadTrial(paths: TrialPaths, routes?: RouteResolver): Promise<LoadedTrial> {
  const result = paths.result ? readResult(paths.result) : null;
  const report = paths.report ? readReportFile(paths.report) : null;
  const journal = await openJournal(paths.journal);
  try {
    const entries = [];
    for await (const entry of journal.entries()) entries.push(indexEntry(entry, routes));
    const calls: McpRecord[] = [];
    const crashes: McpRecord[] = [];
    for await (const record of journal.mcpRecords()) {
      if (record.kind === 'call') calls.push(record);
      else if (record.kind === 'crash') crashes.push(record);
    }
    const index: TrialIndex = { entries, calls: calls.map(indexCall), crashes, divergent: new Set(report?.divergentSeqs ?? []) };
    return {
      paths, journal, index, calls, result, report,
      async entry(seq) {
        if (seq < 1 || seq > entries.length) return null;
        for await (const entry of journal.entries({ from: seq, to: seq })) return entry;
        return null;
      },
      close: () => journal.close(),
    };
  } catch (error) {
    await journal.close();
    throw error;
  }
}

function readResult(path: string): TrialResult {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ToolbenchError('TB_ERR_USAGE', `${path}: not a readable JSON file (${(error as Error).message})`);
  }
  const parsed = TrialResultSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ToolbenchError('TB_ERR_USAGE', `${path}: field ${issue.path.join('.') || '(top)'}: ${issue.message} (not a toolbench result.json)`);
  }
  return parsed.data;
}
