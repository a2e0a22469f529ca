import type { CommandModule } from 'yargs';
import { openJournalWithNotes } from '../shared.js';
import { serviceDefinitions } from '../../mocks/index.js';
import { auditJournal } from '../../replay/audit.js';
import { formatAudit } from '../../replay/audit-format.js';
import { colors } from '../../replay/colors.js';
import { routesResolver } from '../../replay/route.js';

interface AuditArgs {
  journal: string;
  json: boolean;
}

export const auditCommand: CommandModule<{}, AuditArgs> = {
  command: 'audit <journal>',
  describe: 'Count what a trial did: api_calls, mcp_bypass, startup, blocked; by service, endpoint and MCP tool',
  builder: (y) => y
    .positional('journal', { type: 'string', demandOption: true, describe: 'Journal directory (LevelDB)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the audit as one JSON object' }),
  handler: async (args) => {
    const journal = await openJournalWithNotes(args.journal);
    try {
      const audit = await auditJournal(journal, { routes: routesResolver(serviceDefinitions) });
      process.stdout.write(args.json ? JSON.stringify(audit) + '\n' : formatAudit(audit, colors(process.env.NO_COLOR)));
    } finally {
      await journal.close();
    }
  },
};
