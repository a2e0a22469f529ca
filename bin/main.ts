import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { catalogCommand } from './commands/catalog.js';
import { toolmeterCommand } from './commands/toolmeter.js';
import { worldCommand } from './commands/world.js';
import { recordCommand } from './commands/record.js';
import { demoCommand } from './commands/demo.js';
import { scenarioCommand } from './commands/scenario.js';
import { reportCommand } from './commands/report.js';
import { gradeCommand } from './commands/grade.js';
import { taskgenCommand } from './commands/taskgen.js';
import { proxyCommand } from './commands/proxy.js';
import { certsCommand } from './commands/certs.js';
import { replayCommand } from './commands/replay.js';
import { auditCommand } from './commands/audit.js';
import { journalCommand } from './commands/journal.js';
import { exportCommand } from './commands/export.js';
import { viewCommand } from './commands/view.js';
import { coverageCommand } from './commands/coverage.js';
import { scaffoldCommand } from './commands/scaffold.js';
import { reportFailure } from './fail.js';

// Every command is a thin composition of library functions; failures are mapped to exit codes
// in one place (fail.ts).
await yargs(hideBin(process.argv))
  .scriptName('toolbench')
  .usage('$0 <command> [options]\n\nA deterministic world for testing LLM agents that call real MCP servers.')
  .command(worldCommand)
  .command(recordCommand)
  .command(demoCommand)
  .command(scenarioCommand)
  .command(reportCommand)
  .command(gradeCommand)
  .command(taskgenCommand)
  .command(proxyCommand)
  .command(certsCommand)
  .command(catalogCommand)
  .command(toolmeterCommand)
  .command(replayCommand)
  .command(auditCommand)
  .command(journalCommand)
  .command(exportCommand)
  .command(viewCommand)
  .command(coverageCommand)
  .command(scaffoldCommand)
  .demandCommand(1, 'Name a command; see --help.')
  .strict()
  .recommendCommands()
  .help()
  .alias('h', 'help')
  .version()
  .wrap(Math.min(100, process.stdout.columns ?? 100))
  .fail((message, error) => {
    if (error) reportFailure(error);
    process.stderr.write(`toolbench: ${message}\nRun 'toolbench --help' for usage.\n`);
    process.exit(2);
  })
  .parseAsync()
  .catch(reportFailure);
