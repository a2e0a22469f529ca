import type { CommandModule } from 'yargs';
import { openJournalWithNotes } from '../shared.js';
import { entryToJson } from '../../mocks/core/journal-json.js';
import { colors } from '../../replay/colors.js';
import { listingLines, selectEntries } from '../../replay/listing.js';
import { parseSeqRange } from '../../replay/source.js';
import { exitQuietlyOnClosedPipe } from '../fail.js';

interface JournalArgs {
  journal: string;
  json: boolean;
  service?: string;
  seq?: string;
}

export const journalCommand: CommandModule<{}, JournalArgs> = {
  command: 'journal <journal>',
  describe: 'List a journal\'s entries: logical time, seq, attribution, method, host, target, status, sizes',
  builder: (y) => y
    .positional('journal', { type: 'string', demandOption: true, describe: 'Journal directory (LevelDB)' })
    .option('json', { type: 'boolean', default: false, describe: 'One JSON object per entry per line (as GET /_bench/journal)' })
    .option('service', { type: 'string', describe: 'Only this service\'s entries (`none`: hosts no service answers)' })
    .option('seq', { type: 'string', describe: 'Only these sequence numbers: N, A..B, A.. or ..B' }),
  handler: async (args) => {
    exitQuietlyOnClosedPipe();
    const range = args.seq === undefined ? undefined : parseSeqRange(args.seq);
    const journal = await openJournalWithNotes(args.journal);
    try {
      const entries = selectEntries(journal, { service: args.service, range });
      const lines = args.json
        ? mapLines(entries, (entry) => JSON.stringify(entryToJson(entry)))
        : listingLines(entries, colors(process.env.NO_COLOR));
      for await (const line of lines) {
        if (!process.stdout.write(line + '\n')) await new Promise((resolve) => process.stdout.once('drain', resolve));
      }
    } finally {
      await journal.close();
    }
  },
};

async function* mapLines<T>(items: AsyncIterable<T>, fn: (item: T) => string): AsyncIterable<string> {
  for await (const item of items) yield fn(item);
}
