import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { ToolbenchError, isToolbenchError } from '../../mocks/core/errors.js';
import { colors, noColor } from '../../replay/colors.js';
import { resolveJournalPath } from '../../replay/journal-path.js';
import { progressBar } from '../../replay/progress.js';
import { formatReport } from '../../replay/report.js';
import { reportFile, writeReportFile } from '../../replay/report-file.js';
import { verifyJournalWithResponses } from '../../replay/verify.js';
import { formatMany, manyJson, reportFileName, verifyMany, type VerifiedJournal } from '../../replay/verify-many.js';

interface ReplayArgs {
  journals: string[];
  verify: boolean;
  json: boolean;
  via: 'process' | 'http';
  scenario?: string;
  'allow-mismatch': boolean;
  'allow-unclosed': boolean;
  report?: string;
  jobs: number;
}

export const replayCommand: CommandModule<{}, ReplayArgs> = {
  command: 'replay <journals..>',
  describe: 'Replay journals against fresh worlds and compare every response byte for byte',
  builder: (y) => y
    .positional('journals', { type: 'string', array: true, demandOption: true, describe: 'Journal directories (LevelDB), or run folders holding journal/; several are verified as one batch' })
    .option('verify', { type: 'boolean', default: false, describe: 'Exit 1 when any response differs (for CI)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the report as one JSON object (several journals: one object with every report)' })
    .option('via', { choices: ['process', 'http'] as const, default: 'process' as const, describe: 'Re-issue requests in process, or over the world\'s loopback ports' })
    .option('scenario', { type: 'string', describe: 'Scenario directory, when it moved since recording (default: the one in the journal)' })
    .option('allow-mismatch', { type: 'boolean', default: false, describe: 'Replay even if the dataset, catalog or toolbench version changed' })
    .option('allow-unclosed', { type: 'boolean', default: false, describe: 'With --verify: accept a journal without its end marker (a crashed trial); otherwise exit 2' })
    .option('report', { type: 'string', describe: 'Also write the report as JSON to FILE, with the first divergent entry\'s recorded and replayed bytes (for toolbench view); several journals: FILE is a directory, one file per journal' })
    .option('jobs', { type: 'number', default: 1, describe: 'Journals verified at once, each in a process of its own (several journals; e.g. the number of cores)' })
    .check((args) => {
      if (!Number.isInteger(args.jobs) || args.jobs < 1) throw new ToolbenchError('TB_ERR_USAGE', `--jobs takes a whole number ≥ 1, not ${args.jobs}`);
      return true;
    }),
  handler: async (args) => {
    if (args.journals.length > 1) return replayMany(args);
    const journal = args.journals[0]!;
    const progress = !args.json && process.stderr.isTTY && !noColor(process.env.NO_COLOR) ? progressBar(process.stderr, 'replay') : undefined;
    try {
      const { report, first } = await verifyJournalWithResponses(resolveJournalPath(journal), {
        via: args.via, scenarioDir: args.scenario, allowMismatch: args['allow-mismatch'], progress, requireEnd: args.verify && !args['allow-unclosed'],
      });
      if (args.report !== undefined) writeReportFile(args.report, reportFile(report, first));
      process.stdout.write(args.json ? JSON.stringify(report) + '\n' : formatReport(report, colors(process.env.NO_COLOR)));
      if (args.verify && report.verdict === 'divergent') process.exitCode = 1;
    } catch (error) {
      // CI reading --json still gets one object; the message also goes to stderr (exit 2).
      if (args.json && isToolbenchError(error)) {
        process.stdout.write(JSON.stringify({ verdict: 'unusable', journal, error: { code: error.code, message: error.message } }) + '\n');
      }
      throw error;
    }
  },
};

/**
 * Several journals: each verified as one journal would be (in up to --jobs processes), then one
 * combined report. Exit 2 if any journal is unusable (each named on stderr), else 1 with --verify
 * if any diverged, else 0. --report DIR gets one report file per verified journal.
 */
async function replayMany(args: ReplayArgs): Promise<void> {
  // Every path is resolved first: a typo fails at once, before minutes of replay.
  const dirs = args.journals.map((journal) => resolveJournalPath(journal));
  const started = performance.now();
  const results: VerifiedJournal[] = await verifyMany(dirs, {
    jobs: args.jobs, via: args.via, scenarioDir: args.scenario, allowMismatch: args['allow-mismatch'], requireEnd: args.verify && !args['allow-unclosed'],
  });
  const elapsedMs = performance.now() - started;
  if (args.report !== undefined) {
    try {
      mkdirSync(args.report, { recursive: true });
    } catch (error) {
      throw new ToolbenchError('TB_ERR_USAGE', `--report ${args.report}: with several journals it names a directory, and it cannot be made (${(error as NodeJS.ErrnoException).code})`);
    }
    results.forEach((result, index) => {
      if (result.verdict !== 'unusable') writeReportFile(join(args.report!, reportFileName(result.dir, index)), reportFile(result.report, result.first));
    });
  }
  process.stdout.write(args.json ? JSON.stringify(manyJson(results, args.jobs, elapsedMs)) + '\n' : formatMany(results, args.jobs, elapsedMs, colors(process.env.NO_COLOR)));
  for (const result of results) if (result.verdict === 'unusable') process.stderr.write(`toolbench: ${result.error.message}\n`);
  if (results.some((r) => r.verdict === 'unusable')) process.exitCode = 2;
  else if (args.verify && results.some((r) => r.verdict === 'divergent')) process.exitCode = 1;
}
