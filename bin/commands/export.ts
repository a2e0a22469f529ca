import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { CommandModule } from 'yargs';
import { openJournalWithNotes } from '../shared.js';
import { ToolbenchError } from '../../mocks/core/errors.js';
import { TOOLBENCH_VERSION } from '../../mocks/version.js';
import { harChunks } from '../../replay/har.js';
import { exitQuietlyOnClosedPipe } from '../fail.js';

interface ExportArgs {
  journal: string;
  har: boolean;
  out?: string;
  redact: boolean;
}

export const exportCommand: CommandModule<{}, ExportArgs> = {
  command: 'export <journal>',
  describe: 'Export a journal as HAR 1.2 (Chrome DevTools, HAR viewers); credentials redacted by default',
  builder: (y) => y
    .positional('journal', { type: 'string', demandOption: true, describe: 'Journal directory (LevelDB)' })
    .option('har', { type: 'boolean', default: false, describe: 'HAR 1.2 (the only format so far; required)' })
    .option('out', { type: 'string', describe: 'Write to this file instead of stdout' })
    .option('redact', { type: 'boolean', default: true, describe: 'Replace Authorization, cookies, token-like headers and query parameters (--no-redact keeps them)' }),
  handler: async (args) => {
    exitQuietlyOnClosedPipe();
    if (!args.har) throw new ToolbenchError('TB_ERR_USAGE', 'name the format: toolbench export JOURNAL --har');
    const journal = await openJournalWithNotes(args.journal);
    try {
      const out: Writable = args.out ? createWriteStream(args.out) : process.stdout;
      for await (const chunk of harChunks(journal.header, journal.entries(), { redact: args.redact, creatorVersion: TOOLBENCH_VERSION })) {
        if (!out.write(chunk)) await once(out, 'drain');
      }
      if (args.out) {
        out.end();
        await once(out, 'finish');
      }
    } finally {
      await journal.close();
    }
  },
};
