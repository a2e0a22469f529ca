import type { CommandModule } from 'yargs';
import { isToolbenchError } from '../../mocks/core/errors.js';
import { colors, noColor } from '../../replay/colors.js';
import { resolveJournalPath } from '../../replay/journal-path.js';
import { progressBar } from '../../replay/progress.js';
import { formatReport } from '../../replay/report.js';
import { reportFile, writeReportFile } from '../../replay/report-file.js';
import { verifyJournalWithResponses } from '../../replay/verify.js';

interface ReplayArgs {
  journal: string;
  verify: boolean;
  json: boolean;
  via: 'process' | 'http';
  scenario?: string;
  'allow-mismatch': boolean;
  'allow-unclosed': boolean;
  report?: string;
}

export const replayCommand: CommandModule<{}, ReplayArgs> = {
  command: 'replay <journal>',
  describe: 'Replay a journal against a fresh world and compare every response byte for byte',
  builder: (y) => y
    .positional('journal', { type: 'string', demandOption: true, describe: 'Journal directory (LevelDB), or a run folder holding journal/' })
    .option('verify', { type: 'boolean', default: false, describe: 'Exit 1 when any response differs (for CI)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the report as one JSON object' })
    .option('via', { choices: ['process', 'http'] as const, default: 'process' as const, describe: 'Re-issue requests in process, or over the world\'s loopback ports' })
    .option('scenario', { type: 'string', describe: 'Scenario directory, when it moved since recording (default: the one in the journal)' })
    .option('allow-mismatch', { type: 'boolean', default: false, describe: 'Replay even if the dataset, catalog or toolbench version changed' })
    .option('allow-unclosed', { type: 'boolean', default: false, describe: 'With --verify: accept a journal without its end marker (a crashed trial); otherwise exit 2' })
    .option('report', { type: 'string', describe: 'Also write the report as JSON to FILE, with the first divergent entry\'s recorded and replayed bytes (for toolbench view)' }),
  handler: async (args) => {
    const progress = !args.json && process.stderr.isTTY && !noColor(process.env.NO_COLOR) ? progressBar(process.stderr, 'replay') : undefined;
    try {
      const { report, first } = await verifyJournalWithResponses(resolveJournalPath(args.journal), {
        via: args.via, scenarioDir: args.scenario, allowMismatch: args['allow-mismatch'], progress, requireEnd: args.verify && !args['allow-unclosed'],
      });
      if (args.report !== undefined) writeReportFile(args.report, reportFile(report, first));
      process.stdout.write(args.json ? JSON.stringify(report) + '\n' : formatReport(report, colors(process.env.NO_COLOR)));
      if (args.verify && report.verdict === 'divergent') process.exitCode = 1;
    } catch (error) {
      // CI reading --json still gets one object; the message also goes to stderr (exit 2).
      if (args.json && isToolbenchError(error)) {
        process.stdout.write(JSON.stringify({ verdict: 'unusable', journal: args.journal, error: { code: error.code, message: error.message } }) + '\n');
      }
      throw error;
    }
  },
};
