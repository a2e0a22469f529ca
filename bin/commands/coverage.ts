import type { CommandModule } from 'yargs';
import { loadCatalog } from '../../catalog/load.js';
import { DEFAULT_CA_DIR } from '../../certs/index.js';
import { sweepCatalog, type SkippedService } from '../../catalog/sweep.js';
import type { JournalEntry } from '../../mocks/core/journal-format.js';
import { serviceDefinitions } from '../../mocks/index.js';
import { colors } from '../../replay/colors.js';
import { coverageLines, coverageOf, mergeCoverage, type CoverageReport } from '../../replay/coverage.js';
import { openJournalWithNotes } from '../shared.js';

interface CoverageArgs {
  sources: string[];
  json: boolean;
  'tool-timeout'?: number;
  'ca-dir': string;
}

export const coverageCommand: CommandModule<{}, CoverageArgs> = {
  command: 'coverage [sources..]',
  describe: 'Per MCP endpoint and tool, the operations its calls reached: by a handler, by the spec fallback, or unmatched',
  builder: (y) => y
    .positional('sources', { type: 'string', array: true, default: [], describe: 'Journal directories or run directories (with journal/); none: sweep every tool of every catalog service' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the report as one JSON object' })
    .option('tool-timeout', { type: 'number', describe: 'Seconds a tool call of the sweep may take (default: the service\'s sweep profile says, else 30)' })
    .option('ca-dir', { type: 'string', default: DEFAULT_CA_DIR, describe: 'CA directory for the sweep\'s proxy (made if missing)' })
    .epilogue('Exit 0: every operation reached was matched; 1: some request matched no operation (listed as unmatched); 2: bad input.\n'
      + 'Without sources, each catalog service with an endpoint and a tool snapshot is swept in a fresh world of its profile (mocks/<service>/conformance.ts).'),
  handler: async (args) => {
    let report: CoverageReport;
    let skipped: SkippedService[] = [];
    if (args.sources.length > 0) {
      const reports: CoverageReport[] = [];
      for (const source of args.sources) {
        const { entries, format } = await readEntries(source);
        // A format-1 journal names no operation: today's mocks name its requests.
        reports.push(coverageOf(entries, serviceDefinitions, format === 1 ? 'rename' : 'unmatched'));
      }
      report = mergeCoverage(reports);
    } else {
      const tty = process.stderr.isTTY === true;
      const swept = await sweepCatalog({
        catalog: loadCatalog(), caDir: args['ca-dir'], ...(args['tool-timeout'] === undefined ? {} : { timeoutMs: Math.max(1, args['tool-timeout']) * 1000 }),
        ...(tty ? {
          onService: (service: string) => process.stderr.write(`\r\x1b[Kcoverage: starting ${service}…`),
          onTool: (endpoint: string, tool: string, i: number, total: number) => process.stderr.write(`\r\x1b[Kcoverage: ${endpoint} ${i + 1}/${total} ${tool}`),
        } : {}),
      });
      if (tty) process.stderr.write('\r\x1b[K');
      skipped = swept.skipped;
      report = mergeCoverage(swept.results.map((result) => {
        const one = coverageOf(result.outcomes.flatMap((o) => o.entries), serviceDefinitions);
        const silent = result.outcomes.filter((o) => o.entries.length === 0).map((o) => ({ endpoint: o.endpoint, tool: o.tool }));
        const failed = result.outcomes.filter((o) => o.transportError !== null);
        for (const o of failed) process.stderr.write(`toolbench: ${o.endpoint} ${o.tool}: transport error: ${o.transportError}\n`);
        return { ...one, ...(silent.length ? { silentTools: silent } : {}) };
      }));
    }
    if (args.json) {
      process.stdout.write(JSON.stringify({ ...report, skipped }) + '\n');
    } else {
      const paint = colors(process.env.NO_COLOR);
      for (const line of coverageLines(report, { red: paint.red, dim: paint.dim })) process.stdout.write(line + '\n');
      for (const skip of skipped) process.stdout.write(`not swept: ${skip.service}: ${skip.reason}\n`);
    }
    if (report.unmatched.length > 0) process.exitCode = 1;
  },
};

/** A journal's entries; a run folder stands for its journal/ (replay/journal-path.ts). */
async function readEntries(dir: string): Promise<{ entries: JournalEntry[]; format: number }> {
  const journal = await openJournalWithNotes(dir);
  try {
    const entries: JournalEntry[] = [];
    for await (const entry of journal.entries()) entries.push(entry);
    return { entries, format: journal.header.format };
  } finally {
    await journal.close();
  }
}
